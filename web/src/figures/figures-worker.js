// The figures' compute worker (dist/figures-worker.js): loads the posenc wasm module once and runs a figure
// definition's compute for the page. page → worker: {id, name, params} | {cancel: id};
// worker → page: {ready} first, then per run {id, progress}… and {id, result} | {id, error} | {id, cancelled}.
// Typed arrays in results are transferred, not copied.
import init from 'posenc';
import { figureDef } from './registry.js';

const cancelled = new Set();
class Cancelled extends Error {}
function transferables(x, out = new Set()) {
  if (ArrayBuffer.isView(x)) out.add(x.buffer);
  else if (Array.isArray(x)) for (const v of x) transferables(v, out);
  else if (x && typeof x === 'object') for (const v of Object.values(x)) transferables(v, out);
  return [...out];
}

let pe;
try { pe = await init(); } catch (e) { self.postMessage({ ready: true, error: e.message }); }
if (pe) {
  self.onmessage = async ({ data }) => {
    if ('cancel' in data) { cancelled.add(data.cancel); return; }
    const { id, name, params } = data;
    const ctx = {
      progress: (p) => self.postMessage({ id, progress: p }),
      checkpoint: async () => { await new Promise((r) => setTimeout(r, 0)); if (cancelled.has(id)) throw new Cancelled(); },
    };
    try {
      const result = await figureDef(name).compute(pe, params, ctx);
      self.postMessage({ id, result }, transferables(result));
    } catch (e) {
      if (e instanceof Cancelled) self.postMessage({ id, cancelled: true });
      else self.postMessage({ id, error: { message: e?.message ?? String(e), text: e?.text, attribute: e?.attribute } });
    } finally { cancelled.delete(id); }
  };
  self.postMessage({ ready: true });
}
