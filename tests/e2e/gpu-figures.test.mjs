// The figures that run long sweeps through pe.gpu (rope-decay, su-decay, context-extension, the explorer's long-context
// view), as a user gets them
// (dist/figures.js + its worker, strict CSP), in headless Chromium twice: with --enable-unsafe-webgpu (a SwiftShader
// adapter, reached from the figures' worker) and without (no adapter). Checked: the badge names the backend the
// results report; `backend="webgpu"` and `backend="wasm"` give the same CSV within the GPU functions' stated
// tolerances; without an adapter every figure is computed by wasm and holds exactly the wasm API's numbers (as before);
// changing a control mid-sweep aborts the old sweep and only the new state is drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import init from 'posenc';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic, STRICT_CSP } from './figures-server.mjs';
import { csvRows } from './csv.mjs';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const pe = await init();
let server;
before(async () => {
  const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="./pkg/figures.js"></script></head><body>${body}</body></html>`;
  server = await serveStatic({ mounts: { '/pkg/': dist }, pages: { '/fig.html': page('') },
    headers: () => ({ 'content-security-policy': STRICT_CSP }) });
});
after(() => server?.server.close());

// Each figure's parameters here, and the tolerance between its WebGPU and wasm numbers, per panel and series, from the
// TSDoc of the pe.gpu functions it calls: sweeps within 2.5e-7·(Σ|h_i| + |value|) of float64 and the wasm sweep within
// 1e-5·Σ|h_i| (q = k = ones: Σ|h_i| = d, |value| ≤ d); Su's bound within 1e-5·(d/2) on both paths.
const d = 128;
const SWEEP = 2.5e-7 * (d + d) + 1e-5 * d, BOUND = 2 * 1e-5 * (d / 2);
const FIGURES = {
  'rope-decay': { attrs: { window: 16384, d, base2: 0 },
    // bound series: max|Δh|·(d/2)·avg with max|Δh| = 2 for ones
    tol: (panel, series) => (panel === 'bound' && series.startsWith('bound') ? 2 * (d / 2) * BOUND : SWEEP) },
  'su-decay': { attrs: { rotary_dim: d, count: 4096 }, tol: () => BOUND },
  // the decay panels: means of score/d over windows, each within the sweep's tolerance / d
  'context-extension': { attrs: { rotary_dim: d, factor: 8 }, tol: (panel) => (panel.startsWith('decay-') ? SWEEP / d : 0) },
  // the long-context matrix: log10 of probabilities, which pe.gpu.attentionScores states within 1e-6 (compared as such);
  // the engine's panels are wasm in both runs (identical), so the badge says both backends
  explorer: { attrs: { length: 1024 }, tol: () => 1e-6, value: (panel, v) => (panel === 'long' ? 10 ** v : v), badge: 'mixed' },
};

const gpuArgs = [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), '--enable-unsafe-webgpu'];

async function withFigurePage(args, body) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args });
  const errors = [];
  try {
    const p = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    p.on('pageerror', (e) => errors.push(String(e)));
    await p.goto(`${server.origin}/fig.html`);
    await body(p);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
}

/** Sets the figure's attributes (all at once; the first call adds it) and waits until painted: { badge: [data-backend, text], csv }. */
const show = (p, attrs) => p.evaluate(async (a) => {
  const el = document.querySelector('#f') ?? Object.assign(document.createElement('posenc-figure'), { id: 'f' });
  for (const [k, v] of Object.entries(a)) el.setAttribute(k, String(v));
  if (!el.isConnected) document.body.append(el);
  await el.ready;
  const b = el.shadowRoot.querySelector('.backend');
  return { badge: b.hidden ? null : [b.dataset.backend, b.textContent], csv: el.toCSV() };
}, attrs);

/** The CSV's numbers (as value(panel, number)) must agree row by row within tol(panel, series); everything else identically. */
function assertClose(csvA, csvB, tol, what, value = (panel, v) => v) {
  const a = csvRows(csvA), b = csvRows(csvB);
  assert.equal(a.length, b.length, `${what}: rows`);
  let worst = 0;
  a.forEach((r, i) => {
    const s = b[i], t = tol(r.panel, r.series);
    for (const k of ['panel', 'series', 'row', 'col', 'x']) assert.equal(r[k], s[k], `${what}: row ${i} ${k}`);
    for (const k of ['value', 'band_min', 'band_max']) {
      if (r[k] === s[k]) continue;
      const e = Math.abs(value(r.panel, Number(r[k])) - value(r.panel, Number(s[k])));
      assert.ok(e <= t, `${what}: row ${i} (${r.panel}, ${r.series}) ${k}: |${r[k]} − ${s[k]}| = ${e} > ${t}`);
      worst = Math.max(worst, e / t);
    }
  });
  return worst;
}

test('with WebGPU (SwiftShader): backend="webgpu" paints and its badge says WebGPU; its CSV = the wasm-forced CSV within the stated tolerance', async () => {
  await withFigurePage(gpuArgs, async (p) => {
    for (const [figure, { attrs, tol, value, badge }] of Object.entries(FIGURES)) {
      const g = await show(p, { figure, ...attrs, backend: 'webgpu' });
      assert.deepEqual(g.badge, badge === 'mixed' ? ['mixed', 'computed by WebGPU and wasm'] : ['webgpu', 'computed by WebGPU'], figure);
      assert.match(g.csv, new RegExp(`^# computed by: ${badge ?? 'webgpu'}$`, 'm'));
      assert.equal(await p.$eval('#f', (el) => el.engine), 'worker', 'WebGPU reached from the figures\' worker');
      const w = await show(p, { backend: 'wasm' });
      assert.deepEqual(w.badge, ['wasm', 'computed by wasm'], figure);
      const worst = assertClose(g.csv, w.csv, tol, figure, value);
      console.log(`# ${figure}: WebGPU vs wasm, worst difference ${worst.toFixed(3)}× the tolerance`);
      // auto: the backend the crossover measured on this adapter picks; the numbers are that backend's
      const a = await show(p, { backend: 'auto' });
      assert.ok(a.badge, figure);
      a.badge[0] = a.badge[0] === 'mixed' ? 'webgpu' : a.badge[0];
      assert.equal(csvRows(a.csv).map((r) => r.value).join(), csvRows((a.badge[0] === 'wasm' ? w : g).csv).map((r) => r.value).join(), `${figure}: auto = ${a.badge[0]}`);
      for (const k of Object.keys(attrs)) await p.$eval('#f', (el, n) => el.removeAttribute(n), k);
    }
    const zh = await show(p, { figure: 'su-decay', lang: 'zh', backend: 'webgpu' });
    assert.deepEqual(zh.badge, ['webgpu', '由 WebGPU 计算']);
    assert.deepEqual((await show(p, { backend: 'wasm' })).badge, ['wasm', '由 wasm 计算']);
  });
});

for (const [name, args, backend] of [['with WebGPU', gpuArgs, 'webgpu'], ['without WebGPU (wasm, in steps of 2^15 distances)', CHROMIUM_ARGS, 'wasm']]) {
  test(`${name}: changing a control mid-sweep aborts the old sweep (AbortSignal) and only the new state is drawn`, async () => {
    await withFigurePage(args, async (p) => {
      // one sweep (one base, no bound): progress strictly between 0 and 1 comes from inside that pe.gpu call
      const fresh = await show(p, { figure: 'rope-decay', d: 512, base2: 0, bound: false, window: 4096, backend });
      const aborted = await p.$eval('#f', (el) => {
        const bar = el.shadowRoot.querySelector('progress');
        window.seen = [];
        new MutationObserver(() => window.seen.push(bar.value)).observe(bar, { attributes: true, attributeFilter: ['value'] });
        const before = el.aborted;
        el.setAttribute('window', '1048576');   // 2^20 distances × 256 frequencies
        return before;
      });
      await p.waitForFunction(() => window.seen.some((v) => v > 0 && v < 1), null, { timeout: 60000 });
      const now = await show(p, { window: 4096 });
      await p.waitForFunction((n) => document.querySelector('#f').aborted > n, aborted, { timeout: 60000 });
      await new Promise((r) => setTimeout(r, 1000));   // a sweep that was not stopped would paint over it by now
      const later = await p.$eval('#f', (el) => [el.toCSV(), el.shadowRoot.querySelector('.status').dataset.state]);
      assert.equal(later[1], 'done');
      for (const csv of [now.csv, later[0]]) assert.equal(csv, fresh.csv, 'the 4096-distance state, not the superseded 2^20 one');
      assert.deepEqual(now.badge, backend === 'webgpu' ? ['webgpu', 'computed by WebGPU'] : ['wasm', 'computed by wasm']);
    });
  });
}

test('without WebGPU: every such figure is computed by wasm (auto or forced), badge says wasm, numbers exactly the wasm API\'s', async () => {
  const env = (v) => pe.envelope(v, Math.min(900, v.length));
  const sweep = (o) => pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: d, ...o });
  const expect = {
    'rope-decay': (rows) => {
      const e = env(sweep({ rope_theta: 10000, count: 16384 }));
      // the drawn line is the envelope's maximum; the band spans minimum … maximum
      assert.deepEqual(rows.filter((r) => r.panel === 'plot').map((r) => [Number(r.value), Number(r.band_min), Number(r.band_max)]), Array.from(e.min, (v, i) => [e.max[i], v, e.max[i]]));
    },
    'su-decay': (rows) => assert.deepEqual(rows.map((r) => Number(r.value)), Array.from(pe.ropeDecayBound({ rotary_dim: d, rope_theta: 10000, count: 4096 }))),
    'context-extension': (rows) => {
      const inv = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: d, rope_theta: 10000, factor: 8, original_max_position_embeddings: 4096 }).inv_freq;
      // YaRN's small panel, on a log axis: score/d at distances 1…16, then its mean over windows 8 to an octave,
      // [⌈2^(j/8)⌉, ⌈2^((j+1)/8)⌉) from 17 on, up to the target length
      const n = 4096 * 8, v = sweep({ inv_freq: inv, count: n }), e = [];
      for (let i = 1; i <= 16; i++) e.push(v[i] / d);
      for (let j = Math.round(Math.log2(17) * 8); ; j++) {
        const lo = Math.max(17, Math.ceil(2 ** (j / 8))), hi = Math.min(n, Math.ceil(2 ** ((j + 1) / 8)));
        if (lo >= n) break;
        if (hi <= lo) continue;
        let t = 0;
        for (let i = lo; i < hi; i++) t += v[i];
        e.push(t / d / (hi - lo));
      }
      assert.deepEqual(rows.filter((r) => r.panel === 'decay-yarn' && r.series === 'YaRN').map((r) => Number(r.value)), e);
    },
    explorer: (rows) => {
      // the head's projections of the text repeated to 1024 tokens, causal RoPE attention, max of each 4×4 block, log10
      const n = 1024, t = pe.textQKV({ text: 'the cat chased the mouse under the old table', heads: 4, head_dim: 32, seed: 0 }), m = t.tokens.length;
      const rows4 = (x) => Float32Array.from({ length: n * 32 }, (_, i) => x[(Math.floor(i / 32) % m) * 4 * 32 + (i % 32)]);
      const pr = pe.attentionScores({ q: rows4(t.q), k: rows4(t.k), seq: n, head_dim: 32, causal: true, rope: { rope_theta: 10000 } });
      const pooled = new Float32Array(256 * 256);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) pooled[(i >> 2) * 256 + (j >> 2)] = Math.max(pooled[(i >> 2) * 256 + (j >> 2)], pr[i * n + j]);
      assert.deepEqual(rows.filter((r) => r.panel === 'long').map((r) => Number(r.value)), Array.from(pooled.map(Math.log10)));  // float32, as the figure's
    },
  };
  await withFigurePage(CHROMIUM_ARGS, async (p) => {
    for (const [figure, { attrs }] of Object.entries(FIGURES)) {
      const a = await show(p, { figure, ...attrs });
      assert.deepEqual(a.badge, ['wasm', 'computed by wasm'], figure);
      expect[figure](csvRows(a.csv));
      const forced = await show(p, { backend: 'webgpu' });   // asked for, unavailable: wasm, and the badge says so
      assert.deepEqual(forced.badge, ['wasm', 'computed by wasm'], figure);
      assert.equal(forced.csv.replace('backend=webgpu', 'backend=auto'), a.csv, figure);
      await p.$eval('#f', (el, names) => { for (const n of [...names, 'backend']) el.removeAttribute(n); }, Object.keys(attrs));
    }
  });
});
