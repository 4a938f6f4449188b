// @ts-check
// Where figures compute: a module worker when one can start, else the main thread. Started on the first request only
// (the wasm is fetched when the first figure scrolls into view). The page fetches and compiles the wasm once — shared
// with any init() of posenc on the page — and posts the compiled module to the worker, which fetches nothing. The worker
// is next to this module (resolved from import.meta.url; from another origin through a blob: module that imports it).
// Each run can report progress and be cancelled.
import { figureDef } from './registry.js';
import { FigureError } from './params.js';
import { errorText } from './messages.js';
import { packageBase } from './where.js';
import { compiledModule, fetchWasm, simdSupported } from '#wasm';

class Cancelled extends Error { constructor() { super('cancelled'); this.cancelled = true; } }
/** @typedef {{ promise: Promise<any>, cancel(): void }} Job */
/** @typedef {{ onProgress?: (fraction: number) => void, transfer?: Transferable[] }} RunOptions */
/** @typedef {{ kind: 'worker' | 'main', run(name: string, params: Record<string, unknown>, opts?: RunOptions): Job, recycle?(buffer: ArrayBuffer): void }} Engine */
/** @type {Promise<Engine> | null} */
let engine = null;

/**
 * The engine in use ('worker' | 'main') after the first run, the timing of the last finished run (benchmarks), and how
 * many runs were aborted before they finished (a superseded or cancelled computation stops early).
 */
/** @type {{ kind: 'worker' | 'main' | null, last: { name: string, workerMs: number, roundTripMs: number } | null, aborted: number }} */
export const engineInfo = { kind: null, last: null, aborted: 0 };

/** @param {string | null} base @param {Promise<WebAssembly.Module>} module @param {boolean} simd @param {(() => Worker) | null} [make] @returns {Promise<Engine>} */
function startWorker(base, module, simd, make = null) {
  return new Promise((resolve, reject) => {
    /** @type {Worker} */
    let w;
    if (make) try { w = make(); } catch (e) { reject(e); return; }
    else try {
      // Same origin: the literal form below, which bundlers (Vite, webpack 5) recognise and emit; or the folder found by
      // where.js. Another origin (a CDN): the browser refuses a cross-origin worker script (it throws), so a blob: module
      // imports it dynamically (a dynamic import is checked against script-src, which lists the CDN; a static one would
      // need the CDN in worker-src too). That URL is formed from a string: new URL(variable, import.meta.url) makes
      // webpack warn (Critical dependency).
      const href = base ? new URL('figures-worker.js', base).href : null;
      try {
        w = href ? new Worker(href, { type: 'module' }) : new Worker(new URL('./figures-worker.js', import.meta.url), { type: 'module' });
      } catch {
        const url = href ?? import.meta.url.replace(/[^/]*$/, 'figures-worker.js');
        w = new Worker(URL.createObjectURL(new Blob([`import(${JSON.stringify(url)});`], { type: 'text/javascript' })), { type: 'module' });
      }
    } catch (e) { reject(e); return; }
    const timer = setTimeout(() => { w.terminate(); reject(new Error('worker did not start')); }, 15000);
    // The worker's script loads while the page fetches and compiles the wasm; the module goes over once the worker
    // says it listens (a message sent earlier could reach a blob: worker before its imported script is there).
    module.catch((e) => { clearTimeout(timer); w.terminate(); reject(e); });
    w.onerror = (e) => { clearTimeout(timer); w.terminate(); reject(new Error(e.message || 'worker failed')); };
    w.onmessage = ({ data }) => {
      if (data.listening) module.then((m) => w.postMessage({ module: m, simd }), () => {});
      if (!data.ready) return;
      clearTimeout(timer);
      if (data.error) { w.terminate(); reject(new Error(data.error)); return; }
      /** @type {Map<number, { resolve(v: unknown): void, reject(e: unknown): void, onProgress?: (f: number) => void, name: string, t0: number }>} */
      const pending = new Map();
      let next = 1;
      w.onerror = null;
      w.onmessage = ({ data: m }) => {
        const p = pending.get(m.id);
        if (!p) return;
        if ('progress' in m) { p.onProgress?.(m.progress); return; }
        pending.delete(m.id);
        if (m.cancelled) { engineInfo.aborted++; p.reject(new Cancelled()); }
        else if (m.error) p.reject(m.error.text ? new FigureError(m.error.text, m.error.attribute) : new Error(m.error.message));
        else { engineInfo.last = { name: p.name, workerMs: m.ms, roundTripMs: performance.now() - p.t0 }; p.resolve(m.result); }
      };
      resolve({
        kind: 'worker',
        recycle: (/** @type {ArrayBuffer} */ buffer) => w.postMessage({ recycle: buffer }, [buffer]),
        /** @param {string} name @param {Record<string, unknown>} params @param {RunOptions} [o] */
        run(name, params, { onProgress, transfer } = {}) {
          const id = next++;
          const promise = new Promise((res, rej) => pending.set(id, { resolve: res, reject: rej, onProgress, name, t0: performance.now() }));
          w.postMessage({ id, name, params }, transfer ?? []);   // transfer: ArrayBuffers moved, not copied (a file's bytes)
          return { promise, cancel: () => { if (pending.has(id)) w.postMessage({ cancel: id }); } };
        },
      });
    };
  });
}

/** @param {WebAssembly.Module} module @param {boolean} simd */
async function startMain(module, simd) {
  const { default: init } = await import('posenc');
  return mainEngine(await init({ module, simd }));
}

/** @param {import('./params.js').Posenc} pe @returns {Engine} */
function mainEngine(pe) {
  return {
    kind: 'main',
    /** @param {string} name @param {Record<string, unknown>} params @param {RunOptions} [o] */
    run(name, params, { onProgress } = {}) {
      const abort = new AbortController();
      const ctx = { take: (/** @type {number} */ n) => new Float32Array(n), signal: abort.signal, progress: (/** @type {number} */ f) => onProgress?.(f),
        checkpoint: async () => { await new Promise((r) => setTimeout(r, 0)); if (abort.signal.aborted) throw new Cancelled(); } };
      const promise = (async () => figureDef(name).compute(pe, params, ctx))().catch((e) => {
        if (!abort.signal.aborted) throw e instanceof Cancelled ? e : new FigureError(errorText(e), /** @type {any} */ (e)?.attribute);
        engineInfo.aborted++;
        throw new Cancelled();
      });
      return { promise, cancel: () => abort.abort() };
    },
  };
}

/**
 * Where a self-contained page (figures-standalone.js) gets its wasm and worker instead: `module(simd)` → the compiled
 * module (from bytes inlined in the page), `worker()` → a started classic worker (a blob: URL of the page's own code),
 * `init(module, simd)` → the API on the main thread (no worker could start).
 * @typedef {{ module(simd: boolean): Promise<WebAssembly.Module>, worker(): Worker, init(m: WebAssembly.Module, simd: boolean): Promise<import('./params.js').Posenc> }} Source
 */
/** @type {Source | null} */
let source = null;
/** @param {Source} s */
export function useSource(s) { source = s; }

async function start() {
  if (source) {
    const simd = simdSupported(), module = source.module(simd), s = source;
    try {
      return await startWorker(null, module, simd, s.worker);
    } catch (e) {
      const m = await module;
      console.warn(`posenc figures: no worker (${/** @type {Error} */ (e).message}); computing on the main thread`);
      return mainEngine(await s.init(m, simd));
    }
  }
  const base = await packageBase(), simd = simdSupported();
  const wasmUrl = base ? new URL(simd ? 'posenc-simd.wasm' : 'posenc-scalar.wasm', base).href : undefined;
  const module = compiledModule({ simd, wasmUrl }, fetchWasm).then((r) => r.module);
  if (typeof Worker === 'function') {
    try {
      return await startWorker(base, module, simd);
    } catch (e) {
      await module;   // a wasm that cannot load is the figure's error: the main thread would fail the same way
      console.warn(`posenc figures: no worker (${/** @type {Error} */ (e).message}); computing on the main thread`);
    }
  }
  return startMain(await module, simd);
}

/** @returns {Promise<Engine>} */
function getEngine() {
  engine ??= start().then((e) => { engineInfo.kind = e.kind; return e; });
  return engine;
}

/**
 * Hands a typed array that is no longer drawn back to the worker, which reuses its buffer for a result of the same
 * size (ctx.take). Only arrays that came from the worker and that nothing else holds.
 * @param {ArrayLike<number> | null | undefined} array
 */
export function recycle(array) {
  const buffer = /** @type {{ buffer?: ArrayBuffer }} */ (array ?? {}).buffer;
  if (engineInfo.kind === 'worker' && buffer && buffer.byteLength >= 65536) engine?.then((e) => e.recycle?.(buffer));
}

/** Runs figure `name`'s compute with `params`: {promise, cancel}; a cancelled run rejects with {cancelled: true}. */
/** @param {string} name @param {Record<string, unknown>} params @param {RunOptions} [opts] @returns {Job} */
export function run(name, params, opts) {
  /** @type {Job | null} */
  let job = null, cancelled = false;
  const promise = getEngine().then((e) => { if (cancelled) throw new Cancelled(); job = e.run(name, params, opts); return job.promise; });
  return { promise, cancel: () => { cancelled = true; job?.cancel(); } };
}
