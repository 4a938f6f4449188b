// Bundles the pages (index.html, the figure gallery, embed.html for iframes) with KaTeX's stylesheet and the posenc package (dist/) into a static folder, build/site,
// that can be hosted anywhere (relative base, no CDN, no inline script but land.js, allowed by its hash: it runs under a strict CSP, which every page
// carries in a <meta> of its own: csp.js).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cspMeta } from './csp.js';
import { joinCjkLines } from './cjk-space.js';
import { prerenderTex } from './tex-build.js';
import { firstPaint, firstPaintPost } from './first-paint.js';
import { withFigureBars } from './figure-bars.js';

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
// (KaTeX in Node: tex-build.js), so the browser runs no KaTeX. The typeset formulas go to a file of their own,
// assets/tex-HASH.json (hash of its text), preloaded from the page's <head> (<link id="tex-json">: tex-fill.js reads it).
/** @type {Map<string, string>} */
const texFiles = new Map();   // file name → JSON text
const includes = {
  name: 'posenc-section-includes',
  transformIndexHtml: {
    order: 'pre',
    async handler(html, { filename }) {
      let text = joinCjkLines(expand(html));
      if (filename.endsWith('/index.html')) {   // the figures' "Try this" boxes and "Permalink · Embed" bars (figure-bars.js)
        const { describeFigure, figureNames } = await import('../../dist/figures.js');
        text = withFigureBars(text, (name) => (figureNames.includes(name) ? describeFigure(name) : undefined));
      }
      const { html: page, json } = prerenderTex(text);
      if (!json) return page;
      const file = `assets/tex-${createHash('sha256').update(json).digest('hex').slice(0, 10)}.json`;
      texFiles.set(file, json);
      const attrs = { id: 'tex-json', rel: 'preload', as: 'fetch', crossorigin: true, href: `./${file}` };
      return { html: page, tags: [{ tag: 'link', attrs, injectTo: /** @type {const} */ ('head') }] };
    },
  },
  generateBundle() {
    for (const [fileName, source] of texFiles) this.emitFile({ type: 'asset', fileName, source });
  },
};

// index.html's entry (start.js) imports the page's code (page.js) dynamically, after starting the worker. Vite puts
// only an entry's static imports into the page, so this adds a <link rel="modulepreload"> for every chunk that import
// loads (transitively) and a <link rel="stylesheet"> for their CSS: fetched while the page parses, styled from the
// first paint, as when they were static. It also fails the build when the page's code has become a static import of
// the entry again (a section's own <script> tag joins the entry), which would start the worker late again.
const preloadDynamic = {
  name: 'posenc-preload-dynamic',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, chunk }) {
      if (!bundle || !chunk || !chunk.dynamicImports.length) return html;
      const closure = (/** @type {string[]} */ start) => {
        const seen = new Set(), todo = [...start];
        while (todo.length) {
          const f = /** @type {string} */ (todo.pop()), c = bundle[f];
          if (seen.has(f) || c?.type !== 'chunk') continue;
          seen.add(f); todo.push(...c.imports);
        }
        return seen;
      };
      const early = closure([chunk.fileName]);
      const late = [...closure(chunk.dynamicImports)].filter((f) => !early.has(f));
      for (const f of early) {
        const m = Object.keys(/** @type {any} */ (bundle[f]).modules).find((id) => id.endsWith('/web/site/compute.js'));
        if (m) throw new Error(`${chunk.fileName}: the page's code (${m}) is a static import of the entry; a section's script belongs in page.js`);
      }
      const css = late.flatMap((f) => [.../** @type {any} */ (bundle[f]).viteMetadata?.importedCss ?? []]);
      return { html, tags: [
        ...late.map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: /** @type {const} */ ('head') })),
        ...css.map((f) => ({ tag: 'link', attrs: { rel: 'stylesheet', crossorigin: true, href: `./${f}` }, injectTo: /** @type {const} */ ('head') })),
      ] };
    },
  },
};

const first = firstPaint();

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
  plugins: [includes, first, cspMeta, preloadDynamic, firstPaintPost(first)],
  resolve: { alias: { posenc: here('../../dist/index.js') } },
  worker: { format: 'es' },
  build: {
    outDir: here('../../build/site'),
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,      // wasm and fonts stay files (CSP: no data: URLs needed)
    chunkSizeWarningLimit: 2000,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: { index: here('index.html'), embed: here('embed.html'), gallery: here('gallery.html') },
      // start.js's own imports in a small chunk of their own (the bundler would otherwise merge them into a chunk of
      // the page's code, which the entry would then evaluate before starting the worker)
      output: { manualChunks: (id) => (/\/web\/site\/page-worker\.js$|preload-helper/.test(id) ? 'start' : undefined) },
    },
  },
  logLevel: 'warn',
});
