// @ts-check
// dist/figures-standalone.js: posenc/figures as ONE classic script with the wasm inlined, for a figure in a single
// HTML file (html.js writes the page). The same text runs twice: on the page (it defines <posenc-figure> and starts
// a worker from a blob: URL of its own text) and in that worker (it serves the computations). No request at all:
// Chromium runs it from file://, in a sandboxed iframe (opaque origin) and under any sub-path.
import './flag.js';
import { listen } from '../figures-worker.js';
import { useSource } from '../engine.js';
import { instantiate } from '#instance';
import { WASM_SIMD, WASM_SCALAR } from 'virtual:posenc-wasm';
import { startProtocol } from './protocol.js';

const isWorker = typeof document === 'undefined';

/** The inlined .wasm (gzip, base64) → a compiled module. */
async function compileInlined(/** @type {boolean} */ simd) {
  const b64 = simd ? WASM_SIMD : WASM_SCALAR;
  const gz = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const bytes = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  return WebAssembly.compile(bytes);
}

if (isWorker) listen();
else {
  // This script's own text: the worker is made from it (read now: currentScript is set only while it first runs).
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const text = script?.text ?? '';
  /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('posenc.standalone.text')] = text;
  let url = '';
  useSource({
    module: compileInlined,
    worker() {
      if (!text) throw new Error('figures-standalone.js must run as an inline script (its text makes the worker)');
      url ||= URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
      return new Worker(url);
    },
    init: (/** @type {WebAssembly.Module} */ m, /** @type {boolean} */ simd) => instantiate(m, simd, 'module:', {}),
  });
  // the parent-window protocol only in a single-file figure's own page (html.js marks it), not where posenc/widget
  // runs this script inside a notebook's page
  import('../index.js').then(() => { if (document.querySelector('meta[name="generator"][content="posenc figures-standalone"]')) startProtocol(); });
}
