// `npm run bench`, GPU part: each WebGPU workload of pe.gpu against the wasm SIMD path at several sizes, in Node with
// the npm package `webgpu` (Dawn) on whatever adapter it finds — a real GPU with the machine's Vulkan driver, else
// Chromium's SwiftShader (a CPU implementation: its times are CPU times). Outputs are checked against wasm first.
// Prints one JSON line per (workload, size): GPU and wasm medians (warm: pipelines compiled, output buffers reused
// where the API takes `out`), wasm ÷ GPU, then a summary with the size from which the GPU wins on this adapter and the
// crossover the auto policy measured. Sizes whose GPU time exceeds BENCH_GPU_BUDGET_MS (default 4000) end a workload.
import { nodeWebgpu } from '../js/gpu_env.mjs';
import init from 'posenc';

const REPS = Number(process.env.BENCH_GPU_REPS ?? 3);
const BUDGET_MS = Number(process.env.BENCH_GPU_BUDGET_MS ?? 4000);
const emit = (o) => console.log(JSON.stringify(o));

const { gpu, adapter } = await nodeWebgpu();
if (!adapter) {
  emit({ bench: 'gpu', skipped: 'no WebGPU adapter (npm package `webgpu` with a Vulkan driver or Chromium\'s SwiftShader)' });
  process.exit(0);
}
const pe = await init({ gpu: 'require', webgpu: gpu });
const auto = (await init({ gpu: 'auto', webgpu: gpu })).gpu;
const name = pe.gpu.adapter;

const random = (n, seed) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + seed * 78.233) * 0.5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = async (f) => {
  await f();  // warm: compile pipelines / tier up wasm
  const ms = [];
  for (let r = 0; r < REPS; r++) {
    const t = performance.now();
    await f();
    ms.push(performance.now() - t);
  }
  return median(ms);
};
const maxDiff = (a, b) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
};
const flat = (v) => (v instanceof Float32Array ? v : Float32Array.from([...v.cos, ...v.sin]));

// workload → sizes, the options at a size, its work (multiply-adds, as the auto policy counts), the method(s)
const BASES = 64;
const workloads = [
  { name: 'sweep', method: 'ropeInnerProductSweep', sizes: [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20],
    options: (n) => ({ q: 'random', k: 'random', head_dim: 128, layout: 'half_split', count: n }), work: (n) => n * 64 },
  { name: `sweep × ${BASES} bases`, method: 'ropeInnerProductSweep', calibrated: 'sweep', sizes: [2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20],
    options: (n) => Array.from({ length: BASES }, (_, b) => ({ q: 'ones', k: 'ones', head_dim: 128, rope_theta: 500 * 1.2 ** b, count: n })),
    work: (n) => n * 64 * BASES },
  { name: 'bound', method: 'ropeDecayBound', sizes: [2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20],
    options: (n) => ({ rotary_dim: 128, count: n }), work: (n) => n * 64 },
  { name: 'tables', method: 'ropeTables', sizes: [2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20],
    options: (n) => ({ rotary_dim: 128, positions: n }), work: (n) => n * 64 },
  { name: 'sinusoidal', method: 'sinusoidal', sizes: [2 ** 12, 2 ** 14, 2 ** 16, 2 ** 18, 2 ** 20],
    options: (n) => ({ positions: n, d: 64 }), work: (n) => n * 32 },
  { name: 'scores', method: 'attentionScores', sizes: [256, 512, 1024, 2048, 4096, 8192],
    options: (n) => ({ q: random(n * 64, 1), k: random(n * 64, 2), seq: n, head_dim: 64, causal: true, rope: {}, out: new Float32Array(n * n) }),
    work: (n) => n * n * 64 },
];

const rows = [];
for (const w of workloads) {
  for (const n of w.sizes) {
    const o = w.options(n);
    const list = Array.isArray(o) ? o : [o];
    const gpuRun = () => Promise.all(list.map((x) => pe.gpu[w.method](x)));
    const wasmRun = () => list.map((x) => pe[w.method](x));
    const g = await gpuRun();
    if (g.some((r) => r.backend !== 'webgpu')) throw new Error(`${w.name} ${n}: computed with ${g[0].backend} (${g[0].notice})`);
    const diff = Math.max(...g.map((r, i) => maxDiff(flat(r.values), flat(pe[w.method]({ ...list[i], out: undefined })))));
    const gpuMs = await time(gpuRun);
    const wasmMs = await time(wasmRun);
    const row = { bench: 'gpu', adapter: name, workload: w.name, size: n, work: w.work(n), gpu_ms: +gpuMs.toFixed(3),
      wasm_ms: +wasmMs.toFixed(3), wasm_over_gpu: +(wasmMs / gpuMs).toFixed(3), max_abs_diff: diff };
    emit(row);
    rows.push(row);
    if (gpuMs > BUDGET_MS) break;
  }
}

// ---- summary ----
console.log(`\nWebGPU vs wasm SIMD on ${name} (median of ${REPS}; wasm ÷ GPU > 1: the GPU is faster)`);
console.log(`${'workload'.padEnd(20)} ${'size'.padStart(8)} ${'GPU ms'.padStart(10)} ${'wasm ms'.padStart(10)} ${'wasm÷GPU'.padStart(9)}`);
for (const r of rows) {
  console.log(`${r.workload.padEnd(20)} ${String(r.size).padStart(8)} ${r.gpu_ms.toFixed(2).padStart(10)} ${r.wasm_ms.toFixed(2).padStart(10)} ${r.wasm_over_gpu.toFixed(2).padStart(9)}`);
}
console.log('\nCrossover (smallest measured size from which the GPU wins at every larger size) and the auto policy\'s own measurement:');
for (const w of workloads) {
  const mine = rows.filter((r) => r.workload === w.name);
  let from = null;
  for (let i = mine.length - 1; i >= 0 && mine[i].wasm_over_gpu > 1; i--) from = mine[i].size;
  const cal = await auto.calibration(w.calibrated ?? w.name);
  const crossover = { bench: 'gpu-crossover', adapter: name, workload: w.name, gpu_wins_from_size: from,
    auto_crossover_work: Number.isFinite(cal.crossover) ? cal.crossover : null };
  emit(crossover);
  console.log(`  ${w.name.padEnd(20)} GPU wins from: ${from ?? 'never (up to the largest size measured)'}; auto policy: ${Number.isFinite(cal.crossover) ? `GPU from ${cal.crossover} multiply-adds` : 'wasm always'}`);
}
