import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';

const pe = await init();

test('slopes: power of two and the non-power-of-two rule', () => {
  const s8 = pe.alibiSlopes(8);
  assert.deepEqual(Array.from(s8), [1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k));
  const s12 = pe.alibiSlopes(12);
  const want = [...[1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k), ...[0, 1, 2, 3].map((k) => 2 ** (-0.5 * (2 * k + 1)))];
  want.forEach((w, i) => assert.ok(Math.abs(s12[i] - w) <= 1e-15 * w, `slope ${i}`));
});

test('bias [heads, q, k]: causal and symmetric', () => {
  const sl = pe.alibiSlopes(2);
  const c = pe.alibiBias({ num_heads: 2, q_len: 4 });
  const s = pe.alibiBias({ num_heads: 2, q_len: 4, mode: 'symmetric' });
  for (let h = 0; h < 2; h++) for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) {
    const want = Math.fround(-sl[h] * Math.abs(i - j));
    assert.equal(s[(h * 4 + i) * 4 + j], want);
    assert.equal(c[(h * 4 + i) * 4 + j], j > i ? -Infinity : want);
  }
});

test("BLOOM form: mode 'bloom' is +m·j up to the diagonal, and its row softmax equals the causal form's", () => {
  const n = 9, sl = pe.alibiSlopes(3), bias = pe.alibiBias({ num_heads: 3, q_len: n });
  const bloom = pe.alibiBias({ num_heads: 3, q_len: n, mode: 'bloom' });
  const softmax = (row) => { const m = Math.max(...row); const e = row.map((v) => Math.exp(v - m)); const z = e.reduce((a, b) => a + b); return e.map((v) => v / z); };
  for (let h = 0; h < 3; h++) for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) assert.equal(bloom[(h * n + i) * n + j], j > i ? -Infinity : Math.fround(sl[h] * j));
    const a = softmax(Array.from({ length: i + 1 }, (_, j) => Math.sin(i * 7 + j) + bias[(h * n + i) * n + j]));
    const b = softmax(Array.from({ length: i + 1 }, (_, j) => Math.sin(i * 7 + j) + bloom[(h * n + i) * n + j]));
    a.forEach((v, j) => assert.ok(Math.abs(v - b[j]) < 1e-6));
  }
  // HF's [heads, 1, k_len] ramp is the row q_len = 1; a KV cache (2 queries of 5 keys) masks past each query
  assert.deepEqual(Array.from(pe.alibiBias({ slopes: [0.5], q_len: 1, k_len: 5, mode: 'bloom' })), [0, 0.5, 1, 1.5, 2]);
  assert.deepEqual(Array.from(pe.alibiBias({ slopes: [0.5], q_len: 2, k_len: 5, mode: 'bloom' })), [0, 0.5, 1, 1.5, -Infinity, 0, 0.5, 1, 1.5, 2]);
});

test('errors', () => {
  assert.throws(() => pe.alibiSlopes(0), /PosencError: num_heads: must be an integer in \[1, 1024\] \(got 0\)/);
  assert.throws(() => pe.alibiBias({ num_heads: 2, q_len: 5, k_len: 3 }), /PosencError: q_len:/);
  assert.throws(() => pe.alibiBias({ num_heads: 2, q_len: 2, mode: 'both' }), /PosencError: mode: must be one of/);
  assert.equal(pe.alibiSlopes(4).length, 4);
});
