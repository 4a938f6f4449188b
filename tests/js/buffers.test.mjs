// Zero-copy buffers: wasm buffers (pe.alloc) and `out` give the same numbers as the copying path, stay valid across
// memory growth, are refused once freed, and calls that write into `out` leave the wasm heap as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomVec } from './helpers.mjs';

const same = (a, b, what) => {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

/** A wasm buffer holding a copy of `a`. */
const inWasm = (pe, a) => {
  const b = pe.alloc(a instanceof Int32Array ? Int32Array : Float32Array, a.length);
  b.array.set(a);
  return b;
};

// [label, call(pe, inputs, out) → result, inputs, result constructor, result length]
const q = randomVec(64 * 4 * 16, 1), k = randomVec(64 * 4 * 16, 2);
const CASES = [
  ['ropeApply', (pe, [x], out) => pe.ropeApply(x, { seq: 64, heads: 4, head_dim: 16, rope_theta: 500000, positions: Array.from({ length: 64 }, (_, i) => 3 * i), out }), [q], Float32Array, q.length],
  ['ropeApplyTables', (pe, [x, c, s], out) => pe.ropeApplyTables(x, { seq: 64, heads: 4, head_dim: 16, rotary_dim: 8, cos: c, sin: s, out }),
    [q, randomVec(64 * 4, 3), randomVec(64 * 4, 4)], Float32Array, q.length],
  ['attentionScores', (pe, [a, b], out) => pe.attentionScores({ q: a, k: b, seq: 64, heads: 4, head_dim: 16, rope: {}, causal: true, out }),
    [q, k], Float32Array, 4 * 64 * 64],
  ['sinusoidal', (pe, [], out) => pe.sinusoidal({ positions: 300, d: 64, out }), [], Float32Array, 300 * 64],
  ['sinusoidal (ids)', (pe, [], out) => pe.sinusoidal({ positions: [5, -3, 1e5], d: 63, out }), [], Float32Array, 3 * 63],
  ['alibiBias', (pe, [], out) => pe.alibiBias({ num_heads: 6, q_len: 20, k_len: 33, out }), [], Float32Array, 6 * 20 * 33],
  ['t5Buckets', (pe, [], out) => pe.t5Buckets({ q_len: 40, k_len: 50, query_offset: 7, out }), [], Int32Array, 2000],
  ['ropeInnerProductSweep', (pe, [a, b], out) => pe.ropeInnerProductSweep({ q: a, k: b, head_dim: 16, k_start: 100, count: 999, out }),
    [q.subarray(0, 16), k.subarray(0, 16)], Float32Array, 999],
  ['t5Bias', (pe, [tb], out) => pe.t5Bias({ table: tb, num_heads: 4, q_len: 30, k_len: 40, out }), [randomVec(128, 5)], Float32Array, 4 * 30 * 40],
  ['tupePositionScores', (pe, [p, a, b], out) => pe.tupePositionScores({ p, u_q: a, u_k: b, n: 20, d_model: 16, heads: 2, head_dim: 8, out }),
    [randomVec(320, 6), randomVec(256, 7), randomVec(256, 8)], Float32Array, 2 * 20 * 20],
  ['tableSimilarity', (pe, [data], out) => pe.tableSimilarity({ rows: 30, cols: 16, data }, { out }), [randomVec(480, 9)], Float32Array, 900],
  ['sinusoidT2T', (pe, [], out) => pe.sinusoidT2T({ positions: 50, d: 33, out }), [], Float32Array, 50 * 33],
  ['debertaRelativePositions', (pe, [], out) => pe.debertaRelativePositions({ q_len: 30, position_buckets: 8, max_relative_positions: 64, out }), [], Int32Array, 900],
  ['xposApply', (pe, [x], out) => pe.xposApply(x, { seq: 64, heads: 4, head_dim: 16, offset: 5, downscale: true, out }), [q], Float32Array, q.length],
];

for (const [name, pe] of builds) {
  test(`${name}: out (plain or wasm) and wasm inputs give exactly the copying path's numbers`, () => {
    for (const [label, call, inputs, Ctor, n] of CASES) {
      const fresh = call(pe, inputs);
      assert.ok(fresh instanceof Ctor && fresh.length === n, label);
      const out = new Ctor(n).fill(7);
      assert.equal(call(pe, inputs, out), out, `${label}: returns out`);
      same(out, fresh, `${label} out`);
      const wIn = inputs.map((a) => inWasm(pe, a)), wOut = pe.alloc(Ctor, n);
      const r = call(pe, wIn, wOut);
      same(r, fresh, `${label} wasm in/out`);
      same(wOut.array, fresh, `${label} wasm out .array`);
      same(call(pe, wIn), fresh, `${label} wasm in, fresh out`);
      for (const b of [...wIn, wOut]) b.free();
    }
  });

  test(`${name}: in place — out === x, plain and in wasm`, () => {
    const ref = pe.ropeApply(q, { seq: 64, heads: 4, head_dim: 16 });
    const plain = q.slice();
    pe.ropeApply(plain, { seq: 64, heads: 4, head_dim: 16, out: plain });
    same(plain, ref, 'plain in place');
    const w = inWasm(pe, q);
    pe.ropeApply(w, { seq: 64, heads: 4, head_dim: 16, out: w });
    same(w.array, ref, 'wasm in place');
    w.free();
  });

  test(`${name}: out of the wrong type or length is refused`, () => {
    const o = { seq: 64, heads: 4, head_dim: 16 };
    assert.throws(() => pe.ropeApply(q, { ...o, out: new Float64Array(q.length) }), /^PosencError: out: must be a Float32Array or a wasm buffer of float32 \(got a Float64Array of length 4096\)/);
    assert.throws(() => pe.ropeApply(q, { ...o, out: new Float32Array(5) }), /out: length must equal the result's 4096 elements \(got 5\)/);
    assert.throws(() => pe.t5Buckets({ q_len: 2, out: new Float32Array(4) }), /out: must be an Int32Array or a wasm buffer of int32 \(got a Float32Array of length 4\)/);
    const wrong = pe.alloc(Int32Array, q.length);
    assert.throws(() => pe.ropeApply(q, { ...o, out: wrong }), /out: must hold float32 \(got a wasm buffer of int32\)/);
    assert.throws(() => pe.ropeApply(wrong, o), /x: must hold float32/);
    wrong.free();
    const short = pe.alloc(Float32Array, 10);
    assert.throws(() => pe.ropeApply(short, o), /x: length must equal the shape's element count 4096 \(got 10\)/);
    short.free();
  });

  test(`${name}: a buffer's .array stays valid across memory growth`, () => {
    const b = pe.alloc(Float32Array, 1000);
    b.array.set(q.subarray(0, 1000));
    const old = b.array, before = pe.memoryBytes();
    const big = pe.alloc(Float32Array, 2 ** 25); // 128 MiB: the memory grows
    assert.ok(pe.memoryBytes() > before);
    assert.equal(old.length, 0, 'the old view is detached by growth');
    same(b.array, q.subarray(0, 1000), 'the buffer after growth');
    same(pe.ropeApply(b, { seq: 1, heads: 1, head_dim: 1000, rotary_dim: 2 }), pe.ropeApply(q.subarray(0, 1000), { seq: 1, head_dim: 1000, rotary_dim: 2 }), 'used after growth');
    big.free();
    b.free();
  });

  test(`${name}: freed buffers (and buffers of another instance) are refused; free is idempotent`, () => {
    const b = pe.alloc(Float32Array, 16);
    b.free();
    b.free();
    b[Symbol.dispose]();
    assert.equal(b.freed, true);
    assert.throws(() => pe.ropeApply(b, { seq: 2, head_dim: 8 }), /^PosencError: x: the wasm buffer was freed$/);
    assert.throws(() => pe.ropeApply(new Float32Array(16), { seq: 2, head_dim: 8, out: b }), /^PosencError: out: the wasm buffer was freed$/);
    assert.throws(() => b.array, /buffer: the wasm buffer was freed/);
    const other = builds.find(([n]) => n !== name)[1].alloc(Float32Array, 16);
    assert.throws(() => pe.ropeApply(other, { seq: 2, head_dim: 8 }), /x: the wasm buffer belongs to another posenc instance/);
    other.free();
  });

  test(`${name}: 10^4 calls with out (plain and wasm) leave the wasm heap size unchanged`, () => {
    const o = { seq: 64, heads: 4, head_dim: 16 };
    const outPlain = new Float32Array(q.length), wq = inWasm(pe, q), wOut = pe.alloc(Float32Array, q.length);
    const scores = pe.alloc(Float32Array, 4 * 64 * 64);
    const step = (i) => {
      pe.ropeApply(q, { ...o, rope_theta: 10000 + i, out: outPlain });
      pe.ropeApply(wq, { ...o, out: wOut });
      pe.attentionScores({ q: wq, k: wOut, seq: 64, heads: 4, head_dim: 16, causal: true, out: scores });
      if (i % 100 === 0) assert.throws(() => pe.ropeApply(wq, { ...o, out: outPlain.subarray(1) }));
    };
    for (let i = 0; i < 50; i++) step(i);
    const before = pe.memoryBytes();
    for (let i = 0; i < 10000; i++) step(i);
    assert.equal(pe.memoryBytes(), before);
    for (const b of [wq, wOut, scores]) b.free();
  });

  test(`${name}: results up to 2^28 floats go into out in one call; fresh results stop at 2^26`, () => {
    assert.throws(() => pe.alibiBias({ num_heads: 32, q_len: 2048 }), /out: result of 2\^27 elements exceeds the cap of 2\^26 for a new array/);
    assert.throws(() => pe.alibiBias({ num_heads: 32, q_len: 4096, k_len: 4096 }), /out: result of 2\^29 elements exceeds the cap of 2\^28$/);
    if (name !== 'simd') return; // 512 MiB: once is enough
    const out = pe.alloc(Float32Array, 32 * 2048 * 2048);
    pe.alibiBias({ num_heads: 32, q_len: 2048, out });
    const slopes = pe.alibiSlopes(32), a = out.array;
    for (const [h, i, j] of [[0, 0, 0], [0, 2047, 0], [31, 2047, 5], [17, 1000, 999], [3, 5, 6]]) {
      const want = -slopes[h] * (i - j), got = a[(h * 2048 + i) * 2048 + j];
      if (j > i) assert.equal(got, -Infinity);
      else assert.ok(Math.abs(got - want) <= 1e-6 * Math.abs(want), `[${h}][${i}][${j}]`);
    }
    out.free();
  });
}

test('the remaining zero-copy entries (Shaw, rel_shift, TUPE, tables, multiplicative PE) take wasm buffers in place', () => {
  for (const [, pe] of builds) {
    const data = randomVec(20 * 8, 11), q = randomVec(5 * 8, 12), kk = randomVec(7 * 8, 13), t = randomVec(9 * 8, 14);
    const cases = [
      [(a) => pe.tableLookup({ rows: 20, cols: 8, data: a[0] }, { positions: [3, 19, 0] }), [data]],
      [(a) => pe.tableSimilarity({ rows: 20, cols: 8, data: a[0] }), [data]],
      [(a) => pe.multiplicativePE(a[0], a[1]), [data, data.slice().reverse()]],
      [(a) => pe.shawScores({ q: a[0], k: a[1], table_k: a[2], q_len: 5, k_len: 7, d: 8, max_relative_position: 4 }), [q, kk, t]],
      [(a) => pe.shawValues({ weights: a[0], v: a[1], table_v: a[2], q_len: 5, k_len: 7, d: 8, max_relative_position: 4 }), [randomVec(35, 15), kk, t]],
      [(a) => pe.relShift(a[0], { qlen: 5, klen: 7 }), [randomVec(35, 16)]],
    ];
    for (const [f, inputs] of cases) {
      const ref = f(inputs);
      const bufs = inputs.map((a) => inWasm(pe, a));
      same(f(bufs), ref, f.toString().slice(6, 40));
      for (const b of bufs) b.free();
    }
    const out = pe.alloc(Float32Array, 40);
    pe.multiplicativePE(q, q, { out });
    same(out.array, q.map((v) => Math.fround(v * v)), 'multiplicativePE out');
    out.free();
  }
});
