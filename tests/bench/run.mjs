// `npm run bench`: every workload through the public API of the package (tests/bench/api.mjs: warm `out` buffers, and
// the convenience path: plain arrays in, fresh results out) and side by side with the same work as a kernel inside
// wasm (SIMD and scalar builds), the peers measured in the same run — plain JavaScript (tests/bench/plain.mjs) and
// Debian's numpy (tests/bench/numpy_peer.py, one thread; `scores` also with OpenBLAS on 2 threads) — and native C++
// (build/native/posenc_native_bench, the same core with g++), plus the machine's limits measured in the same run.
// Every result is checked against plain JS (float64 formulas) at 64 indices; posenc must hold the workload's
// tolerance, the peers' largest error is reported. Floors: bytes at the measured wasm copy bandwidth, and for
// `scores` the causal QKᵀ flops at the measured single-thread f32x4 multiply-add peak.
// Prints one JSON line per (workload, implementation) and one `summary` line per workload, then a readable table.
// BENCH_REPS (default 7) sets the timed repetitions; BENCH_ONLY=a,b runs only those workloads; BENCH_NUMPY=0 skips
// numpy (then the goals that name it are not evaluated); BENCH_PYTHON names another python3 with numpy.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import init from 'posenc';
import { workloads } from './plain.mjs';
import { apiWorkloads } from './api.mjs';

const REPS = Number(process.env.BENCH_REPS ?? 7);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',')) : null;
const native = fileURLToPath(new URL('../../build/native/posenc_native_bench', import.meta.url));
const pe = await init();
// The kernels are timed by the bench modules (build/wasm-*/posenc-bench.{mjs,wasm}: the same core plus
// cpp/bindings/bench.cpp), which are not part of the npm package.
const benchModule = async (flavour) => {
  const dir = new URL(`../../build/wasm-${flavour}/`, import.meta.url);
  const factory = (await import(new URL('posenc-bench.mjs', dir).href)).default;
  return factory({ wasmBinary: readFileSync(new URL('posenc-bench.wasm', dir)) });
};
const benchSimd = await benchModule('simd'), benchScalar = await benchModule('scalar');

const stats = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return { median_ms: s[Math.floor(s.length / 2)], min_ms: s[0], reps: s.length };
};
const round = (x, d = 3) => +x.toFixed(d);
const emit = (o) => console.log(JSON.stringify(o));

// ---- machine limits (same run) ----
const COPY_BYTES = 256 * 2 ** 20;
const copyMs = stats(Array.from(benchSimd.benchCopy(COPY_BYTES, REPS))).median_ms;
const copyGBs = (2 * COPY_BYTES) / (copyMs * 1e6);  // read + write, like the workloads' byte counts
// V8 compiles wasm with a baseline tier first and swaps in optimised code for later calls (no on-stack
// replacement): every wasm entry point is called once untimed before it is measured.
for (let i = 0; i < 3; i++) benchSimd.benchPeak(1e6);
const peak = benchSimd.benchPeak(2e8);
const peakGflops = peak.flops / (peak.ms * 1e6);
const nat = (args) => JSON.parse(execFileSync(native, args.map(String), { encoding: 'utf8', maxBuffer: 1 << 26 }));
const nCopy = stats(nat([REPS, 'copy', COPY_BYTES]).ms).median_ms;
const nPeak = nat([1, 'peak', 4e8]);
emit({ limit: 'memory_copy', impl: 'wasm', GB_per_s: round(copyGBs, 2), note: 'read+write bytes per second, 256 MiB copied by f32x4 load/store' });
emit({ limit: 'f32x4_multiply_add', impl: 'wasm-simd', GFLOP_per_s: round(peakGflops, 2) });
emit({ limit: 'memory_copy', impl: 'native', GB_per_s: round((2 * COPY_BYTES) / (nCopy * 1e6), 2) });
emit({ limit: 'multiply_add', impl: 'native', GFLOP_per_s: round(nPeak.flops / (nPeak.ms * 1e6), 2) });

// ---- goals (issue 22) ----
// Ratios within this run: the API (with `out`) against the best single-thread peer and its floor; decay sweeps
// against numpy; the convenience path against the `out` path.
const FLOOR_GOAL = { rope_tables: 2, sinusoidal: 2, scores: 1.25, rope_apply: 1.25, alibi: 1.25, t5: 1.25 };
const X_NUMPY_GOAL = { decay_ones: 10, decay_random: 10 };
const FRESH_GOAL = 1.5;
// Work per run, for the share of the machine's limits: bytes read + written (all), multiply-add flops (some).
const FLOPS = { scores: 2048 * 2048 * 128, decay_ones: 65536 * 256 * 4, decay_random: 65536 * 256 * 4 };
const TOL = { rope_tables: 2e-7, rope_apply: 1e-5, scores: 1e-6, decay_ones: 6e-3, decay_random: 6e-3, sinusoidal: 2e-7, alibi: 0, t5: 0 };

const api = apiWorkloads(pe), fresh = apiWorkloads(pe, { fresh: true });
// Node's threads build (init({ threads: true })), the same calls with `out`: not part of the single-thread goals.
const threaded = await init({ threads: true });
const apiThreads = apiWorkloads(threaded);
// Warm until V8 has tiered up: the first call runs the baseline (Liftoff) wasm code and optimised code replaces it only
// for later calls (no on-stack replacement), so one warm call can leave several timed calls on the slow tier.
// At least 5 calls and 200 ms (at most 30 calls); the first call also touches every output page once.
const warmUp = (run) => {
  const t0 = performance.now();
  for (let i = 0; i < 30 && (i < 5 || performance.now() - t0 < 200); i++) run();
};
const timeJs = (run) => {
  warmUp(run);
  const ms = [];
  for (let r = 0; r < REPS; r++) { const t0 = performance.now(); run(); ms.push(performance.now() - t0); }
  return stats(ms);
};
// numpy, as a subprocess (Debian's python3 and numpy; OpenBLAS when installed): the same inputs and indices.
const NUMPY = process.env.BENCH_NUMPY !== '0';
const numpyPeer = (threads, names, idxOf) => {
  const script = fileURLToPath(new URL('numpy_peer.py', import.meta.url));
  const spec = JSON.stringify({ reps: REPS, workloads: Object.fromEntries(names.map((n) => [n, idxOf[n]])) });
  const out = execFileSync(process.env.BENCH_PYTHON ?? '/usr/bin/python3', [script, spec], { encoding: 'utf8', maxBuffer: 1 << 26,
    env: { ...process.env, OPENBLAS_NUM_THREADS: String(threads), OMP_NUM_THREADS: String(threads) } });
  return JSON.parse(out);
};
const names = Object.keys(workloads).filter((n) => !ONLY || ONLY.has(n));
const idxOf = {}, plains = {};
for (const name of names) {
  const size = benchSimd.benchRun(name, 0, []).size;  // also the untimed first call (see above)
  benchScalar.benchRun(name, 0, []);
  idxOf[name] = Array.from({ length: 64 }, (_, i) => Math.floor((i * 2654435761) % 2 ** 32 / 2 ** 32 * size));
}
const np1 = NUMPY ? numpyPeer(1, names, idxOf) : {};
const np2 = NUMPY && names.includes('scores') ? numpyPeer(2, ['scores'], idxOf) : {};

const summary = [];
for (const name of names) {
  const plain = workloads[name]();
  plain.run();
  const idx = idxOf[name], expect = idx.map((i) => plain.at(i));
  const error = (got) => Math.max(...got.map((g, t) => Math.abs(Math.fround(g) - Math.fround(expect[t])) / Math.max(1, Math.abs(expect[t]))));
  const check = (impl, got) => {  // posenc: within the workload's tolerance, else the bench stops
    const e = error(got);
    if (!(e <= TOL[name])) throw new Error(`${name}/${impl}: error ${e} against plain JS (float64) exceeds ${TOL[name]}`);
    return e;
  };
  const rows = { 'plain-js': { ...timeJs(plain.run), error: 0 } };
  // threads before fresh: the fresh path's garbage keeps V8's concurrent GC busy on the other core for a while
  for (const [impl, set] of [['api', api], ['api-threads', apiThreads], ['api-fresh', fresh]]) {
    const a = set.workloads[name]();
    a.run();
    const e = check(impl, idx.map((i) => a.at(i)));
    rows[impl] = { ...timeJs(a.run), error: e };
  }
  for (const [impl, m] of [['wasm-simd', benchSimd], ['wasm-scalar', benchScalar]]) {
    const r = m.benchRun(name, REPS, idx);
    rows[impl] = { ...stats(Array.from(r.ms)), bytes: r.bytes, error: check(impl, Array.from(r.sample)) };
  }
  // What any fresh result costs at least: a new typed array of the result's size, filled by one copy (page faults of
  // new memory; on this kind of machine slower than the copy itself).
  const size = benchSimd.benchRun(name, 0, []).size, warm = new Float32Array(size).fill(1);
  rows['first-touch'] = { ...timeJs(() => new Float32Array(size).set(warm)), error: 0 };
  const n = nat([REPS, name, ...idx]);
  rows.native = { ...stats(n.ms), error: check('native', n.sample) };
  for (const [impl, res] of [['numpy', np1[name]], ['numpy-blas-2-threads', np2[name]]]) {
    if (res) rows[impl] = { ...stats(res.ms), error: error(res.sample) };  // a peer: its error is reported
  }
  const bytes = rows['wasm-simd'].bytes;
  const floorMs = Math.max(bytes / (copyGBs * 1e6), (FLOPS[name] ?? 0) / (peakGflops * 1e6));  // the tighter limit
  const limits = (ms) => ({ copy_bandwidth_fraction: round(bytes / (ms * 1e6) / copyGBs),
    ...(FLOPS[name] && { peak_flops_fraction: round(FLOPS[name] / (ms * 1e6) / peakGflops) }) });
  for (const [impl, s] of Object.entries(rows)) {
    emit({ workload: name, impl, median_ms: round(s.median_ms), min_ms: round(s.min_ms), reps: s.reps,
      max_rel_error: +s.error.toPrecision(3), x_plain_js: round(rows['plain-js'].median_ms / s.median_ms, 2),
      ...(impl === 'api' || impl === 'wasm-simd' ? limits(s.median_ms) : {}) });
  }
  const apiMs = rows.api.median_ms, kernelMs = rows['wasm-simd'].median_ms;
  const peers = ['plain-js', 'numpy'].filter((p) => rows[p]).map((p) => [p, rows[p].median_ms]).sort((x, y) => x[1] - y[1]);
  const [bestPeer, bestMs] = peers[0];
  const goals = { x_best_peer: 1 };
  const got = { x_best_peer: round(bestMs / apiMs, 2), fresh_over_out: round(rows['api-fresh'].median_ms / apiMs, 2),
    over_floor: round(apiMs / floorMs, 2), threads_speedup: round(apiMs / rows['api-threads'].median_ms, 2),
    threads_x_best_peer: round(Math.min(bestMs, rows['numpy-blas-2-threads']?.median_ms ?? Infinity) / rows['api-threads'].median_ms, 2),
    fresh_over_out_plus_first_touch: round(rows['api-fresh'].median_ms / (apiMs + rows['first-touch'].median_ms), 2) };
  goals.fresh_over_out = FRESH_GOAL;
  if (FLOOR_GOAL[name]) goals.over_floor = FLOOR_GOAL[name];
  if (X_NUMPY_GOAL[name] && rows.numpy) (goals.x_numpy = X_NUMPY_GOAL[name], got.x_numpy = round(rows.numpy.median_ms / apiMs, 2));
  if (rows['numpy-blas-2-threads']) (goals.x_numpy_2_threads = 1, got.x_numpy_2_threads = round(rows['numpy-blas-2-threads'].median_ms / apiMs, 2));
  const met = Object.fromEntries(Object.entries(goals).map(([k, g]) => [k, k.startsWith('x_') ? got[k] >= g : got[k] <= g]));
  const line = { summary: name, api_ms: round(apiMs), api_fresh_ms: round(rows['api-fresh'].median_ms), kernel_ms: round(kernelMs),
    floor_ms: round(floorMs), best_peer: { name: bestPeer, ms: round(bestMs) }, ...got, goals, goals_met: met,
    all_met: Object.values(met).every(Boolean), api_limits: limits(apiMs), zero_copy_api: api.zeroCopy };
  emit(line);
  summary.push({ name, rows, line });
}

// ---- readable summary ----
const pad = (s, n) => String(s).padEnd(n);
const ms = (x) => (x === undefined ? '—' : x < 10 ? x.toFixed(2) : x.toFixed(1));
console.log(`\nmachine (same run): copy ${copyGBs.toFixed(1)} GB/s (wasm, read+write), f32x4 multiply-add ${peakGflops.toFixed(1)} GFLOP/s (wasm)`
  + `; API with ${api.zeroCopy ? 'wasm buffers and warm out' : 'typed arrays'}; fresh = plain arrays in, new results out; medians in ms`);
console.log(pad('workload', 13) + pad('API', 8) + pad('fresh', 8) + pad('kernel', 8) + pad('floor', 8) + pad('native', 8)
  + pad('plain JS', 9) + pad('numpy', 8) + pad('np 2thr', 8) + pad('×best peer', 20) + pad('÷floor', 8) + pad('fresh÷API (÷API+touch)', 24)
  + pad(`threads (${threaded.buildInfo().threads})`, 20) + 'goals met');
for (const { name, rows, line } of summary) {
  const g = line.goals_met;
  console.log(pad(name, 13) + pad(ms(rows.api.median_ms), 8) + pad(ms(rows['api-fresh'].median_ms), 8) + pad(ms(rows['wasm-simd'].median_ms), 8)
    + pad(ms(line.floor_ms), 8) + pad(ms(rows.native.median_ms), 8) + pad(ms(rows['plain-js'].median_ms), 9)
    + pad(ms(rows.numpy?.median_ms), 8) + pad(ms(rows['numpy-blas-2-threads']?.median_ms), 8)
    + pad(`${line.x_best_peer}× ${line.best_peer.name}`, 20) + pad(line.over_floor, 8) + pad(`${line.fresh_over_out} (${line.fresh_over_out_plus_first_touch})`, 24)
    + pad(`${ms(rows['api-threads'].median_ms)} (${line.threads_speedup}×)`, 20)
    + (line.all_met ? 'all' : Object.entries(g).filter(([, v]) => !v).map(([k]) => `NOT ${k}`).join(', ')));
}
console.log('errors (largest |Δ|/max(1,|x|) against plain JS at 64 indices): '
  + summary.map(({ name, rows }) => `${name} numpy ${rows.numpy ? rows.numpy.error.toPrecision(2) : '—'}`).join('; '));
