// First figure after a cold load (npm run bench): in headless Chromium, a fresh browser context (empty cache) opens the
// built site from the local server (scripts/serve.mjs, strict CSP, no compression) at its first <posenc-figure>, as a
// reader who follows a link to it (#ID: the browser keeps the fragment in view while the page loads; a script that
// scrolled it there at DOMContentLoaded would scroll before the style sheets have come, to a place they then move). Two times (performance.now(), from navigation start): the figure *shown* — the
// paint of the picture drawn at build time that stands in for it (web/site/first-paint.js; its <img elementtiming>, by
// the Element Timing API), or the live figure where there is none — and the figure *live*: the first animation frame
// after its `ready` settles (its own canvas painted, its controls working). The goal is on the first. Prints first
// contentful paint, both times, the layout shift of the load (CLS: the swap from picture to figure must not jump; Chromium counts
// a shift of the page above a link's target even where a script scrolled it back before the frame was painted), the
// figure's drift (how far it moved on screen between painted frames once shown: what the reader sees), when
// the wasm and the page's worker script loaded, and the main-thread long tasks, per run and as medians.
// Goal (issue 34): first figure ≤ 1000 ms, median of 7 cold loads on a quiet machine, and ≤ 3× a plain page: the same
// index.html with every script and preload removed (its text and style sheets only), served by the same server code to a
// cold context, timed at its first contentful paint; the runs alternate (plain, site) so both see the same load. Ends
// with one JSON line (kind 'first-figure-cold'): the medians, the ratio, the machine's load average.
// SITE_ROOT=… measures another build folder (default build/site); RUNS=… (default 7); WIDTH=… (default 1280);
// HASH=ID opens the page at #ID and times figure ID instead of the first one.
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';

const runs = Number(process.env.RUNS ?? 7), width = Number(process.env.WIDTH ?? 1280);
const root = resolve(process.env.SITE_ROOT ?? new URL('../../build/site', import.meta.url).pathname);
const hash = process.env.HASH ?? /<posenc-figure\b[^>]*\bid="([^"]+)"/.exec(readFileSync(join(root, 'index.html'), 'utf8'))?.[1];
if (!hash) throw new Error(`${root}/index.html: no <posenc-figure id="…"> to open the page at`);
const server = await serve(0, process.env.SITE_ROOT ? root : undefined);
// the plain page: the built index.html without scripts, module preloads and the wasm preload
const plainHtml = readFileSync(join(root, 'index.html'), 'utf8').replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
  .replace(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/g, '');
// served from a folder of its own (the same server code) whose other entries link to the build's files
const plainDir = mkdtempSync(join(tmpdir(), 'posenc-plain-'));
writeFileSync(join(plainDir, 'index.html'), plainHtml);
for (const f of readdirSync(root)) if (f !== 'index.html') symlinkSync(join(root, f), join(plainDir, f));
const plainServer = await serve(0, plainDir);
const plainBase = `http://127.0.0.1:${plainServer.address().port}`;
const load0 = loadavg();
const plain = [];
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const rows = [];
/** A plain-page load in a fresh context: its first contentful paint (ms from navigation start). */
async function plainPage() {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${plainBase}/#${hash}`, { waitUntil: 'load' });
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, { timeout: 30000 });
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0].startTime);
  await context.close();
  return fcp;
}
await plainPage();   // warm-up, not counted: the browser's first page pays for starting its renderer and GPU processes
for (let i = 0; i < runs; i++) {
  plain.push(await plainPage());
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript((id) => {
    const w = /** @type {any} */ (window);
    w.__long = []; w.__cls = 0;
    new PerformanceObserver((l) => { for (const e of /** @type {any[]} */ (l.getEntries())) if (!e.hadRecentInput) w.__cls += e.value; }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((l) => {
      for (const e of /** @type {any[]} */ (l.getEntries())) if (e.identifier === 'first-paint' && e.element?.closest('posenc-figure')?.id === id && w.__shown === undefined) w.__shown = e.renderTime || e.loadTime;
    }).observe({ type: 'element', buffered: true });
    new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__long.push(Math.round(e.duration)); }).observe({ type: 'longtask', buffered: true });
    // the figure's drift: how far its top moves on screen once shown, as the page builds itself (a link's target must
    // stay where the reader landed: hold-hash.js). Read when the page's height changes, after the page's own observer
    // (created earlier) has put the target back: what the frame paints
    w.__drift = 0;
    addEventListener('load', () => new ResizeObserver(() => {
      const top = document.getElementById(id)?.getBoundingClientRect().top;
      if (top !== undefined && (w.__shown !== undefined || w.__first)) { w.__top0 ??= top; w.__drift = Math.max(w.__drift, Math.abs(top - w.__top0)); }
    }).observe(document.body));
    addEventListener('DOMContentLoaded', async () => {
      const fig = /** @type {any} */ (document.getElementById(id));
      await customElements.whenDefined('posenc-figure');
      await fig.ready;
      requestAnimationFrame(() => { w.__first = { id: fig.id, ms: performance.now() }; });
    });
  }, hash);
  await page.goto(`${base}/#${hash}`);
  await page.waitForFunction(() => /** @type {any} */ (window).__first, null, { timeout: 60000 });
  await page.waitForTimeout(1500);   // the layout shifts of the swap and of the page's later work (formulas), if any
  const r = await page.evaluate(() => {
    const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
    // the critical path's loads: the wasm (preloaded by index.html) and the page's one worker
    const res = (/** @type {RegExp} */ re) => { const e = performance.getEntriesByType('resource').find((x) => re.test(x.name)); return e ? `${Math.round(e.startTime)}–${Math.round(e.responseEnd)}` : '—'; };
    const w = /** @type {any} */ (window), live = w.__first.ms;
    return { id: w.__first.id, live, ms: Math.min(live, w.__shown ?? Infinity), shown: w.__shown ?? null, cls: w.__cls, drift: w.__drift, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, long: /** @type {any} */ (window).__long,
      wasm: res(/\.wasm$/), worker: res(/worker[^/]*\.js$/).split("–")[0],
      html: Math.round(nav.responseEnd), interactive: Math.round(nav.domInteractive), dcl: Math.round(nav.domContentLoadedEventEnd) };
  });
  rows.push(r);
  console.log(`  run ${i + 1}: plain page FCP ${Math.round(plain[i])} ms; FCP ${Math.round(r.fcp)} ms, HTML in ${r.html} ms, DOM parsed ${r.interactive} ms, DOMContentLoaded ${r.dcl} ms, wasm ${r.wasm} ms, worker script requested at ${r.worker} ms, first figure (#${r.id}) shown ${r.shown === null ? '— (no picture)' : `${Math.round(r.shown)} ms`}, live ${Math.round(r.live)} ms, CLS ${r.cls.toFixed(3)}, drift ${Math.round(r.drift)} px, long tasks ${JSON.stringify(r.long)}`);
  await context.close();
}
await browser.close(); server.close(); plainServer.close(); rmSync(plainDir, { recursive: true, force: true });
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const first = med(rows.map((r) => r.ms));
const plainMed = med(plain), ratio = first / plainMed;
console.log(`[bench first-figure] plain page (no scripts) FCP median ${Math.round(plainMed)} ms; first figure / plain page = ${ratio.toFixed(2)}× (goal ≤ 3×: ${ratio <= 3 ? 'met' : 'NOT met'})`);
console.log(JSON.stringify({ kind: 'first-figure-cold', width, hash, runs, first_figure_median_ms: Math.round(first),
  first_figure_min_ms: Math.round(Math.min(...rows.map((r) => r.ms))), first_figure_max_ms: Math.round(Math.max(...rows.map((r) => r.ms))),
  live_figure_median_ms: Math.round(med(rows.map((r) => r.live))), cls_median: Number(med(rows.map((r) => r.cls)).toFixed(3)), drift_max_px: Math.round(Math.max(...rows.map((r) => r.drift))),
  fcp_median_ms: Math.round(med(rows.map((r) => r.fcp))), plain_page_fcp_median_ms: Math.round(plainMed), ratio_to_plain: Number(ratio.toFixed(2)),
  goal_ms: 1000, goal_ratio: 3, met: first <= 1000 && ratio <= 3, loadavg_before: load0.map((x) => Number(x.toFixed(2))), loadavg_after: loadavg().map((x) => Number(x.toFixed(2))) }));
console.log(`[bench first-figure] ${width} px, #${hash}, cold context ×${runs}: FCP median ${Math.round(med(rows.map((r) => r.fcp)))} ms, first figure shown: median ${Math.round(first)} ms (min ${Math.round(Math.min(...rows.map((r) => r.ms)))}, max ${Math.round(Math.max(...rows.map((r) => r.ms)))}), live: median ${Math.round(med(rows.map((r) => r.live)))} ms; goal ≤ 1000 ms: ${first <= 1000 ? 'met' : 'NOT met'}`);
