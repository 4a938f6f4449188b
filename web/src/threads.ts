// The threads build (init({ threads: true })): Emscripten's pthreads glue posenc-threads.js, its worker script
// posenc-threads.worker.js and posenc-threads.wasm, in dist/threads/. The glue is a classic script (the pool's
// workers load it with importScripts): pages import it as a module, where it publishes its factory on globalThis
// (cpp/bindings/threads_post.js); the Node entry requires it (dist/threads/ is a CommonJS folder).
import type { RawModule } from './raw.js';
import { run } from './instance.js';
import { PosencError } from './validate.js';
import { compiledAt, threadsDir } from './wasm.js';
import type { WasmReader } from './wasm.js';

type Factory = (m: object) => Promise<RawModule>;

/** @internal What an entry supplies: the glue's factory, the threads folder, how the glue finds its worker script. */
export interface ThreadsGlue {
  create: Factory;
  /** The folder's URL. */
  dir: string;
  locateFile(file: string): string;
  /** The glue's URL, for the workers (Node: unset, the workers read the glue's own file name). */
  mainScriptUrlOrBlob?: string;
}

/** @internal init({ threads: true }): the threads build's module, from the folder and glue that `glue` gives. */
export async function loadThreads(threadsUrl: unknown, read: WasmReader, glue: ThreadsLoader): Promise<RawModule> {
  const { create, dir, ...extra } = await glue(threadsUrl);
  const url = new URL('posenc-threads.wasm', dir).href;
  return run(create, await compiledAt(url, read), `wasm: ${url}`, extra);
}

/** @internal An entry's way to the glue, given init's threadsUrl. */
export type ThreadsLoader = (threadsUrl: unknown) => Promise<ThreadsGlue>;

/** @internal The glue in a page or worker: SharedArrayBuffer, so cross-origin isolation, is required. */
export async function webThreadsGlue(threadsUrl: unknown): Promise<ThreadsGlue> {
  if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated) {
    throw new PosencError('threads: this page is not cross-origin isolated (crossOriginIsolated is false), so it has no ' +
      'shared memory for threads: serve it with the headers "Cross-Origin-Opener-Policy: same-origin" and ' +
      '"Cross-Origin-Embedder-Policy: require-corp" (or credentialless), or call init() without threads');
  }
  const dir = await threadsDir(threadsUrl);
  const script = new URL('posenc-threads.js', dir).href;
  try {
    await import(/* webpackIgnore: true */ /* @vite-ignore */ script);
  } catch (e) {
    throw new PosencError(`threads: could not load ${script} (${(e as Error)?.message ?? e}): serve the package's ` +
      'dist/threads/ folder (posenc-threads.js, .worker.js, .wasm) as JavaScript and WebAssembly, beside posenc\'s ' +
      'JavaScript, or pass init({ threads: true, threadsUrl }) with its URL');
  }
  const create = (globalThis as { createPosencThreads?: Factory }).createPosencThreads;
  if (typeof create !== 'function') throw new PosencError(`threads: ${script} is not the threads build's glue (it defined no createPosencThreads)`);
  return { create, dir, locateFile: (f) => new URL(f, dir).href, mainScriptUrlOrBlob: script };
}
