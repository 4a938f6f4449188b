// Bundles the pages (index.html, the figure gallery, embed.html for iframes) with KaTeX and the posenc package (dist/) into a static folder, build/site,
// that can be hosted anywhere (relative base, no CDN, no inline scripts: it runs under a strict CSP).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: './',
  publicDir: false,
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
