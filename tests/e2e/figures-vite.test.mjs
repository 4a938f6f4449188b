// posenc/figures through a bundler: a throw-away Vite app (outside the source tree) imports it by its package name,
// is built with no extra configuration, then loaded in headless Chromium under the strict CSP: the figure renders and
// computes in the worker Vite emitted from dist/figures.js's `new Worker(new URL('./figures-worker.js', …))`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, symlinkSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { chromium } from 'playwright-core';
import init from 'posenc';
import { figureNames } from 'posenc/figures';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic, STRICT_CSP } from './figures-server.mjs';

const repo = fileURLToPath(new URL('../..', import.meta.url));

test('a Vite app that imports posenc/figures builds without warnings and renders a figure in a worker', async () => {
  const app = mkdtempSync(join(tmpdir(), 'posenc-figures-vite-'));
  try {
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(repo, join(app, 'node_modules', 'posenc'), 'dir');   // the package as installed (its exports map)
    writeFileSync(join(app, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="./main.js"></script></head>'
      + '<body><posenc-figure figure="alibi" heads="6"></posenc-figure></body></html>');
    writeFileSync(join(app, 'main.js'), "import { figureNames } from 'posenc/figures';\ndocument.body.dataset.figures = figureNames.join(' ');\n");
    const warnings = [];
    await build({ root: app, configFile: false, logLevel: 'silent', base: './', build: { outDir: join(app, 'dist') },
      customLogger: { info() {}, warn: (m) => warnings.push(m), warnOnce: (m) => warnings.push(m), error: (m) => warnings.push(m), clearScreen() {}, hasWarned: false, hasErrorLogged: () => false } });
    // rolldown's PLUGIN_TIMINGS note reports how long plugins ran when they take most of a build: on this shared machine
    // (load up to 10 on 2 cores) Vite's own worker transform can, so the note says something about the load, not the package
    assert.deepEqual(warnings.filter((w) => !w.includes('[PLUGIN_TIMINGS]')), []);
    const emitted = readdirSync(join(app, 'dist', 'assets'));
    assert.ok(emitted.some((f) => /^figures-worker.*\.js$/.test(f)), `the worker is emitted: ${emitted}`);
    assert.ok(emitted.some((f) => /\.wasm$/.test(f)), `the wasm is emitted: ${emitted}`);
    const { server, origin } = await serveStatic({ mounts: { '/app/': join(app, 'dist') }, headers: () => ({ 'content-security-policy': STRICT_CSP }) });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage(), errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
      await page.goto(`${origin}/app/index.html`);
      const r = await page.locator('posenc-figure').evaluate((el) => el.ready.then(() => [el.engine, Number(el.shadowRoot.querySelector('output[data-id="slope"]').dataset.value)], (e) => e.message));
      const pe = await init();
      assert.deepEqual(r, ['worker', pe.alibiSlopes(6)[0]]);
      // the bundle holds the whole registry, as the package exports it in Node (its size is pinned in figures.test.mjs)
      assert.equal(await page.$eval('body', (b) => b.dataset.figures), figureNames.join(' '));
      assert.deepEqual(errors, []);
    } finally { await browser.close(); server.close(); }
  } finally { rmSync(app, { recursive: true, force: true }); }
});
