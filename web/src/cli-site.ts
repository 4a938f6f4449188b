// `npx posenc site [--port N] [--host H]`: serves the explainer (dist/site: the built site, its embed.html and gallery
// included; a self-contained static folder that any static host also serves as it is) from the installed package, offline, on http://127.0.0.1:8080/ by default. Runs until stopped (Ctrl+C).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';

export const SITE_USAGE: string = `usage: posenc site [--port N] [--host H]

  serves the explainer site from this package (index.html, embed.html, gallery.html), offline
  --port <n>              the port (default 8080; 0: any free port)
  --host <h>              the address to listen on (default 127.0.0.1; 0.0.0.0 for the whole network)`;

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', mjs: 'text/javascript', css: 'text/css',
  wasm: 'application/wasm', json: 'application/json', svg: 'image/svg+xml', png: 'image/png', ico: 'image/x-icon', txt: 'text/plain', woff2: 'font/woff2' };

/** Runs `posenc site …` (argv without the command name): 2 for bad arguments; else serves and returns 0. */
export async function siteMain(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  let port = 8080, host = '127.0.0.1';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = argv[i + 1];
    if (a === '--help' || a === '-h') { out(SITE_USAGE); return 0; }
    if ((a === '--port' || a === '--host') && v === undefined) { err(`posenc: ${a}: needs a value\n${SITE_USAGE}`); return 2; }
    if (a === '--port') {
      port = Number(v); i++;
      if (!Number.isInteger(port) || port < 0 || port > 65535) { err(`posenc: --port: must be an integer from 0 to 65535 (got '${v}')\n${SITE_USAGE}`); return 2; }
    } else if (a === '--host') { host = v; i++; } else { err(`posenc: site: unknown argument '${a}'\n${SITE_USAGE}`); return 2; }
  }
  const root = new URL('./site/', import.meta.url);
  try { await readFile(new URL('index.html', root)); } catch {
    err('posenc: this copy of the package has no site (dist/site/index.html): build it with npm run build'); return 2;
  }
  const server = createServer(async (req, res) => {
    let path: string;
    try { path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname); } catch { res.writeHead(400).end(); return; }
    if (path.endsWith('/')) path += 'index.html';
    const file = new URL(`.${path}`, root);
    if (!file.href.startsWith(root.href) || path.includes('\0')) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.split('.').pop() ?? ''] ?? 'application/octet-stream', 'cache-control': 'no-cache' }).end(body);
    } catch { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); }
  });
  return new Promise((resolve) => {
    server.on('error', (e: Error & { code?: string }) => {
      err(`posenc: cannot listen on ${host}:${port} (${e.code === 'EADDRINUSE' ? 'the port is in use: pass --port N' : e.message})`); resolve(2);
    });
    server.listen(port, host, () => {
      out(`posenc: the explainer at http://${host}:${server.address().port}/ (also embed.html, gallery.html); Ctrl+C stops`);
      resolve(0);
    });
  });
}
