// Site benchmark (npm run bench): in headless Chromium, the time from a control change to the repainted
// attention heatmap at sequence length 512 (the "attention" figure of section 1: input event in its own controls →
// the figures' worker computes 512×512 scores with RoPE → transfer → canvas painted), over many changes;
// prints p50/p95/max. Goal: p95 ≤ 16 ms.
// Needs build/site and dist/ (scripts/build.sh makes both).
import { openPage, settled } from '../e2e/browser.mjs';

const N = Number(process.env.BENCH_N ?? 60);
const ctx = await openPage('/?attention.seq=512');
const { page } = ctx;
await settled(page);
await page.locator('#attention').evaluate(async (el) => { el.scrollIntoView(); await el.ready; });
const result = await page.evaluate(async (n) => {
  const fig = document.getElementById('attention');
  const base = fig.shadowRoot.querySelector('[name="base"]'), map = fig.shadowRoot.querySelector('[data-panel="map"]');
  const values = [...base.options].map((o) => o.value);
  const toPaint = [], toFrame = [], worker = [], trip = [];
  for (let i = 0; i < n + 5; i++) {
    const painted = new Promise((r) => map.addEventListener('rendered', () => r(performance.now()), { once: true }));
    const t0 = performance.now();
    base.value = values[i % values.length];
    base.dispatchEvent(new Event('input', { bubbles: true }));
    const t1 = await painted;
    const t2 = await new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    if (i >= 5) { toPaint.push(t1 - t0); toFrame.push(t2 - t0); worker.push(fig.timing.workerMs); trip.push(fig.timing.roundTripMs); } // 5 warm-up rounds
  }
  return { rows: map.rows, lastRenderMs: map.lastRenderMs, toPaint, toFrame, worker, trip };
}, N);
await ctx.close();
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const line = (name, a) => `${name}: p50 ${pct(a, 0.5).toFixed(1)} ms, p95 ${pct(a, 0.95).toFixed(1)} ms, max ${Math.max(...a).toFixed(1)} ms`;
console.log(`[bench site] heatmap ${result.rows}×${result.rows}, ${N} control changes (base θ), Chromium headless`);
console.log(`  ${line('control change → heatmap painted', result.toPaint)}`);
console.log(`  ${line('control change → next animation frame', result.toFrame)}`);
console.log(`  ${line('  of which: task in the worker (wasm)', result.worker)}`);
console.log(`  ${line('  of which: worker round trip', result.trip)}`);
console.log(`  canvas paint alone (last): ${result.lastRenderMs.toFixed(1)} ms; goal p95 ≤ 16 ms: ${pct(result.toPaint, 0.95) <= 16 ? 'met' : 'NOT met'}`);
