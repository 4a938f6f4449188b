// @ts-check
// The page's entry (index.html, an async module script): starts the page's worker, then, once the document is parsed,
// runs the table of contents (toc.js) and the page (page.js: app.js and the sections' scripts). Chromium starts
// loading a worker's script only after the task that created it has ended: created inside app.js, the worker waited
// for the whole evaluation of the page's code (the figures, the package, the sections: 0.5–1 s of a cold load's main
// thread, issue 34), and the first figure waited for the worker. Here it is created while the page still parses, and
// its script loads and compiles on another thread meanwhile. As an async script this module holds up neither the
// parsing nor DOMContentLoaded (a deferred one ran after the first layout of the whole page, and DOMContentLoaded came
// only after it). page.js's chunks are fetched with the page (<link rel="modulepreload">, added by vite.config.js);
// the stylesheets are imported here so that they stay <link>s in the page's <head>.
import 'katex/dist/katex.min.css';
import './style.css';
import './page-worker.js';
import { holdHash } from './hold-hash.js';

// the task ends (the worker's script load starts), and the page's code waits for the whole document
await new Promise((resolve) => {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', resolve, { once: true });
  else setTimeout(resolve, 0);
});
holdHash();   // a link's target stays in view while the page's code changes heights (hold-hash.js)
// The page paints first, its text and the first figure's picture (first-paint.js): evaluating the page's code is a long
// task, and run before those frames it held them back (the picture shown at 1.4–1.7 s at 390 px, 0.7 s after the
// text). Its chunks are on their way meanwhile (modulepreload): only their evaluation waits, for the picture on display
// to be decoded (at most 500 ms) and then one frame (at most 100 ms where no frame comes: a background tab).
const picture = [...document.querySelectorAll('picture.first-paint img')].find((i) => i.getClientRects().length > 0);
if (picture instanceof HTMLImageElement) await Promise.race([picture.decode().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 500))]);
await new Promise((resolve) => { requestAnimationFrame(() => setTimeout(resolve, 0)); setTimeout(resolve, 100); });
import('./toc.js');
import('./page.js');   // not awaited: toc.js runs first, not once the page is ready
