// Builds posenc/figures into dist/ (run by scripts/build.sh after tsc):
//   dist/figures.js         the element, building blocks and figure definitions, d3-scale/d3-format and the wasm
//                           loader (#wasm: fetch + compile, shared with the page's posenc) bundled in; imports
//                           ./index.js (the posenc API) only when it must compute on the main thread
//   dist/figures-worker.js  the compute worker, with the posenc API bundled in (#instance: it instantiates the module
//                           the page compiled and posted, so it references no .wasm)
//   dist/figures.d.ts, dist/figures/…  the types, emitted by tsc from the JSDoc (tsconfig.json here, run first by
//                           scripts/build.sh; declarations.mjs); figures.cjs + figures.d.cts: require()
// Two separate builds, so each file is self-contained. The worker is referenced as
// `new Worker(new URL('./figures-worker.js', import.meta.url), …)` in the output, the form bundlers recognise.
import { build } from 'vite';
import { copyFileSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { writeDeclarations } from './declarations.mjs';

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
for (const f of ['figures.cjs', 'widget.cjs']) copyFileSync(here(f), `${out}/${f}`);
copyFileSync(here('loader.js'), `${out}/figures-loader.js`);   // the classic-script loader (as written: it is small)

// dist/figures-standalone.js: one classic script (iife) holding the element, the worker's code (the same text, started
// from a blob: URL) and both .wasm builds gzipped in base64 (DecompressionStream inflates them): what a single-file
// figure inlines (html.js). Nothing is fetched, so it runs from file:// and in sandboxed iframes.
const wasmB64 = (f) => gzipSync(readFileSync(`${out}/${f}`), { level: 9 }).toString('base64');
const inlineWasm = {
  name: 'posenc-inline-wasm',
  // engine.js's main-thread fallback imports the whole API ('posenc'): here useSource's init() stands in for it
  // the model figures' build-time numbers (model-data.gen.js, ~115 KB: the text's token ids among them; train-short.gen.js,
  // ~80 KB) stay out of the single file (≤ 1 MB): there those four figures say that they need the package or the explainer
  resolveId: (id) => (id === 'virtual:posenc-wasm' ? '\0posenc-wasm' : id === 'posenc' ? '\0posenc-unused' : null),
  load: (id) => (id === '\0posenc-unused' ? 'export default () => { throw new Error("posenc standalone: no API import"); };' : id === '\0posenc-wasm' ? `export const WASM_SIMD = ${JSON.stringify(wasmB64('posenc-simd.wasm'))};\nexport const WASM_SCALAR = ${JSON.stringify(wasmB64('posenc-scalar.wasm'))};` : null),
};
const noModelData = {
  name: 'posenc-no-model-data', enforce: 'pre',   // before Vite's own resolver
  resolveId: (id) => (/\/(model-data|train-short)\.gen\.js$/.test(id) ? '\0posenc-no-model-data' : null),
  load: (id) => (id === '\0posenc-no-model-data' ? 'export default null;' : null),
};
// The standalone script never fetches a file: the literal worker and .wasm URLs (which Vite would inline as data: URLs,
// 0.95 MB of raw wasm, and bundle the worker again) become inert, and import.meta (empty in an iife) is undefined.
const noUrls = {
  name: 'posenc-no-urls', enforce: 'pre',
  transform: (code) => (KEEP.some((k) => code.includes(k)) ? { code: KEEP.reduce((c, k) => c.replaceAll(k, "new URL('about:blank')"), code), map: null } : null),
};
await build({
  configFile: false, logLevel: 'warn', plugins: [noModelData, noUrls, inlineWasm], define: { 'import.meta.url': 'undefined' },
  build: {
    outDir: out, emptyOutDir: false, target: 'es2022', minify: true, sourcemap: false, copyPublicDir: false, assetsInlineLimit: 0,
    lib: { entry: here('standalone/index.js'), formats: ['iife'], name: 'posencStandalone', fileName: () => 'figures-standalone.js' },
    rollupOptions: { output: { codeSplitting: false } },
  },
});

// dist/widget.js (posenc/widget): the anywidget module, an ES module with figures-standalone.js's text inside.
const standaloneText = readFileSync(`${out}/figures-standalone.js`, 'utf8');
await build({
  configFile: false, logLevel: 'warn',
  plugins: [{ name: 'posenc-standalone-text', resolveId: (id) => (id === 'virtual:posenc-standalone-text' ? '\0posenc-standalone-text' : null),
    load: (id) => (id === '\0posenc-standalone-text' ? `export default ${JSON.stringify(standaloneText)};` : null) }],
  build: {
    outDir: out, emptyOutDir: false, target: 'es2022', minify: false, sourcemap: false, copyPublicDir: false,
    lib: { entry: here('widget.js'), formats: ['es'], fileName: () => 'widget.js' },
  },
});

// The declarations (dist/figures.d.ts, dist/figures/…, .d.cts, widget.d.ts): from tsc's output, once dist/figures.js and
// dist/widget.js exist (the require() typings list their exports).
await writeDeclarations();
