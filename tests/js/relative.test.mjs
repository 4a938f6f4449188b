// Relative encodings through the package: T5, Shaw, Transformer-XL, DeBERTa v2, TUPE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomVec, dotRows as dot, throwsNamed } from './helpers.mjs';

const SCORE_ABS_PER_D = 1e-5;  // float32 dot products of entries in [-1, 1), per channel

// 002 seed table: T5 bucket f(i − j) for i − j = 0 … 30 (32 buckets, max_distance 128)
const SEED_T5 = [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11];

for (const [name, pe] of builds) {
  test(`${name}: T5 buckets reproduce the seed's table; bias gathers table[bucket][head]`, () => {
    for (let n = 0; n <= 30; n++) {
      assert.equal(pe.t5RelativePositionBucket(-n), SEED_T5[n]);  // key − query = −n
      if (n > 0) assert.equal(pe.t5RelativePositionBucket(n), 16 + SEED_T5[n]);
      assert.equal(pe.t5RelativePositionBucket(-n, { bidirectional: false, num_buckets: 16 }), SEED_T5[n]);
    }
    const m = pe.t5Buckets({ q_len: 31 });
    for (let i = 0; i < 31; i++) for (let j = 0; j <= i; j++) assert.equal(m[i * 31 + j], SEED_T5[i - j]);
    const H = 2, table = randomVec(32 * H, 9);
    const bias = pe.t5Bias({ table, num_heads: H, q_len: 4, k_len: 6 });
    for (let h = 0; h < H; h++)
      for (let i = 0; i < 4; i++)
        for (let j = 0; j < 6; j++) assert.equal(bias[(h * 4 + i) * 6 + j], table[pe.t5RelativePositionBucket(j - i) * H + h]);
  });

  test(`${name}: Shaw scores equal q·(k + a[clip(j − i) + K])/√d`, () => {
    const Q = 5, d = 8, K = 2;
    const idx = pe.shawRelativeIndex({ q_len: Q, max_relative_position: K });
    const q = randomVec(Q * d, 1), k = randomVec(Q * d, 2), a = randomVec((2 * K + 1) * d, 3);
    const s = pe.shawScores({ q, k, table_k: a, q_len: Q, d, max_relative_position: K });
    for (let i = 0; i < Q; i++)
      for (let j = 0; j < Q; j++) {
        const m = Math.min(Math.max(j - i, -K), K) + K;
        assert.equal(idx[i * Q + j], m);
        const want = (dot(q, i, k, j, d) + dot(q, i, a, m, d)) / Math.sqrt(d);
        assert.ok(Math.abs(s[i * Q + j] - want) <= 2 * SCORE_ABS_PER_D * d);
      }
  });

  test(`${name}: Transformer-XL rel_shift result equals the direct computation`, () => {
    const Q = 4, M = 2, Kl = Q + M, d = 6;
    const q = randomVec(Q * d, 4), k = randomVec(Kl * d, 5), r = randomVec(Kl * d, 6), u = randomVec(d, 7), v = randomVec(d, 8);
    const t = pe.xlScores({ q, k, r, u, v, qlen: Q, klen: Kl, d });
    for (let i = 0; i < Q; i++)
      for (let j = 0; j < Kl; j++) {
        if (j > i + M) { assert.equal(t.score[i * Kl + j], -Infinity); continue; }
        const m = Kl - 1 - (i + M - j);
        const want = dot(q, i, k, j, d) + dot(q, i, r, m, d) + dot(u, 0, k, j, d) + dot(v, 0, r, m, d);
        assert.ok(Math.abs(t.score[i * Kl + j] - want / Math.sqrt(d)) <= 4 * SCORE_ABS_PER_D * d);
      }
    const R = pe.xlPositionEmbedding({ klen: 3, d: 4 });
    assert.ok(Math.abs(R[0] - Math.sin(2)) < 1e-7 && Math.abs(R[2] - Math.cos(2)) < 1e-7 && R[2 * 4 + 2] === 1);
    const x = Float32Array.from({ length: 6 }, (_, i) => i + 1);  // [[1 2 3] [4 5 6]], qlen 2, klen 3
    assert.deepEqual(Array.from(pe.relShift(x, { qlen: 2, klen: 3 })), [2, 3, 0, 4, 5, 6]);
    // zero_triu: × tril(ones(qlen, klen), klen − qlen) — entries past the diagonal become 0
    const y = Float32Array.from({ length: 6 }, (_, i) => 10 * (i + 1));
    // qlen 3 > klen 2 (the diagonal klen − qlen = −1): [[0 30] [40 0] [50 60]], zero_triu keeps j ≤ i − 1
    assert.deepEqual(Array.from(pe.relShift(y, { qlen: 3, klen: 2 })), [0, 30, 40, 0, 50, 60]);
    assert.deepEqual(Array.from(pe.relShift(y, { qlen: 3, klen: 2, zero_triu: true })), [0, 0, 40, 0, 50, 60]);
    assert.deepEqual(Array.from(pe.relShift(x, { qlen: 2, klen: 3, zero_triu: true })), [2, 3, 0, 4, 5, 6]);
    const z = Float32Array.from({ length: 9 }, (_, i) => i + 1);  // qlen 3, klen 3: leftovers above the diagonal
    const shifted = pe.relShift(z, { qlen: 3, klen: 3 }), zeroed = pe.relShift(z, { qlen: 3, klen: 3, zero_triu: true });
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(zeroed[i * 3 + j], j > i ? 0 : shifted[i * 3 + j]);
    assert.equal(shifted[2], 4);  // (0, 2) holds a leftover (x[1][0]) without zero_triu
  });

  test(`${name}: DeBERTa relative positions i − j, log buckets, √(3d) scale`, () => {
    const rp = pe.debertaRelativePositions({ q_len: 3, k_len: 4 });
    assert.deepEqual(Array.from(rp), [0, -1, -2, -3, 1, 0, -1, -2, 2, 1, 0, -1]);
    const lb = pe.debertaRelativePositions({ q_len: 600, k_len: 1, position_buckets: 256, max_relative_positions: 512 });
    assert.equal(lb[128], 128);
    assert.equal(lb[511], 255);
    // the scalar bucket: the same integers; the exact zone; the reference formula away from ⌈⌉ boundaries
    const opts = { position_buckets: 256, max_relative_positions: 512 };
    assert.equal(pe.debertaLogBucket(511, opts), 255);
    assert.equal(pe.debertaLogBucket(-511, opts), -255);
    assert.equal(pe.debertaLogBucket(-127, opts), -127);
    for (const r of [200, 300, 1000, 5000, -777]) {
      assert.equal(pe.debertaLogBucket(r, opts), lb[r] ?? Math.sign(r) * (Math.ceil(Math.log(Math.abs(r) / 128) / Math.log(511 / 128) * 127) + 128));
    }
    // no silent fallback: buckets without max_relative_positions is an error, not plain δ
    throwsNamed(assert, () => pe.debertaRelativePositions({ q_len: 3, position_buckets: 256 }), 'max_relative_positions');
    assert.throws(() => pe.debertaRelativePositions({ q_len: 3, position_buckets: 256 }), /required \(>= 1\) when position_buckets > 0/);
    throwsNamed(assert, () => pe.debertaLogBucket(300, { position_buckets: 256 }), 'max_relative_positions');
    throwsNamed(assert, () => pe.debertaLogBucket(1.5, opts), 'relative_position');
    const n = 6, d = 8, span = 4;
    const q = randomVec(n * d, 10), k = randomVec(n * d, 11), pk = randomVec(2 * span * d, 12), pq = randomVec(2 * span * d, 13);
    const t = pe.debertaScores({ q, k, pos_key: pk, pos_query: pq, seq: n, d, max_relative_positions: span });
    assert.ok(Math.abs(t.scale - Math.sqrt(3 * d)) < 1e-6);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const c = Math.min(Math.max(i - j + span, 0), 2 * span - 1);
        const want = (dot(q, i, k, j, d) + dot(q, i, pk, c, d) + dot(k, j, pq, c, d)) / Math.sqrt(3 * d);
        assert.ok(Math.abs(t.score[i * n + j] - want) <= 3 * SCORE_ABS_PER_D * d);
      }
    const one = pe.debertaScores({ q, k, pos_key: pk, seq: n, d, max_relative_positions: span });
    assert.ok(Math.abs(one.scale - Math.sqrt(2 * d)) < 1e-6);
    assert.equal(one.p2c, null);
  });

  test(`${name}: TUPE positional term (pU_q)(pU_k)ᵀ/√(2·head_dim)`, () => {
    const n = 4, M = 6, Dh = 3;
    const p = randomVec(n * M, 20), uq = randomVec(M * Dh, 21), uk = randomVec(M * Dh, 22);
    const s = pe.tupePositionScores({ p, u_q: uq, u_k: uk, n, d_model: M, head_dim: Dh });
    const proj = (u, i) => Array.from({ length: Dh }, (_, c) => { let a = 0; for (let m = 0; m < M; m++) a += p[i * M + m] * u[m * Dh + c]; return a; });
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const a = proj(uq, i), b = proj(uk, j);
        const want = a.reduce((acc, x, c) => acc + x * b[c], 0) / Math.sqrt(2 * Dh);
        assert.ok(Math.abs(s[i * n + j] - want) <= 1e-5 * M);
      }
  });

  test(`${name}: relative entry points reject bad input and stay usable`, () => {
    throwsNamed(assert, () => pe.t5RelativePositionBucket(0, { num_buckets: 1, bidirectional: false }), 'num_buckets: must be an integer in [2,');
    throwsNamed(assert, () => pe.t5RelativePositionBucket(0, { num_buckets: 2 }), 'num_buckets: must be >= 4 when bidirectional');
    throwsNamed(assert, () => pe.t5Buckets({ q_len: 2, max_distance: 8 }), 'max_distance: must be > 8');
    throwsNamed(assert, () => pe.t5Bias({ table: new Float32Array(32), num_heads: 0, q_len: 2 }), 'num_heads: must be an integer in [1, 1024] (got 0)');
    throwsNamed(assert, () => pe.t5Bias({ table: new Float32Array(31), num_heads: 1, q_len: 2 }), 'table: length must equal');
    throwsNamed(assert, () => pe.shawScores({ q: [1], table_k: [1], q_len: 1, d: 1, max_relative_position: 2 }), 'table_k: length must equal');
    throwsNamed(assert, () => pe.xlScores({ q: [1], k: [1], r: [1], qlen: 2, klen: 1, d: 1 }), 'klen: must be an integer in [2, 8192] (got 1)');
    throwsNamed(assert, () => pe.xlPositionEmbedding({ klen: 3, d: 3 }), 'd: must be even (got 3)');
    throwsNamed(assert, () => pe.debertaScores({ q: [1], k: [1], seq: 1, d: 1 }), 'max_relative_positions: must be >= 1');
    throwsNamed(assert, () => pe.debertaRelativePositions({ q_len: 2, position_buckets: 256, max_relative_positions: 100 }), 'max_relative_positions: must be > position_buckets/2 + 1');
    throwsNamed(assert, () => pe.tupePositionScores({ p: [1], u_q: [1], u_k: [1], n: 1, d_model: 1, heads: 0, head_dim: 1 }), 'heads: must be an integer in [1, 1024] (got 0)');
    throwsNamed(assert, () => pe.t5RelativePositionBucket(1.5), 'relative_position: must be an integer');
    assert.equal(pe.t5RelativePositionBucket(-8), 8);
  });
}
