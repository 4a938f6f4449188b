// Builds posenc/figures into dist/ (run by scripts/build.sh after tsc):
//   dist/figures.js         the element, building blocks and figure definitions, d3-scale/d3-format and the wasm
//                           loader (#wasm: fetch + compile, shared with the page's posenc) bundled in; imports
//                           ./index.js (the posenc API) only when it must compute on the main thread
//   dist/figures-worker.js  the compute worker, with the posenc API bundled in (#instance: it instantiates the module
//                           the page compiled and posted, so it references no .wasm)
//   dist/figures.d.ts       the types (written by hand: figures.d.ts here); figures.cjs + figures.d.cts: require()
// Two separate builds, so each file is self-contained. The worker is referenced as
// `new Worker(new URL('./figures-worker.js', import.meta.url), …)` in the output, the form bundlers recognise.
import { build } from 'vite';
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here('../../../dist');
// URLs kept exactly as written: the worker's (Vite would otherwise bundle the worker into figures.js) and the wasm
// files' (Vite would copy or inline them): in dist/ they resolve next to the file, and a consumer's bundler sees the
// literal `new URL('./…', import.meta.url)` forms and emits the files.
const KEEP = ["new URL('./figures-worker.js', import.meta.url)", "new URL('./posenc-simd.wasm', import.meta.url)", "new URL('./posenc-scalar.wasm', import.meta.url)"];
const keepUrls = {
  name: 'posenc-keep-urls', enforce: 'pre',
  // (map: null — the replacement keeps every line and column that matters for the source map)
  transform: (code) => (KEEP.some((k) => code.includes(k)) ? { code: KEEP.reduce((c, k, i) => c.replaceAll(k, `__POSENC_URL_${i}__`), code), map: null } : null),
  renderChunk: (code) => (code.includes('__POSENC_URL_') ? { code: KEEP.reduce((c, k, i) => c.replaceAll(`__POSENC_URL_${i}__`, k), code), map: null } : null),
};
// figures.js imports the API (./index.js) only for the main-thread fallback; the worker bundles it (one file instead
// of a chain of ~30 module requests). No source maps: the tarball stays small (the tsc output is readable as is).
for (const [name, entry, external] of [['figures', 'index.js', true], ['figures-worker', 'figures-worker.js', false]]) {
  await build({
    configFile: false, logLevel: 'warn', plugins: [keepUrls],
    build: {
      outDir: out, emptyOutDir: false, target: 'es2022', minify: true, sourcemap: false, copyPublicDir: false, assetsInlineLimit: 0,
      lib: { entry: here(entry), formats: ['es'], fileName: () => `${name}.js` },
      // The worker stays one file: the API's on-demand import of its build's glue is inlined too.
      rollupOptions: external ? { external: ['posenc'], output: { paths: { posenc: './index.js' } } } : { output: { codeSplitting: false } },
    },
  });
}
for (const f of ['figures.d.ts', 'figures.d.cts', 'figures.cjs']) copyFileSync(here(f), `${out}/${f}`);
