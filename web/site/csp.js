// The site's Content-Security-Policy, stated once for the two places that send it: a <meta http-equiv> in the <head>
// of every built page (so the policy holds on any static host, which adds no header of its own) and the header of
// scripts/serve.mjs. Directives:
//   default-src 'self'          everything (styles, fonts, the .wasm fetch, images) from the site's own origin only;
//   script-src 'self' 'wasm-unsafe-eval' 'sha256-…'   the page's own module files, and one inline script allowed by its
//                               hash (land.js: it must run while the page parses, before any file could have come);
//                               no other inline script, no eval, no other origin; WebAssembly may compile (the live
//                               numbers run the package on the main thread);
//   worker-src 'self' blob:     the page's worker; blob: for the figures' fallback (a blob: module that imports the
//                               worker when the worker file is on another origin, e.g. a CDN);
//   style-src 'self'            no 'unsafe-inline': KaTeX sets its inline sizes through the CSSOM (el.style.x = …) and
//                               the figures adopt constructable stylesheets, neither of which CSP restricts;
//   connect-src 'self' + the Hugging Face Hub   the real-model figures load their models from huggingface.co, which
//                               redirects downloads to its CDNs (*.huggingface.co, *.hf.co), where the site has no copy;
//   object-src 'none'; base-uri 'none'; form-action 'none'   no plugins, no <base> rewriting, no form submission.
// (frame-ancestors cannot be set from a <meta>: a host that wants it sends it as a header.)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** land.js as it goes inline: its code, without the comment block that opens the file. */
export const LAND = readFileSync(new URL('./land.js', import.meta.url), 'utf8').replace(/^(\/\/.*\n)+/, '').trim();
const landHash = `'sha256-${createHash('sha256').update(LAND).digest('base64')}'`;

export const CSP = `default-src 'self'; script-src 'self' 'wasm-unsafe-eval' ${landHash}; worker-src 'self' blob:; style-src 'self'; `
  + "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co; "
  + "object-src 'none'; base-uri 'none'; form-action 'none'";

/** Vite plugin: the policy as the first element of every built page's <head> (before any script or stylesheet), and
 * land.js right after it (before the style sheets: an inline script after them would wait for them) in the pages a
 * link points into (index.html, gallery.html): not in embed.html, which holds one figure and is framed by hosts whose
 * own policy, sent as a header, would refuse any inline script. */
export const cspMeta = {
  name: 'posenc-csp-meta',
  apply: 'build',          // the dev server injects inline code of its own (hot reload); the built site has none
  /** @param {string} _html @param {{ path: string }} ctx */
  transformIndexHtml: (_html, ctx) => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP }, injectTo: 'head-prepend' },
    ...(ctx.path.endsWith('/embed.html') ? [] : [{ tag: 'script', children: LAND, injectTo: 'head-prepend' }])],
};
