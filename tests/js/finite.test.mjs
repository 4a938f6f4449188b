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

// Issue 26 item 8: finite in, finite out at every entry point, and messages of a readable length.
test('a RoPE base below 1 whose frequencies would overflow is refused at every entry point (5e-324 gave ±Infinity)', () => {
  const rule = /^rope_theta: the largest frequency rope_theta\^\(-\(d-2\)\/d\) must be <= 1e6 rad per position \(got rope_theta 4\.94\d*e-324 with rotary_dim 8\)/;
  for (const f of [() => pe.ropeInvFreq({ rotary_dim: 8, rope_theta: 5e-324 }), () => pe.ropeTables({ rotary_dim: 8, rope_theta: 5e-324, positions: 2 }),
    () => pe.ropeInvFreqScaled({ rope_type: 'default', rotary_dim: 8, rope_theta: 5e-324 })]) {
    assert.throws(f, (e) => e instanceof PosencError && rule.test(e.message), String(f));
  }
  // the edge: θ^(−(d−2)/d) = 1e6 exactly is allowed, 1e6·(1 + 1e-9) is not; bases ≥ 1 always are
  const edge = 1e6 ** (-8 / 6);
  assert.ok(allFinite(pe.ropeInvFreq({ rotary_dim: 8, rope_theta: edge * (1 + 1e-9) })));
  assert.throws(() => pe.ropeInvFreq({ rotary_dim: 8, rope_theta: edge * (1 - 1e-9) }), PosencError);
  assert.ok(Math.abs(pe.ropeInvFreq({ rotary_dim: 8, rope_theta: 0.5 })[3] - 0.5 ** (-6 / 8)) < 1e-15);
});

test('ropeTablesScaled and the rope option refuse |attention_scaling| > 1e15 (MAX_VALUE gave ±Infinity tables)', () => {
  for (const s of [Number.MAX_VALUE, -1e16]) {
    assert.throws(() => pe.ropeTablesScaled({ inv_freq: [1, 0.1], attention_scaling: s, positions: 4 }),
      (e) => e instanceof PosencError && /^attention_scaling: must be a finite number in \[-1000000000000000, 1000000000000000\]/.test(e.message), String(s));
  }
  const t = pe.ropeTablesScaled({ inv_freq: [1, 0.1], attention_scaling: 1e15, positions: 4 });
  assert.ok(allFinite(t.cos) && allFinite(t.sin));
  assert.ok(Math.abs(t.cos[2] - Math.fround(1e15 * Math.cos(1))) <= 1e9);
});

test('error messages stay under 2000 characters: a 2 MB rope_type is shown by its first characters', () => {
  const big = 'x'.repeat(2e6);
  for (const f of [() => pe.ropeFromConfig({ head_dim: 8, rope_scaling: { rope_type: big } }),
    () => pe.ropeInvFreqScaled({ rope_type: big, rotary_dim: 8 })]) {
    assert.throws(f, (e) => e instanceof PosencError && e.message.length <= 2000 && /rope_type: must be one of 'default'.*\(got 'x{37}\.\.\.'\)/.test(e.message), String(f));
  }
  // the cap itself: a message built from a long input keeps its start and its end
  const e = new PosencError(`p: ${'y'.repeat(5000)} end`);
  assert.ok(e.message.length <= 2000 && e.message.startsWith('p: yyy') && e.message.endsWith('y end') && /characters cut/.test(e.message));
  assert.equal(e.param, 'p');
});

// Issue 34 item 7: sinusoidal's base, like RoPE's, may not push a frequency past 1e298 (5e-324 gave ±Infinity and NaN:
// ω = base^(−2i/d) overflowed for i/d above ~0.48). The API fuzzer's base/scale sweep (tests/fuzz/api.mjs) holds
// every entry point taking a base or scale to the same rule.
test('sinusoidal: a base whose largest frequency would overflow is refused, directly and as an attention scheme', () => {
  const rule = /^base: the largest frequency base\^\(-62\/64\) must be <= 1e298 \(got base 4\.94\d*e-324 with d 64\)/;
  assert.throws(() => pe.sinusoidal({ positions: 3, d: 64, base: 5e-324 }), (e) => e instanceof PosencError && rule.test(e.message));
  assert.throws(() => pe.sinusoidal({ positions: 3, d: 63, base: 5e-324 }), (e) => e instanceof PosencError && /base\^\(-62\/63\)/.test(e.message));
  assert.throws(() => pe.attention({ scheme: { type: 'sinusoidal', base: 5e-324 }, text: 'a b c', heads: 1, head_dim: 64 }),
    (e) => e instanceof PosencError && /the largest frequency/.test(e.message));
  // the edge: base^(−62/64) = 1e298 exactly is allowed; small d keeps a tiny base finite; bases ≥ 1 always are
  const edge = 1e298 ** (-64 / 62);
  assert.ok(allFinite(pe.sinusoidal({ positions: [0, 1, 2 ** 20], d: 64, base: edge * (1 + 1e-9) })));
  assert.throws(() => pe.sinusoidal({ positions: 2, d: 64, base: edge * (1 - 1e-9) }), PosencError);
  assert.ok(allFinite(pe.sinusoidal({ positions: 3, d: 8, base: 5e-324 })));
  assert.ok(allFinite(pe.sinusoidal({ positions: [0, 2 ** 20], d: 8192, base: Number.MAX_VALUE })));
});
