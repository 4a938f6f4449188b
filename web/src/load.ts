// init(): the compiled module (wasm.ts: fetched and compiled once per page) instantiated with its glue (instance.ts).
// The browser and bundler entry; the Node entry (node.ts) passes a reader that uses node:fs.
import type { Posenc } from './posenc.js';
import type { GpuMode, WebGpuEntry } from './gpu/index.js';
import { instantiate } from './instance.js';
import { PosencError } from './validate.js';
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
   * Node only: the threads build (wasm SIMD128 with a pool of min(4, CPUs) worker_threads started with the module).
   * Large calls of the table builders (RoPE, scaled RoPE, M-RoPE, sinusoids, xPos) and of attention scores are then
   * split over the threads, with results identical to the default single-threaded build; everything else runs as
   * there. Default false. Elsewhere (browsers) init rejects `threads: true`.
   */
  threads?: boolean;
}

/** @internal The loading steps shared by the browser and Node entries. */
export async function load(options: InitOptions, read: WasmReader): Promise<Posenc> {
  if (options.threads) {
    throw new PosencError('threads: the threads build runs in Node only (a page would need cross-origin isolation, ' +
      'COOP/COEP headers, which blog hosts do not send); use init() here');
  }
  const { module, simd, source } = await compiledModule(options, read);
  return instantiate(module, simd, source, { gpu: options.gpu, webgpu: options.webgpu });
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
  return (await compiledModule(options, fetchWasm)).module;
}

export default init;
