// `npm run bench`: every workload in four implementations side by side — posenc wasm SIMD, posenc wasm scalar,
// plain JavaScript (tests/bench/plain.mjs) and native C++ (build/native/posenc_native_bench, the same core with
// g++) — plus the machine's limits measured in the same run. Outputs are checked against each other before
// timing. Prints one JSON line per (workload, implementation), then a readable summary.
// Wasm figures are timed inside wasm on warm buffers (kernel time); the `api` lines time the public JS API,
// which adds the copies of inputs into and results out of wasm memory.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import init from 'posenc';
import { workloads } from './plain.mjs';

const REPS = Number(process.env.BENCH_REPS ?? 7);
const native = fileURLToPath(new URL('../../build/native/posenc_native_bench', import.meta.url));
const simd = await init();
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
emit({ limit: 'memory_copy', impl: 'wasm', GB_per_s: +copyGBs.toFixed(2), note: 'read+write bytes per second, 256 MiB copied by f32x4 load/store' });
emit({ limit: 'f32x4_multiply_add', impl: 'wasm-simd', GFLOP_per_s: +peakGflops.toFixed(2) });
emit({ limit: 'memory_copy', impl: 'native', GB_per_s: +((2 * COPY_BYTES) / (nCopy * 1e6)).toFixed(2) });
emit({ limit: 'multiply_add', impl: 'native', GFLOP_per_s: +(nPeak.flops / (nPeak.ms * 1e6)).toFixed(2) });

// ---- workloads ----
const GOALS = { rope_tables: 1, rope_apply: 2.5, scores: 10, decay_ones: 40, decay_random: 40, sinusoidal: 15, alibi: 2.5, t5: 15 };
const FLOPS = { scores: 2048 * 2048 * 128, decay_ones: 65536 * 256 * 4, decay_random: 65536 * 256 * 4 };
const TOL = { rope_tables: 2e-7, rope_apply: 1e-5, scores: 1e-6, decay_ones: 6e-3, decay_random: 6e-3, sinusoidal: 2e-7, alibi: 0, t5: 0 };
const summary = [];
for (const [name, setup] of Object.entries(workloads)) {
  const plain = setup();
  plain.run();
  const size = benchSimd.benchRun(name, 0, []).size;  // also the untimed first call (see above)
  benchScalar.benchRun(name, 0, []);
  const idx = Array.from({ length: 64 }, (_, i) => Math.floor((i * 2654435761) % 2 ** 32 / 2 ** 32 * size));
  const expect = idx.map((i) => plain.at(i));
  const check = (impl, got) => {
    got.forEach((g, t) => {
      if (!(Math.abs(Math.fround(g) - Math.fround(expect[t])) <= TOL[name] * Math.max(1, Math.abs(expect[t])))) {
        throw new Error(`${name}/${impl}: output[${idx[t]}] = ${g}, plain JS ${expect[t]}`);
      }
    });
  };
  const rows = {};
  // plain JS
  const jsMs = [];
  for (let r = 0; r < REPS; r++) { const t0 = performance.now(); plain.run(); jsMs.push(performance.now() - t0); }
  rows['plain-js'] = stats(jsMs);
  for (const [impl, pe] of [['wasm-simd', benchSimd], ['wasm-scalar', benchScalar]]) {
    const r = pe.benchRun(name, REPS, idx);
    check(impl, Array.from(r.sample));
    rows[impl] = { ...stats(Array.from(r.ms)), bytes: r.bytes };
  }
  const n = nat([REPS, name, ...idx]);
  check('native', n.sample);
  rows.native = stats(n.ms);
  const bytes = rows['wasm-simd'].bytes;
  for (const [impl, s] of Object.entries(rows)) {
    const line = { workload: name, impl, median_ms: +s.median_ms.toFixed(3), min_ms: +s.min_ms.toFixed(3), reps: s.reps,
      check: 'ok', x_plain_js: +(rows['plain-js'].median_ms / s.median_ms).toFixed(2) };
    if (impl === 'wasm-simd') {
      line.copy_bandwidth_fraction = +((bytes / (s.median_ms * 1e6)) / copyGBs).toFixed(3);
      if (FLOPS[name]) line.peak_flops_fraction = +((FLOPS[name] / (s.median_ms * 1e6)) / peakGflops).toFixed(3);
      line.goal_x_plain_js = GOALS[name];
    }
    emit(line);
  }
  summary.push({ name, rows, bytes });
}

// The public API, copies included (RoPE apply with precomputed tables, writing into a caller's `out`).
{
  const seq = 4096, heads = 32, hd = 128, x = new Float32Array(seq * heads * hd).fill(0.5), out = new Float32Array(x.length);
  const { cos, sin } = simd.ropeTables({ rotary_dim: hd, positions: seq });
  const ms = [];
  for (let r = 0; r <= REPS; r++) {
    const t0 = performance.now();
    simd.ropeApplyTables(x, { seq, heads, head_dim: hd, cos, sin, out });
    if (r) ms.push(performance.now() - t0);
  }
  const s = stats(ms);
  emit({ workload: 'rope_apply_one_buffer', impl: 'api (wasm-simd, copies in/out)', median_ms: +s.median_ms.toFixed(3), min_ms: +s.min_ms.toFixed(3), reps: s.reps });
  summary.push({ api: s.median_ms });
}

// ---- readable summary ----
const pad = (s, n) => String(s).padEnd(n);
console.log(`\nmachine: copy ${copyGBs.toFixed(1)} GB/s (wasm, read+write), f32x4 multiply-add ${peakGflops.toFixed(1)} GFLOP/s (wasm)`);
console.log(pad('workload', 14) + pad('plain JS ms', 13) + pad('wasm SIMD ms', 14) + pad('wasm scalar', 13) + pad('native ms', 11) + pad('SIMD/JS', 9) + pad('goal', 7) + 'of limit');
for (const s of summary) {
  if (!s.rows) continue;
  const r = s.rows, x = r['plain-js'].median_ms / r['wasm-simd'].median_ms;
  const lim = FLOPS[s.name] ? `${(100 * FLOPS[s.name] / (r['wasm-simd'].median_ms * 1e6) / peakGflops).toFixed(0)}% flops`
    : `${(100 * s.bytes / (r['wasm-simd'].median_ms * 1e6) / copyGBs).toFixed(0)}% copy bw`;
  console.log(pad(s.name, 14) + pad(r['plain-js'].median_ms.toFixed(2), 13) + pad(r['wasm-simd'].median_ms.toFixed(2), 14)
    + pad(r['wasm-scalar'].median_ms.toFixed(2), 13) + pad(r.native.median_ms.toFixed(2), 11) + pad(`${x.toFixed(1)}×`, 9)
    + pad(`${GOALS[s.name]}×`, 7) + lim + (x >= GOALS[s.name] ? '' : '  (below goal)'));
}
