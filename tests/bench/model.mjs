// A real model's prefill (npm run bench): 2048 tokens of TinyStories text through stories260K and TinyStories-656K
// (../shared/models; the 656K written as the .gguf llama.cpp's converter makes, tests/js/hf-to-gguf.mjs), timed
//   - posenc in headless Chromium: lm.evaluate({ ids }) (every position's logits, loss and top-1), the default build
//     (1 thread) and the threads build (a pool of min(4, cores) workers) on a cross-origin-isolated page;
//   - wllama (@wllama/wllama: llama.cpp compiled to wasm SIMD) in the same browser on the same .gguf files, n_threads 1
//     and 2: createCompletion({ prompt, max_tokens: 1 }) with n_ctx N + 256 and n_batch = n_ubatch = N, its own
//     timings.prompt_ms (prompt processing only; llama-server computes the last position's logits alone); the prompt is
//     the text cut where the model's tokenizer (posenc's, llama.cpp's algorithm) gives exactly N tokens with BOS, and
//     wllama's prompt_n is checked; llama.context_length overridden to 4096 so that its server accepts 2048 tokens;
//   - native llama.cpp (the limit: tests/llamacpp/prefill.cpp linked by scripts/llamacpp.sh against llama.cpp 6c8dcaa
//     with ggml-cpu at -O3, AVX2/FMA; x86-64 only), 1 and 2 threads, all logits and last only.
// Each cell: the median of RUNS (default 3) after one warm-up run. Prints one JSON line per cell, then a table with
// the ratios wllama / posenc and posenc / native at equal threads. Goal: posenc ≤ 1000 ms on one thread, ≥ wllama.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';
import { serveStatic } from '../e2e/figures-server.mjs';
import { hfToGguf } from '../js/hf-to-gguf.mjs';
import { DIR_656K, GGUF_260K, TEXT } from '../js/real-models.mjs';

const N = Number(process.env.N ?? 2048), RUNS = Number(process.env.RUNS ?? 3);
const repo = fileURLToPath(new URL('../../', import.meta.url));
const out = join(repo, 'build/bench');
mkdirSync(out, { recursive: true });
const gguf656 = join(out, 'tinystories-656k.gguf');
writeFileSync(gguf656, hfToGguf(DIR_656K));
const MODELS = { stories260K: GGUF_260K, 'TinyStories-656K': gguf656 };
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const rows = [];
const report = (r) => { rows.push(r); console.log(JSON.stringify({ bench: 'model-prefill', n: N, load: loadavg()[0], ...r })); };

// --- native llama.cpp ---------------------------------------------------------------------------------------------
const built = spawnSync('bash', [join(repo, 'scripts/llamacpp.sh'), 'prefill', '--native'], { encoding: 'utf8', timeout: 60 * 60 * 1000 });
if (built.status !== 0) console.log(`[bench model] native llama.cpp skipped: ${built.stderr.trim().split('\n').pop()}`);
else {
  const bin = built.stdout.trim().split('\n').pop();
  for (const [model, file] of Object.entries(MODELS))
    for (const threads of [1, 2])
      for (const logits of ['all', 'last']) {
        const r = spawnSync(bin, [file, String(N), String(threads), String(RUNS), logits], { encoding: 'utf8' });
        if (r.status !== 0) throw new Error(`prefill harness: ${r.stderr}`);
        report({ engine: 'llama.cpp native', model, threads, logits, ms: med(JSON.parse(r.stdout).ms) });
      }
}

// --- the browser: posenc and wllama ---------------------------------------------------------------------------------
const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };
const PAGE = `
export async function posenc(url, n, threads, runs) {
  const { default: init } = await import('/dist/index.js');
  const pe = await init(threads > 1 ? { threads: true } : {});
  const lm = await pe.loadModel(new URL(url, location.href).href);
  const text = await (await fetch('/text.txt')).text();
  const ids = lm.encode(text.slice(0, 40 * n)).subarray(0, n);
  const ms = [];
  for (let r = -1; r < runs; r++) {
    const t = performance.now();
    await lm.evaluate({ ids });
    if (r >= 0) ms.push(performance.now() - t);
  }
  // the text that this tokenizer cuts into exactly n tokens (BOS included), for wllama's string prompt
  let lo = 0, hi = 40 * n;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (lm.encode(text.slice(0, mid)).length < n) lo = mid + 1; else hi = mid; }
  const prompt = text.slice(0, lo);
  lm.free();
  return { ms, threads: pe.buildInfo().threads, prompt };
}
export async function wllama(url, n, threads, runs, prompt) {
  const { Wllama } = await import('/wllama/index.js');
  const quiet = { debug() {}, log() {}, warn() {}, error: console.error };
  const w = new Wllama({ default: '/wllama/wasm/wllama.wasm' }, { logger: quiet, suppressNativeLog: true });
  await w.loadModelFromUrl(new URL(url, location.href).href, { n_threads: threads, n_ctx: n + 256, n_batch: n, n_ubatch: n,
    n_parallel: 1, n_gpu_layers: 0, useCache: false,
    // the server caps a prompt at the trained context; '' ends the list (llama.cpp asserts an empty-key terminator)
    kv_overrides: { 'llama.context_length': 'int:4096', '': 'int:0' } });
  const ms = [], counts = [];
  for (let r = -1; r < runs; r++) {
    const res = await w.createCompletion({ prompt, max_tokens: 1, temperature: 0, cache_prompt: false });
    if (r >= 0) { ms.push(res.timings.prompt_ms); counts.push(res.timings.prompt_n); }
  }
  await w.exit();
  return { ms, counts };
}`;
const { server, origin } = await serveStatic({
  mounts: { '/dist/': join(repo, 'dist'), '/wllama/': join(repo, 'node_modules/@wllama/wllama/esm'), '/m/': out, '/shared/': join(GGUF_260K, '..') },
  pages: { '/': '<!doctype html><title>model bench</title>' },
  files: { '/bench.js': PAGE, '/text.txt': readFileSync(TEXT, 'utf8') },
  headers: () => ISOLATED,
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const URLS = { stories260K: '/shared/stories260K.gguf', 'TinyStories-656K': '/m/tinystories-656k.gguf' };
try {
  for (const model of Object.keys(MODELS)) {
    let prompt = '';
    for (const threads of [1, 2]) {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      const p = await page.evaluate(async ([u, n, t, r]) => (await import('/bench.js')).posenc(u, n, t, r), [URLS[model], N, threads, RUNS]);
      prompt = p.prompt;
      report({ engine: 'posenc wasm', model, threads: p.threads, logits: 'all', ms: med(p.ms) });
      await page.close();
    }
    for (const threads of [1, 2]) {
      const page = await browser.newPage();
      await page.goto(`${origin}/`);
      const w = await page.evaluate(async ([u, n, t, r, pr]) => (await import('/bench.js')).wllama(u, n, t, r, pr), [URLS[model], N, threads, RUNS, prompt]);
      if (w.counts.some((c) => c !== N)) console.log(`[bench model] wllama's prompt_n ${w.counts} ≠ ${N} for ${model}`);
      report({ engine: 'wllama 3.13.0', model, threads, logits: 'last', ms: med(w.ms), prompt_n: w.counts[0] });
      await page.close();
    }
  }
} finally {
  await browser.close();
  server.close();
}

// --- the table -------------------------------------------------------------------------------------------------------
const get = (engine, model, threads, logits) => rows.find((r) => r.engine === engine && r.model === model && r.threads === threads && r.logits === logits)?.ms;
console.log(`[bench model] ${N}-token prefill, ms (median of ${RUNS}); ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`);
console.log('model              threads  posenc(all)  wllama(last)  native(all)  native(last)  wllama/posenc  posenc/native(all)');
for (const model of Object.keys(MODELS))
  for (const threads of [1, 2]) {
    const p = get('posenc wasm', model, threads, 'all'), w = get('wllama 3.13.0', model, threads, 'last');
    const na = get('llama.cpp native', model, threads, 'all'), nl = get('llama.cpp native', model, threads, 'last');
    const f = (x) => (x === undefined ? '—' : x.toFixed(0)).padStart(11);
    console.log(`${model.padEnd(18)} ${String(threads).padStart(7)}  ${f(p)}  ${f(w)}  ${f(na)}  ${f(nl)}  ${(w && p ? (w / p).toFixed(2) + '×' : '—').padStart(13)}  ${(p && na ? (p / na).toFixed(2) + '×' : '—').padStart(18)}`);
  }
const worst1 = Math.max(...Object.keys(MODELS).map((m) => get('posenc wasm', m, 1, 'all') ?? Infinity));
console.log(`[bench model] goal ≤ 1000 ms on one thread (both models): ${worst1 <= 1000 ? 'met' : 'NOT met'} (slowest ${worst1.toFixed(0)} ms)`);
