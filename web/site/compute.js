// @ts-check
// Page side of the site's computations: they run in the page's ONE worker, the figures' worker with the site's tasks
// added (worker.js), through the figures engine (web/src/figures/engine.js): compute(task, params) → Promise of the
// result; runners that keep only the latest request per figure (a newer one cancels the older), progress callbacks and
// explicit cancel. useSource hands the engine that worker and the page's compiled wasm (fetched and compiled once,
// shared with the page's own init()).
import init, { wasmModule, simdSupported } from 'posenc';
import { useSource, run, engineInfo } from '../src/figures/engine.js';
import './theme-switch.js';
import { takeWorker } from './page-worker.js';

useSource({
  module: (/** @type {boolean} */ simd) => wasmModule({ simd }),
  worker: takeWorker,   // created before the page's code runs (start.js); the engine asks once
  init: (/** @type {WebAssembly.Module} */ module, /** @type {boolean} */ simd) => init({ module, simd }),
});

// Started at once, not when the first figure scrolls into view (DOMContentLoaded and later): the worker's script and
// the wasm load while the page lays itself out, so the first figure finds its engine ready (tests/bench/first-figure.mjs).
run('warm', {}).promise.catch(() => {});

/**
 * Resolves once the figures on screen when the page has loaded have painted (or failed), or after 1.5 s at most: the
 * page's other work (the live numbers of the prose, the sections' tables, the formulas off screen) waits for it, so
 * that the first figures get the main thread (tests/bench/first-figure.mjs: the first figure ≤ 1 s after a cold load).
 * @type {Promise<void>}
 */
export const firstFigures = new Promise((resolve) => {
  const pick = () => setTimeout(() => {
    const shown = [...document.querySelectorAll('posenc-figure')].filter((f) => { const r = f.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
    Promise.race([Promise.allSettled(shown.map((f) => /** @type {any} */ (f).ready)), new Promise((r) => setTimeout(r, 1500))]).then(() => resolve());
  }, 0);
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', pick, { once: true }); else pick();
});
/** @type {Promise<any> | null} */
let api = null;
/** posenc's API on the main thread, for the page's small synchronous computations (the prose's live numbers, §4's
 * layouts table, the config reader): instantiated from the same compiled module, after the first figures. */
export function pageApi() { api ??= firstFigures.then(() => init()); return api; }

/** Timing of the last finished task (worker time vs round trip), for the benchmark. */
export const stats = { last: /** @type {any} */ (null) };
/** @type {any} */ (globalThis).posencStats = stats;
/** Which wasm build the page runs (the worker instantiates the same one). */
export const ready = Promise.resolve({ simd: simdSupported() });

/**
 * Runs a task in the worker: {promise, cancel}. `transfer` lists ArrayBuffers to move (not copy) to the worker.
 * @param {string} task @param {object} params @param {{ onProgress?: (p: number) => void, transfer?: ArrayBuffer[] }} [opts]
 */
export function start(task, params, opts = {}) {
  const job = run(task, params, opts);
  return { promise: job.promise.then((/** @type {any} */ r) => { stats.last = { task, .../** @type {any} */ (engineInfo).last }; return r; }), cancel: job.cancel };
}

/** Runs a task once. @param {string} task @param {object} params @param {{ onProgress?: (p: number) => void, transfer?: ArrayBuffer[] }} [opts] */
export function compute(task, params, opts = {}) { return start(task, params, opts).promise; }

/**
 * A runner for one figure: run(task, params) resolves with the result of the LATEST call only; older calls still
 * in flight are cancelled and resolve to undefined (so a fast-typing user never sees a stale figure).
 */
export function latest() {
  /** @type {{ promise: Promise<any>, cancel: () => void } | null} */
  let current = null;
  return {
    /** @param {string} task @param {object} params @param {{ onProgress?: (p: number) => void }} [opts] */
    run(task, params, opts) {
      current?.cancel();
      const job = start(task, params, opts);
      current = job;
      return job.promise.then((/** @type {any} */ r) => (current === job ? r : undefined),
        (/** @type {any} */ e) => { if (e?.cancelled || current !== job) return undefined; throw e; });
    },
    cancel() { current?.cancel(); current = null; },
  };
}
