// @ts-check
// The page's entry (index.html): starts the page's worker, lets the browser begin loading it, then runs the page
// (page.js: app.js and the sections' scripts). Chromium starts loading a worker's script only after the task that
// created it has ended: created inside app.js, the worker waited for the whole evaluation of the page's code (the
// figures, the package, the sections: 0.5–1 s of a cold load's main thread, issue 34), and the first figure waited for
// the worker. Here its script loads and compiles on another thread meanwhile. page.js's chunks are fetched with the
// page (<link rel="modulepreload">, added by vite.config.js); the stylesheets are imported here so that they stay
// <link>s in the page's <head>.
import 'katex/dist/katex.min.css';
import './style.css';
import './page-worker.js';

await new Promise((resolve) => setTimeout(resolve, 0));   // the task ends: the worker's script load starts
import('./page.js');   // not awaited: toc.js (bundled into this file's chunk) runs now, not once the page is ready
