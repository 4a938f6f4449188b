// Bundles the pages (index.html, the figure gallery, embed.html for iframes) with KaTeX's stylesheet and the posenc package (dist/) into a static folder, build/site,
// that can be hosted anywhere (relative base, no CDN, no inline scripts: it runs under a strict CSP, which every page
// carries in a <meta> of its own: csp.js).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { cspMeta } from './csp.js';
import { joinCjkLines } from './cjk-space.js';
import { prerenderTex } from './tex-build.js';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

// Build-time includes: `<!-- include sections/NAME.html -->` is replaced by that file's text, recursively
// (index.html includes one file per section, sections/sN.html; a section file may include parts of its own).
// A missing file fails the build (readFileSync throws); so does an include cycle.
const expand = (html, seen = []) => html.replace(/<!--\s*include\s+(\S+)\s*-->/g, (_, file) => {
  if (!/^sections\/[\w-]+\.html$/.test(file)) throw new Error(`include: '${file}' is not sections/NAME.html`);
  if (seen.includes(file)) throw new Error(`include: cycle ${[...seen, file].join(' -> ')}`);
  return expand(readFileSync(here(file), 'utf8'), [...seen, file]);
});
// Then the Chinese text loses the spaces its source line breaks would render between two CJK characters (cjk-space.js), and every data-tex formula is typeset
// (KaTeX in Node: tex-build.js), so the browser runs no KaTeX.
const includes = {
  name: 'posenc-section-includes',
  transformIndexHtml: { order: 'pre', handler: (html) => prerenderTex(joinCjkLines(expand(html))) },
};

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  plugins: [includes, cspMeta],
  resolve: { alias: { posenc: here('../../dist/index.js') } },
  worker: { format: 'es' },
  build: {
    outDir: here('../../build/site'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,      // wasm and fonts stay files (CSP: no data: URLs needed)
    chunkSizeWarningLimit: 2000,
    modulePreload: { polyfill: false },
    rollupOptions: { input: { index: here('index.html'), embed: here('embed.html'), gallery: here('gallery.html') } },
  },
  logLevel: 'warn',
});
