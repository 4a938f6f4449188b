// The compute worker: loads the posenc wasm module once and runs named tasks (tasks.js) for the page,
// so the page never blocks on a computation. Protocol:
//   page → worker: {id, task, params} | {cancel: id}
//   worker → page: {id, progress} … then {id, result} | {id, error} | {id, cancelled: true}
// Typed arrays in results are transferred, not copied.
import init from 'posenc';
import { tasks } from './tasks.js';
import { errorText } from '../src/figures/messages.js';

// The handler is set at once and each task awaits the module: a handler set only after `await init()` missed the
// requests the page sends while the wasm loads (a draw started by a link's figure state then never finished).
// The page sends the wasm module it compiled (compute.js) first: the worker fetches no .wasm of its own.
let received;
const ready = new Promise((r) => { received = r; }).then((module) => init({ module }));
const cancelled = new Set();

function transferables(x, out = new Set()) {
  if (ArrayBuffer.isView(x)) out.add(x.buffer);
  else if (Array.isArray(x)) for (const v of x) transferables(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) transferables(v, out);
  return [...out];
}

class Cancelled extends Error {}

self.onmessage = async ({ data }) => {
  if ('module' in data) { received(data.module); return; }
  if ('cancel' in data) { cancelled.add(data.cancel); return; }
  const { id, task, params } = data;
  const ctx = {
    progress: (p) => self.postMessage({ id, progress: p }),
    // Long tasks call this between chunks: lets cancel messages in, throws when this task was cancelled.
    checkpoint: async () => {
      await new Promise((r) => setTimeout(r, 0));
      if (cancelled.has(id)) throw new Cancelled();
    },
  };
  try {
    if (!(task in tasks)) throw new Error(`unknown task ${task}`);
    const pe = await ready, t0 = performance.now();
    const result = await tasks[task](pe, params, ctx);
    self.postMessage({ id, result, ms: performance.now() - t0 }, transferables(result));
  } catch (e) {
    if (e instanceof Cancelled) self.postMessage({ id, cancelled: true });
    else self.postMessage({ id, error: errorText(e) });   // {en, zh}: never a raw exception text on the page
  } finally {
    cancelled.delete(id);
  }
};
self.postMessage({ ready: true, simd: (await ready).buildInfo().simd });
