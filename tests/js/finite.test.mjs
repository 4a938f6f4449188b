// Finite in, finite out (issue 15): the cases that gave NaN or ±Infinity from finite inputs, through the package.
import test from 'node:test';
import assert from 'node:assert/strict';
import init, { PosencError } from 'posenc';

const pe = await init();
const allFinite = (a) => Array.from(a).every(Number.isFinite);
const SCHEMES = ['none', 'sinusoidal', 'learned', 'multiplicative', 'shaw', 'transformer_xl', 't5', 'deberta', 'tupe', 'rope', 'alibi', 'xpos'];

test('permutationChange with causal masks: finite, exactly 0 for none', () => {
  for (const type of SCHEMES) {
    const c = pe.permutationChange({ scheme: { type }, text: 'a b c d', i: 0, j: 1, head_dim: 8, causal: true });
    assert.ok(Number.isFinite(c), `${type}: ${c}`);
    if (type === 'none') assert.equal(c, 0);
  }
  // visible pairs still show the position scheme
  assert.ok(pe.permutationChange({ scheme: { type: 'rope' }, text: 'the cat chased the mouse', i: 1, j: 4, head_dim: 8, causal: true }) > 1e-3);
});

test('sinusoidT2T at extreme timescales: finite, or a PosencError', () => {
  const t = pe.sinusoidT2T({ positions: 3, d: 8, min_timescale: 5e-324 });  // was NaN in every sin(0·ω_0)
  assert.ok(allFinite(t));
  assert.deepEqual(Array.from(t.subarray(0, 8)), [0, 0, 0, 0, 1, 1, 1, 1]);
  assert.ok(allFinite(pe.sinusoidT2T({ positions: [0, 2 ** 31 - 1], d: 16, min_timescale: 1e-300, max_timescale: 1.7e308 })));
  assert.throws(() => pe.sinusoidT2T({ positions: 3, d: 8, min_timescale: 1e300, max_timescale: 1e-300 }),
    (e) => e instanceof PosencError && /^min_timescale: the largest frequency/.test(e.message));
});

test('tableSimilarity cosine of huge rows is finite', () => {
  const s = pe.tableSimilarity({ rows: 2, cols: 2, data: new Float32Array([3e37, 3e37, 3e37, -3e37]) });
  assert.ok(allFinite(s));
  assert.ok(Math.abs(s[0] - 1) < 1e-6 && Math.abs(s[1]) < 1e-6);
});

// Found by npm run fuzz (10^6 calls): rope_theta 1 made ln(rope_theta) = 0 a divisor (−Infinity band edges).
test('yarnCorrectionRange and llama3Bands refuse rope_theta <= 1 instead of returning -Infinity', () => {
  {
    assert.throws(() => pe.yarnCorrectionRange({ rotary_dim: 8, original_max_position_embeddings: 7, rope_theta: 1 }),
      (e) => e instanceof PosencError && /^rope_theta: must be > 1/.test(e.message));
    assert.throws(() => pe.llama3Bands({ rotary_dim: 10, original_max_position_embeddings: 8, rope_theta: 1 }),
      (e) => e instanceof PosencError && /^rope_theta: must be > 1/.test(e.message));
    const r = pe.yarnCorrectionRange({ rotary_dim: 8, original_max_position_embeddings: 7, rope_theta: 1.5 });
    assert.ok(Number.isFinite(r.low_raw) && Number.isFinite(r.high_raw));
  }
});
