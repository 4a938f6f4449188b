// init(): the compiled module (wasm.ts: fetched and compiled once per page) instantiated with its glue (instance.ts).
// The browser and bundler entry; the Node entry (node.ts) passes a reader that uses node:fs.
import { Posenc } from './posenc.js';
import type { GpuMode, WebGpuEntry } from './gpu/index.js';
import { instantiate, withGpu } from './instance.js';
import { PosencError, show } from './validate.js';
import { suggest } from './options.js';
import { loadThreads, webThreadsGlue } from './threads.js';
import type { ThreadsLoader } from './threads.js';
import { compiledModule, fetchWasm } from './wasm.js';
import type { WasmModule, WasmOptions, WasmReader } from './wasm.js';

export { simdSupported } from './wasm.js';
export type { WasmModule, WasmOptions };

/** Options of {@link init}. */
export interface InitOptions extends WasmOptions {
  /**
   * WebGPU for `pe.gpu`: `'auto'` (default) — the GPU where one is available and a call is larger than the crossover
   * measured on the adapter; `'require'` — always the GPU (init rejects without an adapter); `'off'` — wasm only.
   */
  gpu?: GpuMode;
  /** The WebGPU entry point: default `navigator.gpu`; in Node e.g. `create([])` of the npm package `webgpu`. */
  webgpu?: WebGpuEntry | null;
  /**
   * The threads build: wasm SIMD128 with a pool of min(4, CPUs) workers started with the module (Node: worker_threads;
   * pages: Web Workers, only where `crossOriginIsolated` is true, i.e. served with the headers
   * `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Embedder-Policy: require-corp`). Large calls of the
   * table builders (RoPE, scaled RoPE, M-RoPE, sinusoids, xPos) and of attention scores are then split over the
   * threads, with results identical to the default single-threaded build; everything else runs as there. Not
   * combinable with `simd`, `wasmUrl`, `wasmBinary`, `module`. Default false. A page without cross-origin isolation
   * rejects `threads: true` (PosencError naming the headers).
   */
  threads?: boolean;
  /**
   * Pages, with `threads: true`: the URL of the folder holding the threads build (the package's dist/threads/:
   * posenc-threads.js, posenc-threads.worker.js, posenc-threads.wasm). Default: dist/threads/ beside posenc's
   * JavaScript. Bundlers do not copy that folder by themselves: serve it and pass its URL. Node reads it from the package.
   */
  threadsUrl?: string | { readonly href: string };
}

const WASM_OPTIONS = ['simd', 'wasmUrl', 'wasmBinary', 'module'] as const;
const INIT_OPTIONS: readonly string[] = [...WASM_OPTIONS, 'gpu', 'webgpu', 'threads', 'threadsUrl'];

/** @internal `options` of `method` is an object with no key outside `keys` (else a PosencError with the nearest key). */
export function checkOptions(method: string, options: unknown, keys: readonly string[] = WASM_OPTIONS): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new PosencError(`${method}: options must be an object of named options (got ${show(options)})`);
  }
  for (const key of Object.keys(options)) {
    if (keys.includes(key)) continue;
    const hint = suggest(key, keys);
    throw new PosencError(`${method}: unknown option '${key}'${hint ? ` (did you mean '${hint}'?)` : ''}; options: ${keys.join(', ')}`);
  }
}

/** @internal The loading steps shared by the browser and Node entries. */
export async function load(options: InitOptions, read: WasmReader, threads: ThreadsLoader = webThreadsGlue): Promise<Posenc> {
  checkOptions('init', options, INIT_OPTIONS);
  const gpu = { gpu: options.gpu, webgpu: options.webgpu };
  if (options.threads) {
    const other = WASM_OPTIONS.find((k) => options[k] !== undefined);
    if (other) throw new PosencError(`threads: cannot be combined with ${other} (the threads build is a file of its own)`);
    return withGpu(new Posenc(await loadThreads(options.threadsUrl, read, threads), true), gpu);
  }
  if (options.threadsUrl !== undefined) throw new PosencError('threadsUrl: only with threads: true');
  const { module, simd, source } = await compiledModule(options, read);
  return instantiate(module, simd, source, gpu);
}

/**
 * Loads the WebAssembly module (the SIMD build where supported, else the scalar build) and returns the API.
 *
 * The .wasm is fetched relative to this module (`new URL('./posenc-simd.wasm', import.meta.url)`), compiled
 * streaming where the server sends `application/wasm`. Pages with a Content-Security-Policy need
 * `script-src 'wasm-unsafe-eval'`. In Node (the package's `node` export condition) the file is read from disk.
 *
 * @throws PosencError (param `wasm`) when the .wasm cannot be fetched (with the HTTP status), is not a
 *   WebAssembly file (e.g. an HTML fallback page), does not match this version of the package, or the page's
 *   Content-Security-Policy forbids WebAssembly — each message says what to change. Param `simd` when
 *   `simd: true` is asked of an engine without WebAssembly SIMD.
 */
export async function init(options: InitOptions = {}): Promise<Posenc> {
  return load(options, fetchWasm);
}

/**
 * The compiled WebAssembly module that {@link init} uses (options `simd`, `wasmUrl`, `wasmBinary` as there), fetched
 * and compiled once per page. Post it to a worker and call `init({ module })` there: the worker fetches nothing.
 *
 * ```js
 * worker.postMessage({ module: await wasmModule() });          // page
 * self.onmessage = async ({ data }) => { const pe = await init({ module: data.module }); … };   // worker
 * ```
 * @throws PosencError as {@link init}.
 */
export async function wasmModule(options: WasmOptions = {}): Promise<WasmModule> {
  checkOptions('wasmModule', options);
  return (await compiledModule(options, fetchWasm)).module;
}

export default init;
