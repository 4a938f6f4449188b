// Builds posenc/figures into dist/ (run by scripts/build.sh after tsc):
//   dist/figures.js         the element, building blocks and figure definitions, d3-scale/d3-format bundled in;
//                           imports ./index.js (the posenc API) only when it must compute on the main thread
//   dist/figures-worker.js  the compute worker (imports ./index.js)
//   dist/figures.d.ts       the types (written by hand: figures.d.ts here)
// Two separate builds, so each file is self-contained. The worker is referenced as
// `new Worker(new URL('./figures-worker.js', import.meta.url), …)` in the output, the form bundlers recognise.
import { build } from 'vite';
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const out = here('../../../dist');
const WORKER = "new URL('./figures-worker.js', import.meta.url)";
// Keeps the worker reference as written (Vite would otherwise bundle the worker into this file's build).
const keepWorkerUrl = {
  name: 'posenc-keep-worker-url', enforce: 'pre',
  // (map: null — the replacement keeps every line and column that matters for the source map)
  transform: (code) => (code.includes(WORKER) ? { code: code.replaceAll(WORKER, '__POSENC_WORKER_URL__'), map: null } : null),
  renderChunk: (code) => (code.includes('__POSENC_WORKER_URL__') ? { code: code.replaceAll('__POSENC_WORKER_URL__', WORKER), map: null } : null),
};
for (const [name, entry] of [['figures', 'index.js'], ['figures-worker', 'figures-worker.js']]) {
  await build({
    configFile: false, logLevel: 'warn', plugins: [keepWorkerUrl],
    build: {
      outDir: out, emptyOutDir: false, target: 'es2022', minify: true, sourcemap: true, copyPublicDir: false,
      lib: { entry: here(entry), formats: ['es'], fileName: () => `${name}.js` },
      rollupOptions: { external: ['posenc'], output: { paths: { posenc: './index.js' } } },
    },
  });
}
copyFileSync(here('figures.d.ts'), `${out}/figures.d.ts`);
