// Static servers for the figure tests: the npm package's dist/ under a sub-path, test pages, an optional strict
// Content-Security-Policy and CORS (the "CDN" case: the package served from a second origin).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.json': 'application/json', '.map': 'application/json', '.css': 'text/css', '.svg': 'image/svg+xml' };
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; style-src 'self'";

/**
 * Serves `mounts` ({'/prefix/': folder}), `pages` ({'/path': html}) and `files` ({'/path.css': text}); `headers(path)`
 * adds response headers.
 * Resolves to {server, origin}.
 */
export function serveStatic({ mounts = {}, pages = {}, files = {}, headers = () => ({}) }) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    const h = { 'cache-control': 'no-cache', ...headers(path) };
    if (path === '/favicon.ico') { res.writeHead(204).end(); return; }
    if (pages[path] !== undefined) { res.writeHead(200, { 'content-type': TYPES['.html'], ...h }).end(pages[path]); return; }
    if (files[path] !== undefined) { res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/plain', ...h }).end(files[path]); return; }
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!path.startsWith(prefix)) continue;
      const root = resolve(dir), file = join(root, path.slice(prefix.length));
      if (!file.startsWith(root)) break;
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', ...h }).end(body);
        return;
      } catch { break; }
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}
