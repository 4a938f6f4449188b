// @ts-check
// The page's one worker (worker.js), created by start.js before the page's code is evaluated; compute.js hands it to
// the figures engine (useSource), its only user. The engine listens only from then on, and a worker's messages (its
// "listening") and errors that arrive with no listener are lost: until takeWorker() they are kept, and handed over
// once the engine has set its handlers.
const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
/** @type {Event[]} */
const early = [];
worker.onmessage = worker.onerror = (e) => { early.push(e); };

/** The worker, for the engine, which sets its handlers in the same task; what came before is replayed after that. */
export function takeWorker() {
  worker.onmessage = worker.onerror = null;
  queueMicrotask(() => {
    for (const e of early.splice(0)) {
      worker.dispatchEvent(e instanceof MessageEvent ? new MessageEvent('message', { data: e.data })
        : new ErrorEvent('error', { message: /** @type {ErrorEvent} */ (e).message }));
    }
  });
  return worker;
}
