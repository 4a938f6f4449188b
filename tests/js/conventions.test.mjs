// One convention: half_split by default everywhere; Q/K in [seq, heads, d], [batch, seq, heads, d] or
// [batch, heads, seq, d] agree by permutation; Hugging Face-shaped cos/sin (duplicate); scaled RoPE in one call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomVec } from './helpers.mjs';

const same = (a, b, what) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};
const close = (a, b, tol, what) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

/** [B, S, H, D] → [B, H, S, D] in plain JS. */
function bshdToBhsd(x, B, S, H, D) {
  const y = new Float32Array(x.length);
  for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) for (let h = 0; h < H; h++) {
    for (let d = 0; d < D; d++) y[((b * H + h) * S + s) * D + d] = x[((b * S + s) * H + h) * D + d];
  }
  return y;
}

const B = 3, S = 17, H = 4, D = 16;
const x = randomVec(B * S * H * D, 1), y = randomVec(B * S * H * D, 2);

for (const [name, pe] of builds) {
  test(`${name}: the default RoPE layout is half_split in every function`, () => {
    const q = randomVec(64, 3), k = randomVec(64, 4);
    same(pe.ropeInnerProductSweep({ q, k, head_dim: 64, count: 50 }), pe.ropeInnerProductSweep({ q, k, head_dim: 64, count: 50, layout: 'half_split' }), 'sweep');
    same(pe.ropeApply(q, { seq: 1, head_dim: 64, positions: [9] }), pe.ropeApply(q, { seq: 1, head_dim: 64, positions: [9], layout: 'half_split' }), 'ropeApply');
    same(pe.xposApply(q, { seq: 1, head_dim: 64 }), pe.xposApply(q, { seq: 1, head_dim: 64, layout: 'half_split' }), 'xposApply');
    same(pe.attentionScores({ q, k: q, seq: 4, head_dim: 16, rope: {} }), pe.attentionScores({ q, k: q, seq: 4, head_dim: 16, rope: { layout: 'half_split' } }), 'attentionScores');
    // half_split pairs (i, i + d/2): the sweep is ⟨R_m q, R_n k⟩ with those pairs
    const inv = pe.ropeInvFreq({ rotary_dim: 64 });
    const v = pe.ropeInnerProductSweep({ q, k, head_dim: 64, q_position: 5, k_start: 0, count: 20 });
    for (let n = 0; n < 20; n++) {
      let s = 0;
      for (let i = 0; i < 32; i++) {
        const a = (5 - n) * inv[i];
        const [q0, q1, k0, k1] = [q[i], q[i + 32], k[i], k[i + 32]];
        s += (q0 * k0 + q1 * k1) * Math.cos(a) - (q1 * k0 - q0 * k1) * Math.sin(a);
      }
      assert.ok(Math.abs(v[n] - s) <= 1e-5 * 32, `n=${n}`);
    }
  });

  test(`${name}: ropeApply and xposApply in bshd / bhsd agree with shd per sequence, by permutation`, () => {
    const run = S * H * D;
    for (const [method, extra] of [['ropeApply', { rope_theta: 5e5, rotary_dim: 8 }], ['xposApply', { offset: 2 }]]) {
      const bshd = pe[method](x, { seq: S, heads: H, head_dim: D, batch: B, qk_layout: 'bshd', ...extra });
      const bhsd = pe[method](bshdToBhsd(x, B, S, H, D), { seq: S, heads: H, head_dim: D, batch: B, qk_layout: 'bhsd', ...extra });
      for (let b = 0; b < B; b++) {
        same(bshd.subarray(b * run, (b + 1) * run), pe[method](x.subarray(b * run, (b + 1) * run), { seq: S, heads: H, head_dim: D, ...extra }), `${method} bshd ${b}`);
      }
      same(bhsd, bshdToBhsd(bshd, B, S, H, D), `${method} bhsd`);
    }
    // positions per sequence (batch·seq of them)
    const pos = Array.from({ length: B * S }, (_, i) => (i * 7) % 50);
    const per = pe.ropeApply(x, { seq: S, heads: H, head_dim: D, batch: B, qk_layout: 'bshd', positions: pos });
    for (let b = 0; b < B; b++) {
      same(per.subarray(b * run, (b + 1) * run), pe.ropeApply(x.subarray(b * run, (b + 1) * run), { seq: S, heads: H, head_dim: D, positions: pos.slice(b * S, (b + 1) * S) }), `positions ${b}`);
    }
    assert.throws(() => pe.ropeApply(x, { seq: S, heads: H, head_dim: D, batch: B }), /batch: must be 1 with qk_layout 'shd' \(got 3\)/);
  });

  test(`${name}: attentionScores over batch and heads equals the single-head scores of each, in every Q/K layout`, () => {
    const bshd = pe.attentionScores({ q: x, k: y, seq: S, heads: H, head_dim: D, batch: B, qk_layout: 'bshd', rope: { rope_theta: 1e4 }, causal: true });
    const bhsd = pe.attentionScores({ q: bshdToBhsd(x, B, S, H, D), k: bshdToBhsd(y, B, S, H, D), seq: S, heads: H, head_dim: D, batch: B,
      qk_layout: 'bhsd', rope: { rope_theta: 1e4 }, causal: true });
    same(bhsd, bshd, 'bhsd = bshd');
    const qh = bshdToBhsd(x, B, S, H, D), kh = bshdToBhsd(y, B, S, H, D);
    for (let r = 0; r < B * H; r++) {
      const one = pe.attentionScores({ q: qh.subarray(r * S * D, (r + 1) * S * D), k: kh.subarray(r * S * D, (r + 1) * S * D), seq: S, head_dim: D,
        rope: { rope_theta: 1e4 }, causal: true });
      same(bshd.subarray(r * S * S, (r + 1) * S * S), one, `run ${r}`);
    }
    const shd = pe.attentionScores({ q: x.subarray(0, S * H * D), k: y.subarray(0, S * H * D), seq: S, heads: H, head_dim: D });
    same(shd, pe.attentionScores({ q: x.subarray(0, S * H * D), k: y.subarray(0, S * H * D), seq: S, heads: H, head_dim: D, batch: 1, qk_layout: 'bshd' }), 'shd = bshd with batch 1');
  });

  test(`${name}: Hugging Face-shaped cos/sin (duplicate) — tables and rotation`, () => {
    const t = pe.ropeTables({ rotary_dim: 8, positions: 5 });
    const hf = pe.ropeTables({ rotary_dim: 8, positions: 5, duplicate: true });
    assert.equal(hf.cos.length, 40);
    for (let p = 0; p < 5; p++) for (let i = 0; i < 4; i++) {
      assert.equal(hf.cos[p * 8 + i], t.cos[p * 4 + i]);
      assert.equal(hf.cos[p * 8 + 4 + i], t.cos[p * 4 + i]);
      assert.equal(hf.sin[p * 8 + 4 + i], t.sin[p * 4 + i]);
    }
    const q = randomVec(5 * 2 * 8, 5);
    const ref = pe.ropeApplyTables(q, { seq: 5, heads: 2, head_dim: 8, cos: t.cos, sin: t.sin });
    same(pe.ropeApply(q, { seq: 5, heads: 2, head_dim: 8, cos: hf.cos, sin: hf.sin, duplicate: true }), ref, 'duplicate tables');
    same(pe.ropeApply(q, { seq: 5, heads: 2, head_dim: 8 }), ref, 'from rope_theta');
    // HF's formula on the duplicated tables: q·cos + rotate_half(q)·sin
    for (let s = 0; s < 5; s++) for (let c = 0; c < 8; c++) {
      const row = (s * 2 + 1) * 8, rot = c < 4 ? -q[row + c + 4] : q[row + c - 4];
      assert.ok(Math.abs(ref[row + c] - (q[row + c] * hf.cos[s * 8 + c] + rot * hf.sin[s * 8 + c])) <= 1e-6);
    }
    const out = { cos: pe.alloc(Float32Array, 40), sin: new Float32Array(40) };
    pe.ropeTables({ rotary_dim: 8, positions: 5, duplicate: true, out });
    same(out.cos.array, hf.cos, 'out.cos wasm');
    same(out.sin, hf.sin, 'out.sin plain');
    out.cos.free();
  });

  test(`${name}: scaled RoPE in one call — ropeApply and attentionScores take ropeFromConfig's result`, () => {
    const config = { head_dim: 16, rope_theta: 500000, max_position_embeddings: 131072,
      rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
    const rope = pe.ropeFromConfig(config);
    assert.ok(rope.attention_scaling > 1);
    const q = randomVec(S * H * D, 6), k = randomVec(S * H * D, 7);
    const t = pe.ropeTablesScaled({ inv_freq: rope.inv_freq, attention_scaling: rope.attention_scaling, positions: S });
    const ref = pe.ropeApplyTables(q, { seq: S, heads: H, head_dim: D, cos: t.cos, sin: t.sin });
    same(pe.ropeApply(q, { seq: S, heads: H, head_dim: D, rope }), ref, 'ropeApply({ rope })');
    const rk = pe.ropeApplyTables(k, { seq: S, heads: H, head_dim: D, cos: t.cos, sin: t.sin });
    const scores = pe.attentionScores({ q, k, seq: S, heads: H, head_dim: D, rope, causal: true });
    same(scores, pe.attentionScores({ q: ref, k: rk, seq: S, heads: H, head_dim: D, causal: true }), 'attentionScores({ rope })');
    // without scaling the scaled path is the plain one (up to the table route's rounding, which is the same)
    const plain = pe.ropeInvFreqScaled({ rotary_dim: 16, rope_theta: 1e4 });
    close(pe.attentionScores({ q, k, seq: S, heads: H, head_dim: D, rope: plain }), pe.attentionScores({ q, k, seq: S, heads: H, head_dim: D, rope: {} }), 1e-6, 'unscaled');
    assert.throws(() => pe.ropeApply(q, { seq: S, heads: H, head_dim: D, rope, rope_theta: 1e4 }), /rope_theta: not allowed together with rope/);
    assert.throws(() => pe.ropeApply(q, { seq: S, heads: H, head_dim: D, rope, rotary_dim: 8 }), /rotary_dim: must equal 2·rope.inv_freq.length = 16 \(got 8\)/);
    assert.throws(() => pe.ropeApply(q, { seq: S, heads: H, head_dim: D, rope: { attention_scaling: 1 } }), /^PosencError: rope: must be the result of ropeFromConfig/);
  });
}

test('NaN inside data arrays propagates as documented: only through the pair (RoPE) or the row (scores) it enters', () => {
  for (const [, pe] of builds) {
    const q = new Float32Array(4 * 8).fill(0.5);
    q[8 + 3] = NaN; // row 1, channel 3
    const nanAt = (a) => Array.from(a.keys()).filter((i) => Number.isNaN(a[i]));
    assert.deepEqual(nanAt(pe.ropeApply(q, { seq: 4, head_dim: 8 })), [8 + 3, 8 + 7]);                  // pair (3, 7)
    assert.deepEqual(nanAt(pe.ropeApply(q, { seq: 4, head_dim: 8, layout: 'interleaved' })), [8 + 2, 8 + 3]); // pair (2, 3)
    assert.deepEqual(nanAt(pe.attentionScores({ q, k: new Float32Array(32).fill(0.25), seq: 4, head_dim: 8 })), [4, 5, 6, 7]); // row 1
  }
});
