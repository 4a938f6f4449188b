// Strict options (one validation layer at the JS boundary): every option of every method is checked — an unknown
// key is refused with a suggestion, every bad value with a PosencError naming the parameter — and hostile inputs
// (prototype-less options, BigInt arrays, huge array-likes, strings for numbers) give a PosencError before any copy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PosencError } from 'posenc';
import { builds, randomVec } from './helpers.mjs';
import { npyFile } from './files.mjs';
import { readFileSync } from 'node:fs';

const pe0 = builds[0][1];
const x = randomVec(2 * 2 * 8, 1);
const v8 = randomVec(8, 2);
const npy = npyFile('<f4', [2, 2], new Float32Array([1, 2, 3, 4]));
const table = { rows: 4, cols: 8, data: randomVec(32, 3) };
const config = { head_dim: 8, rope_theta: 10000, max_position_embeddings: 64 };

// [label, call(pe, options), valid options covering every option of the method]
const wan = JSON.parse(readFileSync(new URL('../fixtures/configs/diffusion/wan-t2v-class-defaults.json', import.meta.url), 'utf8'));
const CASES = [
  ['ropeInvFreq', (pe, o) => pe.ropeInvFreq(o), { rotary_dim: 8, rope_theta: 10000 }],
  ['ropeTables', (pe, o) => pe.ropeTables(o), { rotary_dim: 8, rope_theta: 10000, positions: [0, 1], duplicate: true,
    out: { cos: new Float32Array(16), sin: new Float32Array(16) } }],
  ['ropeApply', (pe, o) => pe.ropeApply(x, o), { seq: 2, heads: 2, head_dim: 8, batch: 1, qk_layout: 'shd', rotary_dim: 8,
    layout: 'half_split', rope_theta: 500000, positions: [3, 4], out: new Float32Array(32) }],
  ['ropeApply', (pe, o) => pe.ropeApply(x, o), { seq: 2, heads: 2, head_dim: 8, rope: { inv_freq: [1, 0.1, 0.01, 0.001], attention_scaling: 1.5 } }],
  ['ropeApply', (pe, o) => pe.ropeApply(x, o), { seq: 2, heads: 2, head_dim: 8, cos: new Float32Array(16), sin: new Float32Array(16), duplicate: true }],
  ['ropeApplyTables', (pe, o) => pe.ropeApplyTables(x, o), { seq: 2, heads: 2, head_dim: 8, cos: new Float32Array(8), sin: new Float32Array(8),
    duplicate: false, layout: 'interleaved', out: new Float32Array(32) }],
  ['sinusoidal', (pe, o) => pe.sinusoidal(o), { positions: 2, d: 8, base: 10000, layout: 'concatenated', out: new Float32Array(16) }],
  ['attentionScores', (pe, o) => pe.attentionScores(o), { q: x, k: x, seq: 2, head_dim: 8, heads: 2, batch: 1, qk_layout: 'bhsd',
    rope: { rope_theta: 10000, rotary_dim: 8, layout: 'interleaved' }, causal: true, softmax: false, out: new Float32Array(8) }],
  ['textQK', (pe, o) => pe.textQK(o), { text: 'a b', head_dim: 8, seed: 3 }],
  ['rotaryDim', (pe, o) => pe.rotaryDim(o), { head_dim: 8, partial_rotary_factor: 0.5 }],
  ['ropeInvFreqScaled', (pe, o) => pe.ropeInvFreqScaled(o), { rotary_dim: 8, rope_type: 'linear', factor: 2, rope_theta: 10000, seq_len: 4 }],
  ['ropeFromConfig', (pe, o) => pe.ropeFromConfig(config, o), { seq_len: 16 }],
  ['ropeAxesFromConfig', (pe, o) => pe.ropeAxesFromConfig(wan, o), { grid: [2, 2, 2] }],
  ['ropeAxesTables', (pe, o) => pe.ropeAxesTables(wan, o), { grid: [2, 2, 2] }],
  ['resizePositionGrid', (pe, o) => pe.resizePositionGrid(o), { table: [1, 2, 3, 4, 5, 6, 7, 8], rows: 2, cols: 2, dim: 2, height: 3, width: 1 }],
  ['dualChunkDistances', (pe, o) => pe.dualChunkDistances(o), { chunk_size: 16, local_size: 4, q_positions: [0, 20, 40], k_positions: [0, 5, 30] }],
  ['compareRope', (pe, o) => pe.compareRope(pe.ropeFromConfig({ head_dim: 16 }), pe.ropeFromConfig({ head_dim: 16, rope_theta: 500000 }), o), { positions: 64, samples: 16 }],
  ['yarnCorrectionRange', (pe, o) => pe.yarnCorrectionRange(o), { rotary_dim: 128, rope_theta: 1e6, original_max_position_embeddings: 32768,
    max_position_embeddings: 131072, beta_fast: 32, beta_slow: 1, truncate: false }],
  ['llama3Bands', (pe, o) => pe.llama3Bands(o), { rotary_dim: 128, rope_theta: 500000, original_max_position_embeddings: 8192,
    low_freq_factor: 1, high_freq_factor: 4 }],
  ['dynamicNtkBase', (pe, o) => pe.dynamicNtkBase(o), { rotary_dim: 128, rope_theta: 1e4, factor: 2, max_position_embeddings: 4096, seq_len: 8192 }],
  ['ropeTablesScaled', (pe, o) => pe.ropeTablesScaled(o), { inv_freq: [1, 0.5], attention_scaling: 1.2, positions: 3, duplicate: false,
    out: { cos: new Float32Array(6), sin: new Float32Array(6) } }],
  ['ropeFreqsCis', (pe, o) => pe.ropeFreqsCis(o), { rotary_dim: 8, rope_theta: 10000, positions: 3, out: new Float32Array(24) }],
  ['alibiBias', (pe, o) => pe.alibiBias(o), { num_heads: 2, q_len: 2, k_len: 3, mode: 'symmetric', out: new Float32Array(12) }],
  ['alibiBias', (pe, o) => pe.alibiBias(o), { slopes: [0.5, 0.25], q_len: 2 }],
  ['xposApply', (pe, o) => pe.xposApply(x, o), { seq: 2, heads: 2, head_dim: 8, batch: 1, qk_layout: 'shd', rotary_dim: 8,
    layout: 'interleaved', offset: 1, downscale: true, scale_base: 512, gamma: 0.4, rope_theta: 10000, out: new Float32Array(32) }],
  ['xposTables', (pe, o) => pe.xposTables(o), { rotary_dim: 8, positions: [0, 1], centred: [-1, 0], downscale: false, scale_base: 512,
    gamma: 0.4, rope_theta: 10000, out: { cos: new Float32Array(8), sin: new Float32Array(8) } }],
  ['xposZeta', (pe, o) => pe.xposZeta(o), { rotary_dim: 8, gamma: 0.4 }],
  ['mropeTables', (pe, o) => pe.mropeTables(o), { rotary_dim: 8, rope_theta: 10000, mrope_section: [2, 1, 1], positions: [[0, 1], [0, 1], [0, 2]],
    out: { cos: new Float32Array(8), sin: new Float32Array(8) } }],
  ['axial2dTables', (pe, o) => pe.axial2dTables(o), { rotary_dim: 8, rope_theta: 10000, positions_h: [0, 1], positions_w: [1, 1],
    out: { cos: new Float32Array(8), sin: new Float32Array(8) } }],
  ['axial2dTables', (pe, o) => pe.axial2dTables(o), { rotary_dim: 8, grid: [2, 2], variant: 'pixtral' }],
  ['sinusoidT2T', (pe, o) => pe.sinusoidT2T(o), { positions: 2, d: 8, min_timescale: 1, max_timescale: 10000, out: new Float32Array(16) }],
  ['t2tInvTimescales', (pe, o) => pe.t2tInvTimescales(o), { d: 8, min_timescale: 1, max_timescale: 10000 }],
  ['sinusoidRecursive', (pe, o) => pe.sinusoidRecursive(o), { positions: 3, d: 8, base: 10000, layout: 'interleaved', out: new Float32Array(24) }],
  ['sinusoidRotationMatrix', (pe, o) => pe.sinusoidRotationMatrix(o), { d: 8, base: 10000, layout: 'concatenated' }],
  ['tableFromSafetensors', (pe, o) => { try { return pe.tableFromSafetensors(new Uint8Array(16), o); } catch (e) {
    if (e.message.startsWith('safetensors:')) return null; throw e; } }, { name: 'wpe.weight' }],
  ['tableLookup', (pe, o) => pe.tableLookup(table, o), { positions: [0, 3], clamp: true, out: new Float32Array(16) }],
  ['tableSimilarity', (pe, o) => pe.tableSimilarity(table, o), { metric: 'dot', out: new Float32Array(16) }],
  ['shawRelativeIndex', (pe, o) => pe.shawRelativeIndex(o), { q_len: 2, k_len: 3, max_relative_position: 2, out: new Int32Array(6) }],
  ['shawScores', (pe, o) => pe.shawScores(o), { q: v8, k: randomVec(12, 4), table_k: randomVec(20, 5), q_len: 2, k_len: 3, d: 4,
    max_relative_position: 2, out: new Float32Array(6) }],
  ['shawValues', (pe, o) => pe.shawValues(o), { weights: randomVec(6, 6), v: randomVec(12, 4), table_v: randomVec(20, 5), q_len: 2, k_len: 3,
    d: 4, max_relative_position: 2, out: new Float32Array(8) }],
  ['xlPositionEmbedding', (pe, o) => pe.xlPositionEmbedding(o), { klen: 3, d: 4, out: new Float32Array(12) }],
  ['relShift', (pe, o) => pe.relShift(randomVec(6, 7), o), { qlen: 2, klen: 3, zero_triu: true, out: new Float32Array(6) }],
  ['xlScores', (pe, o) => pe.xlScores(o), { q: v8, k: randomVec(12, 4), r: randomVec(12, 5), u: randomVec(4, 6), v: randomVec(4, 7),
    qlen: 2, klen: 3, d: 4, causal: false }],
  ['t5RelativePositionBucket', (pe, o) => pe.t5RelativePositionBucket(-5, o), { bidirectional: false, num_buckets: 32, max_distance: 128 }],
  ['t5Buckets', (pe, o) => pe.t5Buckets(o), { q_len: 2, k_len: 3, bidirectional: true, num_buckets: 32, max_distance: 128, query_offset: 1,
    out: new Int32Array(6) }],
  ['t5Bias', (pe, o) => pe.t5Bias(o), { table: randomVec(64, 8), num_buckets: 32, num_heads: 2, q_len: 2, k_len: 2, bidirectional: true,
    max_distance: 128, query_offset: 0, out: new Float32Array(8) }],
  ['debertaRelativePositions', (pe, o) => pe.debertaRelativePositions(o), { q_len: 2, k_len: 3, position_buckets: 4, max_relative_positions: 8, out: new Int32Array(6) }],
  ['debertaLogBucket', (pe, o) => pe.debertaLogBucket(-300, o), { position_buckets: 256, max_relative_positions: 512 }],
  ['debertaScores', (pe, o) => pe.debertaScores(o), { q: v8, k: v8, pos_key: randomVec(32, 9), pos_query: randomVec(32, 10), seq: 2, d: 4,
    position_buckets: 4, max_relative_positions: 8 }],
  ['tupePositionScores', (pe, o) => pe.tupePositionScores(o), { p: v8, u_q: randomVec(16, 11), u_k: randomVec(16, 12), n: 2, d_model: 4,
    heads: 2, head_dim: 2, out: new Float32Array(8) }],
  ['attention', (pe, o) => pe.attention(o), { scheme: { type: 'rope' }, q: x, k: x, v: x, seq: 2, heads: 2, head_dim: 8, causal: true, seed: 1 }],
  ['attention', (pe, o) => pe.attention(o), { scheme: { type: 't5' }, text: 'a b c', head_dim: 8 }],
  ['textQKV', (pe, o) => pe.textQKV(o), { text: 'a b', heads: 2, head_dim: 8, seed: 0 }],
  ['permutationChange', (pe, o) => pe.permutationChange(o), { scheme: { type: 'alibi' }, text: 'a b c', i: 0, j: 2, heads: 2, head_dim: 8,
    causal: false, seed: 0 }],
  ['linearAttentionRope', (pe, o) => pe.linearAttentionRope(o), { q: v8, k: v8, v: v8, seq: 2, head_dim: 4, v_dim: 4, causal: true,
    rope_theta: 10000, form: 'naive' }],
  ['ropeInnerProductSweep', (pe, o) => pe.ropeInnerProductSweep(o), { q: 'random', k: v8, seed: 1, head_dim: 8, rotary_dim: 8,
    layout: 'interleaved', rope_theta: 10000, q_position: 3, k_start: 2, count: 5, out: new Float32Array(5) }],
  ['ropeInnerProductSweep', (pe, o) => pe.ropeInnerProductSweep(o), { q: 'ones', k: 'ones', head_dim: 8, inv_freq: [1, 0.1, 0.01, 0.001], count: 5 }],
  ['ropeDecayBound', (pe, o) => pe.ropeDecayBound(o), { rotary_dim: 8, rope_theta: 10000, count: 5, out: new Float32Array(5) }],
  ['ropeFrequencyAnalysis', (pe, o) => pe.ropeFrequencyAnalysis(o), { inv_freq: [1, 0.1], original_max_position_embeddings: 64 }],
  // research schemes (research.ts)
  ['kerpleBias', (pe, o) => pe.kerpleBias(o), { kernel: 'log', r1: 1, r2: 0.5, count: 5 }],
  ['sandwichBias', (pe, o) => pe.sandwichBias(o), { head_dim: 8, num_heads: 4, head: 2, count: 5 }],
  ['fireDistance', (pe, o) => pe.fireDistance(o), { c: 0.1, L: 512, query_position: 9, count: 5 }],
  ['copePositions', (pe, o) => pe.copePositions(o), { gate_logits: [0, 1, -1], npos: 4 }],
  ['stickBreakingWeights', (pe, o) => pe.stickBreakingWeights(o), { logits: [0, 1, -1] }],
  ['pathScores', (pe, o) => pe.pathScores(o), { q: [1, 0], k: [1, 0, 0, 1], w: [1, 0, 0, 1], beta: [1, 2], head_dim: 2 }],
];
// Methods whose arguments are not an options object (tested by name below).
const POSITIONAL = ['buildInfo', 'memoryBytes', 'alloc', 'alibiSlopes', 'multiplicativePE', 'tableFromNpy', 'safetensorsTensors',
  'tableFromJSON', 'envelope',
  'mropePositionIds', // its options (a config.json and token ids) are checked by the config reader's own tests
  'ggufHeader',        // async, a file source and no options: its bad sources are checked by gguf.test.mjs
  'ropeFromGGUF',      // async (rejects instead of throwing): its options are checked by gguf-rope.test.mjs
  'ropeEngines',       // async: its options (ropeFromConfig's seq_len, n_ctx, max_model_len) are checked by rope-engines.test.mjs
  'loadModel'];        // async, a file source first: its options and bad sources are checked by model.test.mjs

const INT_KEYS = new Set(['rotary_dim', 'seq', 'heads', 'head_dim', 'batch', 'd', 'q_len', 'k_len', 'num_heads', 'offset', 'klen', 'qlen',
  'max_relative_position', 'num_buckets', 'max_distance', 'query_offset', 'position_buckets', 'max_relative_positions', 'n', 'd_model',
  'i', 'j', 'v_dim', 'count', 'q_position', 'k_start']);
const ARRAY_KEYS = new Set(['q', 'k', 'v', 'cos', 'sin', 'slopes', 'centred', 'positions_h', 'positions_w', 'table_k', 'table_v', 'weights',
  'r', 'u', 'table', 'pos_key', 'pos_query', 'p', 'u_q', 'u_k', 'inv_freq', 'gate_logits', 'logits', 'w', 'beta']);

/** Bad values for an option, by what its valid value is. */
function badValues(key, valid) {
  const common = [10n, Symbol('s'), () => 1];
  if (key === 'seed') return ['8', NaN, -1, 1.5, 2 ** 53, ...[10n, Symbol('s')]];
  if (key === 'out') return [new Float64Array(4), 5, 'out', ...common];
  if (key === 'positions' && typeof valid === 'number') return [-1, 1.5, NaN, '3', 2 ** 40, ...common];
  if (ARRAY_KEYS.has(key) || key === 'positions') {
    return [BigInt64Array.of(1n), { length: 2 ** 33 }, new Array(2 ** 32 - 1), key === 'positions' ? -1 : 5, [1, '2'], ...common].concat(key === 'q' || key === 'k' ? [] : ['abc']);
  }
  if (typeof valid === 'number') return ['8', NaN, Infinity, -Infinity, {}, [], true, ...common].concat(INT_KEYS.has(key) ? [1.5, 2 ** 40] : []);
  if (typeof valid === 'boolean') return [1, 'true', {}, ...common];
  if (typeof valid === 'string') return [5, {}, ...common].concat(key === 'text' || key === 'name' ? [] : ['zzz']);
  return [5, 'zzz', true, ...common];
}

const isPosencError = (key) => (e) => e instanceof PosencError && e.message.startsWith(key) && e.message.length <= 300;

test('every method with an options object is covered, and options are objects', () => {
  const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(pe0)).filter((m) => m !== 'constructor');
  const own = new Set([...methods, ...Object.getOwnPropertyNames(Object.getPrototypeOf(Object.getPrototypeOf(pe0)))]);
  const covered = new Set([...CASES.map((c) => c[0]), ...POSITIONAL]);
  for (const m of own) if (m !== 'constructor') assert.ok(covered.has(m), `${m} has no case`);
});

for (const [name, pe] of builds) {
  test(`${name}: every valid call works, also with a prototype-less options object`, () => {
    for (const [label, call, opts] of CASES) {
      call(pe, opts);
      call(pe, Object.assign(Object.create(null), opts));
      assert.ok(label);
    }
  });

  test(`${name}: an unknown key is refused with a suggestion (did you mean …?)`, () => {
    assert.throws(() => pe.ropeTables({ rotary_dim: 8, positions: 2, rope_base: 5e5 }),
      { name: 'PosencError', message: "ropeTables: unknown option 'rope_base' (did you mean 'rope_theta'?)" });
    for (const [label, call, opts] of CASES) {
      for (const key of Object.keys(opts)) {
        const typo = key.length > 3 ? key.slice(0, -2) + key.slice(-1) : `${key}x`; // one letter dropped (or added)
        if (typo in opts) continue;
        const bad = { ...opts, [typo]: opts[key] };
        assert.throws(() => call(pe, bad), (e) => e instanceof PosencError
          && e.message === `${label}: unknown option '${typo}' (did you mean '${key}'?)`, `${label}.${typo}`);
      }
      assert.throws(() => call(pe, { ...opts, zzzzzzzzzzzz: 1 }), { message: `${label}: unknown option 'zzzzzzzzzzzz'` });
    }
  });

  test(`${name}: every bad value of every option gives a PosencError naming it, and the module stays usable`, () => {
    for (const [label, call, opts] of CASES) {
      for (const key of Object.keys(opts)) {
        for (const bad of badValues(key, opts[key])) {
          assert.throws(() => call(pe, { ...opts, [key]: bad }), isPosencError(key), `${label}.${key} = ${typeof bad} ${bad?.constructor?.name ?? ''} ${typeof bad === 'number' ? bad : ''}`);
        }
      }
      for (const notObject of [5, 'rotary_dim', [1], new Float32Array(2), 7n]) {
        assert.throws(() => call(pe, notObject), isPosencError('options'), `${label}(${typeof notObject})`);
      }
    }
    assert.equal(pe.ropeInvFreq({ rotary_dim: 2 })[0], 1);
  });

  test(`${name}: positional arguments are checked too`, () => {
    for (const [f, key] of [[() => pe.alibiSlopes('8'), 'num_heads'], [() => pe.alibiSlopes(2 ** 40), 'num_heads'],
      [() => pe.multiplicativePE(BigInt64Array.of(1n), [1]), 'x'], [() => pe.multiplicativePE([1], { length: 2 ** 33 }), 'p'],
      [() => pe.envelope(new Array(2 ** 32 - 1), 4), 'values'], [() => pe.envelope([1, 2], 1.5), 'width'],
      [() => pe.tableFromNpy('abc'), 'npy'], [() => pe.safetensorsTensors(5), 'safetensors'],
      [() => pe.tableLookup({ rows: 4, cols: 8, data: table.data, extra: 1 }, { positions: 1 }), 'table'],
      [() => pe.tableLookup({ rows: '4', cols: 8, data: table.data }, { positions: 1 }), 'table.rows'],
      [() => pe.alloc(Float64Array, 4), 'type'], [() => pe.alloc(Float32Array, 2 ** 29), 'length'], [() => pe.alloc(Float32Array, -1), 'length']]) {
      assert.throws(f, isPosencError(key), key);
    }
    assert.equal(pe.tableFromNpy(npy).data[3], 4);
  });

  test(`${name}: messages show values briefly and by type`, () => {
    const msg = (f) => { try { f(); } catch (e) { return e.message; } return ''; };
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: '8', positions: 2 })), "rotary_dim: must be an integer in [2, 8192] (got '8' (a string))");
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: 2 ** 40, positions: 2 })), 'rotary_dim: must be an integer in [2, 8192] (got 2^40)');
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: 8, rope_theta: NaN, positions: 2 })), 'rope_theta: must be a finite number > 0 (got NaN)');
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: 8n, positions: 2 })), 'rotary_dim: must be an integer in [2, 8192] (got 8n (a BigInt))');
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: {}, positions: 2 })), 'rotary_dim: must be an integer in [2, 8192] (got an object)');
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: 8, positions: { length: 2 ** 33 } })), 'positions: length must be at most 2^20 (got 2^33)');
    assert.equal(msg(() => pe.ropeTables({ rotary_dim: 8, positions: BigInt64Array.of(1n) })), 'positions: must hold numbers (got a BigInt64Array of length 1)');
    assert.equal(msg(() => pe.ropeApply(x, { seq: 2, head_dim: 8, heads: 2, layout: 'x'.repeat(5000) })).length <= 160, true);
    assert.equal(msg(() => pe.ropeApply(new Array(2 ** 32 - 1), { seq: 2, head_dim: 8 })), 'x: length must be at most 2^28 (got 4294967295)');
    for (const [label, call, opts] of CASES) {
      for (const key of Object.keys(opts)) {
        const m = msg(() => call(pe, { ...opts, [key]: { toString: () => 'never shown' } }));
        assert.ok(!m.includes('[object Object]') && !m.includes('never shown'), `${label}.${key}: ${m}`);
      }
    }
  });
}

test('regressions of the hostile-input report: each a PosencError, before any copy', () => {
  for (const [, pe] of builds) {
    const cases = [
      [() => pe.ropeInnerProductSweep({ q: 'random', k: 'ones', head_dim: 2 ** 26 + 1, count: 1 }), 'head_dim: must be an integer in [1, 8192] (got 67108865)'],
      [() => pe.ropeTables({ rotary_dim: 8, positions: new Array(2 ** 32 - 1) }), 'positions: length must be at most 2^20 (got 4294967295)'],
      [() => pe.rotaryDim({ head_dim: 64, rotary_pct: 2 }), 'rotary_pct: must be a finite number in (0, 1] (got 2)'],
      [() => pe.ropeTables({ rotary_dim: 2 ** 40, positions: 1 }), 'rotary_dim: must be an integer in [2, 8192] (got 2^40)'],
      [() => pe.sinusoidal({ positions: { length: 2 ** 33 }, d: 8 }), 'positions: length must be at most 2^20 (got 2^33)'],
      [() => pe.alibiBias({ slopes: BigInt64Array.of(1n), q_len: 2 }), 'slopes: must hold numbers (got a BigInt64Array of length 1)'],
      [() => pe.ropeApply(new Float32Array(16), Object.assign(Object.create(null), { seq: '2', head_dim: 8 })), "seq: must be an integer in [0, 2^20] (got '2' (a string))"],
    ];
    for (const [f, message] of cases) assert.throws(f, (e) => e instanceof PosencError && e.message === message, message);
  }
});
