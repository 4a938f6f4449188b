// init({ threads: true }) in headless Chromium: a cross-origin-isolated page (COOP + COEP, and the strict CSP of the
// site) and a module worker on it load the threads build from dist/threads/ and compute the same floats as the
// default build; a page without isolation, and a wrong threadsUrl, get a PosencError and init() still works.
// The speed-up is printed, not asserted.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic, STRICT_CSP } from './figures-server.mjs';
import { MODELS } from '../js/real-models.mjs';

const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp',
  'content-security-policy': STRICT_CSP };
// The page's and the worker's check: both builds on the same inputs, every float compared with Object.is.
const CHECK = `
export async function check(init) {
  const one = await init(), many = await init({ threads: true });
  // Emscripten's worker pool (internal): its size after many calls shows whether workers leak
  const pool = () => many.raw.PThread.unusedWorkers.length + many.raw.PThread.runningWorkers.length;
  const poolAtStart = pool();
  const values = (n, s) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + s * 78.233) * 0.999);
  const seq = 2048, head_dim = 64, q = values(seq * head_dim, 1), k = values(seq * head_dim, 2);
  const calls = {
    ropeTables: (pe) => pe.ropeTables({ rotary_dim: 128, positions: 20000, rope_theta: 5e5 }).cos,
    sinusoidal: (pe) => pe.sinusoidal({ positions: 4096, d: 512 }),
    scores: (pe) => pe.attentionScores({ q, k, seq, head_dim, causal: true, softmax: true, rope: { rope_theta: 1e4 } }),
  };
  const differ = {};
  for (const [name, f] of Object.entries(calls)) {
    const a = f(one), b = f(many);
    let n = a.length === b.length ? 0 : -1;
    for (let i = 0; n >= 0 && i < a.length; i++) if (!Object.is(a[i], b[i])) n++;
    differ[name] = n;
  }
  // milliseconds, median of 7: attention scores 2048², d 128, causal softmax
  const Q = values(2048 * 128, 3), K = values(2048 * 128, 4);
  const time = (pe) => {
    const out = pe.alloc(Float32Array, 2048 * 2048), ts = [];
    for (let r = 0; r < 8; r++) {
      const t = performance.now();
      pe.attentionScores({ q: Q, k: K, seq: 2048, head_dim: 128, causal: true, softmax: true, out: out.array });
      ts.push(performance.now() - t);
    }
    out.free();
    return ts.slice(1).sort((x, y) => x - y)[3];
  };
  const ms = { one: time(one), threads: time(many) };
  return { isolated: crossOriginIsolated, threads: many.buildInfo().threads, one: one.buildInfo().threads,
    cores: navigator.hardwareConcurrency, differ, ms, pool: [poolAtStart, pool()] };
}`;
const WORKER = `import init from '/dist/index.js';
import { check } from '/check.js';
check(init).then((r) => postMessage(r), (e) => postMessage({ error: e.name + ': ' + e.message }));`;

let server, base, browser;
before(async () => {
  ({ server, origin: base } = await serveStatic({
    mounts: { '/dist/': fileURLToPath(new URL('../../dist/', import.meta.url)), '/models/': MODELS },
    pages: { '/iso/': '<!doctype html><title>threads</title>', '/plain/': '<!doctype html><title>plain</title>' },
    files: { '/check.js': CHECK, '/worker.js': WORKER },
    headers: (path) => (path.startsWith('/plain/') ? {} : ISOLATED),
  }));
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); server?.close(); });

async function open(path) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${base}${path}`);
  return { page, errors };
}

function assertSame(r, where) {
  assert.equal(r.error, undefined, `${where}: ${r.error}`);
  assert.equal(r.isolated, true, `${where}: crossOriginIsolated`);
  assert.equal(r.threads, Math.min(4, r.cores), `${where}: threads = min(4, navigator.hardwareConcurrency)`);
  assert.equal(r.one, 1, `${where}: the default build has 1 thread`);
  assert.deepEqual(r.differ, { ropeTables: 0, sinusoidal: 0, scores: 0 }, `${where}: floats that differ between the builds`);
  assert.ok(r.pool[0] >= r.threads - 1 && r.pool[1] === r.pool[0], `${where}: worker pool ${r.pool[0]} at start, ${r.pool[1]} after 11 split calls in a row`);
  console.log(`${where}: ${r.threads} threads; scores 2048², d 128, causal softmax: ${r.ms.one.toFixed(1)} ms → ` +
    `${r.ms.threads.toFixed(1)} ms with threads`);
}

test('a cross-origin-isolated page (strict CSP) runs the threads build: the same floats as the default build', async () => {
  const { page, errors } = await open('/iso/');
  const r = await page.evaluate(async () => (await import('/check.js')).check((await import('/dist/index.js')).default));
  assertSame(r, 'page');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a module worker of that page runs the threads build too (its pool of nested workers)', async () => {
  const { page, errors } = await open('/iso/');
  const r = await page.evaluate(() => new Promise((ok) => {
    const w = new Worker('/worker.js', { type: 'module' });
    w.onmessage = (e) => ok(e.data);
    w.onerror = (e) => ok({ error: e.message });
  }));
  assertSame(r, 'module worker');
  assert.deepEqual(errors, []);
  await page.close();
});

test('threads: true without isolation, or with a wrong threadsUrl: a PosencError naming the fix; init() still works', async () => {
  const { page, errors } = await open('/plain/');
  const plain = await page.evaluate(async () => {
    const { default: init } = await import('/dist/index.js');
    const r = await init({ threads: true }).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    return { isolated: crossOriginIsolated, r, after: (await init()).ropeTables({ rotary_dim: 4, positions: 2 }).cos.length };
  });
  assert.equal(plain.isolated, false);
  assert.match(plain.r, /^PosencError: threads: this page is not cross-origin isolated .*"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp"/);
  assert.equal(plain.after, 4);
  await page.close();

  const iso = await open('/iso/');
  const wrong = await iso.page.evaluate(async () => {
    const { default: init } = await import('/dist/index.js');
    const r = await init({ threads: true, threadsUrl: '/nowhere/' }).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    const bad = await init({ threads: true, threadsUrl: 42 }).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    const alone = await init({ threadsUrl: '/dist/threads/' }).then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
    return { r, bad, alone, after: (await init()).ropeTables({ rotary_dim: 4, positions: 2 }).cos.length };
  });
  assert.match(wrong.r, new RegExp(`^PosencError: threads: could not load ${base}/nowhere/posenc-threads\\.js .*dist/threads/ folder .*threadsUrl`));
  assert.match(wrong.bad, /^PosencError: threadsUrl: must be the URL of a folder .*\(got 42\)/);
  assert.equal(wrong.alone, 'PosencError: threadsUrl: only with threads: true');
  assert.equal(wrong.after, 4);
  // the failed import of /nowhere/posenc-threads.js is the one console error
  assert.deepEqual([...errors, ...iso.errors].filter((e) => !/nowhere\/posenc-threads\.js|404/.test(e)), []);
});

test('a real model on the threads build in the page: the same losses as the default build (every pool part > 64 rows)', { timeout: 180000 }, async () => {
  const { page, errors } = await open('/iso/');
  const r = await page.evaluate(async () => {
    const { default: init } = await import('/dist/index.js');
    const url = new URL('/models/stories260k/stories260K.gguf', location.href).href;
    const nll = async (pe) => {
      const lm = await pe.loadModel(url);
      const ids = Int32Array.from({ length: 300 }, (_, i) => 1 + ((i * 37) % 500));
      const ev = await lm.evaluate({ ids });
      lm.free();
      return Array.from(ev.nll.subarray(0, 299));
    };
    const many = await init({ threads: true });
    return { one: await nll(await init()), many: await nll(many) };
  });
  assert.deepEqual(r.many, r.one);
  assert.deepEqual(errors, []);
  await page.close();
});
