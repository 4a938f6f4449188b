// End to end: §6's "your own model" on the built site in headless Chromium. stories260K.gguf (../shared/models) picked
// through the file input: the model's shape as the package reads it; Run with ReRoPE at 1024 tokens: the table's
// perplexities and accuracies equal the package's own evaluation here in Node on the same text (the build-time stories,
// encoded by that model's tokenizer), and the takeaway holds on those numbers (past the trained length ReRoPE's
// perplexity is below the original's, inside it they are equal); a config.json alone names what is missing; zh text.
// Screenshots: test-results/own-model-en.png (1100 px), own-model-zh.png (390 px).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import data from '../../web/src/figures/defs/model-data.gen.js';
import { methodOptions, summarize, fmtPpl } from '../../web/src/figures/defs/model-methods.js';
import { openPage, shot } from './browser.mjs';
import { DIR_656K, GGUF_260K } from '../js/real-models.mjs';

const pe = await init();
let ctx, page;
before(async () => { ctx = await openPage(); page = ctx.page; });
after(async () => { await ctx?.close(); });

const status = (p = page) => p.$eval('#own-status', (e) => e.textContent);
const table = (p = page) => p.$$eval('#own-result tr', (rs) => rs.slice(1).map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)));

async function load(files, p = page) {
  await p.locator('#own-model').scrollIntoViewIfNeeded();
  await p.setInputFiles('#own-files', files);
  await p.waitForFunction(() => !/…$/.test(document.getElementById('own-status').textContent), null, { timeout: 60000 });
}

test('a .gguf picked on the page: its shape, then original vs ReRoPE at 1024 tokens = the package\'s numbers', async () => {
  await load(GGUF_260K);
  const lm = await pe.loadModel(GGUF_260K, { trained_context: 512 });
  const h = lm.hparams;
  assert.match(await status(), new RegExp(`0\\.29M parameters, ${h.n_layer} layers, ${h.n_head} heads \\(${h.n_head_kv} KV\\), head_dim ${h.head_dim}.*trained context ${h.n_ctx_train}`));
  await page.selectOption('#own-method', 'rerope');
  await page.selectOption('#own-tokens', '1024');
  assert.equal(await page.inputValue('#own-trained'), '2048');   // the file's header; trained at 512 (the models' README)
  await page.fill('#own-trained', '512');
  await page.click('#own-run');
  await page.waitForSelector('#own-result:not([hidden])', { timeout: 120000 });
  const rows = await table();

  const ids = lm.encode(data.text).subarray(0, 1024);
  const cpt = lm.decode(ids).length / ids.length;
  const want = {};
  for (const m of ['original', 'rerope']) {
    const ev = await lm.evaluate({ ids, ...methodOptions(m, { factor: 8, window: 256, theta: h.rope_theta, d: h.rotary_dim }) });
    want[m] = summarize(ev, { trained: lm.trained_context, charsPerToken: cpt, layer: 0, heads: h.n_head });
  }
  lm.free();
  const pct = (x) => `${(100 * x).toFixed(1)} %`;
  assert.deepEqual(rows, ['original', 'rerope'].map((m) => [fmtPpl(want[m].inside.ppl), fmtPpl(want[m].past.ppl), pct(want[m].inside.acc), pct(want[m].past.acc)]));
  // the takeaway on the drawn numbers: ReRoPE changes nothing inside the window, and helps past the trained length
  assert.equal(want.rerope.inside.ppl.toFixed(3), want.original.inside.ppl.toFixed(3));
  assert.ok(want.rerope.past.ppl < want.original.past.ppl, `${want.rerope.past.ppl} < ${want.original.past.ppl}`);
  assert.equal(await page.$$eval('#own-curve polyline', (l) => l.length), 2);
  await shot(page.locator('#own-model'), 'own-model-en');
});

test('a config.json without weights names what is missing; the module stays usable', async () => {
  await load(`${DIR_656K}/config.json`);
  assert.match(await status(), /^Failed: .*pick one \.gguf, or config\.json \+ model\.safetensors/);
  await load([`${DIR_656K}/config.json`, `${DIR_656K}/model.safetensors`, `${DIR_656K}/tokenizer.json`, `${DIR_656K}/tokenizer_config.json`]);
  assert.match(await status(), /0\.66M parameters, 2 layers, 8 heads \(4 KV\), head_dim 16, rotary_dim 16, θ 10000, trained context 512 \(safetensors\)/);
  assert.deepEqual(ctx.errors, []);
});

test('zh and a phone: the panel in Chinese, nothing wider than the screen', async () => {
  const zh = await ctx.open('/?lang=zh', { width: 390, height: 900 });
  await load(GGUF_260K, zh);
  assert.match(await status(zh), /参数，5 层/);
  const over = await zh.$eval('#own-model', (e) => e.scrollWidth - e.clientWidth);
  assert.ok(over <= 1, `#own-model overflows by ${over} px`);
  await shot(zh.locator('#own-model'), 'own-model-zh');
});
