// First figure after a cold load (npm run bench): in headless Chromium, a fresh browser context (empty cache) opens the
// built site from the local server (scripts/serve.mjs, strict CSP, no compression); at DOMContentLoaded the page's first
// <posenc-figure> is scrolled into view, and the time is taken (performance.now(), from navigation start) at the first
// animation frame after that figure's `ready` settles — its canvas painted. Prints first contentful paint, the first
// figure, when the wasm and the page's worker script loaded, and the main-thread long tasks, per run and as a median.
// Goal: first figure ≤ 1000 ms.
// SITE_ROOT=… measures another build folder (default build/site); RUNS=… (default 5); WIDTH=… (default 1280);
// HASH=ID opens the page at #ID (a deep link) and times figure ID instead of the first one.
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';

const runs = Number(process.env.RUNS ?? 5), width = Number(process.env.WIDTH ?? 1280), hash = process.env.HASH ?? '';
const server = await serve(0, process.env.SITE_ROOT ? resolve(process.env.SITE_ROOT) : undefined);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const rows = [];
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((id) => {
    const w = /** @type {any} */ (window);
    w.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__long.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
    addEventListener('DOMContentLoaded', async () => {
      const fig = /** @type {any} */ (id ? document.getElementById(id) : document.querySelector('posenc-figure'));
      fig.scrollIntoView();
      await customElements.whenDefined('posenc-figure');
      await fig.ready;
      requestAnimationFrame(() => { w.__first = { id: fig.id, ms: performance.now() }; });
    });
  }, hash);
  await page.goto(`${base}/${hash ? `#${hash}` : ''}`);
  await page.waitForFunction(() => /** @type {any} */ (window).__first, null, { timeout: 60000 });
  const r = await page.evaluate(() => {
    const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
    // the critical path's loads: the wasm (preloaded by index.html) and the page's one worker
    const res = (/** @type {RegExp} */ re) => { const e = performance.getEntriesByType('resource').find((x) => re.test(x.name)); return e ? `${Math.round(e.startTime)}–${Math.round(e.responseEnd)}` : '—'; };
    return { ...(/** @type {any} */ (window).__first), fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, long: /** @type {any} */ (window).__long,
      wasm: res(/\.wasm$/), worker: res(/worker[^/]*\.js$/).split("–")[0],
      html: Math.round(nav.responseEnd), interactive: Math.round(nav.domInteractive), dcl: Math.round(nav.domContentLoadedEventEnd) };
  });
  rows.push(r);
  console.log(`  run ${i + 1}: FCP ${Math.round(r.fcp)} ms, HTML in ${r.html} ms, DOM parsed ${r.interactive} ms, DOMContentLoaded ${r.dcl} ms, wasm ${r.wasm} ms, worker script requested at ${r.worker} ms, first figure (#${r.id}) ${Math.round(r.ms)} ms, long tasks ${JSON.stringify(r.long)}`);
  await context.close();
}
await browser.close(); server.close();
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const first = med(rows.map((r) => r.ms));
console.log(`[bench first-figure] ${width} px${hash ? `, #${hash}` : ''}, cold context ×${runs}: FCP median ${Math.round(med(rows.map((r) => r.fcp)))} ms, first figure median ${Math.round(first)} ms (min ${Math.round(Math.min(...rows.map((r) => r.ms)))}, max ${Math.round(Math.max(...rows.map((r) => r.ms)))}); goal ≤ 1000 ms: ${first <= 1000 ? 'met' : 'NOT met'}`);
