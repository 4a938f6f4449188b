// End to end: the built site in headless Chromium under the server's strict CSP. Every figure is a <posenc-figure>
// from the package: for each section an interaction changes the figure, and a number it shows equals what the posenc
// package computes here in Node, with the defects of issue 12 that concern each section's figures, and no console
// errors. The page as a whole (nav, language, URL state, embeds, gallery, accessibility, phone width):
// site-page.test.mjs. Screenshots: test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { figureNames } from 'posenc/figures';
import { openPage, settled, shot } from './browser.mjs';
import { helpers } from './site-helpers.mjs';
import { csvRows } from './csv.mjs';
import { randomRows, tokensQK } from '../../web/src/figures/defs/util.js';

const pe = await init();
let ctx, page;

before(async () => { ctx = await openPage(); page = ctx.page; });
after(async () => { await ctx?.close(); });

// ── helpers (site-helpers.mjs): figures are <posenc-figure id="NAME"> ──
const { close, ready, readout, readoutText, block, pixels, control, shown, set, expectError } = helpers(() => page, () => ctx);
const shoot = (section) => shot(page.locator(`#${section}`), section);
const csv = (id) => page.$eval(`#${id}`, (el) => el.toCSV());

test('loads: KaTeX rendered, every figure of the page is a <posenc-figure> that paints, no section errors', async () => {
  assert.ok(await page.$$eval('.katex', (els) => els.length) > 20);
  const ids = await page.$$eval('main posenc-figure', (els) => els.map((e) => e.id));
  // every figure of the package, each once — but 'wavelengths', which §6 merged into scaling-wavelengths (it stays in
  // the package for the gallery and embeds)
  const unplaced = new Set(['wavelengths']);
  assert.deepEqual([...ids].sort(), figureNames.filter((n) => !unplaced.has(n) || ids.includes(n)).sort(), 'the page places every figure of the package, each once');
  // (a figure hidden for the model in the config reader — config-scale without factors, config-mrope without M-RoPE — waits)
  for (const id of ids) if (await page.$eval(`#${id}`, (e) => e.checkVisibility())) assert.equal(await ready(id), 'ok', id);
  assert.equal(await page.$eval('#permutation', (el) => el.engine), 'worker');
  assert.deepEqual(await page.$$eval('.error', (els) => els.filter((e) => !e.hidden).map((e) => e.textContent)), []);
  await shot(page, 'page-top');
});

test('1 · permutation: only permuted without PE, changed with RoPE; colour scale fitted to the scores (defect 6); hover = API', async () => {
  assert.equal(await ready('permutation'), 'ok');
  assert.ok(await readout('permutation', 'diff') <= 1e-6);
  assert.deepEqual(await page.$eval(block('permutation', 'b'), (el) => el.rowLabels), ['老鼠', '抓', '猫']);
  // defect 6: the colour scale spans the scores, not a fixed 0…1 where the differences vanish
  const a = pe.textQK({ text: '猫 抓 老鼠', head_dim: 16, seed: 0 }), s = pe.attentionScores({ q: a.q, k: a.k, seq: 3, head_dim: 16 });
  const range = await page.$eval(block('permutation', 'a'), (el) => el.range);
  assert.deepEqual(range, [Math.min(...s), Math.max(...s)]);
  const before = await pixels('permutation', 'b');
  assert.equal(await control('permutation', 'rope', true), 'ok');
  assert.ok(await readout('permutation', 'diff') > 1e-3);
  assert.notEqual(await pixels('permutation', 'b'), before);
  assert.equal(await control('attention', 'seq', 24), 'ok');
  assert.equal(await page.$eval(block('attention', 'map'), (el) => el.rows), 24);
  const p = await page.$eval(block('attention', 'map'), (el) => el.cellCentre(3, 5));
  await page.mouse.move(p.x, p.y);
  const { q, k } = tokensQK(pe, 'the cat chased the mouse and the mouse ran under the old table', 24, 32);
  const ref = pe.attentionScores({ q, k, seq: 24, head_dim: 32, rope: { rope_theta: 10000 } });
  assert.equal(await page.$eval(block('attention', 'map'), (el) => el.hovered.value), ref[3 * 24 + 5]);
  await shoot('s1');
});

test('2 · absolute: similarity = API, exact longest wavelength (defect 17), the shift check reacts to its inputs (defect 1), learned table', async () => {
  assert.equal(await ready('sinusoidal'), 'ok');
  const sim = pe.tableSimilarity({ rows: 64, cols: 32, data: pe.sinusoidal({ positions: 64, d: 32 }) }, { metric: 'dot' });
  assert.ok(close(await readout('sinusoidal', 'pij'), sim[5 * 64 + 12]));
  assert.ok(close(await readout('sinusoidal', 'pijs'), sim[25 * 64 + 32]));
  const inv = pe.ropeInvFreq({ rotary_dim: 32, rope_theta: 10000 });
  assert.equal(await readout('sinusoidal', 'longest'), (2 * Math.PI) / inv[15]);
  assert.match(await readoutText('sinusoidal', 'longest'), /0\.5623 × 2π·10000/, 'not "2π·10000": the exact value for d = 32');
  // defect 1: pos and k are in a form and drive the check
  await settled(page);
  assert.ok(await shown('s2-shift') < 1e-5);
  const moved = await page.$eval('#s2-shift-vec', (el) => el.dataset.moved);
  await set('s2-pos', 30);
  assert.notEqual(await page.$eval('#s2-shift-vec', (el) => el.dataset.moved), moved, 'a new position moves a new vector');
  assert.ok(await shown('s2-shift') < 1e-5);
  const before = await pixels('sinusoidal', 'table');
  assert.equal(await control('sinusoidal', 'layout', 'concatenated'), 'ok');
  assert.notEqual(await pixels('sinusoidal', 'table'), before);
  await settled(page);
  assert.ok(await shown('s2-shift') < 1e-5, 'concatenated: also a rotation (the check follows the figure’s layout)');
  assert.equal(await ready('multiplicative'), 'ok');   // further down since §2 opens with the position-codes figure
  assert.ok(await readout('multiplicative', 'rec') < 1e-4);
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
  await control('sinusoidal', 'layout', 'interleaved');
  await shoot('s2');
});

test('3 · relative: Shaw index, rel_shift, T5 table and DeBERTa scale = API; T5 head 8 is an error, not head 7 (defect 13)', async () => {
  assert.equal(await ready('shaw'), 'ok');
  assert.equal(await readout('shaw', 'corner'), pe.shawRelativeIndex({ q_len: 16, max_relative_position: 4 })[15]);
  const before = await pixels('shaw', 'map');
  assert.equal(await control('shaw', 'max_relative_position', 2), 'ok');
  assert.notEqual(await pixels('shaw', 'map'), before);
  assert.equal(await readout('shaw', 'corner'), pe.shawRelativeIndex({ q_len: 16, max_relative_position: 2 })[15]);
  assert.equal(await ready('t5'), 'ok');
  const t5 = await page.$eval('#t5', (el) => [...el.shadowRoot.querySelectorAll('table[data-id="buckets"] tr')[1].cells].slice(1).map((c) => Number(c.textContent)));
  assert.deepEqual(t5, Array.from({ length: 31 }, (_, t) => pe.t5RelativePositionBucket(-t)));
  const plot = await pixels('t5', 'plot');
  assert.equal(await control('t5', 'num_buckets', 16), 'ok');
  assert.notEqual(await pixels('t5', 'plot'), plot);
  assert.match(await control('t5', 'head', 8), /^ERR Attribute "head" must be an integer from 0 to 7 \(got "8"\)/);
  assert.equal(await page.$eval('#t5', (el) => el.shadowRoot.querySelector('.panels').hidden), true, 'nothing stale drawn as if it were head 8');
  await expectError(/<posenc-figure figure="t5">: Attribute "head"/);   // the console.error that goes with it
  assert.equal(await control('t5', 'head', 7), 'ok');
  await control('t5', 'num_buckets', 32);
  await settled(page);
  await set('s3r-step', 4);
  assert.equal(await page.$eval('#s3r-check', (el) => el.dataset.same), 'true');
  assert.equal(await ready('deberta'), 'ok');
  const n = 12, d = 16, { q, k } = pe.textQK({ text: Array.from({ length: n }, (_, i) => `w${i % 7}`).join(' '), head_dim: d, seed: 0 });
  const s = pe.debertaScores({ q, k, pos_key: randomRows(pe, 32, d, 4, 'pk'), pos_query: randomRows(pe, 32, d, 5, 'pq'), seq: n, d, position_buckets: 16, max_relative_positions: 64 });
  assert.equal(await readout('deberta', 'scale'), s.scale);
  assert.equal(await ready('transformer-xl'), 'ok');
  assert.equal(await page.$eval(block('transformer-xl', 'score'), (el) => el.cols), 10, 'XL: 8 tokens + 2 memory rows');
  // defect 11: the figure shows what the text says — (c) u·k_j is the same for every query (constant down a column),
  // (d) v·R_{i−j} depends on the distance only (constant along a diagonal)
  const xl = await csv('transformer-xl'), cell = (panel) => { const m = new Map(); for (const r of csvRows(xl, panel)) m.set(`${r.row},${r.col}`, Number(r.value)); return (i, j) => m.get(`${i},${j}`); };
  const c = cell('c'), dd = cell('d');
  for (let i = 1; i < 8; i++) for (let j = 0; j < 10; j++) {
    if (Number.isFinite(c(i, j)) && Number.isFinite(c(0, j))) assert.ok(close(c(i, j), c(0, j), 1e-6), `(c) column ${j}`);
    if (j > 0 && Number.isFinite(dd(i, j)) && Number.isFinite(dd(i - 1, j - 1))) assert.ok(close(dd(i, j), dd(i - 1, j - 1), 1e-5), `(d) diagonal at ${i},${j}`);
  }
  await shoot('s3');
});

test('4 · RoPE: drag changes the dot product, which depends on m − n only; the handle stays on the plane (defect 7); checks = API', async () => {
  assert.equal(await ready('rope-rotation'), 'ok');
  const plane = block('rope-rotation', 'plane');
  const dot0 = await readout('rope-rotation', 'dot');
  const tip = await page.$eval(plane, (el) => el.toClient(1.2, 0.3));
  await page.mouse.move(tip.x, tip.y); await page.mouse.down();
  await page.mouse.move(tip.x - 40, tip.y - 60, { steps: 4 }); await page.mouse.up();
  assert.equal(await ready('rope-rotation'), 'ok');
  const dot1 = await readout('rope-rotation', 'dot');
  assert.notEqual(dot1, dot0);
  assert.ok(close(dot1, await readout('rope-rotation', 'rel'), 1e-5));
  assert.equal(await control('rope-rotation', 'm', 10), 'ok'); assert.equal(await control('rope-rotation', 'n', 8), 'ok');
  assert.ok(close(await readout('rope-rotation', 'dot'), dot1, 1e-5), 'm − n unchanged → same dot product');
  // keyboard: focus k's handle and press an arrow
  const kBefore = await page.$eval('#rope-rotation', (el) => el.getAttribute('k'));
  await page.$eval(plane, (el) => el.shadowRoot.querySelector('[data-id="k"]').focus());
  await page.keyboard.press('ArrowRight');
  assert.equal(await ready('rope-rotation'), 'ok');
  assert.notEqual(await page.$eval('#rope-rotation', (el) => el.getAttribute('k')), kBefore);
  const [qx, qy] = (await page.$eval('#rope-rotation', (el) => el.getAttribute('q'))).split(',').map(Number);
  const [kx, ky] = (await page.$eval('#rope-rotation', (el) => el.getAttribute('k'))).split(',').map(Number);
  const t = pe.ropeTablesScaled({ inv_freq: [0.3], positions: [10, 8] });
  const qm = pe.ropeApplyTables([qx, qy], { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(0, 1), sin: t.sin.subarray(0, 1) });
  const kn = pe.ropeApplyTables([kx, ky], { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(1, 2), sin: t.sin.subarray(1, 2) });
  assert.ok(close(await readout('rope-rotation', 'dot'), qm[0] * kn[0] + qm[1] * kn[1], 1e-6));
  // defect 7: dragging far past the edge keeps the vector on the plane (|x|, |y| ≤ 1.6), and the URL says so
  const k2 = await page.$eval(plane, (el) => el.toClient(Number(el.vectors[1].x), Number(el.vectors[1].y)));
  await page.mouse.move(k2.x, k2.y); await page.mouse.down();
  await page.mouse.move(k2.x + 300, k2.y - 200, { steps: 5 }); await page.mouse.up();   // far right of the plane's edge
  assert.equal(await ready('rope-rotation'), 'ok');
  const kOff = (await page.$eval('#rope-rotation', (el) => el.getAttribute('k'))).split(',').map(Number);
  assert.ok(kOff.every((v) => Math.abs(v) <= 1.6) && kOff[0] === 1.6, `k stays on the plane: ${kOff}`);
  await page.waitForFunction((k) => new URL(location.href).searchParams.get('rope-rotation.k') === k, kOff.join(','));   // the URL has the value on the plane
  // derivation checks: all ✓, and eq. 22's right side = API
  await settled(page);
  assert.equal(await page.$$eval('#s4d-steps .check', (els) => els.filter((e) => e.textContent.includes('✗')).length), 0);
  const qk = randomRows(pe, 2, 16, 9, 'qk');
  const kr = pe.ropeApply(qk.slice(16), { seq: 1, head_dim: 16, layout: 'interleaved', positions: [2 - 7] });
  let rhs = 0; for (let c = 0; c < 16; c++) rhs += qk[c] * kr[c];
  assert.ok(close(await shown('s4d-c4'), rhs, 1e-5));
  const diffs = await page.$eval('#s4f-table', (el) => JSON.parse(el.dataset.diffs));
  assert.ok(diffs.slice(0, 3).every((x) => x < 1e-5), `three forms agree: ${diffs}`);
  assert.ok(diffs[3] > 1e-2, 'the unswapped variant differs');
  assert.ok(await shown('s4l-diff') < 1e-6);
  assert.deepEqual(await page.$eval('#s4c-table', (el) => JSON.parse(el.dataset.values)), Array.from(pe.ropeFreqsCis({ rotary_dim: 8, positions: 3 })));
  assert.equal(await control('partial-rotary', 'partial_rotary_factor', 0.25), 'ok');
  assert.equal(await readout('partial-rotary', 'rd'), pe.rotaryDim({ head_dim: 64, partial_rotary_factor: 0.25 }));
  await shoot('s4');
});

test('5 · long-range decay: values = API, a true bound above |score| for every base (defect 2), readable line (defect 5), read-out outside the window and after cancel (defect 3), Su’s figure', async () => {
  assert.equal(await ready('rope-decay'), 'ok');
  const at = 15000, ref = (base) => pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, rope_theta: base, k_start: at, count: 1 })[0];
  // (swept in chunks from k_start 0, the reference from k_start 15000: the same within float32 rounding)
  assert.ok(close(await readout('rope-decay', 'at'), ref(10000), 1e-6));
  assert.ok(close(await readout('rope-decay', 'at2'), ref(5000000), 1e-6));
  // the quarter turn of the slowest pair is marked where it is: (π/2)/θ_{d/2−1}
  const inv = pe.ropeInvFreq({ rotary_dim: 512, rope_theta: 10000 });
  assert.equal(await page.$eval(block('rope-decay', 'plot'), (el) => el.marks[0].x), Math.PI / 2 / inv[255]);
  // defect 2: on the exported numbers, bound ≥ |score| at every pixel, for both bases
  const text = await csv('rope-decay');
  for (const base of [10000, 5000000]) {
    const abs = csvRows(text, 'bound', `|score|, base ${base}`), bnd = csvRows(text, 'bound', `bound max|Δh|·Σ|Sⱼ|, base ${base}`);
    assert.equal(abs.length, 900); assert.equal(bnd.length, 900);
    abs.forEach((r, i) => assert.ok(Number(r.value) <= Number(bnd[i].value), `base ${base}, x ${r.x}: |score| ${r.value} ≤ bound ${bnd[i].value}`));
  }
  // defect 5: the curve is drawn as a solid line in its colour (not only a 35 % band)
  const solid = await page.$eval(block('rope-decay', 'plot'), (el) => {
    const c = el.shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0x00 && d[i + 1] === 0x72 && d[i + 2] === 0xb2 && d[i + 3] === 255) n++;
    return n;
  });
  assert.ok(solid > 500, `opaque pixels of the base-10000 line: ${solid}`);
  await shoot('s5');
  // defect 3: a window shorter than the distance says so, instead of the value at its last index
  const before = await pixels('rope-decay', 'plot');
  assert.equal(await control('rope-decay', 'window', 4096), 'ok');
  assert.notEqual(await pixels('rope-decay', 'plot'), before);
  assert.ok(Number.isNaN(await readout('rope-decay', 'at')));
  assert.match(await readoutText('rope-decay', 'at'), /^outside the computed window \(0 … 4095\)$/);
  // a long sweep: progress moves, then cancel: no stale numbers
  await page.$eval('#rope-decay', (el) => { const c = el.shadowRoot.querySelector('[name="window"]'); c.value = '1048576'; c.dispatchEvent(new Event('input', { bubbles: true })); });
  await page.waitForFunction(() => document.querySelector('#rope-decay').shadowRoot.querySelector('progress').value > 0, null, { timeout: 20000 });
  await page.$eval('#rope-decay', (el) => el.shadowRoot.querySelector('.cancel').click());
  assert.equal(await ready('rope-decay'), 'ERR cancelled');
  assert.equal(await page.$eval('#rope-decay', (el) => el.shadowRoot.querySelector('.status').dataset.state), 'cancelled');
  assert.deepEqual(await page.$eval('#rope-decay', (el) => [...el.shadowRoot.querySelectorAll('.readouts output')].map((o) => [o.textContent, o.dataset.value])), [['—', undefined], ['—', undefined]]);
  assert.equal(await control('rope-decay', 'window', 65536), 'ok');
  assert.equal(await page.$eval('#rope-decay', (el) => el.shadowRoot.querySelector('.status').dataset.state), 'done');
  // Su's figure with the source's parameters (d = 128, distances 0…256)
  assert.equal(await ready('su-decay'), 'ok');
  const avg = csvRows(await csv('su-decay'), 'plot').map((r) => Number(r.value));
  assert.deepEqual(avg, Array.from(pe.ropeDecayBound({ rotary_dim: 128, rope_theta: 10000, count: 257 })));
});

test('6 · extrapolation: config.json read by the API; a bad config shows its error and nothing stale', async () => {
  assert.equal(await ready('config-wavelengths'), 'ok');
  const text = await page.$eval('#config-wavelengths', (el) => el.params.config);
  const r = pe.ropeFromConfig(text);
  assert.equal(await readout('config-wavelengths', 'info'), r.inv_freq[r.inv_freq.length - 1]);
  assert.equal(await ready('scaling-wavelengths'), 'ok');   // the wavelength figure of §6 (merged into this one)
  assert.equal(Number((await readoutText('scaling-wavelengths', 'incomplete')).split('/')[0]),
    pe.ropeFrequencyAnalysis({ rotary_dim: 128, rope_theta: 10000, original_max_position_embeddings: 4096 }).wavelength.filter((w) => w > 4096).length);
  assert.equal(await ready('context-extension'), 'ok');
  const before = await pixels('context-extension', 'ratio');
  assert.equal(await control('context-extension', 'factor', 32), 'ok');
  assert.notEqual(await pixels('context-extension', 'ratio'), before);
  const qwen = JSON.stringify({ hidden_size: 3584, num_attention_heads: 28, rope_theta: 1000000, max_position_embeddings: 131072, rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
  assert.equal(await control('config-wavelengths', 'config', qwen), 'ok');
  const r2 = pe.ropeFromConfig(qwen);
  assert.equal(await readout('config-wavelengths', 'info'), r2.inv_freq[r2.inv_freq.length - 1]);
  assert.match(await control('config-wavelengths', 'config', '{"head_dim": 64, "rope_scaling": {"rope_type": "linear"}}'), /factor/);
  assert.deepEqual(await page.$eval('#config-wavelengths', (el) => [el.shadowRoot.querySelector('.panels').hidden, el.shadowRoot.querySelectorAll('.readouts output').length]), [true, 0]);
  await expectError(/<posenc-figure figure="config-wavelengths">: .*factor/);
  assert.equal(await control('config-wavelengths', 'config', text), 'ok');
  await shoot('s6');
});

test('7 · ALiBi slopes (incl. non-power-of-two heads) and xPos = API; a head beyond the heads is an error', async () => {
  assert.equal(await ready('alibi'), 'ok');
  assert.equal(await readout('alibi', 'slope'), pe.alibiSlopes(12)[0]);
  const before = await pixels('alibi', 'slopes');
  assert.equal(await control('alibi', 'heads', 6), 'ok'); assert.equal(await control('alibi', 'head', 5), 'ok');
  assert.notEqual(await pixels('alibi', 'slopes'), before);
  assert.equal(await readout('alibi', 'slope'), pe.alibiSlopes(6)[5]);
  const n = 1024, d = 64, ones = new Float32Array(n * d).fill(1);
  const s = pe.attentionScores({ q: pe.xposApply(ones, { seq: n, head_dim: d }), k: pe.xposApply(ones, { seq: n, head_dim: d, downscale: true }), seq: n, head_dim: d, softmax: false });
  assert.equal(await ready('xpos'), 'ok');
  assert.equal(await readout('xpos', 'first'), s[n * n - 1]);
  await shoot('s7');
});

test('8 · linear attention: denominators = API; eq. (29) keeps them positive', async () => {
  assert.equal(await ready('linear-attention'), 'ok');
  const n = 128, d = 8;
  const inputs = { q: randomRows(pe, n, d, 0, 'lq'), k: randomRows(pe, n, d, 0, 'lk'), v: randomRows(pe, n, 8, 0, 'lv'), seq: n, head_dim: d, v_dim: 8, causal: true, rope_theta: 100 };
  const naive = pe.linearAttentionRope({ ...inputs, form: 'naive' }), num = pe.linearAttentionRope({ ...inputs, form: 'numerator_only' });
  const min = (a) => a.reduce((m, x) => Math.min(m, x), Infinity);
  assert.equal(await readout('linear-attention', 'min-naive'), min(naive.denominator));
  assert.equal(await readout('linear-attention', 'min-num'), min(num.denominator));
  assert.ok(min(num.denominator) > 0, 'eq. (29): positive');
  assert.ok(min(naive.denominator) < 0, 'defect 11: at the defaults the text describes, eq. (28)’s denominator does cross zero');
  const before = await pixels('linear-attention', 'den');
  assert.equal(await control('linear-attention', 'seed', 3), 'ok');
  assert.notEqual(await pixels('linear-attention', 'den'), before);
  await shoot('s8');
});

test('9 · explorer: permutation change = API; switching scheme changes figure and terms; hover = API', async () => {
  assert.equal(await ready('explorer'), 'ok');
  const text = 'the cat chased the mouse under the old table', n = pe.textQK({ text, head_dim: 4 }).tokens.length;
  const ref = (type) => pe.permutationChange({ scheme: { type }, text, i: 0, j: n - 1, heads: 4, head_dim: 32, causal: false, seed: 0 });
  assert.equal(await readout('explorer', 'permA'), ref('rope'));
  assert.ok(ref('rope') > 0 && ref('none') === 0);
  assert.equal(await readout('explorer', 'permB'), ref('alibi'));
  const before = await pixels('explorer', 'A');
  assert.equal(await control('explorer', 'a', 'transformer_xl'), 'ok');
  assert.notEqual(await pixels('explorer', 'A'), before);
  const terms = await page.$eval('#explorer', (el) => el.shadowRoot.querySelectorAll('[data-panel^="term-"]').length);
  assert.ok(terms >= 5, `XL has four terms + the sum: ${terms}`);
  const r = pe.attention({ scheme: { type: 'transformer_xl' }, text, heads: 4, head_dim: 32, causal: true, seed: 0 });
  const p = await page.$eval(block('explorer', 'A'), (el) => el.cellCentre(4, 2));
  await page.mouse.move(p.x, p.y);
  assert.equal(await page.$eval(block('explorer', 'A'), (el) => el.hovered.value), r.probs[4 * r.seq + 2]);
  await shoot('s9');
});

test('9 · explorer: the first long-context change shows its progress at once, then the matrix and the time it took', async () => {
  const p = await ctx.open('/#explorer');
  await ready('explorer', p);
  const r = await p.locator('#explorer').evaluate(async (el) => {
    const sr = /** @type {ShadowRoot} */ (el.shadowRoot), prog = /** @type {HTMLElement} */ (sr.querySelector('.progress'));
    const before = prog.hidden, sel = /** @type {HTMLSelectElement} */ (sr.querySelector('[name="length"]'));
    const t0 = performance.now();
    sel.value = '4096'; sel.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    await new Promise((res) => setTimeout(res, 0));
    const shown = { hidden: prog.hidden, status: sr.querySelector('.status')?.textContent, ms: performance.now() - t0 };
    await /** @type {any} */ (el).ready;
    return { before, shown, after: sr.querySelector('.status')?.textContent, long: !!sr.querySelector('[data-panel="long"]') };
  });
  assert.equal(r.before, true, 'no progress row before (length 0)');
  assert.equal(r.shown.hidden, false);
  assert.equal(r.shown.status, 'computing…');
  assert.ok(r.shown.ms < 500, `progress shown after ${r.shown.ms} ms`);
  assert.match(r.after ?? '', /^4096 × 4096 scores in \d+ ms$/);
  assert.ok(r.long, 'the long-context panel is drawn');
  await p.context().close();
});

test('no console errors, page errors or unhandled rejections', () => {
  assert.deepEqual(ctx.errors, []);
});
