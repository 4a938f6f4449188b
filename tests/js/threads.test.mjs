// Node's threads build (init({ threads: true })): the same floats as the default single-threaded build on every
// kernel it splits (tables of every builder, attention scores with and without causal mask and softmax, row tails
// included), large enough to be split; clear errors where it does not apply.
import test from 'node:test';
import assert from 'node:assert/strict';
import { cpus } from 'node:os';
import { execFileSync } from 'node:child_process';
import init, { PosencError } from 'posenc';
import { init as initBrowser } from '../../dist/index.js';

const one = await init();
const many = await init({ threads: true });
const same = (a, b, label) => {
  assert.equal(a.length, b.length, label);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${label}: [${i}] ${a[i]} vs ${b[i]}`);
};
const both = (f, label) => {
  const a = f(one), b = f(many);
  if (ArrayBuffer.isView(a)) same(a, b, label);
  else for (const k of Object.keys(a)) same(a[k], b[k], `${label}.${k}`);
};
// Deterministic inputs in [−1, 1).
const values = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 0.999);

test('threads: min(CPUs, 4) in the threads build, 1 in the default build', () => {
  assert.equal(many.buildInfo().threads, Math.min(cpus().length, 4));
  assert.equal(one.buildInfo().threads, 1);
  assert.equal(many.buildInfo().simd, true);
});

test('tables split over threads equal the single-threaded ones bit for bit', () => {
  both((pe) => pe.ropeTables({ rotary_dim: 128, positions: 20000, rope_theta: 5e5 }), 'ropeTables');
  // explicit positions: consecutive runs, a jump, negative and fractional positions (direct evaluation)
  const pos = Array.from({ length: 9001 }, (_, i) => (i < 5000 ? i : i < 8000 ? 1e5 + i : -i / 3));
  both((pe) => pe.ropeTables({ rotary_dim: 128, positions: pos }), 'ropeTables positions');
  both((pe) => pe.sinusoidal({ positions: 4096, d: 512 }), 'sinusoidal');
  both((pe) => pe.sinusoidal({ positions: 4099, d: 513, layout: 'concatenated' }), 'sinusoidal concatenated, odd d');
  both((pe) => pe.sinusoidT2T({ positions: 4096, d: 511 }), 'sinusoidT2T');
  both((pe) => pe.xposTables({ rotary_dim: 256, positions: 8192 }), 'xposTables');
  const ids = Array.from({ length: 40000 }, (_, i) => i);   // per section: 16 or 24 frequencies, split from 32768 rows
  both((pe) => pe.mropeTables({ rotary_dim: 128, rope_theta: 1e6, mrope_section: [16, 24, 24], positions: [ids, ids.map((i) => i >> 1), ids.map((i) => i % 97)] }), 'mropeTables');
  const scaled = one.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 5e5, rope_type: 'yarn', factor: 4, original_max_position_embeddings: 4096 });
  both((pe) => pe.ropeTablesScaled({ inv_freq: scaled.inv_freq, attention_scaling: scaled.attention_scaling, positions: 16384 }), 'ropeTablesScaled');
});

test('attention scores split over threads equal the single-threaded ones bit for bit', () => {
  for (const seq of [2048, 1001]) {   // 1001: full blocks of 16 rows, then 4-row and single-row tails
    const head_dim = 64, q = values(seq * head_dim, 1), k = values(seq * head_dim, 2);
    for (const causal of [true, false]) for (const softmax of [true, false]) {
      both((pe) => pe.attentionScores({ q, k, seq, head_dim, causal, softmax, rope: { rope_theta: 10000 } }), `scores seq ${seq} causal ${causal} softmax ${softmax}`);
    }
  }
});

test('threads: a clear error where it does not apply; the default build stays usable', async () => {
  await assert.rejects(init({ threads: true, simd: false }), (e) => e instanceof PosencError && /^threads: cannot be combined with simd/.test(e.message));
  await assert.rejects(initBrowser({ threads: true }), (e) => e instanceof PosencError && /^threads: this page is not cross-origin isolated .*Cross-Origin-Opener-Policy/.test(e.message));
  assert.equal(many.ropeTables({ rotary_dim: 8, positions: 3 }).cos.length, 12);
});

test('a process using the threads build exits by itself (the pool does not keep Node alive)', () => {
  const code = "const { init } = await import('posenc'); const pe = await init({ threads: true }); pe.sinusoidal({ positions: 4096, d: 512 }); console.log('done');";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 20000 });
  assert.equal(out.trim(), 'done');
});
