// Load once: the explainer page (build/site, several figures, the site's own tasks, the config reader's own init())
// fetches posenc's .wasm exactly once — the page compiles it and posts the compiled module to its worker — and starts
// ONE worker, the figures' worker serving the site's tasks too (web/site/worker.js); every figure still computes in a
// worker, with no console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from './browser.mjs';

test('the explainer fetches posenc-*.wasm once, starts one worker, and its figures compute in it', async () => {
  const server = await serve(0);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const wasm = [], errors = [], workers = [];
    page.on('worker', (w) => workers.push(w.url()));
    page.on('request', (r) => { if (/\.wasm(\?|$)/.test(r.url())) wasm.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    // Scroll through the page, so that every lazily started figure and worker has started, then let them finish.
    const height = await page.evaluate(() => document.body.scrollHeight);
    for (let y = 0; y < height; y += 1200) { await page.evaluate((to) => window.scrollTo(0, to), y); await page.waitForTimeout(60); }
    await page.waitForFunction(() => document.body.dataset.pending === '0', null, { timeout: 30000 });
    // the figures that were started (scrolled into view) painted, computed in the figures' worker
    const engines = await page.$$eval('posenc-figure', (els) => Promise.all(els.map((el) => Promise.race([
      el.ready?.then(() => el.engine, (e) => String(e)), new Promise((r) => setTimeout(r, 5000))]))));
    const started = engines.filter((e) => e !== undefined);
    assert.ok(started.length >= 10, `figures started: ${started.length} of ${engines.length}`);
    assert.deepEqual(started, started.map(() => 'worker'));
    assert.equal(wasm.length, 1, `wasm requests: ${wasm.join(', ')}`);
    // one worker, and it did the site's tasks: §4's derivation checks are filled (computed by tasks.js's s4Deriv)
    assert.equal(workers.length, 1, `workers: ${workers.join(', ')}`);
    assert.match(await page.textContent('#s4d-c1'), /\d/);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    server.close();
  }
});
