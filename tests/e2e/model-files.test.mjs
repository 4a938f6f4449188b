// End to end: the config reader's "your model's files" part on the built site in headless Chromium. Each preset pair
// shows what each file says and pe.compareRope's verdict as computed here in Node; the rope-compare figure under it
// draws the same numbers (its CSV); a config.json picked through the file input and one dropped on a slot are read; a
// bad file names its key; a .gguf without a reader says so; Chinese text. Screenshots (en, zh; desktop, phone):
// test-results/model-files-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { openPage, shot } from './browser.mjs';
import { csvRows } from './csv.mjs';
import { englishWords } from './zh-text.mjs';

const pe = await init();
const fixture = (f) => readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8');
let ctx, page;

before(async () => { ctx = await openPage(); page = ctx.page; });
after(async () => { await ctx?.close(); });

const verdict = (p = page) => p.$eval('#model-files .model-files-verdict', (e) => ({ text: e.textContent, agree: e.dataset.agree }));
const cell = (row, col, p = page) => p.$$eval('#model-files .model-files-table tr', (rs, [r, c]) => {
  const tr = rs.find((x) => x.querySelector('th')?.textContent === r);
  return tr ? tr.querySelectorAll('td')[c].textContent : null;
}, [row, col]);
async function pair(id, p = page) {
  await p.click(`#model-files button[data-pair="${id}"]`);
  await p.waitForFunction((i) => document.querySelector(`#model-files button[data-pair="${i}"]`).getAttribute('aria-pressed') === 'true', id);
}
const figReady = (p = page) => p.$eval('#rope-compare', async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); });

test('preset pairs: the table, the verdict and the figure carry compareRope\'s numbers', async () => {
  const cases = [
    ['llama', 'Llama-3.1-8B.json', 'Llama-3.2-3B.json', 'transformers', 'transformers'],
    ['qwen', 'Qwen2.5-7B.json', 'Qwen3-8B.json', 'transformers', 'transformers'],
    ['phi3', 'Phi-3-mini-128k-instruct.json', 'Phi-3-mini-128k-instruct.json', 'transformers', 'mlx'],
    ['devstral', 'Devstral-Small-2-24B-Instruct.json', 'Devstral-Small-2-24B-Instruct.json', 'transformers', 'vllm'],
    ['gptoss', 'gpt-oss-120b.json', 'gpt-oss-120b.json', 'transformers', 'llama.cpp'],
  ];
  for (const [id, fa, fb, ea, eb] of cases) {
    await pair(id);
    const a = pe.ropeFromConfig(fixture(fa), { engine: ea }), b = pe.ropeFromConfig(fixture(fb), { engine: eb });
    const c = pe.compareRope(a, b);
    const v = await verdict();
    assert.ok(v.text.includes(c.verdict), `${id}: ${v.text} / ${c.verdict}`);
    assert.equal(v.agree, String(c.agree), id);
    assert.equal(await cell('rope_theta', 0), String(Number(a.rope_theta.toPrecision(6))), id);
    assert.equal(await cell('attention_scaling', 1), String(Number(b.attention_scaling.toPrecision(6))), id);
    assert.equal(await cell('read by', 1), eb, id);
    assert.equal(await figReady(), 'ok', id);
    // the figure's ratio panel: exactly compareRope's frequency ratios
    const ctxLen = Math.max(a.max_position_embeddings ?? 0, b.max_position_embeddings ?? 0);
    const positions = ctxLen > 32768 ? 131072 : ctxLen > 8192 ? 32768 : 8192;
    const want = pe.compareRope(a, b, { positions, samples: 8192 }).freq_ratio;
    const rows = csvRows(await page.$eval('#rope-compare', (el) => el.toCSV()), 'ratio');
    assert.deepEqual(rows.map((r) => Number(r.value)), Array.from(want), id);
  }
  // Qwen2.5 7B and Qwen3 8B: the same RoPE; Devstral under vLLM: the YaRN magnitude (vLLM #48621)
  await pair('qwen');
  assert.match((await verdict()).text, /^Verdict: identical/);
  await pair('devstral');
  assert.match((await verdict()).text, /attention_scaling 1 vs 1\.387/);
  // file A in every engine: pe.ropeEngines' cells; Phi-3 128k differs under llama.cpp (llama-cli's -c 0: the trained
  // 131072 > 4096, long factors) and MLX (long factors at every length)
  await pair('phi3');
  await page.waitForFunction(() => !document.querySelector('#model-files .model-files-engines').hidden);
  const m = await pe.ropeEngines(fixture('Phi-3-mini-128k-instruct.json'));
  const got = await page.$$eval('#model-files .model-files-engines tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  assert.deepEqual(got[0], ['layer kind', 'transformers', 'vLLM', 'llama.cpp', 'MLX']);
  const g6 = (x) => String(Number(x.toPrecision(6)));
  assert.deepEqual(got[1].slice(1), ['transformers', 'vllm', 'llama.cpp', 'mlx'].map((e) => {
    const c = m.matrix[0].cells[e];
    return `${c.rope_type} (${c.longrope_factors})\nθ ${g6(c.effective_base)}, ×${g6(c.attention_scaling)}\n${c.layout}${c.agrees ? '' : ' ≠'}`;
  }));
  assert.match(got[1][4], /^longrope \(long\)[^]* ≠$/);
  assert.deepEqual(got[2], ['context assumed', 'current length', '4096', '131072', 'current length']);
  assert.match(await page.$eval('#model-files .model-files-engines p', (p) => p.textContent), /Differs from transformers: llama\.cpp, MLX/);
  await shot(page.locator('#model-files'), 'model-files-en');
});

test('a picked config.json, a dropped one, a bad one, a .gguf without a reader', async () => {
  await page.setInputFiles('#model-files .model-files-slot[data-slot="A"] input[type=file]',
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from(fixture('gemma-3-27b-it.json')) });
  await page.waitForFunction(() => document.querySelector('#model-files .model-files-slot[data-slot="A"] .name').textContent === 'config.json');
  assert.equal(await cell('model_type', 0), 'gemma3_text');
  // dropped on slot B
  await page.$eval('#model-files .model-files-slot[data-slot="B"]', (el, text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, fixture('gemma-3-4b-it.json'));
  await page.waitForFunction(() => document.querySelector('#model-files .model-files-slot[data-slot="B"] .name').textContent === 'dropped.json');
  const c = pe.compareRope(pe.ropeFromConfig(fixture('gemma-3-27b-it.json')), pe.ropeFromConfig(fixture('gemma-3-4b-it.json')));
  assert.ok((await verdict()).text.includes(c.verdict));
  // a bad file: the key path and the rule; no stale verdict
  await page.setInputFiles('#model-files .model-files-slot[data-slot="B"] input[type=file]',
    { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}') });
  await page.waitForFunction(() => /rope_scaling\.factor/.test(document.querySelector('#model-files .model-files-slot[data-slot="B"] .error').textContent));
  assert.equal((await verdict()).text, '');
  assert.equal(await page.$eval('#rope-compare', (el) => el.hidden), true);
  // a real .gguf (the converter's header for Llama 3.1 8B) beside its config.json: the same RoPE, read by pe.ropeFromGGUF
  await pair('llama');
  const ggufPath = new URL('../fixtures/gguf/Llama-3.1-8B.gguf', import.meta.url);
  await page.setInputFiles('#model-files .model-files-slot[data-slot="B"] input[type=file]',
    { name: 'Llama-3.1-8B.gguf', mimeType: 'application/octet-stream', buffer: readFileSync(ggufPath) });
  await page.waitForFunction(() => document.querySelector('#model-files .model-files-verdict').dataset.agree === 'true');
  const g = pe.compareRope(pe.ropeFromConfig(fixture('Llama-3.1-8B.json')), await pe.ropeFromGGUF(readFileSync(ggufPath)));
  assert.ok((await verdict()).text.includes(g.verdict));
  assert.equal(await cell('read by', 1), 'llama.cpp (GGUF)');
  assert.equal(await page.$eval('#rope-compare', (el) => el.hidden), true); // the figure takes two configs
  // a broken .gguf (the magic is enough to tell it is one): the reader's message
  const hasGGUF = typeof pe.ropeFromGGUF === 'function';
  await page.setInputFiles('#model-files .model-files-slot[data-slot="B"] input[type=file]',
    { name: 'model.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from('GGUF\x03\x00\x00\x00') });
  await page.waitForFunction(() => document.querySelector('#model-files .model-files-slot[data-slot="B"] .name').textContent === 'model.gguf');
  const err = await page.$eval('#model-files .model-files-slot[data-slot="B"] .error', (e) => e.textContent);
  if (!hasGGUF) assert.match(err, /reads config\.json only \(no \.gguf reader\)/);
  else assert.ok(err.length > 0, 'an 8-byte GGUF is refused with a message');
  assert.equal(await page.$eval('#model-files .model-files-slot[data-slot="B"] select', (s) => s.disabled), true);
  assert.deepEqual(ctx.errors, []);
});

test('Chinese: every text of the part in Chinese, CJK rules; phone width', async () => {
  const zh = await ctx.open('/?lang=zh', { width: 390, height: 1400 });
  await pair('llama', zh);
  const text = await zh.$eval('#model-files', (e) => e.innerText);
  assert.match(text, /并排看你的模型文件/);
  assert.match(text, /结论：频率不同（inv_freq）；在距离 131072 处/);
  // prose only: identifiers (code, file names, the table's values, the engine menus) stay as written
  const prose = await zh.$eval('#model-files', (root) => {
    const out = [];
    const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const e = n.parentElement;
      if (e.closest('code, cite, td, select, .name, posenc-figure') || !e.checkVisibility()) continue;
      if (n.textContent.trim()) out.push(n.textContent.trim());
    }
    return out;
  });
  assert.deepEqual(englishWords(prose), [], 'English words in the Chinese text');
  assert.deepEqual(prose.filter((t) => /[\u4e00-\u9fff]\s+[\u4e00-\u9fff]/.test(t)), [], 'a space between two CJK characters');
  const wide = await zh.$eval('#model-files', (e) => e.scrollWidth <= document.documentElement.clientWidth + 1);
  assert.ok(wide, 'no horizontal overflow at 390 px');
  await shot(zh.locator('#model-files'), 'model-files-zh-phone');
  // a bad file's error in Chinese, in the page's form for errors
  await zh.setInputFiles('#model-files .model-files-slot[data-slot="B"] input[type=file]',
    { name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"head_dim": 8, "rope_scaling": {"rope_type": "linear", "factor": 0.5}}') });
  await zh.waitForFunction(() => document.querySelector('#model-files .model-files-slot[data-slot="B"] .error').textContent.length > 0);
  assert.equal(await zh.$eval('#model-files .model-files-slot[data-slot="B"] .error', (e) => e.textContent), '参数错误：rope_scaling.factor：必须是 >= 1 的有限数（收到 0.5）。');
  await zh.context().close();
});
