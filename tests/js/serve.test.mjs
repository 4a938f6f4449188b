// scripts/serve.mjs under hostile requests (127.0.0.1 only): malformed percent-encoding → 400, traversal refused,
// malformed HTTP answered, and the server still answers after 10^4 malformed requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { serve, fileFor } from '../../scripts/serve.mjs';

// A root with one page, and a secret beside it (outside the root) that no URL may reach.
const dir = mkdtempSync(join(tmpdir(), 'posenc-serve-'));
const root = join(dir, 'site');
mkdirSync(root);
writeFileSync(join(root, 'index.html'), '<!doctype html><title>ok</title>');
writeFileSync(join(dir, 'secret.txt'), 'SECRET');
mkdirSync(join(dir, 'site-evil'));
writeFileSync(join(dir, 'site-evil', 'x.txt'), 'SECRET');

let server, port;
const agent = new Agent({ keepAlive: true, maxSockets: 8 });
before(async () => { server = await serve(0, root); port = server.address().port; });
after(() => { agent.destroy(); server.close(); rmSync(dir, { recursive: true, force: true }); });

/** GET with the request target sent verbatim (no client-side normalisation). */
function get(path, method = 'GET') {
  return new Promise((ok, ko) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => ok({ status: res.statusCode, body }));
    });
    req.on('error', ko);
    req.end();
  });
}

/** Raw bytes on a fresh socket; resolves with whatever comes back before the server closes. */
function raw(bytes) {
  return new Promise((ok, ko) => {
    const s = connect(port, '127.0.0.1', () => s.end(bytes));
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (c) => { got += c; });
    s.on('close', () => ok(got));
    s.on('error', ko);
  });
}

test('malformed percent-encoding answers 400 and the server stays up', async () => {
  for (const p of ['/%', '/%c0%ae', '/%E0%A4%A', '/a%zz', '/%ff%fe', '/%00', '/index.html%00.js']) {
    const r = await get(p);
    assert.equal(r.status, 400, p);
  }
  assert.equal((await get('/')).status, 200);
});

test('path traversal never reaches a file outside the root', async () => {
  const attempts = ['/../secret.txt', '/../../secret.txt', '/%2e%2e/secret.txt', '/%2e%2e%2fsecret.txt', '/..%2fsecret.txt',
    '/..%5csecret.txt', '/./../secret.txt', '/../site-evil/x.txt', '/%2e%2e/site-evil/x.txt', '//../secret.txt',
    '/.%2e/.%2e/secret.txt', `/${'../'.repeat(20)}etc/passwd`];
  for (const p of attempts) {
    const r = await get(p);
    assert.ok([400, 403, 404].includes(r.status), `${p} → ${r.status}`);
    assert.ok(!r.body.includes('SECRET') && !r.body.includes('root:'), p);
  }
  // The pure function: a URL whose decoded path leaves the root is 403 (the URL parser itself folds `/%2e%2e/`).
  assert.deepEqual(fileFor(root, '/%2e%2e/secret.txt'), { file: join(root, 'secret.txt') });
  assert.equal(fileFor('/r/site', '/%2e%2e%2f..%2fetc/passwd').status, 403);  // encoded slashes decode to ../../
  assert.equal(fileFor('/r/site', '/a/..%2f..%2f..%2fsite-x/y').status, 403);
  assert.equal(fileFor(root, '/').file, join(root, 'index.html'));
  assert.equal(fileFor(root, '/%').status, 400);
});

test('other methods, directories and malformed HTTP get an answer', async () => {
  assert.equal((await get('/', 'POST')).status, 405);
  assert.equal((await get('/', 'HEAD')).status, 200);
  assert.equal((await get('/nope')).status, 404);
  assert.match(await raw('GARBAGE\r\n\r\n'), /^HTTP\/1\.1 400/);
  assert.match(await raw(`GET /${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\nX: ${'b'.repeat(20000)}\r\n\r\n`), /^HTTP\/1\.1 (400|431)/);
  assert.equal((await get('/')).status, 200);
});

test('10^4 malformed requests, then the server still answers', async () => {
  const bad = ['/%', '/%c0%ae', '/%zz', '/../secret.txt', '/%00', '/%E0%A4%A'];
  const counts = {};
  let i = 0;
  const worker = async () => {
    while (i < 10000) {
      const r = await get(bad[i++ % bad.length]);
      counts[r.status] = (counts[r.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  assert.equal(Object.values(counts).reduce((a, b) => a + b, 0), 10000);
  assert.ok(Object.keys(counts).every((s) => ['400', '403', '404'].includes(s)), JSON.stringify(counts));
  const r = await get('/');
  assert.equal(r.status, 200);
  assert.match(r.body, /<title>ok<\/title>/);
});
