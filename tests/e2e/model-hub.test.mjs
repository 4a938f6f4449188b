// Loading a model from the Hugging Face Hub as a published page does, against stand-ins for the Hub's servers (no
// network here): `hf:owner/name/file` → GET {hub}/owner/name/resolve/main/file, answered as huggingface.co answers a
// file kept on its CDN — 302 to another origin — and that origin serves the bytes; both send CORS headers, as the Hub
// does. In Chromium, from a page on a third origin with the site's CSP-free test page, and in Node; the `hub` option
// (a mirror such as hf-mirror.com) is the stand-in's address. A 401 (gated model) and an unreachable hub name the fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import init from 'posenc';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';
import { GGUF_260K } from '../js/real-models.mjs';

const bytes = readFileSync(GGUF_260K);
const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'content-length' };
const log = [];
let hub, cdn, page, browser, server, origin;
const listen = (s) => new Promise((ok) => s.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${s.address().port}`)));

before(async () => {
  cdn = createServer((req, res) => {
    log.push(`cdn ${req.url}`);
    if (req.url.startsWith('/blob/')) res.writeHead(200, { ...CORS, 'content-type': 'application/octet-stream', 'content-length': bytes.length }).end(bytes);
    else res.writeHead(404, CORS).end();
  });
  const cdnUrl = await listen(cdn);
  hub = createServer((req, res) => {
    log.push(`hub ${req.url}`);
    if (req.url === '/karpathy/tinyllamas/resolve/main/stories260K.gguf') res.writeHead(302, { ...CORS, location: `${cdnUrl}/blob/abc` }).end();
    else if (req.url.startsWith('/gated/')) res.writeHead(401, CORS).end();
    else res.writeHead(404, CORS).end();
  });
  hub.url = await listen(hub);
  ({ server, origin } = await serveStatic({ mounts: { '/dist/': new URL('../../dist/', import.meta.url).pathname }, pages: { '/': '<!doctype html><title>hub</title>' } }));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  page = await browser.newPage();
  await page.goto(`${origin}/`);
});
after(async () => { await browser?.close(); server?.close(); hub?.close(); cdn?.close(); });

test('in a page: hf:owner/name/file through the hub\'s redirect to its CDN, cross-origin; the model runs', async () => {
  const r = await page.evaluate(async (h) => {
    const { default: init } = await import('/dist/index.js');
    const pe = await init();
    const lm = await pe.loadModel('hf:karpathy/tinyllamas/stories260K.gguf', { hub: h, trained_context: 512 });
    const ids = lm.encode('Once upon a time, there was a little dog.');
    const ev = await lm.evaluate({ ids });
    const gated = await pe.loadModel('hf:gated/model/model.gguf', { hub: h }).then(() => 'loaded', (e) => e.message);
    return { params: lm.n_params, first: ev.nll[0], gated };
  }, hub.url);
  assert.equal(r.params, 292800);
  const pe = await init(), lm = await pe.loadModel(GGUF_260K);
  assert.equal(r.first, (await lm.evaluate({ ids: lm.encode('Once upon a time, there was a little dog.') })).nll[0]);
  assert.match(r.gated, /HTTP 401 \(a gated or private model: download it and pass the file\)/);
  assert.ok(log.includes('hub /karpathy/tinyllamas/resolve/main/stories260K.gguf') && log.includes('cdn /blob/abc'), log.join(', '));
});

test('in Node: the same source and hub; a bad hub option and an unreachable hub are PosencErrors that say why', async () => {
  const pe = await init();
  const lm = await pe.loadModel('hf:karpathy/tinyllamas/stories260K.gguf', { hub: `${hub.url}/` });
  assert.equal(lm.n_params, 292800);
  await assert.rejects(pe.loadModel('hf:karpathy/tinyllamas/stories260K.gguf', { hub: 'hf-mirror.com' }), /hub: must be an http\(s\) URL such as https:\/\/hf-mirror\.com \(got 'hf-mirror\.com' \(a string\)\)/);
  await assert.rejects(pe.loadModel('hf:a/b/c.gguf', { hub: 'http://127.0.0.1:9' }), /source: could not fetch http:\/\/127\.0\.0\.1:9\/a\/b\/resolve\/main\/c\.gguf .*offline/);
  await assert.rejects(pe.loadModel('hf:a/b/c.gguf', { mirror: 'x' }), /options\.mirror: unknown option \(trained_context, onProgress, hub\)/);
});
