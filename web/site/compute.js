// Page side of the compute worker: compute(task, params) → Promise of the result; runners that keep only the
// latest request per figure (a newer one cancels the older), progress callbacks and explicit cancel.
import { wasmModule } from 'posenc';

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
// The wasm is fetched and compiled once per page (shared with the page's own init() and the figures) and handed over;
// if that fails, the worker loads it itself and reports the error as its tasks' error.
wasmModule().catch(() => undefined).then((module) => worker.postMessage({ module }));
const pending = new Map();
let nextId = 1;
/** Timing of the last finished task (worker time vs round trip), for the benchmark. */
export const stats = { last: null };
globalThis.posencStats = stats;
let readyResolve;
export const ready = new Promise((r) => { readyResolve = r; });

worker.onmessage = ({ data }) => {
  if (data.ready) { readyResolve(data); return; }
  const p = pending.get(data.id);
  if (!p) return;
  if ('progress' in data) { p.onProgress?.(data.progress); return; }
  pending.delete(data.id);
  if (data.cancelled) p.reject(Object.assign(new Error('cancelled'), { cancelled: true }));
  else if ('error' in data) p.reject(Object.assign(new Error(data.error.en), { text: data.error }));
  else { stats.last = { task: p.task, workerMs: data.ms, roundTripMs: performance.now() - p.t0 }; p.resolve(data.result); }
};
worker.onerror = (e) => { console.error('worker error', e.message); };

/** Runs a task in the worker. Returns {promise, cancel}. */
export function start(task, params, { onProgress } = {}) {
  const id = nextId++;
  const promise = new Promise((resolve, reject) => pending.set(id, { resolve, reject, onProgress, task, t0: performance.now() }));
  return { id, promise, cancel: () => { if (pending.has(id)) worker.postMessage({ cancel: id }); } };
}

/** Runs a task once; `transfer` lists ArrayBuffers to move (not copy) to the worker. */
export function compute(task, params, opts = {}) {
  const job = start(task, params, opts);
  worker.postMessage({ id: job.id, task, params }, opts.transfer ?? []);
  return job.promise;
}

/**
 * A runner for one figure: run(task, params) resolves with the result of the LATEST call only; older calls still
 * in flight are cancelled and resolve to undefined (so a fast-typing user never sees a stale figure).
 */
export function latest() {
  let current = null;
  return {
    run(task, params, opts) {
      current?.cancel();
      const job = start(task, params, opts);
      current = job;
      worker.postMessage({ id: job.id, task, params });
      return job.promise.then((r) => (current === job ? r : undefined),
        (e) => { if (e.cancelled || current !== job) return undefined; throw e; });
    },
    cancel() { current?.cancel(); current = null; },
  };
}
