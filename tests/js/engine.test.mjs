// Attention engine, linear attention, decay sweeps and analytics through the package, on both wasm builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomVec, dot, throwsNamed } from './helpers.mjs';

const SWEEP_REL = 1e-5;  // relative to Σ|h_i|
const ROW_SUM = 1e-6;

/** float64 ⟨R_m q, R_n k⟩ with interleaved pairs, by explicit rotation. */
function directInner(q, k, inv, m, n) {
  let s = 0;
  for (let i = 0; i < inv.length; i++) {
    const [cm, sm, cn, sn] = [Math.cos(m * inv[i]), Math.sin(m * inv[i]), Math.cos(n * inv[i]), Math.sin(n * inv[i])];
    const qa = q[2 * i] * cm - q[2 * i + 1] * sm, qb = q[2 * i] * sm + q[2 * i + 1] * cm;
    const ka = k[2 * i] * cn - k[2 * i + 1] * sn, kb = k[2 * i] * sn + k[2 * i + 1] * cn;
    s += qa * ka + qb * kb;
  }
  return s;
}

/** splitmix64 stream, uniform in [−1, 1) — the documented generator, written again here from its spec. */
function stream(key, n) {
  const M = (1n << 64n) - 1n;
  let z = BigInt(key) & M;
  return Float32Array.from({ length: n }, () => {
    z = (z + 0x9E3779B97F4A7C15n) & M;
    let r = z;
    r = ((r ^ (r >> 30n)) * 0xBF58476D1CE4E5B9n) & M;
    r = ((r ^ (r >> 27n)) * 0x94D049BB133111EBn) & M;
    r ^= r >> 31n;
    return Number(r >> 40n) / 2 ** 23 - 1;
  });
}

const windowMean = (v, c, h) => { let s = 0; for (let r = c - h; r < c + h; r++) s += v[r]; return s / (2 * h); };
const smoothedArgmin = (v) => {
  let best = Infinity, arg = 0;
  for (let c = 2000; c < v.length - 2000; c += 250) { const m = windowMean(v, c, 1000); if (m < best) { best = m; arg = c; } }
  return [arg, best];
};

for (const [name, pe] of builds) {
  test(`${name}: inner-product sweep equals explicit rotation (random q, k from the seed), near and far`, () => {
    const d = 64, seed = 12345;
    const q = stream(BigInt(seed) ^ 0x51n, d), k = stream(BigInt(seed) ^ 0x4bn, d);
    const inv = pe.ropeInvFreq({ rotary_dim: d });
    let hsum = 0;
    for (let i = 0; i < d / 2; i++) hsum += Math.hypot(q[2 * i], q[2 * i + 1]) * Math.hypot(k[2 * i], k[2 * i + 1]);
    for (const k_start of [0, 2 ** 20 - 600]) {
      const v = pe.ropeInnerProductSweep({ q: 'random', k: 'random', seed, head_dim: d, q_position: 77, k_start, count: 500, layout: 'interleaved' });
      for (let j = 0; j < 500; j += 3) {
        assert.ok(Math.abs(v[j] - directInner(q, k, inv, 77, k_start + j)) <= SWEEP_REL * hsum, `n=${k_start + j}`);
      }
    }
  });

  test(`${name}: q = k = ones, d = 512 — the seed's decay curves`, () => {
    const v = pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, count: 65536 });
    assert.ok(Math.abs(v[0] - 512) < 1e-3);
    const [arg, best] = smoothedArgmin(v);
    assert.ok(arg >= 12000 && arg <= 20000, `smoothed minimum at ${arg}`);
    assert.ok(windowMean(v, 42000, 4000) > best + 20, 'rises again past ~15000');
    const w = pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, rope_theta: 5e6, count: 65536 });
    assert.ok(smoothedArgmin(w)[0] > 55000, 'base 5e6 keeps decaying');
    const mid = pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, q_position: 2048, count: 4097 });
    for (let t = 1; t <= 2048; t += 101) assert.ok(Math.abs(mid[2048 - t] - mid[2048 + t]) < 1e-3);
  });

  test(`${name}: Su's bound curve (d = 128, r = 0 … 256) and the envelope`, () => {
    const f = pe.ropeDecayBound({ rotary_dim: 128, count: 257 });
    const inv = pe.ropeInvFreq({ rotary_dim: 128 });
    for (let r = 0; r <= 256; r += 8) {
      let sr = 0, si = 0, acc = 0;
      for (let i = 0; i < 64; i++) { sr += Math.cos(r * inv[i]); si += Math.sin(r * inv[i]); acc += Math.hypot(sr, si); }
      assert.ok(Math.abs(f[r] - acc / 64) <= 1e-5 * 64);
    }
    assert.ok(Math.abs(f[0] - 32.5) < 1e-4);
    const e = pe.envelope(f, 10);
    for (let p = 0; p < 10; p++) {
      const a = Math.floor(p * 257 / 10), b = Math.floor((p + 1) * 257 / 10);
      const seg = Array.from(f.subarray(a, b));
      assert.equal(e.min[p], Math.min(...seg));
      assert.equal(e.max[p], Math.max(...seg));
    }
    const a = pe.ropeFrequencyAnalysis({ rotary_dim: 128, original_max_position_embeddings: 4096 });
    assert.ok(Math.abs(a.wavelength[0] - 2 * Math.PI) < 1e-12);
    assert.equal(a.first_incomplete, Math.floor(64 * Math.log(4096 / (2 * Math.PI)) / Math.log(1e4)) + 1);
    assert.ok(a.wavelength[a.first_incomplete] > 4096 && a.wavelength[a.first_incomplete - 1] <= 4096);
  });

  test(`${name}: attention engine — none equals attentionScores, rows sum to 1, output = probs·V`, () => {
    const seq = 6, d = 8;
    const q = randomVec(seq * d, 1), k = randomVec(seq * d, 2), v = randomVec(seq * d, 3);
    const r = pe.attention({ scheme: { type: 'none' }, q, k, v, seq, head_dim: d });
    assert.deepEqual(r.term_names, ['content_content']);
    const ref = pe.attentionScores({ q, k, seq, head_dim: d, softmax: false });
    for (let i = 0; i < seq * seq; i++) assert.ok(Math.abs(r.scores[i] - ref[i]) < 1e-6);
    for (let i = 0; i < seq; i++) {
      let s = 0;
      for (let j = 0; j < seq; j++) s += r.probs[i * seq + j];
      assert.ok(Math.abs(s - 1) <= ROW_SUM);
      for (let c = 0; c < d; c++) {
        let o = 0;
        for (let j = 0; j < seq; j++) o += r.probs[i * seq + j] * v[j * d + c];
        assert.ok(Math.abs(r.output[i * d + c] - o) < 1e-6);
      }
    }
  });

  test(`${name}: attention engine — qk_layout 'bhsd' / 'bshd' (batch 1) agree with [seq, heads, d] by permutation`, () => {
    const seq = 5, heads = 3, d = 8;
    const [q, k, v] = [11, 12, 13].map((s) => randomVec(seq * heads * d, s));
    /** [a, b, d] → [b, a, d], written out independently of the package. */
    const swap = (x, a, b) => {
      const y = new Float32Array(x.length);
      for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) for (let c = 0; c < d; c++) y[(j * a + i) * d + c] = x[(i * b + j) * d + c];
      return y;
    };
    const scheme = { type: 'rope' };
    const ref = pe.attention({ scheme, q, k, v, seq, heads, head_dim: d, causal: true });
    const hsd = pe.attention({ scheme, q: swap(q, seq, heads), k: swap(k, seq, heads), v: swap(v, seq, heads), seq, heads, head_dim: d,
      causal: true, batch: 1, qk_layout: 'bhsd' });
    assert.deepEqual(hsd.scores, ref.scores);
    assert.deepEqual(hsd.probs, ref.probs);
    assert.deepEqual(hsd.output, swap(ref.output, seq, heads));
    const bshd = pe.attention({ scheme, q, k, v, seq, heads, head_dim: d, causal: true, qk_layout: 'bshd' });
    assert.deepEqual(bshd.output, ref.output);
    throwsNamed(assert, () => pe.attention({ scheme, q, k, v, seq, heads, head_dim: d, batch: 2, qk_layout: 'bshd' }), 'batch: the attention engine takes one sequence');
    throwsNamed(assert, () => pe.attention({ scheme, q: q.subarray(1), k, v, seq, heads, head_dim: d, qk_layout: 'bhsd' }), 'q: length must equal');
    throwsNamed(assert, () => pe.attention({ scheme, q, k, v, seq, heads, head_dim: d, qk_layout: 'hsd' }), "qk_layout: must be one of");
  });

  test(`${name}: attention engine — term decomposition per scheme, from text, causal`, () => {
    const expect = {
      none: ['content_content'], sinusoidal: ['content_content', 'content_position', 'position_content', 'position_position'],
      transformer_xl: ['content_content', 'content_position', 'position_content', 'position_position'],
      deberta: ['content_content', 'content_position', 'position_content'], t5: ['content_content', 'bias'],
      alibi: ['content_content', 'bias'], tupe: ['content_content', 'position_position'], rope: ['content_content'],
    };
    for (const [type, names] of Object.entries(expect)) {
      const r = pe.attention({ scheme: { type }, text: 'the cat chased the mouse', heads: 2, head_dim: 8, causal: true });
      assert.deepEqual(r.term_names, names, type);
      assert.deepEqual(r.tokens, ['the', 'cat', 'chased', 'the', 'mouse']);
      for (let h = 0; h < 2; h++) for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
        const at = h * 25 + i * 5 + j;
        if (j > i) { assert.equal(r.probs[at], 0); assert.equal(r.scores[at], -Infinity); continue; }
        const sum = names.reduce((s, n) => s + r.terms[n][at], 0);
        assert.ok(Math.abs(r.scores[at] - sum) < 1e-5, `${type} (${h},${i},${j})`);
      }
    }
    // RoPE with a Hugging Face rope_scaling block goes through the same path.
    const y = pe.attention({ scheme: { type: 'rope', rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32 },
      text: 'a b c d', head_dim: 16 });
    const plain = pe.attention({ scheme: { type: 'rope' }, text: 'a b c d', head_dim: 16 });
    assert.notDeepEqual(y.scores, plain.scores);
  });

  test(`${name}: permutation check and linear attention`, () => {
    const text = 'the cat chased the mouse';
    assert.equal(pe.permutationChange({ scheme: { type: 'none' }, text, i: 1, j: 4, head_dim: 8 }), 0);
    for (const type of ['rope', 'sinusoidal', 'alibi', 't5', 'shaw', 'xpos']) {
      assert.ok(pe.permutationChange({ scheme: { type }, text, i: 1, j: 4, head_dim: 8 }) > 1e-3, type);
    }
    const seq = 16, d = 8, q = randomVec(seq * d, 4), k = randomVec(seq * d, 5), v = randomVec(seq * 2, 6);
    const safe = pe.linearAttentionRope({ q, k, v, seq, head_dim: d, v_dim: 2, form: 'numerator_only', causal: true });
    assert.ok(safe.denominator.every((x) => x > 0));
    const naive = pe.linearAttentionRope({ q, k, v, seq, head_dim: d, v_dim: 2, form: 'naive', causal: true });
    // row 0 (causal): one term, the same in both forms — R_0 is the identity
    assert.ok(Math.abs(naive.denominator[0] - safe.denominator[0]) < 1e-5);
    assert.ok(Math.abs(naive.output[0] - v[0]) < 1e-5 && Math.abs(safe.output[1] - v[1]) < 1e-5);
  });

  test(`${name}: engine errors are named and the module keeps working`, () => {
    throwsNamed(assert, () => pe.attention({ scheme: { type: 'fancy' }, text: 'a b', head_dim: 8 }), 'scheme.type: must be one of');
    throwsNamed(assert, () => pe.attention({ scheme: { type: 'none' }, q: [1], k: [1], v: [1], seq: 2, head_dim: 8 }), 'q: length must equal');
    throwsNamed(assert, () => pe.attention({ scheme: { type: 'learned', table: { rows: 1, cols: 8, data: new Float32Array(8) } },
      text: 'a b', head_dim: 8 }), 'scheme.table: has 1 rows');
    throwsNamed(assert, () => pe.attention({ scheme: { type: 'rope', rope_type: 'linear' }, text: 'a b', head_dim: 8 }), 'factor');
    throwsNamed(assert, () => pe.linearAttentionRope({ q: [], k: [], v: [], seq: 1, head_dim: 8, v_dim: 1, form: 'x' }), "form: must be one of");
    throwsNamed(assert, () => pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 8, count: 2 ** 20 + 1 }), 'count:');
    throwsNamed(assert, () => pe.envelope(new Float32Array(4), 0), 'width:');
    assert.equal(pe.ropeDecayBound({ rotary_dim: 8, count: 1 })[0], 2.5);
  });
}
