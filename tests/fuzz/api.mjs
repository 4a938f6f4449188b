// Property-based fuzzer over every public method of the posenc JS API (fast-check generates the calls).
//
// Methods are discovered from the module (Object.getOwnPropertyNames along the API object's prototype chain), option keys and
// string values from the shipped typings (dist/*.d.ts), so new methods and options are covered without edits here.
// Each call is classified:
//   result, posenc_error                 expected outcomes
//   other_exception                      a raw TypeError/RangeError/… instead of a PosencError (the input contract)
//   wasm_trap                            a WebAssembly.RuntimeError (abort, out-of-bounds access in the C++ core)
//   hang                                 no progress within --hang-ms, twice: a call over the limit is counted as
//                                        'slow' and re-run once with 3× the time in a fresh worker (on a loaded machine a
//                                        legitimate 2^26-element call can take seconds); only a second overrun is a hang
//   worker_crash                         the worker died (e.g. out of memory)
//   nonfinite_from_finite                NaN/±∞ in the result although every input number is finite and moderate
//                                        (|v| in [1e-6, 1e6] or 0; a base or scale option: any finite value, e.g.
//                                        base 5e-324); −∞ is allowed where a causal mask is asked for
//   nonfinite_from_extreme               the same with extreme inputs (reported, not a defect by itself)
//   unknown_key_accepted                 a successful call still succeeds with one made-up option key added
//   unusable                             a canary call fails or changes after the call (the module is then re-created)
// Usage: node tests/fuzz/api.mjs [--calls N] [--seed S] [--hang-ms T] [--report file.json]
//                                [--gate cat1,cat2] (categories that make the exit status non-zero; default all defects)
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npyFile, safetensorsFile } from '../js/files.mjs';
import { T as G, ggufFile, f32Bytes } from '../js/gguf-writer.mjs';

const CONFIG_READERS = new Set(['ropeFromConfig', 'ropeAxesFromConfig', 'ropeAxesTables']);
// Methods whose leading arguments are not an options object: their generated leads (RoPE descriptions, a config) and
// the arity the runner shapes calls to (ropeFromConfig's options are optional, so its .length is 1).
const ARITY = { ropeFromConfig: 2, ropeAxesFromConfig: 2, ropeAxesTables: 2, compareRope: 3 };
const arityOf = (pe, m) => ARITY[m] ?? pe[m].length;
const ASYNC_READERS = new Set(['ropeFromGGUF', 'ggufHeader', 'ropeEngines', 'loadModel']);  // return Promises: awaited
const DEFECTS = ['other_exception', 'wasm_trap', 'hang', 'worker_crash', 'nonfinite_from_finite', 'unknown_key_accepted', 'unusable'];
const BATCH = 500;  // calls generated per fast-check sample; call i is reproducible from (seed, i)

// ---- main thread: runs workers, watches for hangs, merges counts, writes the report -------------------------------
async function main() {
  const arg = (name, dflt) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : dflt;
  };
  const calls = Number(arg('calls', 20000)), seed = Number(arg('seed', 1)), hangMs = Number(arg('hang-ms', 10000));
  const gate = arg('gate', DEFECTS.join(',')).split(',').filter(Boolean);
  const reportPath = arg('report', null);
  const t0 = Date.now();
  const report = { seed, calls, hang_ms: hangMs, gate, counts: {}, by_method: {}, examples: [], heap: null, methods: [] };
  const progress = new Int32Array(new SharedArrayBuffer(4));
  await callGenerator();  // to describe a hung call from its index
  let next = 0, retryAt = -1;
  while (next < calls) {
    Atomics.store(progress, 0, next);
    const outcome = await new Promise((resolve) => {
      const w = new Worker(fileURLToPath(import.meta.url), {
        workerData: { seed, start: next, end: calls, progress }, resourceLimits: { maxOldGenerationSizeMb: 3072 } });
      let last = -1, since = Date.now(), done = false;
      const timer = setInterval(() => {
        const at = Atomics.load(progress, 0);
        if (at !== last) { last = at; since = Date.now(); return; }
        if (Date.now() - since > (at === retryAt ? 3 * hangMs : hangMs)) { finish({ kind: 'hang', at }); w.terminate(); }
      }, 200);
      const finish = (o) => { if (!done) { done = true; clearInterval(timer); resolve(o); } };
      w.on('message', (m) => {
        if (m.type === 'done') finish({ kind: 'done', ...m });
        else if (m.type === 'sweep') report.base_sweep = m.reached;
        else if (m.type === 'hello') { Object.assign(generator, { methods: m.methods, arity: m.arity, keysOf: m.keysOf }); report.keys_of = m.keysOf; }
        else merge(report, m);
      });
      w.on('error', (e) => finish({ kind: 'worker_crash', at: Atomics.load(progress, 0), error: String(e).slice(0, 200) }));
      w.on('exit', () => finish({ kind: 'worker_crash', at: Atomics.load(progress, 0), error: 'worker exited' }));
    });
    if (outcome.kind === 'done') {
      report.methods = outcome.methods;
      report.heap = outcome.heap;
      next = calls;
    } else if (outcome.kind === 'hang' && outcome.at !== retryAt) {
      // Over the limit once: noted as slow, then the same call again in a fresh worker with 3× the time.
      merge(report, { type: 'counts', counts: { slow: 1 }, by_method: {},
        examples: [{ category: 'slow', index: outcome.at, call: describeCall(seed, outcome.at) }] });
      next = retryAt = outcome.at;
    } else {
      // The call in flight hung (twice) or killed the worker: record it and go on after it in a fresh worker.
      merge(report, { type: 'counts', counts: { [outcome.kind]: 1 }, by_method: {},
        examples: [{ category: outcome.kind, index: outcome.at, error: outcome.error, call: describeCall(seed, outcome.at) }] });
      next = outcome.at + 1;
    }
  }
  report.seconds = (Date.now() - t0) / 1000;
  const failing = gate.filter((c) => report.counts[c]);
  report.gate_failed = failing;
  if (reportPath) {
    mkdirSync(dirname(reportPath), { recursive: true });
    writeFileSync(reportPath, JSON.stringify(report, null, 1));
  }
  console.log(summary(report));
  process.exitCode = failing.length ? 1 : 0;
}

function merge(report, m) {
  for (const [k, v] of Object.entries(m.counts)) report.counts[k] = (report.counts[k] ?? 0) + v;
  for (const [meth, cs] of Object.entries(m.by_method)) {
    const into = (report.by_method[meth] ??= {});
    for (const [k, v] of Object.entries(cs)) into[k] = (into[k] ?? 0) + v;
  }
  for (const e of m.examples) {
    const same = report.examples.filter((x) => x.category === e.category && x.method === e.method && x.error === e.error);
    if (same.length === 0 && report.examples.length < 400) report.examples.push(e);
  }
}

function summary(r) {
  const lines = [`[fuzz api] ${r.calls} calls (seed ${r.seed}) in ${r.seconds.toFixed(1)} s over ${r.methods.length} methods`];
  if (r.base_sweep) lines.push(`  base/scale sweep: ${r.base_sweep.length} options reached (${[...new Set(r.base_sweep.map((x) => x.split('.')[0]))].length} methods), each at ${EXTREME_FINITE.length} extreme finite values × 3 dimensions`);
  for (const [k, v] of Object.entries(r.counts).sort((a, b) => b[1] - a[1])) lines.push(`  ${k.padEnd(24)} ${v}`);
  if (r.heap) lines.push(`  wasm memory ${r.heap.before} -> ${r.heap.after} bytes (${r.heap.after - r.heap.before >= 0 ? '+' : ''}${r.heap.after - r.heap.before})`);
  const defects = r.examples.filter((e) => DEFECTS.includes(e.category));
  for (const e of defects.slice(0, 30)) lines.push(`  ! ${e.category} ${e.method ?? ''}: ${e.error ?? ''} ${e.call ?? ''}`.slice(0, 300));
  if (defects.length > 30) lines.push(`  … ${defects.length - 30} more distinct findings in the report`);
  lines.push(r.gate_failed.length ? `[fuzz api] FAILED gate: ${r.gate_failed.join(', ')}` : `[fuzz api] gate passed (${r.gate.join(', ') || 'none'})`);
  return lines.join('\n');
}

// ---- the call generator (both threads: the main thread re-creates a hung call for the report) ----------------------
let generator = null;
async function callGenerator() {
  if (generator) return generator;
  const fc = (await import('fast-check')).default;
  const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
  const dts = readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith('.d.ts'))
    .map((f) => readFileSync(dist + f, 'utf8')).join('\n');
  const keys = [...new Set([...dts.matchAll(/^\s+(?:readonly )?([a-z_][a-z_0-9]*)\??:/gm)].map((m) => m[1]))];
  const words = [...new Set([...dts.matchAll(/'([a-z_0-9]+)'/g)].map((m) => m[1]))];

  const edgeInts = [0, 1, 2, 3, 4, 7, 8, 16, -1, -8, 1.5, 2 ** 20, 2 ** 20 + 1, 2 ** 26 + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 40, 2 ** 53, NaN, Infinity, -Infinity, -0];
  const edgeReals = [0, -0, 1, -1, 0.5, 2, 10000, 500000, 1e-300, 5e-324, 1e300, Number.MAX_VALUE, NaN, Infinity, -Infinity, 1e39, -1e39, 1e5];
  const hostile = fc.constantFrom(null, undefined, '8', '', 'x'.repeat(3000), 8n, true, {}, [], Object.create(null), { length: 2 ** 33 },
    { length: -1 }, () => 1, Symbol('s'), new Date(0), [1, [2]], new BigInt64Array(2), new Uint8Array(3), new ArrayBuffer(8), new Int32Array(4));
  const smallInt = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 16 }) }, { weight: 2, arbitrary: fc.integer({ min: 1, max: 8 }).map((x) => 2 * x) },
    { weight: 1, arbitrary: fc.constantFrom(...edgeInts) });
  const real = fc.oneof({ weight: 6, arbitrary: fc.double({ min: -1000, max: 1000, noNaN: true }) },
    { weight: 3, arbitrary: fc.integer({ min: -3, max: 6 }).map((e) => 10 ** e) }, { weight: 1, arbitrary: fc.constantFrom(...edgeReals) });
  const moderate = fc.double({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true });
  const f32 = (n) => fc.array(moderate, { minLength: n, maxLength: n }).map((a) => Float32Array.from(a));
  const lengths = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 48 }) }, { weight: 1, arbitrary: fc.constantFrom(64, 128, 256, 512) });
  const numbers = lengths.chain((n) => fc.oneof(f32(n), f32(n).map((a) => Array.from(a)),
    f32(n).map((a) => Float64Array.from(a)), fc.array(real, { minLength: n, maxLength: n })));
  const ints = fc.array(fc.integer({ min: -4, max: 40 }), { maxLength: 24 });
  const text = fc.oneof(fc.constantFrom('the cat sat', '猫 抓 老鼠', 'a b c d', '', ' ', 'a'), fc.string({ maxLength: 40 }),
    fc.array(fc.constantFrom('the', 'cat', '猫', 'x', 'mouse'), { maxLength: 12 }).map((a) => a.join(' ')));
  const bytes = fc.oneof(fc.uint8Array({ maxLength: 256 }), fc.constant(npyBytes()), fc.constant(safetensorsBytes()), fc.constant(ggufBytes()),
    fc.tuple(fc.constantFrom(npyBytes(), safetensorsBytes(), ggufBytes()), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 0, max: 255 }))
      .map(([b, i, v]) => { const c = b.slice(); c[i % c.length] = v; return c; }));
  const word = fc.constantFrom(...words);
  const scheme = fc.record({ type: word }, { requiredKeys: [] });
  const rope = fc.dictionary(fc.constantFrom('rope_type', 'factor', 'rope_theta', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor', 'beta_fast', 'beta_slow'),
    fc.oneof(word, real, smallInt), { maxKeys: 4 });

  const valueFor = (key) => {
    const k = key.toLowerCase();
    let base;
    if (/^(type|layout|mode|metric|rope_type|form|q|k|name|arch|dtype)$/.test(k)) base = fc.oneof({ weight: 5, arbitrary: word }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
    else if (/^(causal|clamp|downscale|bidirectional|truncate|softmax|simd)$/.test(k)) base = fc.boolean();
    else if (k === 'text') base = text;
    else if (k === 'scheme') base = scheme;
    else if (k === 'rope' || k === 'params') base = rope;
    else if (k === 'config') base = fc.record({ rope_theta: real, head_dim: smallInt, hidden_size: smallInt, num_attention_heads: smallInt,
      max_position_embeddings: smallInt, partial_rotary_factor: real, rope_scaling: fc.option(rope) }, { requiredKeys: [] });
    else if (k === 'engine') base = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('transformers', 'vllm', 'llama.cpp') }, { weight: 1, arbitrary: word });
    else if (k === 'layer_type') base = fc.constantFrom('full_attention', 'sliding_attention', 'x');
    else if (k === 'mrope_section') base = fc.oneof(fc.constant([2, 1, 1]), fc.constant([16, 24, 24]), ints);
    else if (/^(positions|positions_h|positions_w|centred)$/.test(k)) base = fc.oneof(smallInt, ints, numbers);
    else if (/^(x|q|k|v|u|u_q|u_k|p|cos|sin|data|table|table_k|table_v|slopes|inv_freq|long_factor|short_factor|weights|pos_key|pos_query|out|r|values|a|b)$/.test(k)) base = numbers;
    else if (/(dim|seq|heads|len|count|num_|rows|cols|buckets|distance|position|offset|width|^i$|^j$|^n$|^d$|qlen|klen|seed|start|embeddings)/.test(k)) base = smallInt;
    else base = real;
    return fc.oneof({ weight: 12, arbitrary: base }, { weight: 1, arbitrary: hostile });
  };
  // A method's own keys (each kept with probability 6/7), sometimes with other keys of the API beside them.
  const keep = fc.oneof({ weight: 6, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });
  const optionsOf = (own) => fc.tuple(fc.array(keep, { minLength: own.length, maxLength: own.length }),
    fc.oneof({ weight: own.length ? 5 : 1, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom(...keys), { maxLength: 5 }) }))
    .map(([kept, extra]) => [...new Set([...own.filter((_, i) => kept[i]), ...extra])])
    .chain((ks) => fc.tuple(...ks.map((k) => valueFor(k))).map((vs) => Object.fromEntries(ks.map((k, i) => [k, vs[i]]))));
  // An argument: mostly an options object, else data (arrays, bytes, text) or a hostile value.
  const argumentOf = (own) => fc.oneof({ weight: 10, arbitrary: optionsOf(own) }, { weight: 3, arbitrary: numbers }, { weight: 1, arbitrary: bytes },
    { weight: 1, arbitrary: text }, { weight: 1, arbitrary: smallInt }, { weight: 1, arbitrary: hostile });
  // A RoPE description for compareRope: mostly sane frequencies, sometimes hostile fields
  const desc = fc.record({ inv_freq: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 64 }).map((h) => Array.from({ length: h }, (_, i) => 10000 ** (-i / h))) },
    { weight: 1, arbitrary: numbers }), attention_scaling: fc.oneof(real, hostile), layout: fc.oneof(fc.constantFrom('half_split', 'interleaved'), word),
    head_dim: smallInt, max_position_embeddings: fc.oneof(smallInt, fc.integer({ min: 1, max: 2 ** 20 })) }, { requiredKeys: ['inv_freq'] });
  const leadOf = { compareRope: fc.tuple(fc.oneof({ weight: 8, arbitrary: desc }, { weight: 1, arbitrary: hostile }), desc),
    ropeFromConfig: fc.tuple(valueFor('config')) };
  const randomCall = (m, own) => fc.record({ method: fc.constant(m), lead: leadOf[m] ?? fc.array(argumentOf(own), { minLength: 0, maxLength: 2 }),
    last: fc.oneof({ weight: 6, arbitrary: optionsOf(own) }, { weight: 1, arbitrary: argumentOf(own) }), fit: fc.boolean(), bytesFirst: fc.boolean(), b: bytes })
    .map(({ lead, last, ...c }) => ({ ...c, args: [...lead, last] }));
  // Near a working call (found by discoverKeys): up to 3 of its options replaced or dropped, sometimes one key added.
  const nearCall = (m, d) => {
    const base = d.base[d.base.length - 1] ?? {};
    if (typeof base !== 'object') return fc.oneof(fc.constant(base), smallInt, hostile).map((v) => ({ method: m, args: [v], fit: false, bytesFirst: false, b: null }));
    const ks = Object.keys(base);
    const change = ks.length ? fc.uniqueArray(fc.constantFrom(...ks), { maxLength: 3 }) : fc.constant([]);
    return fc.tuple(change, fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...keys) }), fc.nat(), fc.boolean())
      .chain(([ch, add, salt, drop]) => fc.tuple(...[...ch, ...(add ? [add] : [])].map(valueFor)).map((vs) => {
        const o = structuredClone(base);
        [...ch, ...(add ? [add] : [])].forEach((k, i) => { if (drop && i === 0 && salt % 3 === 0) delete o[k]; else o[k] = vs[i]; });
        const args = d.base.length ? [...structuredClone(d.base.slice(0, -1)), o] : [];
        return { method: m, args, fit: salt % 2 === 0, bytesFirst: false, b: null };
      }));
  };
  const call = (methods, found) => fc.oneof(...methods.map((m) => {
    const d = found?.[m] ?? { keys: [], base: [], ok: false };
    return d.ok ? fc.oneof({ weight: 3, arbitrary: nearCall(m, d) }, { weight: 2, arbitrary: randomCall(m, d.keys) }) : randomCall(m, d.keys);
  }));
  generator = { fc, call, words, dtsKeys: keys };
  return generator;
}

function batchOf(seed, methods, b) {
  const { fc, call } = generator;
  return fc.sample(call(methods, generator.keysOf), { seed: (seed * 1000003 + b) | 0, numRuns: BATCH });
}

/** A plausible value for a parameter a PosencError named (used only to discover the next required key). */
function plausible(key, words) {
  if (/^(text)$/.test(key)) return 'the cat sat';
  if (/^(scheme)$/.test(key)) return { type: 'rope' };
  if (/^(mrope_section)$/.test(key)) return [2, 1, 1];
  if (/^(layout|mode|metric|type|rope_type|form|q|k)$/.test(key)) return undefined;  // the message lists the words
  if (/^(causal|clamp|downscale|bidirectional)$/.test(key)) return true;
  if (/^(x|q|k|v|u|p|cos|sin|weights|data|table|slopes|inv_freq|table_k|table_v|u_q|u_k|pos_key|pos_query|values)$/.test(key)) return new Float32Array(32).fill(0.5);
  if (key === 'config') return { rope_theta: 10000, head_dim: 8, num_attention_heads: 1, hidden_size: 8 };
  if (/(head_dim|rotary_dim|^d$|cols|d_model|v_dim)/.test(key)) return 8;
  if (/(heads)/.test(key)) return 1;
  return 4;
}

/**
 * The option keys each method reads, found by calling it: start from {} and add the parameter each PosencError names,
 * until the call succeeds or names nothing new (≤ 10 rounds). Deterministic, so every thread finds the same keys.
 */
function discoverKeys(pe, methods, PosencError, words) {
  const found = {};
  for (const m of methods) {
    // the asynchronous GGUF readers take a source (bytes here) first
    if (ASYNC_READERS.has(m)) {
      found[m] = m === 'ropeFromGGUF' ? { keys: ['seq_len'], base: [ggufBytes(), {}], ok: true }
        : m === 'loadModel' ? { keys: ['trained_context'], base: [tinyModel(), {}], ok: true }
        : m === 'ropeEngines' ? { keys: ['seq_len', 'n_ctx', 'max_model_len'], base: [{ model_type: 'llama', head_dim: 8, rope_theta: 10000, max_position_embeddings: 64 }, {}], ok: true }
          : { keys: [], base: [], ok: false };
      continue;
    }
    const keys = new Set(), opts = {}, tried = new Set();
    const arity = pe[m].length;
    let lead = new Float32Array(32).fill(0.5);
    if (/npy|safetensors/i.test(m)) lead = /npy/i.test(m) ? npyBytes() : safetensorsBytes();
    if (m === 'tableFromJSON') lead = '[[1, 2], [3, 4]]';
    if (m === 'compareRope') {
      const r = { inv_freq: [1, 0.1, 0.01, 0.001] };
      found[m] = { keys: ['positions', 'samples', 'seed', 'tolerance', 'layer_type'], base: [r, { ...r, attention_scaling: 1.2 }, { positions: 64, samples: 64 }], ok: true };
      continue;
    }
    if (m === 'ropeFromConfig') {
      const config = { model_type: 'llama', head_dim: 8, rope_theta: 10000, max_position_embeddings: 64,
        rope_scaling: { rope_type: 'longrope', short_factor: [1, 1, 1, 1], long_factor: [2, 2, 2, 2], original_max_position_embeddings: 16 } };
      found[m] = { keys: ['engine', 'seq_len', 'n_ctx', 'max_model_len'], base: [config, { engine: 'llama.cpp', n_ctx: 32 }], ok: true };
      continue;
    }
    if (m === 'ropeAxesFromConfig') {
      const config = { _class_name: 'CosmosTransformer3DModel', attention_head_dim: 24, rope_scale: [2, 1, 1] };
      found[m] = { keys: ['grid', 'fps'], base: [config, { grid: [2, 3, 4], fps: 30 }], ok: true };
      continue;
    }
    if (m === 'ropeAxesTables') {
      found[m] = { keys: ['grid', 'fps'], base: [{ _class_name: 'WanTransformer3DModel', attention_head_dim: 24 }, { grid: [2, 3, 4] }], ok: true };
      continue;
    }
    if (m === 'resizePositionGrid') {
      found[m] = { keys: ['table', 'rows', 'cols', 'dim', 'height', 'width'], base: [{ table: [1, 2, 3, 4, 5, 6], rows: 2, cols: 3, dim: 1, height: 4, width: 2 }], ok: true };
      continue;
    }
    // the research schemes: discovery from error messages cannot build unit rows w or matching lengths, so valid calls
    // are given (without them every generated call stopped at the first check and the numerics were never reached)
    const RESEARCH = {
      kerpleBias: [{ kernel: 'power', r1: 0.5, r2: 1.5, count: 64 }],
      sandwichBias: [{ head_dim: 64, num_heads: 8, head: 3, count: 64 }],
      fireDistance: [{ c: 0.1, L: 512, query_position: 100, count: 64 }],
      copePositions: [{ gate_logits: Float64Array.from({ length: 32 }, (_, j) => Math.sin(j)), npos: 33 }],
      stickBreakingWeights: [{ logits: Float64Array.from({ length: 32 }, (_, j) => Math.cos(j)) }],
      pathScores: [{ q: [0.6, 0.8], k: [1, 0, 0, 1, 0.5, 0.5], w: [1, 0, 0, 1, 0.6, 0.8], beta: [1, 2, 0.5], head_dim: 2 }],
    };
    if (m in RESEARCH) {
      found[m] = { keys: [...new Set(RESEARCH[m].flatMap(Object.keys))], base: RESEARCH[m], ok: true };
      continue;
    }
    if (m === 'dualChunkDistances') {
      found[m] = { keys: ['chunk_size', 'local_size', 'q_positions', 'k_positions'], base: [{ chunk_size: 16, local_size: 4, q_positions: [0, 5, 20, 40], k_positions: [0, 3, 17, 39] }], ok: true };
      continue;
    }
    let ok = arity === 0;
    for (let round = 0; round < 12 && arity > 0; round++) {
      const args = arity >= 2 ? [lead, opts] : [opts];
      try { pe[m](...args); ok = true; break; } catch (e) {
        if (!(e instanceof PosencError)) break;
        const name = /^([a-z_0-9]+)/.exec(e.message)?.[1];
        const word = /'([a-z_0-9]+)'/.exec(e.message)?.[1];
        if (!name) break;
        const sizes = [...e.message.matchAll(/\b(\d{1,5})\b/g)].map((x) => +x[1]).filter((n) => n > 0);
        if (arity >= 2 && ArrayBuffer.isView(lead) && !(lead instanceof Uint8Array) && !(name in opts) && sizes.length && !tried.has('lead')) {
          tried.add('lead');  // the positional data argument has the wrong length
          lead = new Float32Array(sizes[0]).fill(0.5);
          continue;
        }
        if (arity === 1 && round === 0 && /\[object Object\]|got object/.test(e.message)) {
          try { pe[m](plausible(name, words)); found[m] = { keys: [], base: [plausible(name, words)], ok: true }; } catch { /* not a scalar either */ }
          if (found[m]) break;
        }
        if (!keys.has(name)) { keys.add(name); const v = plausible(name, words); opts[name] = v === undefined ? word : v; continue; }
        // Named again: an array of the wrong length: try the length the message states.
        if (ArrayBuffer.isView(opts[name]) && sizes.length && !tried.has(name)) { tried.add(name); opts[name] = new Float32Array(sizes.find((n) => n !== opts[name].length) ?? sizes[0]).fill(0.5); continue; }
        break;
      }
    }
    found[m] ??= { keys: [...keys], base: arity >= 2 ? [lead, opts] : arity === 1 ? [opts] : [], ok };
  }
  return found;
}

/** Shapes generated data to fit the options beside it (so calls get past the size checks and reach the numerics). */
function shaped(c, arity) {
  const args = c.args.length > arity ? [...c.args.slice(0, Math.max(arity - 1, 0)), c.args[c.args.length - 1]] : c.args.slice();
  while (args.length < arity) args.unshift(new Float32Array(8));
  const opts = args.findLast((a) => a && typeof a === 'object' && !ArrayBuffer.isView(a) && !Array.isArray(a) && Object.getPrototypeOf(a) === Object.prototype);
  if (c.fit && opts) {
    const v = (...ks) => ks.map((k) => opts[k]).find((x) => Number.isInteger(x) && x >= 0 && x <= 64) ?? 1;
    const n = v('seq', 'q_len', 'qlen', 'rows', 'n') * v('heads', 'num_heads') * v('head_dim', 'd', 'cols', 'd_model', 'rotary_dim');
    for (let i = 0; i < args.length; i++) if (ArrayBuffer.isView(args[i]) && !(args[i] instanceof Uint8Array)) args[i] = new Float32Array(n).map((_, j) => Math.sin(j + 1));
    for (const k of ['x', 'q', 'k', 'v', 'p', 'data', 'table']) if (k in opts && (ArrayBuffer.isView(opts[k]) || Array.isArray(opts[k]))) opts[k] = new Float32Array(n).map((_, j) => Math.cos(j));
  }
  if ((c.bytesFirst || (ASYNC_READERS.has(c.method) && c.b)) && /npy|safetensors|gguf/i.test(c.method)) args[0] = c.b;
  return args;
}

function describeCall(seed, index) {
  try {
    if (!generator || !generator.methods) return `call #${index}`;
    const c = batchOf(seed, generator.methods, Math.floor(index / BATCH))[index % BATCH];
    return `${c.method}(${shaped(c, ARITY[c.method] ?? generator.arity[c.method]).map(show).join(', ')})`;
  } catch { return `call #${index}`; }
}

function show(v, depth = 0) {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol' || typeof v === 'function') return String(v).slice(0, 40);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…(${v.length})` : v);
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (v === null || v === undefined) return String(v);
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length})`;
  if (v instanceof ArrayBuffer) return `ArrayBuffer(${v.byteLength})`;
  if (Array.isArray(v)) return depth > 1 ? '[…]' : `[${v.slice(0, 6).map((x) => show(x, depth + 1)).join(', ')}${v.length > 6 ? `, …(${v.length})` : ''}]`;
  if (typeof v === 'object') {
    if (depth > 1) return '{…}';
    const proto = Object.getPrototypeOf(v) === null ? 'null-proto ' : '';
    return `${proto}{${Object.keys(v).map((k) => `${k}: ${show(v[k], depth + 1)}`).join(', ')}}`;
  }
  return String(v);
}

const npyBytes = () => npyFile('<f4', [2, 3], new Float32Array([0.5, -1, 2, 3, 4, 5]));
// A llama GGUF with the rope keys and a rope_freqs tensor (tests/js/gguf-writer.mjs).
// a Llama model of 1 layer, embedding 8, vocabulary 16 (the model fuzz target's seed, tests/fuzz/corpus/model)
const tinyModel = () => new Uint8Array(readFileSync(new URL('corpus/model/tiny-llama.gguf', import.meta.url)));
const ggufBytes = () => ggufFile({ kv: [['general.architecture', G.str, 'llama'], ['llama.embedding_length', G.u32, 64],
  ['llama.attention.head_count', G.u32, 4], ['llama.context_length', G.u32, 4096], ['llama.rope.freq_base', G.f32, 500000],
  ['llama.rope.scaling.type', G.str, 'yarn'], ['llama.rope.scaling.factor', G.f32, 4], ['llama.rope.scaling.original_context_length', G.u32, 1024]],
tensors: [{ name: 'rope_freqs.weight', dims: [8], type: 0, data: f32Bytes([1, 1, 1, 2, 3, 4, 8, 8]) }] });
const safetensorsBytes = () => safetensorsFile({ 'wpe.weight': { dtype: 'F32', shape: [2, 3], data_offsets: [0, 24] } },
  new Uint8Array(new Float32Array([1, 2, 3, 4, 5, 6]).buffer));

// ---- worker: makes the calls -----------------------------------------------------------------------------------------
async function work() {
  const { seed, start, end, progress } = workerData;
  const { default: init, PosencError } = await import('posenc');
  let pe = await init();
  // Every method reachable on the API object: its prototype chain up to Object.prototype (families and their base).
  const methods = [];
  for (let p = Object.getPrototypeOf(pe); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const m of Object.getOwnPropertyNames(p)) if (m !== 'constructor' && typeof pe[m] === 'function' && !methods.includes(m)) methods.push(m);
  }
  await callGenerator();
  generator.methods = methods;
  generator.arity = Object.fromEntries(methods.map((m) => [m, pe[m].length]));
  generator.keysOf = discoverKeys(pe, methods, PosencError, generator.words);
  parentPort.postMessage({ type: 'hello', methods, arity: generator.arity, keysOf: generator.keysOf });
  const canary = () => pe.ropeTables({ rotary_dim: 8, positions: 3 });
  const expected = JSON.stringify(Array.from(canary().cos));
  const heapBefore = pe.memoryBytes();
  let counts = {}, byMethod = {}, examples = [];
  const count = (method, category, error, c) => {
    counts[category] = (counts[category] ?? 0) + 1;
    const m = (byMethod[method] ??= {});
    m[category] = (m[category] ?? 0) + 1;
    if (category !== 'result' && category !== 'posenc_error') {
      examples.push({ category, method, error: error?.slice(0, 160), call: `${method}(${c.map((a) => show(a)).join(', ')})`.slice(0, 400) });
    }
  };
  const flush = () => {
    parentPort.postMessage({ type: 'counts', counts, by_method: byMethod, examples });
    counts = {}; byMethod = {}; examples = [];
  };
  // First (once per run): every base or scale option of every method, at extreme finite values (see baseSweep).
  if (start === 0) {
    const sweep = await baseSweep(pe, methods, generator.keysOf, PosencError);
    for (const f of sweep.findings) count(f.method, 'nonfinite_from_finite', f.error, f.args);
    parentPort.postMessage({ type: 'sweep', reached: sweep.reached });
  }
  let batch = null, batchNo = -1;
  for (let i = start; i < end; i++) {
    Atomics.store(progress, 0, i);
    const b = Math.floor(i / BATCH);
    if (b !== batchNo) { batch = batchOf(seed, methods, b); batchNo = b; }
    const c = batch[i % BATCH];
    const args = shaped(c, arityOf(pe, c.method));
    const finiteIn = inputsModerate(args);
    let category, error;
    try {
      let r = pe[c.method](...args);
      if (ASYNC_READERS.has(c.method)) r = await r;
      category = 'result';
      const bad = nonFinite(r, allowsMinusInfinity(c.method, args));
      if (bad) { category = finiteIn ? 'nonfinite_from_finite' : 'nonfinite_from_extreme'; error = bad; }
    } catch (e) {
      if (e instanceof PosencError) category = 'posenc_error';
      else if (e instanceof WebAssembly.RuntimeError) { category = 'wasm_trap'; error = String(e.message); }
      else { category = 'other_exception'; error = `${e?.constructor?.name ?? typeof e}: ${String(e?.message ?? e)}`; }
    }
    count(c.method, category, error, args);
    // One made-up key added to a successful call's options must be refused.
    const last = args[args.length - 1];
    // (A config.json passed alone is not an options object: keys that do not affect positions are ignored by design.)
    const openObject = (CONFIG_READERS.has(c.method) || c.method === 'ropeEngines') && args.length === 1;
    if (category === 'result' && !openObject && arityOf(pe, c.method) > 0 && last && typeof last === 'object' && !ArrayBuffer.isView(last) && !Array.isArray(last)) {
      const typo = `${Object.keys(last)[0] ?? 'option'}_x`;
      try {
        await pe[c.method](...args.slice(0, -1), { ...last, [typo]: 1 });
        count(c.method, 'unknown_key_accepted', `'${typo}' accepted`, args);
      } catch { /* refused, as it should be */ }
    }
    if (category !== 'result' && category !== 'posenc_error' || i % 64 === 0) {
      let ok = false;
      try { ok = JSON.stringify(Array.from(canary().cos)) === expected; } catch { ok = false; }
      if (!ok) { count(c.method, 'unusable', 'canary call failed after this call', args); pe = await init(); }
    }
    if (i % 256 === 255) flush();
  }
  flush();
  parentPort.postMessage({ type: 'done', methods, heap: { before: heapBefore, after: pe.memoryBytes() } });
}

// A base or scale option (base, rope_theta, theta, scale_base, min_timescale, attention_scaling, …) is held to "finite in,
// finite out" for every finite value, however extreme (issue 34: sinusoidal's base 5e-324 gave NaN): such an entry
// point must refuse the value with a PosencError or return finite numbers.
const BASE_OR_SCALE = /(?:^|_)(?:base|theta|scale|scaling|timescale)(?:$|_)/;

const EXTREME_FINITE = [5e-324, 1e-300, 1e-12, 1e12, 1e300, Number.MAX_VALUE, -5e-324, -1e300];
const PLAUSIBLE = [10000, 2, 0.5, 1, 30];

/**
 * Finite in, finite out for every base or scale option (issue 34): for each method with a working call (discoverKeys),
 * each option key of the API matching BASE_OR_SCALE that the method accepts — at the top level or inside an object
 * option (scheme, rope, config) — is set to each extreme finite value, with the call's dimension (d, rotary_dim,
 * head_dim) also at 64 and 256, where a small base's top frequency overflows. A result with NaN/±∞ is a defect; a
 * PosencError is the right answer. Returns the findings and the method.key pairs reached.
 */
async function baseSweep(pe, methods, found, PosencError) {
  const findings = [], reached = new Set();
  const dts = generator.dtsKeys.filter((k) => BASE_OR_SCALE.test(k));
  let n = 0;   // progress for the hang watch: negative while sweeping (call indices are ≥ 0)
  const call = async (m, args) => { Atomics.store(workerData.progress, 0, -(++n)); let r = pe[m](...args); if (ASYNC_READERS.has(m)) r = await r; return r; };
  const plain = (v) => v && typeof v === 'object' && !ArrayBuffer.isView(v) && !Array.isArray(v) && !(v instanceof ArrayBuffer);
  // working calls of the methods the key discovery cannot complete (data sized to the options)
  const ones = (n) => new Float32Array(n).fill(0.5);
  const known = {
    attention: [{ scheme: { type: 'rope' }, text: 'a b c d', heads: 1, head_dim: 8 }],
    permutationChange: [{ scheme: { type: 'rope' }, text: 'the cat sat', i: 0, j: 2, head_dim: 8 }],
    attentionScores: [{ q: ones(4 * 8), k: ones(4 * 8), seq: 4, head_dim: 8, rope: { rope_theta: 10000 } }],
    linearAttentionRope: [{ q: ones(4 * 8), k: ones(4 * 8), v: ones(4 * 2), seq: 4, head_dim: 8, v_dim: 2, form: 'numerator_only' }],
    ropeInnerProductSweep: [{ q: 'ones', k: 'ones', head_dim: 8, count: 16 }],
    mropeTables: [{ rotary_dim: 8, mrope_section: [2, 1, 1], positions: [[0, 1, 2], [0, 1, 2], [0, 1, 2]] }],
    axial2dTables: [{ rotary_dim: 8, grid: [2, 3] }],
  };
  // open objects (a config.json, a RoPE description) take any key: only the keys they already hold are theirs
  const open = (m, i) => CONFIG_READERS.has(m) || m === 'ropeEngines' || (m === 'compareRope' && i < 2);
  for (const m of methods) {
    const d = known[m] && !found[m]?.ok ? { ok: true, base: known[m], keys: Object.keys(known[m][0]) } : found[m];
    if (!d?.ok || !d.base.length) continue;
    // where a key can go: every plain-object argument (options, a config, a RoPE description) and each plain-object
    // value inside one (scheme, rope, rope_scaling); a scheme is tried as each scheme type that has a base
    const homes = [];
    d.base.forEach((a, i) => {
      if (!plain(a)) return;
      homes.push({ i, path: [] });
      for (const k of Object.keys(a)) if (plain(a[k])) homes.push({ i, path: [k] });
    });
    if (d.keys.includes('scheme') || homes.some((h) => h.path[0] === 'scheme')) {
      const i = d.base.length - 1;
      for (const type of ['sinusoidal', 'rope', 'xpos', 'multiplicative']) homes.push({ i, path: ['scheme'], type });
    }
    const withKey = (h, key, v, dim) => {
      const args = structuredClone(d.base), o = args[h.i];
      if (h.type) o.scheme = { ...(plain(o.scheme) ? o.scheme : {}), type: h.type };
      (h.path.length ? o[h.path[0]] : o)[key] = v;
      if (dim) for (const a of args) if (plain(a)) for (const k of ['d', 'rotary_dim', 'head_dim']) if (Number.isInteger(a[k])) a[k] = dim;
      return args;
    };
    for (const h of homes) {
      const where = [...(h.i < d.base.length - 1 ? [`arg${h.i}`] : []), ...h.path, ...(h.type ? [`(${h.type})`] : [])];
      const holder = h.path.length ? d.base[h.i][h.path[0]] : d.base[h.i];
      for (const key of open(m, h.i) ? dts.filter((k) => Object.hasOwn(holder, k)) : dts) {
        // accepted: a plausible value works (an unknown key is refused; a wrong one names the key)
        let ok = false;
        for (const v of PLAUSIBLE) { try { await call(m, withKey(h, key, v)); ok = true; break; } catch { /* next */ } }
        if (!ok) continue;
        const name = [...where, key].join('.');
        reached.add(`${m}.${name}`);
        for (const dim of [0, 64, 256]) {
          for (const v of EXTREME_FINITE) {
            const args = withKey(h, key, v, dim);
            try {
              const bad = nonFinite(await call(m, args), allowsMinusInfinity(m, args));
              if (bad) findings.push({ method: m, error: `${name} = ${v}${dim ? `, dim ${dim}` : ''}: ${bad}`, args });
            } catch (e) {
              if (!(e instanceof PosencError)) findings.push({ method: m, error: `${name} = ${v}: ${e?.constructor?.name}: ${e?.message}`, args });
            }
          }
        }
      }
    }
  }
  return { findings, reached: [...reached] };
}

function inputsModerate(args) {
  let ok = true;
  const seen = new Set();
  const visit = (v, depth, key = '') => {
    if (!ok || depth > 4) return;
    if (typeof v === 'number') {
      if (BASE_OR_SCALE.test(key) && Number.isFinite(v)) return;
      if (!(Number.isFinite(v) && (v === 0 || (Math.abs(v) >= 1e-6 && Math.abs(v) <= 1e6)))) ok = false;
      return;
    }
    if (typeof v === 'bigint') { ok = false; return; }
    if (v && typeof v === 'object') {
      if (seen.has(v)) return;
      seen.add(v);
      // File bytes may store ±∞/NaN, which the table readers keep (documented): not a finite input.
      if (v instanceof Uint8Array || v instanceof ArrayBuffer) { ok = false; return; }
      if (ArrayBuffer.isView(v)) { for (const x of v) visit(Number(x), depth); return; }
      if (typeof v.length === 'number' && !Array.isArray(v) && v.length > 1e6) { ok = false; return; }
      for (const k of Object.keys(v)) visit(v[k], depth + 1, k);
    }
  };
  args.forEach((a) => visit(a, 0));
  return ok;
}

function allowsMinusInfinity(method, args) {
  const o = args.find((a) => a && typeof a === 'object' && !ArrayBuffer.isView(a));
  return /alibiBias/.test(method) ? o?.mode !== 'symmetric' : o?.causal === true || o?.mode === 'causal';
}

// Results whose +∞ is documented: RoPE's wavelength 2π/θ of a frequency θ ≤ 0 (a channel that never rotates).
const DOCUMENTED_INFINITY = /\.wavelength\[/;

/** A description of the first NaN/±∞ in a result (typed arrays, numbers, nested objects), or ''. */
function nonFinite(r, minusInfOk) {
  const seen = new Set();
  const visit = (v, path, depth) => {
    if (typeof v === 'number') {
      const bad = Number.isNaN(v) || (v === Infinity && !DOCUMENTED_INFINITY.test(path)) || (v === -Infinity && !minusInfOk);
      return bad ? `${v} at ${path}` : '';
    }
    if (!v || typeof v !== 'object' || depth > 4 || seen.has(v)) return '';
    seen.add(v);
    if (ArrayBuffer.isView(v)) {
      if (v instanceof BigInt64Array || v instanceof BigUint64Array) return '';
      for (let i = 0; i < v.length; i++) { const s = visit(v[i], `${path}[${i}]`, depth); if (s) return s; }
      return '';
    }
    for (const k of Object.keys(v)) { const s = visit(v[k], `${path}.${k}`, depth + 1); if (s) return s; }
    return '';
  };
  return visit(r, 'result', 0);
}

if (isMainThread) await main();
else await work();
