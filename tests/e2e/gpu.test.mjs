// The package's WebGPU backend in headless Chromium, twice: with --enable-unsafe-webgpu (a SwiftShader adapter: the
// GPU backend must compute) and without (navigator.gpu exists but has no adapter: the wasm fallback must compute, with
// results identical to the wasm path in Node). Both runs' results are compared with Node's wasm results.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import init from 'posenc';
import { CHROMIUM_ARGS } from './browser.mjs';

const root = new URL('../../dist/', import.meta.url);
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
let server, base;

before(async () => {
  // The built package (dist/) and an empty page, same origin.
  server = createServer(async (req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>posenc gpu</title>');
    try {
      if (!path.startsWith('/dist/') || path.includes('..')) throw new Error('not found');
      const body = await readFile(new URL(path.slice('/dist/'.length), root));
      res.writeHead(200, { 'content-type': TYPES[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

// Fixed inputs: what the page computes, in order (the page returns each result's values and backend).
const WORK = [
  ['ropeInnerProductSweep', { q: 'random', k: 'random', seed: 3, head_dim: 128, layout: 'half_split', k_start: 1000, count: 70000 }],
  ['ropeTables', { rotary_dim: 64, positions: 5000, rope_theta: 500000 }],
  ['sinusoidal', { positions: 3000, d: 33, layout: 'concatenated' }],
  ['attentionScores', { seq: 300, head_dim: 32, causal: true, rope: { rope_theta: 10000 } }],
];

async function inBrowser(args) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/`);
    const out = await page.evaluate(async (work) => {
      const { default: init } = await import('/dist/index.js');
      const adapter = await navigator.gpu?.requestAdapter();
      const gpu = (await init({ gpu: adapter ? 'require' : 'auto' })).gpu;
      const vec = (n, s) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + s) * 0.5);
      const results = [];
      for (const [name, o] of work) {
        const opts = name === 'attentionScores' ? { ...o, q: vec(o.seq * o.head_dim, 1), k: vec(o.seq * o.head_dim, 2) } : o;
        const r = await gpu[name](opts);
        const v = r.values instanceof Float32Array ? [r.values] : [r.values.cos, r.values.sin];
        results.push({ backend: r.backend, values: v.map((a) => Array.from(a, (x) => (x === -Infinity ? 'ninf' : x))) });
      }
      // the default policy ('auto'): GPU from the crossover measured on this adapter
      const auto = (await init()).gpu;
      const a = await auto.ropeInnerProductSweep(work[0][1]);
      const cal = await auto.calibration('sweep');
      return { hasNavigatorGpu: 'gpu' in navigator, adapter: Boolean(adapter), available: gpu.available, name: gpu.adapter, results,
        auto: { backend: a.backend, crossover: cal && cal.crossover } };
    }, WORK);
    assert.deepEqual(errors, []);
    return out;
  } finally {
    await browser.close();
  }
}

/** Node's wasm results for WORK, flattened like the page's. */
async function wasmResults() {
  const pe = await init();
  const vec = (n, s) => Float32Array.from({ length: n }, (_, i) => Math.sin(i * 12.9898 + s) * 0.5);
  return WORK.map(([name, o]) => {
    const r = pe[name](name === 'attentionScores' ? { ...o, q: vec(o.seq * o.head_dim, 1), k: vec(o.seq * o.head_dim, 2) } : o);
    return (r instanceof Float32Array ? [r] : [r.cos, r.sin]).map((a) => Array.from(a, (x) => (x === -Infinity ? 'ninf' : x)));
  });
}

const noGpuArgs = CHROMIUM_ARGS;
const gpuArgs = [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), '--enable-unsafe-webgpu'];

test('Chromium without --enable-unsafe-webgpu: navigator.gpu has no adapter, the wasm fallback computes, identical to wasm in Node', async () => {
  const page = await inBrowser(noGpuArgs);
  assert.equal(page.adapter, false);
  assert.equal(page.available, false);
  const wasm = await wasmResults();
  for (const [i, r] of page.results.entries()) {
    assert.equal(r.backend, 'wasm', WORK[i][0]);
    assert.deepEqual(r.values, wasm[i], `${WORK[i][0]}: identical to the wasm path`);
  }
  assert.deepEqual(page.auto, { backend: 'wasm', crossover: null });
});

test('Chromium with --enable-unsafe-webgpu: a (SwiftShader) adapter, the GPU backend computes, within each function\'s tolerance of wasm', async () => {
  const page = await inBrowser(gpuArgs);
  assert.equal(page.adapter, true, 'the flag gives an adapter');
  assert.equal(page.available, true);
  console.log(`# adapter: ${page.name}; auto policy: sweep crossover ${page.auto.crossover} multiply-adds → ${page.auto.backend}`);
  const work = WORK[0][1].count * WORK[0][1].head_dim / 2;
  assert.equal(page.auto.backend, work >= page.auto.crossover ? 'webgpu' : 'wasm', 'auto follows the measured crossover');
  const wasm = await wasmResults();
  // sweep: Σ|h_i| ≤ 128 and |value| ≤ 128 here (|q_c|, |k_c| ≤ 1): the GPU bound 2.5e-7·(Σ|h_i| + |value|) plus the
  // wasm path's 1e-5·Σ|h_i|; tables 1e-6; scores (probabilities) 1e-6
  const tol = [2.5e-7 * 256 + 1e-5 * 128, 1e-6, 1e-6, 1e-6];
  for (const [i, r] of page.results.entries()) {
    assert.equal(r.backend, 'webgpu', WORK[i][0]);
    let worst = 0;
    r.values.forEach((a, j) => a.forEach((x, e) => {
      const y = wasm[i][j][e];
      if (x === 'ninf' || y === 'ninf') assert.equal(x, y);
      else worst = Math.max(worst, Math.abs(x - y));
    }));
    assert.ok(worst <= tol[i], `${WORK[i][0]}: ${worst} > ${tol[i]}`);
  }
});

test('the site\'s long decay sweep runs through pe.gpu and its figure says which backend computed it (wasm here: no adapter)', async () => {
  const { openPage } = await import('./browser.mjs');
  const { page, errors, close } = await openPage('/');
  try {
    await page.$eval('#rope-decay', (el) => el.scrollIntoView());
    await page.waitForFunction(() => document.querySelector('#rope-decay')?.shadowRoot?.querySelector('.status')?.dataset.state === 'done', null, { timeout: 60000 });
    const [status, badge] = await page.$eval('#rope-decay', (el) => [el.shadowRoot.querySelector('.status').textContent,
      el.shadowRoot.querySelector('.backend').textContent]);
    assert.match(status, /distances × \d+ curve\(s\) in \d+ ms$/);
    assert.equal(badge, 'computed by wasm');
    // only this figure's errors: other sections' page errors are the site tests' business
    assert.deepEqual(errors.filter((e) => /gpu|decay|sweep/i.test(e)), []);
  } finally {
    await close();
  }
});
