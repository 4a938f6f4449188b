// A compiled posenc WebAssembly module → the API. Shared by init() (load.ts) and the figures' worker, which gets the
// module compiled by the page and so needs no .wasm URL (its bundle then references no .wasm file).
import { PosencError } from './validate.js';
import { Posenc } from './posenc.js';
import type { GpuInitOptions } from './gpu/index.js';

/**
 * Instantiates `module` (the SIMD build when `simd`) with the glue both builds share (loaded on first use). `source`
 * starts the error message: `wasm: URL`, `wasmBinary:` or `module:`.
 * @internal
 */
export async function instantiate(module: WebAssembly.Module, simd: boolean, source: string, gpu: GpuInitOptions): Promise<Posenc> {
  const createPosencModule = (await import('./glue.mjs')).default;
  return withGpu(new Posenc(await run(createPosencModule, module, source), simd), gpu);
}

/**
 * @internal Runs an Emscripten factory (`create`) on the compiled `module`; `extra`: more of the factory's options.
 * A module that does not match the glue rejects (Emscripten's own promise would never settle).
 */
export async function run<R>(create: (m: object) => Promise<R>, module: WebAssembly.Module, source: string, extra: object = {}): Promise<R> {
  let failed: (e: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => { failed = reject; });
  return Promise.race([failure, create({
    ...extra,
    // the module too: the threads build posts it to its workers
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module)).catch((e: Error) => failed(new PosencError(
        `${source} is a WebAssembly module but not the one this version of posenc ` +
        `expects (${e.message}): use the .wasm files of the same package version as its JavaScript`)));
      return {};
    },
  })]);
}

/**
 * @internal `pe` with its `gpu` (WebGPU or the wasm fallback, as `gpu` asks). The WebGPU layer is imported on demand:
 * a bundler puts it in a chunk of its own, so an app's main chunk does not carry it (~20 kB minified).
 */
export async function withGpu(pe: Posenc, gpu: GpuInitOptions): Promise<Posenc> {
  const { createGpu } = await import('./gpu/index.js');
  Object.defineProperty(pe, 'gpu', { value: await createGpu(pe, gpu), enumerable: true });
  return pe;
}
