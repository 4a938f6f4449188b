// Loading the WebAssembly module: the SIMD build where supported, else the scalar build. This is the browser and
// bundler path (fetch relative to import.meta.url); the Node entry reads the same files from disk.
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

/** Where the .wasm bytes come from: a fetch Response (browsers) or the bytes themselves (typed without the DOM
 * library, so that the declarations compile in any TypeScript project). */
type WasmSource = { headers: { get(name: string): string | null }; arrayBuffer(): Promise<ArrayBuffer> } | ArrayBuffer | Uint8Array;

const HOW_TO_SERVE = 'The .wasm files ship beside the package\'s JavaScript (posenc/dist/posenc-simd.wasm and ' +
  'posenc-scalar.wasm) and are fetched relative to it: webpack 5 and Vite emit them by themselves; with esbuild, ' +
  'Rollup or a hand-copied dist/ folder, copy both files next to the JavaScript that imports posenc, or pass ' +
  'init({ wasmBinary })';

async function fetchWasm(url: string): Promise<WasmSource> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new PosencError(`wasm: could not fetch ${url} (${(e as Error).message}). A cross-origin server must ` +
      'send Access-Control-Allow-Origin, and a Content-Security-Policy must allow the URL in connect-src. ' + HOW_TO_SERVE);
  }
  if (!res.ok) throw new PosencError(`wasm: could not load ${url} (HTTP ${res.status}). ${HOW_TO_SERVE}`);
  return res;
}

async function compile(source: WasmSource, where: string): Promise<WebAssembly.Module> {
  // `where`: the URL fetched, or '' for bytes passed as options.wasmBinary (then the message names that option).
  const [param, what, fix] = where ? ['wasm', `${where} `, HOW_TO_SERVE] :
    ['wasmBinary', '', 'Pass the bytes of posenc-simd.wasm or posenc-scalar.wasm from this package.'];
  try {
    // Streaming compilation needs the application/wasm type; anything else is compiled from its bytes.
    if ('headers' in source) {
      if (source.headers.get('content-type')?.startsWith('application/wasm')) return await WebAssembly.compileStreaming(source as Response);
      source = await source.arrayBuffer();
    }
    const bytes = source instanceof Uint8Array ? source : new Uint8Array(source);
    if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
      const start = JSON.stringify(new TextDecoder().decode(bytes.subarray(0, 20)));
      throw new PosencError(`${param}: ${what}is not a WebAssembly file (${bytes.length} bytes, starting ${start})` +
        `${where ? ': the server answered with another file, e.g. an HTML fallback page' : ''}. ${fix}`);
    }
    return await WebAssembly.compile(bytes as BufferSource);
  } catch (e) {
    if (e instanceof PosencError) throw e;
    const msg = (e as Error).message ?? String(e);
    if (/Content.Security.Policy|unsafe-eval|wasm-eval/i.test(msg)) {
      throw new PosencError(`${param}: the page's Content-Security-Policy forbids compiling WebAssembly: add ` +
        `'wasm-unsafe-eval' to script-src, e.g. "script-src 'self' 'wasm-unsafe-eval'" (the browser said: ${msg})`);
    }
    throw new PosencError(`${param}: ${what}is not a WebAssembly module this engine can compile (${msg}). ${fix}`);
  }
}

// Bundles that are not ES modules (esbuild's default iife format) leave import.meta empty: there the .wasm files
// are resolved against the script's own URL, known only while it first runs.
const SCRIPT_URL = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null)?.src
  : globalThis.location?.href;

/** @internal The loading steps shared by the browser and Node entries; `read` turns the .wasm URL into its bytes. */
export async function load(options: InitOptions, read: (url: string) => Promise<WasmSource>): Promise<Posenc> {
  const simd = options.simd ?? simdSupported();
  if (simd && !simdSupported()) throw new PosencError('simd: this engine does not support WebAssembly SIMD');
  // Literal new URL('./x.wasm', import.meta.url): webpack and Vite see these and emit the two files.
  const url = !import.meta.url ? new URL(simd ? 'posenc-simd.wasm' : 'posenc-scalar.wasm', SCRIPT_URL)
    : simd ? new URL('./posenc-simd.wasm', import.meta.url) : new URL('./posenc-scalar.wasm', import.meta.url);
  const where = options.wasmBinary ? '' : url.href;
  const module = await compile(options.wasmBinary ?? (await read(url.href)), where);
  let failed: (e: unknown) => void = () => {};
  const failure = new Promise<never>((_, reject) => { failed = reject; });
  // Each build has its own glue (the minified export names differ); only the one in use is loaded.
  const createPosencModule = (await (simd ? import('./glue-simd.mjs') : import('./glue-scalar.mjs'))).default;
  const raw = await Promise.race([failure, createPosencModule({
    instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
      WebAssembly.instantiate(module, imports).then(receive).catch((e: Error) => failed(new PosencError(
        `${where ? `wasm: ${where}` : 'wasmBinary:'} is a WebAssembly module but not the one this version of posenc ` +
        `expects (${e.message}): use the .wasm files of the same package version as its JavaScript`)));
      return {};
    },
  })]);
  const pe = new Posenc(raw, simd);
  Object.defineProperty(pe, 'gpu', { value: await createGpu(pe, { gpu: options.gpu, webgpu: options.webgpu }), enumerable: true });
  return pe;
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

export default init;
