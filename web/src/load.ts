// Loading the WebAssembly module: the SIMD build where supported, else the scalar build.
import { PosencError } from './validate.js';
import { Posenc } from './posenc.js';
import { createGpu } from './gpu/index.js';
import type { GpuMode } from './gpu/index.js';

/** Options of {@link init}. */
export interface InitOptions {
  /** Force the SIMD (true) or scalar (false) build. Default: SIMD where the engine supports wasm SIMD. */
  simd?: boolean;
  /** The .wasm bytes, if you load them yourself (they must match the chosen build). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * WebGPU for `pe.gpu`: `'auto'` (default) — the GPU where one is available and a call is larger than the crossover
   * measured on the adapter; `'require'` — always the GPU (init rejects without an adapter); `'off'` — wasm only.
   */
  gpu?: GpuMode;
  /** The WebGPU entry point: default `navigator.gpu`; in Node e.g. `create([])` of the npm package `webgpu`. */
  webgpu?: GPU | null;
}

// A 35-byte module using v128 instructions: WebAssembly.validate accepts it only where wasm SIMD works.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

/** True when this engine supports WebAssembly SIMD128. */
export function simdSupported(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

async function readWasm(url: URL): Promise<Uint8Array | ArrayBuffer> {
  if (typeof process !== 'undefined' && process?.versions?.node && url.protocol === 'file:') {
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
    return fs.readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: could not load ${url.href} (HTTP ${res.status})`);
  return res.arrayBuffer();
}

/**
 * Loads the WebAssembly module (the SIMD build where supported, else the scalar build) and returns the API.
 * Works in Node ≥ 18 (ESM) and browsers; bundlers see the `new URL('…wasm', import.meta.url)` assets.
 */
export async function init(options: InitOptions = {}): Promise<Posenc> {
  const simd = options.simd ?? simdSupported();
  if (simd && !simdSupported()) throw new PosencError('simd: this engine does not support WebAssembly SIMD');
  const wasmUrl = simd ? new URL('./posenc-simd.wasm', import.meta.url) : new URL('./posenc-scalar.wasm', import.meta.url);
  const factory = simd ? (await import('./posenc-simd.mjs')).default : (await import('./posenc-scalar.mjs')).default;
  const wasmBinary = options.wasmBinary ?? (await readWasm(wasmUrl));
  const pe = new Posenc(await factory({ wasmBinary }), simd);
  Object.defineProperty(pe, 'gpu', { value: await createGpu(pe, { gpu: options.gpu, webgpu: options.webgpu }), enumerable: true });
  return pe;
}

export default init;
