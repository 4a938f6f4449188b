// The WebAssembly module: which build (SIMD where supported, else scalar), where its .wasm is, fetching (browsers and
// bundlers: relative to import.meta.url; the Node entry reads the same files from disk) and compiling it — once per URL
// and page, shared by every init() and wasmModule() and by separately bundled copies (posenc/figures bundles this file).
import { PosencError, show } from './validate.js';

export { PosencError, show };   // for posenc/figures, which bundles this file

/** A compiled `WebAssembly.Module` (typed as an object, so that these declarations need no DOM library). */
export type WasmModule = object;

/** Where the compiled module comes from: the options of {@link init} that {@link wasmModule} takes too. */
export interface WasmOptions {
  /** Force the SIMD (true) or scalar (false) build. Default: SIMD where the engine supports wasm SIMD. */
  simd?: boolean;
  /** The .wasm bytes, if you load them yourself (they must match the chosen build). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where to fetch the .wasm from, when it is not next to posenc's JavaScript (a string or a URL; relative to the
   * page). It must be the build `simd` selects: posenc-simd.wasm where {@link simdSupported}, else posenc-scalar.wasm.
   */
  wasmUrl?: string | { readonly href: string };
  /**
   * A module compiled by {@link wasmModule}, e.g. on the page and posted to a worker (a `WebAssembly.Module` can be
   * sent with postMessage): nothing is fetched or compiled again. It must be the build `simd` selects (the default
   * `simd` is the same on the page and in its workers).
   */
  module?: WasmModule;
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
  'posenc-scalar.wasm) and are fetched relative to it: bundlers that emit the files a module references by URL (webpack 5, ' +
  'Vite, Parcel) emit them by themselves; with esbuild, Rollup or a hand-copied dist/ folder, copy both ' +
  'files next to the JavaScript that imports posenc, or pass init({ wasmUrl }) or init({ wasmBinary })';

/** @internal */
export async function fetchWasm(url: string): Promise<WasmSource> {
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

/** @internal Turns the .wasm URL into its bytes: fetch in browsers, node:fs in Node. */
export type WasmReader = (url: string) => Promise<WasmSource>;

// One compilation per URL and page: init() called by several parts of a page (and wasmModule() for its workers)
// fetch and compile the file once. A failure is forgotten, so that a later call tries again.
// Kept on globalThis, so that separately bundled copies of posenc on one page (posenc/figures, the page's own
// import) share it too.
const KEY = Symbol.for('posenc.compiled');
const compiled: Map<string, Promise<WebAssembly.Module>> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, Promise<WebAssembly.Module>>;

/** A file of a Vite dev server's dependency cache: …/deps/NAME.js?v=HASH. */
const VITE_DEPS = /\/deps\/[^/?#]+\.js\?v=[\w-]+$/;
let viteDir: Promise<string | null> | undefined;

/**
 * @internal Where the package's files are when a Vite 5–7 dev server serves this code pre-bundled from its cache folder
 * (…/.vite/deps/, VitePress's …/.vitepress/cache/deps/), which holds no .wasm and no worker: the dev server says.
 * Its /@id/ route resolves a package specifier; `?import&worker` answers with a module that names the file's dev URL
 * (`new Worker("/node_modules/posenc/package.json?worker_file…")`, or /@fs/… outside the root). Null elsewhere.
 */
export function viteDevDir(here: string): Promise<string | null> {
  return (viteDir ??= (async () => {
    const doc = (globalThis as { document?: { querySelector(s: string): { src?: string } | null } }).document;
    const client = VITE_DEPS.test(here) ? doc?.querySelector('script[src$="/@vite/client"]')?.src : undefined;
    if (!client) return null;
    const text = await fetch(client.replace(/@vite\/client$/, '@id/posenc/package.json?import&worker')).then((r) => r.text(), () => '');
    const root = /"([^"]*\/)package\.json\?worker_file/.exec(text)?.[1];
    return root ? new URL('dist/', new URL(root, client)).href : null;
  })());
}

/** A URL option (a string or URL object, relative to the page) as an absolute URL; else a PosencError naming it. */
function urlOption(name: string, v: unknown, what: string): string {
  const href = typeof v === 'string' ? v : (v as { href?: unknown } | null)?.href;
  try {
    if (typeof href !== 'string' || !href) throw new TypeError();
    return new URL(href, globalThis.location?.href).href;
  } catch {
    throw new PosencError(`${name}: must be ${what} (a string or URL object; relative to the page) (got ${show(v)})`);
  }
}

async function wasmUrl(simd: boolean, options: WasmOptions): Promise<string> {
  if (options.wasmUrl !== undefined) return urlOption('wasmUrl', options.wasmUrl, 'a URL');
  const file = simd ? 'posenc-simd.wasm' : 'posenc-scalar.wasm';
  if (import.meta.url) {
    const dir = await viteDevDir(import.meta.url);
    if (dir) return new URL(file, dir).href;
    // Literal new URL('./x.wasm', import.meta.url): webpack and Vite see these and emit the two files.
    return (simd ? new URL('./posenc-simd.wasm', import.meta.url) : new URL('./posenc-scalar.wasm', import.meta.url)).href;
  }
  if (!SCRIPT_URL) {
    throw new PosencError('wasm: cannot tell where posenc-simd.wasm is: this copy of posenc runs in a classic-script ' +
      'bundle whose URL is unknown (its code ran after the page loaded, e.g. from a dynamic import in esbuild\'s iife ' +
      'format). Pass init({ wasmUrl }), or build an ES module (esbuild --format=esm and <script type="module">)');
  }
  return new URL(file, SCRIPT_URL).href;
}

/** @internal The compiled module init() uses, with the build it is and how error messages name its origin. */
export async function compiledModule(options: WasmOptions, read: WasmReader): Promise<{ module: WebAssembly.Module; simd: boolean; source: string }> {
  const simd = options.simd ?? simdSupported();
  if (simd && !simdSupported()) throw new PosencError('simd: this engine does not support WebAssembly SIMD');
  if (options.module !== undefined) {
    if (!(options.module instanceof WebAssembly.Module)) {
      throw new PosencError(`module: must be a WebAssembly.Module, as wasmModule() returns (got ${show(options.module)})`);
    }
    return { module: options.module, simd, source: 'module:' };
  }
  if (options.wasmBinary) return { module: await compile(options.wasmBinary, ''), simd, source: 'wasmBinary:' };
  const url = await wasmUrl(simd, options);
  return { module: await compiledAt(url, read), simd, source: `wasm: ${url}` };
}

/** @internal The module at `url`, read by `read` and compiled once per URL and page (a failure is forgotten). */
export function compiledAt(url: string, read: WasmReader): Promise<WebAssembly.Module> {
  let module = compiled.get(url);
  if (!module) {
    module = read(url).then((source) => compile(source, url));
    compiled.set(url, module);
    module.catch(() => compiled.delete(url));
  }
  return module;
}

// In a constant, not a literal new URL('./threads/…', import.meta.url): bundlers would emit the threads build's
// three files into every site that bundles posenc, though only cross-origin-isolated pages can use them.
const THREADS_DIR = './threads/';

/**
 * @internal The folder of the threads build (posenc-threads.js, .worker.js, .wasm): `option` (init's threadsUrl),
 * else dist/threads/ beside this module.
 */
export async function threadsDir(option: unknown): Promise<string> {
  if (option !== undefined) {
    const url = urlOption('threadsUrl', option, 'the URL of a folder');
    return url.endsWith('/') ? url : `${url}/`;
  }
  if (import.meta.url) return new URL(THREADS_DIR, (await viteDevDir(import.meta.url)) ?? import.meta.url).href;
  if (!SCRIPT_URL) {
    throw new PosencError('threadsUrl: cannot tell where the threads build is: this copy of posenc runs in a classic-script ' +
      'bundle whose URL is unknown. Pass init({ threads: true, threadsUrl })');
  }
  return new URL(THREADS_DIR, SCRIPT_URL).href;
}

