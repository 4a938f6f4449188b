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
import('./toc.js');
import('./page.js');   // not awaited: toc.js runs first, not once the page is ready
