// The package's Node entry (export condition "node", also used by Deno and Bun): the same API as the browser entry,
// with init() reading the .wasm from the installed package with node:fs instead of fetching it.
import { open, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { setGgufPathOpener } from './gguf_source.js';
import { setModelPathReader } from './model_source.js';
import { PosencError } from './validate.js';
import { checkOptions, load } from './load.js';
import { compiledModule } from './wasm.js';
import type { InitOptions } from './load.js';
import type { WasmModule, WasmOptions } from './wasm.js';
import type { Posenc } from './posenc.js';
import type { ThreadsGlue } from './threads.js';

export * from './index.js';

// pe.ropeFromGGUF / pe.ggufHeader take a path here: the file is opened read-only and read in windows.
setGgufPathOpener((path) => open(path, 'r'));
setModelPathReader((path) => readFile(path));

/** @internal The read error's text, for a file at `url`: which permission to grant where the runtime refused (Deno). */
export function readFailure(url: string, e: { message?: string; code?: string; name?: string }): string {
  const msg = e?.message ?? String(e);
  const dir = decodeURIComponent(new URL('.', url).pathname);
  if (e?.name === 'NotCapable' || e?.name === 'PermissionDenied' || /--allow-read/.test(msg)) {
    return `wasm: Deno refused to read ${url} (${msg}): grant read access to the package, e.g. ` +
      `\`deno run --allow-read=${dir} …\` (or --allow-read), or pass init({ wasmBinary })`;
  }
  if (e?.code === 'EACCES' || e?.code === 'EPERM') {
    return `wasm: no permission to read ${url} (${msg}): let this process read ${dir}, or pass init({ wasmBinary })`;
  }
  return `wasm: could not read ${url} (${msg}): the installed package is incomplete; reinstall posenc, or pass ` +
    'init({ wasmBinary })';
}

async function readWasm(url: string): Promise<Uint8Array> {
  try {
    return await readFile(new URL(url));
  } catch (e) {
    throw new PosencError(readFailure(url, e as Error & { code?: string }));
  }
}

// The threads build in Node: the glue required from dist/threads/ (a CommonJS folder), its worker script by path.
async function nodeThreadsGlue(threadsUrl: unknown): Promise<ThreadsGlue> {
  if (threadsUrl !== undefined) throw new PosencError('threadsUrl: for pages; Node reads dist/threads/ of the installed package');
  const dir = new URL('./threads/', import.meta.url).href;
  const create = createRequire(import.meta.url)('./threads/posenc-threads.js') as ThreadsGlue['create'];
  return {
    dir,
    locateFile: (f) => fileURLToPath(new URL(f, dir)),
    async create(m) {
      const raw = await create(m);
      // The pool's workers must not keep the process alive (Emscripten 3.1 leaves them referenced): unref each, once.
      const pool = (raw as unknown as { PThread: { unusedWorkers: { unref(): void }[]; runningWorkers: { unref(): void }[] } }).PThread;
      for (const w of [...pool.unusedWorkers, ...pool.runningWorkers]) w.unref();
      return raw;
    },
  };
}

/**
 * Loads the WebAssembly module and returns the API; see the browser entry's {@link init} for the options.
 * `threads: true` loads the threads build (InitOptions.threads), read from the package's dist/threads/.
 */
export async function init(options: InitOptions = {}): Promise<Posenc> {
  return load(options, readWasm, nodeThreadsGlue);
}

/** The compiled module that init() uses, read and compiled once; see the browser entry's {@link wasmModule}. */
export async function wasmModule(options: WasmOptions = {}): Promise<WasmModule> {
  checkOptions('wasmModule', options);
  return (await compiledModule(options, readWasm)).module;
}

export default init;
