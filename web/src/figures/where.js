// @ts-check
import { viteDevDir } from '#wasm';

// Where this package's files (figures-worker.js, posenc-*.wasm) are, in the two cases where the usual
// `new URL('./…', import.meta.url)` (which webpack, Vite and Parcel rewrite, and plain pages resolve) misses them:
// - a classic-script bundle (esbuild's default iife format, Hugo's js.Build) leaves import.meta empty: the files are
//   next to the bundle, whose URL is known only while its code first runs — so it is read here, at the top level;
// - Vite 5–7's dev server pre-bundles posenc/figures into its cache folder (…/.vite/deps/, VitePress's
//   …/.vitepress/cache/deps/) without the package's other files: the dev server itself says where the package is
//   (viteDevDir, shared with the API's own .wasm URL).

/** This module's URL: import.meta.url, or the classic script's own. */
const HERE = import.meta.url || (typeof document !== 'undefined' && /** @type {HTMLScriptElement | null} */ (document.currentScript)?.src) || '';

let base = null;

/**
 * The folder to load figures-worker.js and the .wasm from, or null where the `new URL('./…', import.meta.url)` forms
 * apply. Rejects with a message for the page when it cannot be told.
 * @returns {Promise<string | null>}
 */
export function packageBase() {
  return (base ??= find());
}

async function find() {
  const vite = await viteDevDir(HERE);
  if (vite) return vite;
  if (import.meta.url) return null;
  if (!HERE) {
    throw new Error('posenc/figures cannot tell where its files are: it was bundled as a classic script (e.g. esbuild\'s ' +
      'iife format) and first ran after the page loaded. Load that bundle with a plain <script src> tag, or build an ES ' +
      'module (esbuild --format=esm, <script type="module">)');
  }
  return new URL('./', HERE).href;
}
