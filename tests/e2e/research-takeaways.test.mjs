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

test('factor-advisor: opens on Llama 3.1 8B (8192 → 131072: 16, yarn); its config’s own factor 8 said; interleaved M-RoPE (Qwen3.5) drawn at ¾ of the ratio', async () => {
  const text = describeFigure('factor-advisor');
  const note = (lang) => P.page.$eval('posenc-figure[figure="factor-advisor"]', (el, lang) => { el.setAttribute('lang', lang);
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => { const t = el.shadowRoot.querySelector('.readouts output[data-id="factor"]').closest('p').querySelector('.note').textContent; el.removeAttribute('lang'); r(t); }))); }, lang);
  // the default: Llama 3.1 8B's config.json (rope_theta 500000, head_dim 4096/32 = 128, original 8192, its own llama3 factor 8)
  const cfg = JSON.parse(text.params.find((q) => q.name === 'config').default);
  assert.equal(cfg.architectures[0], 'LlamaForCausalLM');
  assert.deepEqual([cfg.rope_scaling.rope_type, cfg.rope_scaling.factor, cfg.rope_scaling.original_max_position_embeddings, cfg.max_position_embeddings], ['llama3', 8, 8192, 131072]);
  assert.deepEqual(['target', 'method'].map((n) => text.params.find((q) => q.name === n).default), [131072, 'yarn']);
  const d = await P.draw('factor-advisor');
  assert.equal(d.readouts.ratio, 131072 / 8192); assert.equal(d.readouts.factor, 16);
  near(d.readouts.attention, 0.1 * Math.log(16) + 1, 1e-12);
  const before = series(d.panels.wavelengths, 'as trained').y, after = series(d.panels.wavelengths, 'yarn').y;
  assert.equal(before.length, 64);
  before.forEach((w, i) => near(w / (2 * Math.PI * 500000 ** (2 * i / 128)), 1, 1e-12, `pair ${i} as trained`));
  near(after.at(-1) / before.at(-1), 16, 1e-9, 'the slowest pair stretched by the factor');
  near(after[0], before[0], 1e-9, 'the fastest pair kept');
  near(d.readouts.slowest, after.at(-1), 1e-6 * after.at(-1));
  // the takeaway's numbers, both languages: 8192, 131072, 16, the attention factor to four decimals, the config's own 8
  for (const lang of ['en', 'zh']) {
    const k = text.takeaway[lang];
    for (const s of ['8192', '131072', `16${lang === 'en' ? ' times' : ' 倍'}`, d.readouts.attention.toFixed(4), `${cfg.rope_scaling.rope_type}${lang === 'en' ? ', factor ' : '、因子 '}${cfg.rope_scaling.factor}`, '128K'])
      assert.ok(k.includes(s), `${lang} takeaway: ${s}`);
    assert.match(k, lang === 'en' ? /2 or 3, not 4, for 1M tokens from 256K/ : /从 256K 到 1M 用 2 或 3 而不是 4/);
    assert.match(k, lang === 'en' ? /For the default file, Llama 3\.1 8B,/ : /以默认文件 Llama 3\.1 8B 为例/);   // true after another file is loaded too (walk 11-28)
  }
  // what is drawn and why, in the factor's note: the ratio, and the config's own factor 8 named as not what is drawn
  assert.match(await note('en'), /131072 \/ 8192 = 16\..*own rope_scaling says llama3, factor 8: its makers’ choice; drawn here: the rule above, factor 16 with yarn\./);
  assert.match(await note('zh'), /131072 \/ 8192 = 16。.*自己的 rope_scaling 写的是 llama3、因子 8：这是模型作者的选择；图中画的是上面的规则，用 yarn、因子 16。/);
  // try 1: linear: every pair × 16, the fastest too
  assert.deepEqual(text.tries[0].params, { method: 'linear' });
  const l = await P.draw('factor-advisor', text.tries[0].params);
  const la = series(l.panels.wavelengths, 'linear').y, lb = series(l.panels.wavelengths, 'as trained').y;
  la.forEach((w, i) => near(w / lb[i], 16, 1e-9, `linear pair ${i}`));
  for (const lang of ['en', 'zh']) assert.ok(text.tries[0].look[lang].includes(lang === 'en' ? 'grows 16 times, the fastest' : '变为 16 倍，最快的'), lang);
  // try 2: dynamic NTK (transformers' _compute_dynamic_ntk_parameters): base·(f·L/L₀ − (f − 1))^(d/(d−2)) at L = target:
  // the slowest wavelength × (16·16 − 15)^((d−2)/d · (d/(d−2))) = 241; the fastest (θ₀ = 1 at any base) unchanged
  assert.deepEqual(text.tries[1].params, { method: 'dynamic' });
  const dy = await P.draw('factor-advisor', text.tries[1].params);
  const da = series(dy.panels.wavelengths, 'dynamic').y, db = series(dy.panels.wavelengths, 'as trained').y;
  near(da.at(-1) / db.at(-1), 16 * 16 - 16 + 1, 1e-6, 'dynamic at the target');
  near(da[0], db[0], 0, 'dynamic: the fastest pair');
  for (const lang of ['en', 'zh']) for (const s of ['131072', '241', '16² − 16 + 1']) assert.ok(text.tries[1].look[lang].includes(s), `${lang}: ${s}`);
  // try 3: Qwen3.5 9B (interleaved M-RoPE, 262144 trained) to 1M: ratio 4, drawn at 3 (the README's "2 or 3, not 4")
  const q = JSON.parse(text.tries[2].params.config);
  assert.equal(q.text_config.rope_parameters.mrope_interleaved, true);
  assert.equal(text.tries[2].params.target, 1048576);
  const t = await P.draw('factor-advisor', text.tries[2].params);
  assert.equal(t.readouts.ratio, 1048576 / q.text_config.max_position_embeddings); assert.equal(t.readouts.ratio, 4); assert.equal(t.readouts.factor, 3);
  const want = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: 1e7, factor: 3, original_max_position_embeddings: 262144, max_position_embeddings: 262144 });
  near(t.readouts.attention, want.attention_scaling, 1e-12); near(t.readouts.attention, 0.1 * Math.log(3) + 1, 1e-12);
  const qa = series(t.panels.wavelengths, 'yarn').y, qb = series(t.panels.wavelengths, 'as trained').y;
  assert.equal(qb.length, 32);   // partial_rotary_factor 0.25 of head_dim 256: 64 channels
  near(qa.at(-1) / qb.at(-1), 3, 1e-9); near(qa[0], qb[0], 1e-9);
  for (const lang of ['en', 'zh']) {
    const k = text.tries[2].look[lang];
    for (const s of ['262144', lang === 'en' ? 'ratio is 4, drawn at 3' : '比值是 4，图中按 3 画出', lang === 'en' ? '2 or 3, not 4' : '2 或 3，而不是 4']) assert.ok(k.includes(s), `${lang} try 3: ${s}`);
  }
  // ½ to ¾ of the ratio read proportionally from the README's 2–3 for 4×; 512K from 256K: 1–1.5, drawn at 1.5
  const h = await P.draw('factor-advisor', { ...text.tries[2].params, target: 524288 });
  assert.equal(h.readouts.ratio, 2); assert.equal(h.readouts.factor, 1.5);
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
