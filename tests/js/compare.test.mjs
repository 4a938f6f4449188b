// pe.compareRope against closed forms: the score of rotated all-ones q, k at distance p is
// s²·Σ_i 2 cos(p θ_i) (+ pass-through channels), the frequency ratio of two bases b1, b2 is (b2/b1)^(−2i/d), and an
// independent rotation of the reported random q, k by each side's own channel pairing gives the random score error.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { theta } from './config-helpers.mjs';

const pe = await init();
const cfg = (f) => JSON.parse(readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8'));
const TOL = 1e-12; // float64, summed in another order
const rope = (b, d = 128, extra = {}) => ({ inv_freq: Float64Array.from(theta(b, d)), rope_theta: b, rotary_dim: d, ...extra });
/** |Σ_i 2(s_a² cos pθa_i − s_b² cos pθb_i)| / D: the all-ones score error. */
const onesError = (ta, tb, p, sa = 1, sb = 1) => Math.abs(ta.reduce((t, th, i) => t + 2 * (sa * sa * Math.cos(p * th) - sb * sb * Math.cos(p * tb[i])), 0)) / (2 * ta.length);
/** q·k after rotating q at p and k at 0 by explicit 2×2 rotations of the given layout. */
function score(q, k, inv, layout, p, s = 1) {
  const h = inv.length, qq = Float64Array.from(q);
  for (let i = 0; i < h; i++) {
    const [u, v] = layout === 'half_split' ? [i, i + h] : [2 * i, 2 * i + 1];
    const c = s * Math.cos(p * inv[i]), n = s * Math.sin(p * inv[i]);
    [qq[u], qq[v]] = [q[u] * c - q[v] * n, q[u] * n + q[v] * c];
  }
  const kk = Float64Array.from(k);
  for (let i = 0; i < h; i++) {
    const [u, v] = layout === 'half_split' ? [i, i + h] : [2 * i, 2 * i + 1];
    [kk[u], kk[v]] = [s * k[u], s * k[v]];
  }
  return qq.reduce((t, x, j) => t + x * kk[j], 0);
}

test('identical RoPEs: zero everywhere, verdict says so', () => {
  const r = pe.compareRope(rope(10000), rope(10000), { positions: 4096 });
  assert.equal(r.pairs, 64);
  assert.equal(r.pairs_differing, 0);
  assert.equal(r.first_differing_pair, -1);
  assert.deepEqual([r.max_dcos, r.max_dsin, r.max_score_error_ones, r.max_score_error_random], [0, 0, 0, 0]);
  assert.deepEqual(r.causes, []);
  assert.ok(r.agree);
  assert.match(r.verdict, /^identical/);
  assert.equal(r.positions.length, 4097); // every distance 0…4096
});

test('freq_base 1e4 vs 1e6: every pair but the first differs, ratios and scores as the closed forms', () => {
  const a = rope(10000), b = rope(1e6);
  const r = pe.compareRope(a, b, { positions: 8192, samples: 8193 });
  assert.equal(r.pairs_differing, 63);
  assert.equal(r.first_differing_pair, 1);
  for (let i = 0; i < 64; i++) assert.ok(Math.abs(r.freq_ratio[i] - 100 ** (-(2 * i) / 128)) <= TOL * r.freq_ratio[i], `ratio ${i}`);
  assert.match(r.verdict, /^rope_theta 1e4 vs 1e6: every pair but the first differs/);
  assert.match(r.verdict, /at distance 8192 the scores differ by/);
  for (const j of [0, 1, 100, 4097, 8192]) {
    assert.ok(Math.abs(r.score_error_ones[j] - onesError(a.inv_freq, b.inv_freq, j)) <= 1e-12, `ones at ${j}`);
    const sa = score(r.random_q, r.random_k, a.inv_freq, 'half_split', j), sb = score(r.random_q, r.random_k, b.inv_freq, 'half_split', j);
    const nq = Math.hypot(...r.random_q), nk = Math.hypot(...r.random_k);
    assert.ok(Math.abs(r.score_error_random[j] - Math.abs(sa - sb) / (nq * nk)) <= 1e-12, `random at ${j}`);
  }
  assert.equal(r.score_error_ones[0], 0);
  assert.ok(r.max_score_error_ones > 0.1 && !r.agree);
  // max |Δcos| at p = 1: max_i |cos θa_i − cos θb_i|, closed form
  const d1 = Math.max(...a.inv_freq.map((t, i) => Math.abs(Math.cos(t) - Math.cos(b.inv_freq[i]))));
  assert.ok(Math.abs(r.dcos[1] - d1) <= 1e-15);
});

test('attention_scaling 1.2773 vs 1 (vLLM #48621): every score × s², error (s² − 1)·Σ2cos/D', () => {
  const s = 1 + 0.1 * Math.log(16);
  const a = rope(1e6, 128, { attention_scaling: s }), b = rope(1e6);
  const r = pe.compareRope(a, b, { positions: 1000 });
  assert.equal(r.pairs_differing, 0);
  assert.match(r.causes[0], /^attention_scaling 1\.277 vs 1: every rotated score × 0\.613/);
  assert.ok(Math.abs(r.score_error_ones[0] - (s * s - 1)) <= 1e-12);
  for (const j of [1, 500, 1000]) assert.ok(Math.abs(r.score_error_ones[j] - onesError(a.inv_freq, b.inv_freq, j, s, 1)) <= 1e-12);
  assert.ok(Math.abs(r.max_dcos - (s - 1)) <= 1e-15); // at p = 0: s·1 − 1
});

test('layout interleaved vs half_split: all-ones cannot see it, random vectors can (independent rotation)', () => {
  const r = pe.compareRope(rope(10000, 64, { layout: 'interleaved' }), rope(10000, 64), { positions: 2048, seed: 7 });
  assert.equal(r.max_score_error_ones, 0);
  assert.match(r.verdict, /^layout interleaved vs half_split/);
  const inv = theta(10000, 64), nq = Math.hypot(...r.random_q), nk = Math.hypot(...r.random_k);
  for (const j of [0, 3, 2048]) {
    const want = Math.abs(score(r.random_q, r.random_k, inv, 'interleaved', j) - score(r.random_q, r.random_k, inv, 'half_split', j)) / (nq * nk);
    assert.ok(Math.abs(r.score_error_random[j] - want) <= 1e-12, `random at ${j}`);
  }
  assert.ok(r.max_score_error_random > 1e-3);
  // another seed, other vectors
  const r2 = pe.compareRope(rope(10000, 64, { layout: 'interleaved' }), rope(10000, 64), { positions: 16, seed: 8 });
  assert.notEqual(r2.random_q[0], r.random_q[0]);
});

test('layout null (a .gguf of an architecture llama.cpp\'s table lacks): compared as half_split, and said first', () => {
  const r = pe.compareRope({ ...rope(10000, 64), layout: null }, rope(10000, 64), { positions: 256 });
  assert.deepEqual(r.layout, ['unknown', 'half_split']);
  assert.match(r.verdict, /^layout of a unknown \(its file does not say how channels pair\): compared as half_split/);
  assert.equal(r.max_score_error_random, 0);
  assert.ok(r.agree);
});

test('partial rotary: the extra channels of one side pass through (all-ones closed form)', () => {
  const a = { inv_freq: theta(10000, 32), rotary_dim: 32, head_dim: 64 }, b = { inv_freq: theta(10000, 64), rotary_dim: 64, head_dim: 64 };
  const r = pe.compareRope(a, b, { positions: 100 });
  assert.equal(r.pairs, 16);
  assert.match(r.causes[0], /^rotary_dim 32 vs 64/);
  const tb = theta(10000, 64);
  for (const j of [0, 50, 100]) {
    const sa = 2 * theta(10000, 32).reduce((t, th) => t + Math.cos(j * th), 0) + 32;
    const sb = 2 * tb.reduce((t, th) => t + Math.cos(j * th), 0);
    assert.ok(Math.abs(r.score_error_ones[j] - Math.abs(sa - sb) / 64) <= 1e-12, `at ${j}`);
  }
});

test('sampling: every distance up to samples, else evenly spaced ending at the context length', () => {
  const r = pe.compareRope(rope(10000), rope(20000), { positions: 1e6, samples: 1001 });
  assert.equal(r.positions.length, 1001);
  assert.equal(r.positions[0], 0);
  assert.equal(r.positions[1000], 1e6);
  assert.equal(r.positions[1], 1000);
  // default: the larger max_position_embeddings
  const d = pe.compareRope(rope(10000, 128, { max_position_embeddings: 2048 }), rope(10000, 128, { max_position_embeddings: 4096 }));
  assert.equal(d.positions.at(-1), 4096);
});

test('Llama 3.1 vs Llama 3.2: same base, factor 8 vs 32 — exactly the pairs longer than the high-frequency wavelength differ', () => {
  const a = pe.ropeFromConfig(cfg('Llama-3.1-8B.json')), b = pe.ropeFromConfig(cfg('Llama-3.2-3B.json'));
  const r = pe.compareRope(a, b, { positions: 131072 });
  // λ_i = 2π/θ_i < original/high_freq_factor = 2048: kept by both
  const kept = theta(500000, 128).filter((t) => (2 * Math.PI) / t < 8192 / 4).length;
  assert.equal(r.pairs_differing, 64 - kept);
  assert.equal(r.first_differing_pair, kept);
  assert.match(r.verdict, new RegExp(`^inv_freq: ${64 - kept} of 64 pairs differ \\(first: pair ${kept}`));
  // fully scaled pairs (λ > 8192) have ratio 8/32
  assert.ok(Math.abs(r.freq_ratio[63] - 0.25) <= 1e-12);
  assert.equal(r.score_error_ones[0], 0);
});

test('per layer type: Gemma 3 with another local base — the sliding layers disagree, the verdict names them', () => {
  const g = cfg('gemma-3-4b-it.json');
  const other = structuredClone(g);
  (other.text_config ?? other).rope_local_base_freq = 20000;
  const r = pe.compareRope(pe.ropeFromConfig(g), pe.ropeFromConfig(other), { positions: 4096 });
  assert.ok(r.by_layer_type.full_attention.agree);
  assert.equal(r.by_layer_type.sliding_attention.agree, false);
  assert.equal(r.agree, false);
  assert.match(r.verdict, /^layer type 'sliding_attention': rope_theta 1e4 vs 2e4/);
  const only = pe.compareRope(pe.ropeFromConfig(g), pe.ropeFromConfig(other), { positions: 64, layer_type: 'sliding_attention' });
  assert.equal(only.layer_type, 'sliding_attention');
  assert.equal(only.agree, false);
});

test('bad input: clear errors naming the side and field, finite out at the caps', () => {
  const bad = (a, b, o, re) => assert.throws(() => pe.compareRope(a, b, o), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
  bad({}, rope(1), {}, /^a\.inv_freq: required/);
  bad(rope(10000), { inv_freq: [1, NaN] }, {}, /^b\.inv_freq\[1\]: must be a finite number/);
  bad(rope(10000), { ...rope(10000), attention_scaling: 1.7e308 }, {}, /^b\.attention_scaling: must be a finite number in \(0, 1e100\]/);
  bad(rope(10000), { ...rope(10000), layout: 'neox' }, {}, /^b\.layout: must be 'half_split', 'interleaved' or null/);
  bad(rope(10000), rope(10000), { position: 5 }, /unknown option 'position' \(did you mean 'positions'\?\)/);
  bad(rope(10000), rope(10000), { layer_type: 'sliding_attention' }, /^layer_type: neither side has layer types \(got 'sliding_attention'\)/);
  const g = pe.ropeFromConfig(cfg('gemma-3-4b-it.json'));
  bad(g, g, { layer_type: 'chunked_attention' }, /^layer_type: neither side has layer type 'chunked_attention'/);
  bad(null, rope(10000), {}, /^a: must be a RoPE description/);
  const r = pe.compareRope({ inv_freq: [1e6, 5e-324], attention_scaling: 1e100 }, { inv_freq: [0, 1] }, { positions: 2 ** 31 - 1, samples: 64 });
  for (const k of ['dcos', 'dsin', 'score_error_ones', 'score_error_random', 'freq_ratio']) assert.ok(r[k].every(Number.isFinite), k);
  // a pair rotating on one side only (θ = 0 on a): a finite ratio, the largest double
  const z = pe.compareRope({ inv_freq: [1, 0, 0.1] }, { inv_freq: [1, 0.5, 0.1] }, { positions: 8 });
  assert.deepEqual(Array.from(z.freq_ratio), [1, Number.MAX_VALUE, 1]);
  assert.match(z.verdict, /^inv_freq: 1 of 3 pairs differ \(first: pair 1, ratio 1\.798e308\)/);
});

test('the rope-compare figure draws compareRope\'s numbers, and its takeaway holds: the error grows with the distance', async () => {
  const { default: fig } = await import('../../web/src/figures/defs/rope-compare.js');
  const p = Object.fromEntries(Object.entries(fig.params).map(([k, s]) => [k, s.default]));
  const r = await fig.compute(pe, p, { checkpoint: async () => {} });
  const c = pe.compareRope(pe.ropeFromConfig(p.a), pe.ropeFromConfig(p.b), { positions: p.positions, samples: 8192 });
  assert.deepEqual(r.ratio, c.freq_ratio);
  assert.equal(r.max_ones, c.max_score_error_ones);
  assert.equal(Math.max(...r.ones), c.max_score_error_ones); // the per-pixel maxima keep the largest error
  // Llama 3.1 vs 3.2: below 1 % of the largest error over the first pixel (distances ≤ 145), the largest far out
  assert.ok(r.ones[0] < 0.01 * r.max_ones, `${r.ones[0]} vs ${r.max_ones}`);
  assert.ok(r.ones.slice(r.bins / 2).some((x) => x > 0.5 * r.max_ones));
  const out = fig.render(r);
  assert.match(out.readouts[0].text.en, /^inv_freq/);
  assert.match(out.readouts[0].text.zh, /^频率不同（inv_freq/);
});

test('each config beside its converted .gguf (tests/fixtures/gguf): the same RoPE as llama.cpp reads both', async () => {
  for (const n of ['Llama-3.1-8B', 'Phi-3-mini-128k-instruct', 'DeepSeek-V3', 'gemma-3-4b-it', 'Qwen2.5-VL-7B-Instruct', 'Qwen3-8B']) {
    const c = pe.ropeFromConfig(readFileSync(new URL(`../fixtures/configs/${n}.json`, import.meta.url), 'utf8'), { engine: 'llama.cpp' });
    const file = new URL(`../fixtures/gguf/${n}.gguf`, import.meta.url).pathname;
    // both at llama.cpp's default context (llama-cli's -c 0: the trained context; Phi-3 128k: long factors)
    const g = await pe.ropeFromGGUF(file);
    const r = pe.compareRope(c, g);
    assert.ok(r.agree, `${n}: ${r.verdict}`);
    // what differs at all is float32 storage of the frequencies (rope_freqs, rope_factors_*)
    assert.ok(r.pairs_differing === 0 || /within float32 rounding/.test(r.verdict), `${n}: ${r.verdict}`);
    assert.ok(r.max_score_error_ones < 1e-3 && r.max_score_error_random < 1e-3, n);
  }
  // the Llama .gguf pairs consecutive channels of permuted q/k rows: stated as an assumption, not a difference
  const l = pe.compareRope(pe.ropeFromConfig(cfg('Llama-3.1-8B.json')), await pe.ropeFromGGUF(new URL('../fixtures/gguf/Llama-3.1-8B.gguf', import.meta.url).pathname));
  assert.match(l.notes[0], /^pairing: the \.gguf \(b\) rotates consecutive pairs.*LlamaModel\.permute/);
  assert.deepEqual(l.layout, ['half_split', 'half_split']);
});
