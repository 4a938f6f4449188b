// End to end (issue 29, items 4 and 5): the research gallery and the learners' questions make their points, asserted on
// the numbers the figures draw (curves and read-outs as the building blocks hold them) — against closed forms, the
// references' formulas in float64, and the package's API computed here in Node. Same pattern as takeaways.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { describeFigure } from 'posenc/figures';
import { figurePage } from './figure-page.mjs';
import { englishWords } from './zh-text.mjs';
import { gaussianRows } from '../../web/src/figures/defs/research-bias.js';

const pe = await init();
const NAMES = ['research-bias', 'base-theta', 'factor-advisor', 'yarn-attention'];
let P;
before(async () => { P = await figurePage(NAMES); });
after(async () => { await P?.close(); });

const series = (panel, start) => { const s = panel.series.find((x) => x.label.startsWith(start)); assert.ok(s, `series "${start}" in ${panel.series.map((x) => x.label)}`); return s; };
const near = (a, b, tol, what = '') => assert.ok(Math.abs(a - b) <= tol, `${what} ${a} vs ${b}`);
const sigmoid = (z) => 1 / (1 + Math.exp(-z));

test('every new figure: en + zh tries without English words in the zh text, valid parameters', () => {
  for (const n of NAMES) {
    const d = describeFigure(n);
    assert.ok(d.tries.length >= 1 && d.takeaway.en && d.takeaway.zh);
    const code = new Set(d.params.flatMap((p) => [p.name, ...(p.values ?? []).map(String)]));
    assert.deepEqual(englishWords([d.title.zh, d.description.zh, d.takeaway.zh, ...d.tries.map((t) => t.look.zh)], code), [], n);
    for (const t of d.tries) for (const k of Object.keys(t.params)) assert.ok(d.params.some((p) => p.name === k), `${n}: ${k}`);
  }
  // every research scheme is labelled as such, in both languages
  for (const lang of ['en', 'zh']) assert.match(describeFigure('research-bias').description[lang], lang === 'en' ? /no released model/ : /尚无发布的模型/);
});

test('research-bias: fixed biases by distance alone; CoPE counts markers (≈ r/8), stick-breaking gives the latest marker nearly all', async () => {
  const d = await P.draw('research-bias');
  const bias = d.panels.bias, n = 256, r = n - 1;
  // ALiBi head 7 of 8: slope 2^-8; KERPLE and Sandwich from their references' formulas
  near(series(bias, 'ALiBi').y[r], -r / 256, 1e-12, 'ALiBi');
  near(series(bias, 'KERPLE power').y[r], -0.5 * Math.sqrt(r), 1e-12, 'power');
  near(series(bias, 'KERPLE log').y[r], -Math.log(1 + 0.5 * r), 1e-12, 'log');
  const inv = Array.from({ length: 32 }, (_, k) => 10000 ** (-(2 * (k + 1)) / 64));
  for (const x of [1, 17, r]) near(series(bias, 'Sandwich').y[x], (inv.reduce((s, f) => s + Math.cos(x * f), 0) - 32) / 8, 1e-12, `Sandwich r=${x}`);
  for (const s of bias.series) { near(s.y[0], 0, 0, `${s.label}: 0 at r = 0`); assert.ok(s.y.every((v) => v <= 1e-12), `${s.label}: a penalty`); }
  for (const s of bias.series.filter((x) => !x.label.startsWith('ALiBi'))) assert.match(s.label, /\(research\)$/);
  // positions: T5's causal buckets stop at 31; CoPE with σ(0) = ½ gives (r + 1)/2; with markers it counts them
  const pos = d.panels.positions;
  assert.equal(Math.max(...series(pos, 'T5').y), 31);
  for (const x of [0, 10, r]) near(series(pos, 'CoPE, every gate').y[x], (x + 1) / 2, 1e-9, 'CoPE const');
  const marks = series(pos, 'CoPE, a marker').y;
  // the key at r: k markers among the keys from it to the query give exactly k·σ(6) + (r + 1 − k)·σ(−6); the takeaway's
  // "about r/8": within one marker of (r + 1)/8
  for (const x of [7, 63, 100, r]) {
    const k = Array.from({ length: x + 1 }, (_, t) => (n - 1 - t) % 8 === 0).filter(Boolean).length;
    near(marks[x], k * sigmoid(6) + (x + 1 - k) * sigmoid(-6), 1e-12, `markers r=${x}`);
    assert.ok(Math.abs(marks[x] - (x + 1) / 8) <= 1, `about r/8 at r=${x}`);
  }
  near(d.readouts['cope-count'], 32 * sigmoid(6) + 224 * sigmoid(-6), 1e-6, 'cope-count');
  // FIRE: the reference's normaliser, and progressive interpolation (the far query reads smaller inputs)
  near(series(d.panels.fire, 'FIRE, query at i = 255').y[r], Math.log(0.1 * r + 1) / (Math.log(0.1 * 512 + 1) + 1e-6), 1e-12, 'FIRE');
  assert.ok(series(d.panels.fire, 'FIRE, query at i = 2047').y[r] < series(d.panels.fire, 'FIRE, query at i = 255').y[r]);
  // stick-breaking: geometric for a constant logit, the latest marker (r = 8) takes σ(6)·(1 − σ(−6))^7 ≥ 0.98
  const sb = series(d.panels.weights, 'stick-breaking, every');
  for (const x of [1, 2, 5]) near(sb.y[x - 1], 0.5 ** x, 1e-12, `sb r=${x}`);
  near(d.readouts['sb-latest'], sigmoid(6) * (1 - sigmoid(-6)) ** 7, 1e-9, 'sb-latest');
  assert.ok(d.readouts['sb-latest'] > 0.98);
  // PaTH: the drawn single sequence equals qᵀ H ⋯ H k in float64 on the stated input; the mean of 64 follows (1 − β/d)^r
  const D = 64, m = 256, unit = (a, rows) => { for (let t = 0; t < rows; t++) { const s = Math.hypot(...a.slice(t * D, t * D + D)); for (let c = 0; c < D; c++) a[t * D + c] /= s; } return a; };
  const q = unit(gaussianRows(1, 1, D), 1), w = unit(gaussianRows(2, m, D), m);
  let u = Array.from(q); const want = [];
  for (let j = m - 1; j >= 0; j--) { want.push(u.reduce((s, x, c) => s + x * q[c], 0)); const uw = u.reduce((s, x, c) => s + x * w[j * D + c], 0); u = u.map((x, c) => x - uw * w[j * D + c]); }
  const one = series(d.panels.path, 'PaTH qᵀ').y;
  for (const x of [0, 1, 30, 200]) near(one[x], want[x], 1e-9, `PaTH r=${x}`);
  near(d.readouts['path-64'], (1 - 1 / 64) ** 64, 0.05, 'PaTH mean vs expectation');
  // the tries
  const t0 = await P.draw('research-bias', { head: 0 });
  near(series(t0.panels.bias, 'ALiBi').y[r], -r / 2, 1e-12); near(series(t0.panels.bias, 'Sandwich').y[r], 8 * series(d.panels.bias, 'Sandwich').y[r], 1e-9);
  const t1 = await P.draw('research-bias', { beta: 2 });
  near(t1.readouts['path-64'], (1 - 2 / 64) ** 64, 0.05, 'β = 2 mean');
  const t2 = await P.draw('research-bias', { z: 2 });
  near(series(t2.panels.positions, 'CoPE, every gate').y[10], 11 * sigmoid(2), 1e-9); near(series(t2.panels.weights, 'stick-breaking, every').y[1], sigmoid(2) * (1 - sigmoid(2)), 1e-12);
});

test('base-theta: the slowest wavelength 2π·b^((d−2)/d) against the context; b = 100 wraps every pair, 10⁶ covers 131072', async () => {
  const d = await P.draw('base-theta');
  near(d.readouts.slowest, 2 * Math.PI * 10000 ** (126 / 128), 1e-6, 'slowest');
  assert.ok(d.readouts.slowest > 2048);
  const wl = series(d.panels.wavelengths, 'wavelength').y;
  assert.equal(d.readouts.wrapping, wl.filter((x) => x <= 2048).length);
  // the mean cosine: Σcos(r·θᵢ)/(d/2), and its first drop below ½ at the distance the readout names
  const th = Array.from({ length: 64 }, (_, i) => 10000 ** (-i / 64)), mc = (x) => th.reduce((s, t) => s + Math.cos(x * t), 0) / 64;
  assert.ok(mc(d.readouts.half) < 0.5 && mc(d.readouts.half - 1) >= 0.5);
  near(d.readouts['at-context'], mc(2048), 1e-5);
  const band = d.panels.cosine.series[0];
  assert.ok(band.y.every((v, i) => v <= band.y2[i]) && d.panels.cosine.logX);
  const low = await P.draw('base-theta', { log10_theta: 2 });
  near(low.readouts.slowest, 2 * Math.PI * 100 ** (126 / 128), 1e-6);
  assert.equal(low.readouts.wrapping, 64, 'every pair turns inside 2048');
  assert.ok(low.readouts.half < d.readouts.half, 'a smaller base: the mean cosine falls sooner');
  // the takeaway and the try quote the slowest wavelengths drawn, rounded to whole tokens (584.7 was written 584)
  const text = describeFigure('base-theta'), whole = (v) => Math.round(v).toLocaleString('en-US');
  for (const lang of ['en', 'zh']) {
    assert.ok(text.takeaway[lang].includes(whole(d.readouts.slowest)) && text.takeaway[lang].includes(whole(low.readouts.slowest)), `${lang} takeaway`);
    assert.ok(text.tries[0].look[lang].includes(whole(low.readouts.slowest)), `${lang} try`);
  }
  const big = await P.draw('base-theta', { log10_theta: 6, context: 131072 });
  assert.ok(big.readouts.slowest > 131072 && Math.abs(big.readouts.slowest / 1e6 - 5.06) < 0.01);
});

test('factor-advisor: target / trained length; interleaved M-RoPE (Qwen3.5) drawn at ¾ of it, as the Qwen3-VL README’s 3 for 4×', async () => {
  const d = await P.draw('factor-advisor');
  assert.equal(d.readouts.ratio, 1048576 / 262144);
  assert.equal(d.readouts.factor, 3);
  const want = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: 1e7, factor: 3, original_max_position_embeddings: 262144, max_position_embeddings: 262144 });
  near(d.readouts.attention, want.attention_scaling, 1e-12); near(d.readouts.attention, 0.1 * Math.log(3) + 1, 1e-12);
  const after = series(d.panels.wavelengths, 'yarn').y, before = series(d.panels.wavelengths, 'as trained').y;
  near(after.at(-1) / before.at(-1), 3, 1e-9, 'the slowest pair stretched by the factor');
  near(after[0], before[0], 1e-9, 'the fastest pair kept');
  // a text model: Llama 3.1 8B's config (original 8192) to 131072 with linear → 16, every pair × 16
  const llama = JSON.stringify({ model_type: 'llama', head_dim: 128, hidden_size: 4096, num_attention_heads: 32, rope_theta: 500000, max_position_embeddings: 131072,
    rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } });
  const l = await P.draw('factor-advisor', { config: llama, target: 131072, method: 'linear' });
  assert.equal(l.readouts.factor, 16);
  const la = series(l.panels.wavelengths, 'linear').y, lb = series(l.panels.wavelengths, 'as trained').y;
  for (const i of [0, 30, 63]) near(la[i] / lb[i], 16, 1e-9);
  // dynamic NTK (transformers' _compute_dynamic_ntk_parameters): base·(f·L/L₀ − (f − 1))^(d/(d−2)) at L = target, so the
  // slowest wavelength grows by f² − f + 1 = 241 for f = 16, not by 16 (the reason text once said it reached the factor's)
  const dy = await P.draw('factor-advisor', { config: llama, target: 131072, method: 'dynamic' });
  assert.equal(dy.readouts.factor, 16);
  near(series(dy.panels.wavelengths, 'dynamic').y.at(-1) / series(dy.panels.wavelengths, 'as trained').y.at(-1), 16 * 16 - 16 + 1, 1e-6, 'dynamic at the target');
  const t = await P.draw('factor-advisor', { target: 524288 });
  assert.equal(t.readouts.ratio, 2); assert.equal(t.readouts.factor, 1.5);
});

test('yarn-attention: 0.1·ln s + 1 and its square on the logits; DeepSeek’s mscale = mscale_all_dim moves the square to the softmax', async () => {
  const d = await P.draw('yarn-attention');
  near(d.readouts['attention-factor'], 0.1 * Math.log(4) + 1, 1e-12);
  near(d.readouts['logit-multiplier'], (0.1 * Math.log(4) + 1) ** 2, 1e-12);
  assert.ok(Math.abs(d.readouts['logit-multiplier'] - 1.2965) < 1e-4);
  // the takeaway and the try quote these two read-outs to four decimals (1.139² = 1.297 was not what is drawn: 1.2965)
  const text = describeFigure('yarn-attention');
  for (const lang of ['en', 'zh']) {
    for (const v of [d.readouts['attention-factor'], d.readouts['logit-multiplier']]) assert.ok(text.takeaway[lang].includes(v.toFixed(4)), `${lang} takeaway quotes ${v.toFixed(4)}`);
    assert.ok(text.tries[0].look[lang].includes(d.readouts['logit-multiplier'].toFixed(4)));
  }
  const curve = series(d.panels.factor, '0.1·ln s + 1');
  curve.x.forEach((s, i) => near(curve.y[i], s <= 1 ? 1 : 0.1 * Math.log(s) + 1, 1e-12));
  const ds = await P.draw('yarn-attention', { mscale: 1, mscale_all_dim: 1 });
  near(ds.readouts['attention-factor'], 1, 1e-12);
  near(ds.readouts['softmax-factor'], (0.1 * Math.log(4) + 1) ** 2, 1e-12);
  near(ds.readouts['logit-multiplier'], d.readouts['logit-multiplier'], 1e-12);
  const v2 = await P.draw('yarn-attention', { mscale: 0.707, mscale_all_dim: 1 });
  near(v2.readouts['attention-factor'], (0.1 * 0.707 * Math.log(4) + 1) / (0.1 * Math.log(4) + 1), 1e-12);
  const f40 = await P.draw('yarn-attention', { factor: 40 });
  near(f40.readouts['attention-factor'], 1.3689, 1e-4); near(f40.readouts['logit-multiplier'], 1.8739, 1e-4);
});
