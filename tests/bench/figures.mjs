// `npm run bench`: posenc/figures as a blog embeds it — dist/figures.js (and the worker it starts) gzipped, and the
// time from navigation start to the first figure painted (its `ready` resolved) on a plain page that loads
// dist/figures.js with a script tag from localhost, in headless Chromium: a fresh page each run, median of N.
// Goals (issue 11): figures JS ≤ 60 KiB gzipped, first figure ≤ 500 ms. Needs dist/ (scripts/build.sh).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';
import { serveStatic } from '../e2e/figures-server.mjs';

const N = Number(process.env.BENCH_N ?? 9);
const FIGURE = process.env.BENCH_FIGURE ?? 'sinusoidal';
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const gz = (f) => gzipSync(readFileSync(`${dist}${f}`), { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const sizes = { 'figures.js': gz('figures.js'), 'figures-worker.js': gz('figures-worker.js') };
for (const [file, gzip_bytes] of Object.entries(sizes)) console.log(JSON.stringify({ kind: 'figures-size', file, gzip_bytes }));

const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="./pkg/figures.js"></script></head>
<body><posenc-figure figure="${FIGURE}"></posenc-figure></body></html>`;
const { server, origin } = await serveStatic({ mounts: { '/blog/pkg/': dist }, pages: { '/blog/post.html': html } });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const times = [];
for (let i = 0; i < N + 1; i++) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });   // cold: no cache, no compiled wasm
  const page = await context.newPage();
  await page.goto(`${origin}/blog/post.html`);
  const ms = await page.evaluate(async () => { await customElements.whenDefined('posenc-figure'); await document.querySelector('posenc-figure').ready; return performance.now(); });
  if (i > 0) times.push(ms);   // the first run warms the server and the disk cache
  await context.close();
}
await browser.close(); server.close();
const s = [...times].sort((a, b) => a - b), median = s[Math.floor(s.length / 2)];
console.log(JSON.stringify({ kind: 'figures-first-paint', figure: FIGURE, median_ms: median, min_ms: s[0], max_ms: s.at(-1), runs: N }));
const ok = (v, goal) => (v <= goal ? 'met' : 'NOT met');
console.log(`[bench figures] figures.js ${kib(sizes['figures.js'])} gz (goal ≤ 60 KiB: ${ok(sizes['figures.js'], 60 * 1024)}), worker ${kib(sizes['figures-worker.js'])} gz`);
console.log(`  first figure ("${FIGURE}") painted after navigation start: median ${median.toFixed(0)} ms, min ${s[0].toFixed(0)}, max ${s.at(-1).toFixed(0)} over ${N} cold loads (goal ≤ 500 ms: ${ok(median, 500)})`);
