// End to end: the built site in headless Chromium under the server's strict CSP. For every section: it renders,
// an interaction changes the figure, and a displayed number equals what the posenc package computes here in Node.
// Then: the language switch, a URL that restores a view, phone width, no console errors. Screenshots: test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import init from 'posenc';
import { openPage, settled } from './browser.mjs';
import { randomRows, tokensQK } from '../../web/site/tasks.js';

const shots = new URL('../../test-results/', import.meta.url);
mkdirSync(shots, { recursive: true });
const shotPath = (name) => new URL(`${name}.png`, shots).pathname;
const pe = await init();
let ctx, page;

before(async () => { ctx = await openPage(); page = ctx.page; });
after(async () => { await ctx?.close(); });

// ── helpers ──
const shown = (id, p = page) => p.$eval(`#${id}`, (el) => Number(el.dataset.value));
const close = (a, b, rel = 1e-6) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));
/** A fingerprint of a figure's pixels (heatmap, curves or SVG). */
const pixels = (id, p = page) => p.$eval(`#${id}`, (el) => {
  const c = el.shadowRoot.querySelector('canvas');
  return c ? c.toDataURL() : el.shadowRoot.querySelector('svg').innerHTML;
});
const renders = (id) => page.$eval(`#${id}`, (el) => el.renderCount);
async function set(id, value, p = page) {
  await p.$eval(`#${id}`, (el, v) => {
    if (el.type === 'checkbox') el.checked = v; else el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
  await settled(p);
}
const shoot = (section) => page.locator(`#${section}`).screenshot({ path: shotPath(section) });
/** Ink (non-background pixels) fraction of a heatmap: proves it was painted. */
const ink = (id) => page.$eval(`#${id}`, (el) => {
  const c = el.shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
  return n / (d.length / 4);
});

test('loads the wasm SIMD build in the worker, KaTeX rendered, no section errors', async () => {
  assert.equal(await page.$eval('#build-info', (el) => el.dataset.simd), 'true');
  assert.ok(await page.$$eval('.katex', (els) => els.length) > 20);
  assert.deepEqual(await page.$$eval('.error', (els) => els.filter((e) => !e.hidden).map((e) => e.textContent)), []);
  await page.screenshot({ path: shotPath('page-top') });
});

test('1 · permutation: only permuted without PE, changed with RoPE; hover value = API', async () => {
  assert.ok(await shown('s1-diff') <= 1e-6);
  assert.deepEqual(await page.$eval('#s1-b', (el) => el.rowLabels), ['老鼠', '抓', '猫']);
  const before = await pixels('s1-b');
  await set('s1-rope', true);
  assert.ok(await shown('s1-diff') > 1e-3);
  assert.notEqual(await pixels('s1-b'), before);
  await set('s1m-seq', 24);
  assert.equal(await page.$eval('#s1m-map', (el) => el.rows), 24);
  await page.locator('#s1m-map').scrollIntoViewIfNeeded();
  const p = await page.$eval('#s1m-map', (el) => el.cellCentre(3, 5));
  await page.mouse.move(p.x, p.y);
  const text = await page.inputValue('#s1m-text');
  const { q, k } = tokensQK(pe, text, 24, 32);
  const s = pe.attentionScores({ q, k, seq: 24, head_dim: 32, rope: { rope_theta: 10000 } });
  assert.equal(await shown('s1m-hover'), s[3 * 24 + 5]);
  await shoot('s1');
});

test('2 · absolute: similarity numbers = API, shift is rotation, learned table from a file', async () => {
  assert.ok(await ink('s2-table') > 0.3);
  const sinus = pe.sinusoidal({ positions: 64, d: 32 });
  const sim = pe.tableSimilarity({ rows: 64, cols: 32, data: sinus }, { metric: 'dot' });
  assert.ok(close(await shown('s2-pij'), sim[5 * 64 + 12]));
  assert.ok(close(await shown('s2-pijs'), sim[25 * 64 + 32]));
  assert.ok(await shown('s2-shift') < 1e-5);
  const before = await pixels('s2-table');
  await set('s2-layout', 'concatenated');
  assert.notEqual(await pixels('s2-table'), before);
  assert.ok(await shown('s2-shift') < 1e-5, 'concatenated: also a rotation');
  // A learned table as JSON: 10 positions × 4.
  const rows = Array.from({ length: 10 }, (_, p) => [p, Math.sin(p), 1 / (p + 1), (-1) ** p]);
  await page.setInputFiles('#s2l-file', { name: 'table.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(rows)) });
  await page.waitForFunction(() => document.querySelector('#s2l-info').dataset.rows === '10');
  await settled(page);
  assert.equal(await page.$eval('#s2l-sim', (el) => el.rows), 10);
  assert.equal(await page.$eval('#s2l-lookup', (el) => el.dataset.error), 'true', 'past the table: an error');
  await set('s2l-clamp', true);
  const table = pe.tableFromJSON(JSON.stringify(rows));
  assert.equal(await shown('s2l-lookup'), pe.tableLookup(table, { positions: [70], clamp: true })[0]);
  await set('s2l-pos', 3);
  assert.equal(await shown('s2l-lookup'), pe.tableLookup(table, { positions: [3] })[0]);
  // A .safetensors file with two tensors: the page picks the position table (wte-like first, wpe second).
  const f32 = (n, f) => Buffer.from(Float32Array.from({ length: n }, (_, i) => f(i)).buffer);
  const wte = f32(5 * 3, (i) => i), wpe = f32(12 * 3, (i) => Math.cos(i));
  const header = Buffer.from(JSON.stringify({ 'wte.weight': { dtype: 'F32', shape: [5, 3], data_offsets: [0, wte.length] },
    'wpe.weight': { dtype: 'F32', shape: [12, 3], data_offsets: [wte.length, wte.length + wpe.length] } }));
  const len = Buffer.alloc(8); len.writeBigUInt64LE(BigInt(header.length));
  const st = Buffer.concat([len, header, wte, wpe]);
  await page.setInputFiles('#s2l-file', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: st });
  await page.waitForFunction(() => document.querySelector('#s2l-info').dataset.rows === '12');
  await settled(page);
  assert.deepEqual(await page.$$eval('#s2l-name option', (os) => os.map((o) => o.value)), ['wte.weight', 'wpe.weight']);
  assert.equal(await shown('s2l-lookup'), pe.tableLookup(pe.tableFromSafetensors(st, { name: 'wpe.weight' }), { positions: [3] })[0]);
  await page.selectOption('#s2l-name', 'wte.weight'); await settled(page);
  assert.equal(await page.$eval('#s2l-info', (el) => el.dataset.rows), '5');
  await set('s2-layout', 'interleaved');
  await shoot('s2');
});

test('3 · relative: Shaw index, rel_shift, T5 table and DeBERTa scale = API', async () => {
  assert.equal(await shown('s3s-corner'), pe.shawRelativeIndex({ q_len: 16, max_relative_position: 4 })[15]);
  const before = await pixels('s3s-map');
  await set('s3s-k', 2);
  assert.notEqual(await pixels('s3s-map'), before);
  assert.equal(await shown('s3s-corner'), pe.shawRelativeIndex({ q_len: 16, max_relative_position: 2 })[15]);
  const t5 = await page.$eval('#s3t-table', (el) => el.dataset.values.split(',').map(Number));
  assert.deepEqual(t5, Array.from({ length: 31 }, (_, t) => pe.t5RelativePositionBucket(-t)));
  const plot = await pixels('s3t-plot');
  await set('s3t-nb', 16);
  assert.notEqual(await pixels('s3t-plot'), plot);
  await set('s3t-nb', 32);
  await set('s3r-step', 4);
  assert.equal(await page.$eval('#s3r-check', (el) => el.dataset.same), 'true');
  const n = 12, d = 16;
  const { q, k } = pe.textQK({ text: Array.from({ length: n }, (_, i) => `w${i % 7}`).join(' '), head_dim: d, seed: 0 });
  const s = pe.debertaScores({ q, k, pos_key: randomRows(pe, 32, d, 4, 'pk'), pos_query: randomRows(pe, 32, d, 5, 'pq'), seq: n, d, position_buckets: 16, max_relative_positions: 64 });
  assert.equal(await shown('s3d-scale'), s.scale);
  assert.equal(await page.$eval('#s3x-score', (el) => el.cols), 10, 'XL: 8 tokens + 2 memory rows');
  await shoot('s3');
});

test('4 · RoPE: drag changes the dot product, which depends on m − n only; checks and freqs_cis = API', async () => {
  const plane = await pixels('s4p-plane');
  const dot0 = await shown('s4p-dot');
  await page.locator('#s4p-plane').scrollIntoViewIfNeeded();
  const tip = await page.$eval('#s4p-plane', (el) => el.toClient(1.2, 0.3));
  await page.mouse.move(tip.x, tip.y); await page.mouse.down();
  await page.mouse.move(tip.x - 40, tip.y - 60, { steps: 4 }); await page.mouse.up();
  await settled(page);
  assert.notEqual(await pixels('s4p-plane'), plane);
  const dot1 = await shown('s4p-dot');
  assert.notEqual(dot1, dot0);
  assert.ok(close(dot1, await shown('s4p-rel'), 1e-5));
  await set('s4p-m', 10); await set('s4p-n', 8);
  assert.ok(close(await shown('s4p-dot'), dot1, 1e-5), 'm − n unchanged → same dot product');
  // keyboard: focus k's handle and press an arrow
  await page.$eval('#s4p-plane', (el) => el.shadowRoot.querySelector('[data-id="k"]').focus());
  const kBefore = await page.inputValue('#s4p-k');
  await page.keyboard.press('ArrowRight'); await settled(page);
  assert.notEqual(await page.inputValue('#s4p-k'), kBefore);
  const [qx, qy] = (await page.inputValue('#s4p-q')).split(',').map(Number);
  const [kx, ky] = (await page.inputValue('#s4p-k')).split(',').map(Number);
  const t = pe.ropeTablesScaled({ inv_freq: [0.3], positions: [10, 8] });
  const qm = pe.ropeApplyTables([qx, qy], { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(0, 1), sin: t.sin.subarray(0, 1) });
  const kn = pe.ropeApplyTables([kx, ky], { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(1, 2), sin: t.sin.subarray(1, 2) });
  assert.ok(close(await shown('s4p-dot'), qm[0] * kn[0] + qm[1] * kn[1], 1e-6));
  // derivation checks: all ✓, and eq. 22's right side = API
  assert.equal(await page.$$eval('#s4d-steps .check', (els) => els.filter((e) => e.textContent.includes('✗')).length), 0);
  const qk = randomRows(pe, 2, 16, 9, 'qk');
  const kr = pe.ropeApply(qk.slice(16), { seq: 1, head_dim: 16, layout: 'interleaved', positions: [2 - 7] });
  let rhs = 0; for (let c = 0; c < 16; c++) rhs += qk[c] * kr[c];
  assert.ok(close(await shown('s4d-c4'), rhs, 1e-5));
  const diffs = await page.$eval('#s4f-table', (el) => JSON.parse(el.dataset.diffs));
  assert.ok(diffs.slice(0, 3).every((x) => x < 1e-5), `three forms agree: ${diffs}`);
  assert.ok(diffs[3] > 1e-2, 'the unswapped variant differs');
  assert.ok(await shown('s4l-diff') < 1e-6);
  const cis = await page.$eval('#s4c-table', (el) => JSON.parse(el.dataset.values));
  assert.deepEqual(cis, Array.from(pe.ropeFreqsCis({ rotary_dim: 8, positions: 3 })));
  await set('s4r-f', 0.25);
  assert.equal(await shown('s4r-rd'), pe.rotaryDim({ head_dim: 64, partial_rotary_factor: 0.25 }));
  await shoot('s4');
});

test('5 · long-range decay: sweep value = API, progress and cancel', async () => {
  const at = 15000;
  const ref = (base) => pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, rope_theta: base, k_start: at, count: 1 })[0];
  assert.ok(close(await shown('s5-at-val'), ref(10000), 1e-6));
  assert.ok(close(await shown('s5-at-val2'), ref(5000000), 1e-6));
  assert.equal(await page.$eval('#s5-status', (el) => el.dataset.state), 'done');
  await shoot('s5');
  const before = await pixels('s5-plot');
  await set('s5-n', 4096);
  assert.notEqual(await pixels('s5-plot'), before);
  // a long sweep: progress moves, then cancel
  await page.$eval('#s5-n', (el) => { el.value = '1048576'; el.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => document.querySelector('#s5-progress').value > 0, null, { timeout: 20000 });
  await page.click('#s5-cancel');
  await settled(page);
  assert.equal(await page.$eval('#s5-status', (el) => el.dataset.state), 'cancelled');
  await set('s5-n', 65536);
  assert.equal(await page.$eval('#s5-status', (el) => el.dataset.state), 'done');
});

test('6 · extrapolation: config.json read by the API, errors shown in the page', async () => {
  const text = await page.inputValue('#s6c-config');
  const r = pe.ropeFromConfig(text);
  assert.equal(await shown('s6c-info'), r.inv_freq[r.inv_freq.length - 1]);
  assert.equal(Number((await page.textContent('#s6-incomplete')).split('/')[0]),
    pe.ropeFrequencyAnalysis({ rotary_dim: 128, rope_theta: 10000, original_max_position_embeddings: 4096 }).wavelength.filter((w) => w > 4096).length);
  const before = await pixels('s6-ratio');
  await set('s6-factor', 32);
  assert.notEqual(await pixels('s6-ratio'), before);
  const qwen = JSON.stringify({ hidden_size: 3584, num_attention_heads: 28, rope_theta: 1000000, max_position_embeddings: 131072,
    rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
  await set('s6c-config', qwen);
  const r2 = pe.ropeFromConfig(qwen);
  assert.equal(await shown('s6c-info'), r2.inv_freq[r2.inv_freq.length - 1]);
  await set('s6c-config', '{"head_dim": 64, "rope_scaling": {"rope_type": "linear"}}');
  assert.match(await page.textContent('#s6c-form + .error'), /factor/);
  await set('s6c-config', text);
  assert.equal(await page.$eval('#s6c-form + .error', (el) => el.hidden), true);
  await shoot('s6');
});

test('7 · ALiBi slopes (incl. non-power-of-two heads) and xPos = API', async () => {
  assert.equal(await shown('s7a-slope'), pe.alibiSlopes(12)[0]);
  const before = await pixels('s7a-slopes');
  await set('s7a-h', 6); await set('s7a-head', 5);
  assert.notEqual(await pixels('s7a-slopes'), before);
  assert.equal(await shown('s7a-slope'), pe.alibiSlopes(6)[5]);
  const n = 1024, d = 64, ones = new Float32Array(n * d).fill(1);
  const q = pe.xposApply(ones, { seq: n, head_dim: d }), k = pe.xposApply(ones, { seq: n, head_dim: d, downscale: true });
  const s = pe.attentionScores({ q, k, seq: n, head_dim: d, softmax: false });
  assert.equal(await shown('s7x-first'), s[n * n - 1]);
  await shoot('s7');
});

test('8 · linear attention: denominators = API; eq. (29) keeps them positive', async () => {
  const n = 128, d = 8;
  const inputs = { q: randomRows(pe, n, d, 0, 'lq'), k: randomRows(pe, n, d, 0, 'lk'), v: randomRows(pe, n, 8, 0, 'lv'), seq: n, head_dim: d, v_dim: 8, causal: true, rope_theta: 100 };
  const naive = pe.linearAttentionRope({ ...inputs, form: 'naive' }), num = pe.linearAttentionRope({ ...inputs, form: 'numerator_only' });
  const min = (a) => a.reduce((m, x) => Math.min(m, x), Infinity);
  assert.equal(await shown('s8-min-naive'), min(naive.denominator));
  assert.equal(await shown('s8-min-num'), min(num.denominator));
  assert.ok(min(num.denominator) > 0, 'eq. (29): positive');
  const before = await pixels('s8-den');
  await set('s8-seed', 3);
  assert.notEqual(await pixels('s8-den'), before);
  await shoot('s8');
});

test('9 · explorer: permutation change = API; switching scheme changes figure and terms', async () => {
  const text = await page.inputValue('#s9-text');
  const n = pe.textQK({ text, head_dim: 4 }).tokens.length;
  const ref = (type) => pe.permutationChange({ scheme: { type }, text, i: 0, j: n - 1, heads: 4, head_dim: 32, causal: false, seed: 0 });
  assert.equal(await shown('s9-permA'), ref('rope'));
  assert.ok(ref('rope') > 0 && ref('none') === 0);
  assert.equal(await shown('s9-permB'), ref('alibi'));
  const before = await pixels('s9-mapA');
  await set('s9-a', 'transformer_xl');
  assert.notEqual(await pixels('s9-mapA'), before);
  const names = await page.$eval('#s9-terms', (el) => el.dataset.names.split(','));
  assert.ok(names.length >= 5, `XL has four terms + the sum: ${names}`);
  const r = pe.attention({ scheme: { type: 'transformer_xl' }, text, heads: 4, head_dim: 32, causal: true, seed: 0 });
  await page.locator('#s9-mapA').scrollIntoViewIfNeeded();
  const p = await page.$eval('#s9-mapA', (el) => el.cellCentre(4, 2));
  await page.mouse.move(p.x, p.y);
  assert.equal(await shown('s9-hover'), r.probs[4 * r.seq + 2]);
  await shoot('s9');
});

test('language switch: every section switches to Chinese and back', async () => {
  await page.click('#lang-zh'); await settled(page);
  assert.equal(await page.$eval('html', (el) => el.lang), 'zh-CN');
  assert.equal(await page.locator('#s1 h2').innerText(), '1 · 为什么位置很重要');
  assert.equal(await page.$eval('#s1-a', (el) => el.getAttribute('caption')), '原句');
  assert.match(await page.$eval('#s5-status', (el) => el.textContent), /用时/);
  assert.match(page.url(), /lang=zh/);
  await page.locator('#s4').screenshot({ path: shotPath('s4-zh') });
  await page.locator('#s1m-map').scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));  // layout settles
  const c = await page.$eval('#s1m-map', (el) => el.cellCentre(1, 2));
  await page.mouse.move(c.x, c.y);
  assert.match(await page.$eval('#s1m-map', (el) => el.shadowRoot.querySelector('.tip').textContent), /^行 1 .* · 列 2 /);
  await page.click('#lang-en'); await settled(page);
  assert.equal(await page.locator('#s1 h2').innerText(), '1 · Why position matters');
});

test('a URL with state restores the view (controls, figures, language)', async () => {
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('s4p-m'), '10', 'controls are written to the URL');
  const p2 = await ctx.open(`/?lang=zh&s2-d=64&s9-a=t5&s4p-m=10&s4p-n=8&s7a-h=6${url.search.includes('s4p-q') ? `&s4p-q=${url.searchParams.get('s4p-q')}&s4p-k=${url.searchParams.get('s4p-k')}` : ''}`);
  await settled(p2);
  assert.equal(await p2.$eval('html', (el) => el.dataset.lang), 'zh');
  assert.equal(await p2.$eval('#s2-table', (el) => el.cols), 64);
  assert.equal(await p2.inputValue('#s9-a'), 't5');
  assert.equal(await shown('s7a-slope', p2), pe.alibiSlopes(6)[0]);
  assert.ok(close(await shown('s4p-dot', p2), await shown('s4p-dot'), 1e-6), 'same playground state → same number');
  await p2.close();
});

test('phone width: no horizontal scrolling of the page', async () => {
  const p3 = await ctx.open('/', { width: 390, height: 800 });
  await settled(p3);
  const over = await p3.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 1, `page overflows by ${over}px`);
  await p3.locator('#s4').screenshot({ path: shotPath('s4-phone') });
  await p3.close();
});

test('no console errors, page errors or unhandled rejections', () => {
  assert.deepEqual(ctx.errors, []);
});
