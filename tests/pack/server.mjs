// Static servers for the consumer pages. A server maps URL paths to files through `route(path)`, which returns
// { file, headers } or null (404); the MIME types are those a plain static host sends.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.json': 'application/json', '.css': 'text/css', '.map': 'application/json' };

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self'";
export const CSP_WITHOUT_WASM = "default-src 'self'; script-src 'self'; worker-src 'self' blob:; style-src 'self'";

/** Files under `root`, at `/path` (index.html for folders). */
export const files = (root) => (path) => ({ file: join(root, path.endsWith('/') ? `${path}index.html` : path), headers: {} });

/**
 * The blog host: `/<mode>/<path>` serves `<root>/<path>`, where mode is
 *   plain       as is;
 *   csp         with the strict Content-Security-Policy of issue 11 (`CSP`);
 *   csp-nowasm  the same policy without 'wasm-unsafe-eval';
 *   missing     every .wasm answers 404;
 *   html        every .wasm answers an HTML page with status 200 (a single-page-app fallback).
 */
export const modes = (root) => (path) => {
  const [, mode, rest] = path.match(/^\/([^/]+)(\/.*)$/) ?? [];
  const r = files(root)(rest ?? '/');
  const wasm = extname(r.file) === '.wasm';
  if (mode === 'plain') return r;
  if (mode === 'csp') return { ...r, headers: { 'content-security-policy': CSP } };
  if (mode === 'csp-nowasm') return { ...r, headers: { 'content-security-policy': CSP_WITHOUT_WASM } };
  if (mode === 'missing') return wasm ? null : r;
  if (mode === 'html') return wasm ? { body: '<!doctype html><title>Blog</title><p>Page not found', type: '.html', headers: {} } : r;
  return null;
};

export function serve(route) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const r = route(path);
    try {
      if (!r) throw new Error('no route');
      const body = r.body ?? await readFile(r.file);
      res.writeHead(200, { 'content-type': TYPES[r.type ?? extname(r.file)] ?? 'application/octet-stream', ...r.headers });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}
