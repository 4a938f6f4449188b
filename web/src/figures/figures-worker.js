// @ts-check
// The figures' compute worker (dist/figures-worker.js): instantiates the wasm module the page compiled (so the worker
// fetches no .wasm, and its bundle references none) and runs a figure definition's compute for the page.
// worker → page: {listening}; page → worker: {module, simd} (a WebAssembly.Module), then {id, name, params} | {cancel: id};
// worker → page: {ready} first, then per run {id, progress}… and {id, result, ms} | {id, error} | {id, cancelled} (a
// cancelled run is aborted: its AbortSignal stops pe.gpu calls between chunks).
// Typed arrays in results are transferred, not copied.
import { instantiate } from '#instance';
import { figureDef } from './registry.js';
import { errorText } from './messages.js';

/** @type {Map<number, AbortController>} */
const running = new Map();   // id → AbortController of each run in progress
class Cancelled extends Error {}
/** @param {unknown} x @param {Set<ArrayBufferLike>} [out] @returns {Transferable[]} */
function transferables(x, out = new Set()) {
  if (ArrayBuffer.isView(x)) out.add(x.buffer);
  else if (Array.isArray(x)) for (const v of x) transferables(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) transferables(v, out);
  return /** @type {Transferable[]} */ ([...out]);
}

// Result buffers the page handed back (engine.js recycle): ctx.take(n) reuses one of n floats when there is one.
/** @type {ArrayBuffer[]} */
const pool = [];
const take = (/** @type {number} */ n) => { const i = pool.findIndex((b) => b.byteLength === 4 * n); return i >= 0 ? new Float32Array(pool.splice(i, 1)[0]) : new Float32Array(n); };

// No top-level await: bundlers build workers as classic scripts by default (Vite: iife), which cannot hold one.
/** Serves figure computations on `pe` (the posenc API) in this worker; `extra` ({name: (pe, params, ctx) => result})
 * adds computations of the embedding page's own under names that are not figures (called with `this` = extra).
 * @param {import('./params.js').Posenc} pe @param {Record<string, (pe: any, params: any, ctx: any) => unknown>} extra */
function serve(pe, extra) {
  self.onmessage = async ({ data }) => {
    if ('cancel' in data) { running.get(data.cancel)?.abort(); return; }
    if ('recycle' in data) { if (pool.length < 4) pool.push(data.recycle); return; }
    const { id, name, params } = data, abort = new AbortController();
    running.set(id, abort);
    // signal: for pe.gpu calls (they stop between chunks); checkpoint: between a figure's own steps
    const ctx = {
      take, signal: abort.signal,
      progress: (/** @type {number} */ p) => self.postMessage({ id, progress: p }),
      checkpoint: async () => { await new Promise((r) => setTimeout(r, 0)); if (abort.signal.aborted) throw new Cancelled(); },
    };
    try {
      const t0 = performance.now();
      const result = await (Object.hasOwn(extra, name) ? extra[name].call(extra, pe, params, ctx) : figureDef(name).compute(pe, params, ctx));
      /** @type {{ postMessage(m: unknown, transfer: Transferable[]): void }} */ (/** @type {unknown} */ (self)).postMessage({ id, result, ms: performance.now() - t0 }, transferables(result));
    } catch (e) {
      if (e instanceof Cancelled || abort.signal.aborted) self.postMessage({ id, cancelled: true });
      else self.postMessage({ id, error: { message: /** @type {any} */ (e)?.message ?? String(e), text: errorText(e), attribute: /** @type {any} */ (e)?.attribute } });
    } finally { running.delete(id); }
  };
  self.postMessage({ ready: true });
}
/** Waits for the page's compiled module, then serves (figures-standalone.js calls this in its blob: worker; a page that
 * runs its own computations in the same worker — the explainer site — passes them as `extra`, see serve). */
export function listen(extra = {}) {
  self.onmessage = ({ data }) => {
    if (data.module) instantiate(data.module, data.simd, 'module:', {}).then((pe) => serve(pe, extra), (e) => self.postMessage({ ready: true, error: e.message }));
  };
  self.postMessage({ listening: true });
}
// dist/figures-worker.js is this file's own bundle: it listens at once. The standalone bundle imports listen() only.
if (!(/** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis)))[Symbol.for('posenc.standalone')]) listen();
