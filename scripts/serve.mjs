// Static server for the built site (build/site, made by scripts/build.sh from web/site with Vite).
// Usage: node scripts/serve.mjs [port]   (port 0 picks a free one). Also imported by the end-to-end tests.
// Every response carries the site's strict Content-Security-Policy (web/site/csp.js: no 'unsafe-eval', no inline
// script but land.js, same origin only) as a header — unless serve(port, root, { csp: false }): the pages' own <meta> alone.
// Hostile requests get an answer, never a crash: a URL that does not decode (`/%`, `/%c0%ae`) or holds a NUL byte → 400,
// a path outside the root → 403, a method other than GET/HEAD → 405, anything unexpected → 500.
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP } from '../web/site/csp.js';   // the same policy as the pages' own <meta>

const ROOT = resolve(fileURLToPath(new URL('../build/site', import.meta.url)));
// The real models and text (third-party, never in the site or the repository): /models/ is ../shared/models where that
// folder exists (POSENC_SHARED overrides the folder holding models/), so the real-model figures load them locally.
const MODELS = resolve(process.env.POSENC_SHARED ?? fileURLToPath(new URL('../../shared', import.meta.url)), 'models');
const hasModels = existsSync(resolve(MODELS, 'README.md'));   // announced to the pages (x-posenc-models) only when there
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf' };

/** The file under `root` a request URL names, or the HTTP status that refuses it. */
export function fileFor(root, url) {
  let path;
  try {
    path = decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return { status: 400 };  // malformed percent-encoding or an unparsable URL
  }
  if (path.includes('\0')) return { status: 400 };
  const file = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
  if (!file.startsWith(root + sep)) return { status: 403 };
  return { file };
}

export function serve(port = 8080, root = ROOT, { csp = true } = {}) {
  root = resolve(root);
  const policy = csp ? { 'content-security-policy': CSP } : {};
  const answer = (res, status, text) => {
    if (res.headersSent) { res.destroy(); return; }
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...policy }).end(text);
  };
  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') { answer(res, 405, 'method not allowed'); return; }
      const models = (req.url ?? '').startsWith('/models/');
      const { file, status } = models ? fileFor(MODELS, (req.url ?? '').slice('/models'.length)) : fileFor(root, req.url ?? '/');
      if (!file) { answer(res, status, status === 400 ? 'bad request' : 'forbidden'); return; }
      let body;
      try {
        body = await readFile(file);
      } catch {
        answer(res, 404, 'not found');
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        ...policy, 'cache-control': 'no-cache', ...(extname(file) === '.html' && hasModels ? { 'x-posenc-models': '/models/' } : {}) });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      answer(res, 500, 'internal error');
    }
  });
  // Malformed HTTP (bad request line, oversized headers): answer 400 and close, as Node does without a handler.
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? process.env.PORT ?? 8080));
  console.log(`posenc site: http://127.0.0.1:${server.address().port}/  (serving ${ROOT})`);
}
