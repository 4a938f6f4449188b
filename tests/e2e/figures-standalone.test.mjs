// One self-contained HTML file per figure (dist/figures-standalone.js inlined by html.js), as an author makes it with
// `npx posenc figure rope-decay base=500000 --html -o …`: its size; opened from file:// in Chromium (the read-out equals
// the closed form, the canvas has ink, a control changes the numbers, no console error, no request besides the file
// and blob:/data: URLs, computed in a worker); under a sub-path inside a sandboxed iframe whose parent applies the
// height messages with the README's three lines and sends a theme; prefers-color-scheme; el.toHTML() of the state;
// bad parameters named on the command line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';
import { scoreAt, SCORE_TOL } from '../engines/engines.mjs';
import { PARENT_SNIPPET } from './parent-snippet.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = (...args) => spawnSync(process.execPath, [join(repo, 'dist/cli.js'), ...args], { encoding: 'utf8' });
// The goal for one figure file, all inlined (both .wasm builds gzipped, the element, the worker).
const MAX_BYTES = 1024 * 1024;

let dir, file, browser, S;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'posenc-standalone-'));
  file = join(dir, 'rope-decay.html');
  const r = cli('figure', 'rope-decay', 'base=500000', '--html', '-o', file);
  assert.equal(r.status, 0, r.stderr);
  S = await serveStatic({
    mounts: { '/2025/assets/html/post/': dir },
    pages: { '/2025/blog/post/index.html': `<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0">
<iframe id="f" src="../../assets/html/post/rope-decay.html" sandbox="allow-scripts" frameborder="0" scrolling="no" height="600" width="720"></iframe>
${PARENT_SNIPPET}
<script>document.getElementById('f').addEventListener('load', (e) => e.target.contentWindow.postMessage({ type: 'posenc:theme', theme: 'dark' }, '*'));</script>
</body></html>` },
  });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); S?.server.close(); rmSync(dir, { recursive: true, force: true }); });

/** A page that records console errors, page errors and every request (its workers' too). */
async function newPage(opts = {}) {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 900 }, ...opts });
  const p = await ctx.newPage();
  p.errors = []; p.requests = [];
  p.on('console', (m) => { if (m.type() === 'error') p.errors.push(m.text()); });
  p.on('pageerror', (e) => p.errors.push(String(e)));
  ctx.on('request', (r) => p.requests.push(r.url()));
  return p;
}

const readout = (fig) => fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
const ready = (fig) => fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => `ERR ${e.message}`));

test('the file: one page, all inlined, at most 1 MB', () => {
  const html = readFileSync(file, 'utf8'), bytes = statSync(file).size;
  assert.ok(readFileSync(join(repo, 'README.md'), 'utf8').includes(`\n${PARENT_SNIPPET}\n`), 'the README gives the parent snippet the tests use');
  console.log(`# rope-decay.html: ${bytes} bytes`);
  assert.ok(bytes <= MAX_BYTES, `${bytes} bytes > ${MAX_BYTES}`);
  assert.match(html, /<posenc-figure figure="rope-decay" base="500000" controls><\/posenc-figure>/);
  // no external reference: outside the one inline classic script, no src= or href= and no <link>
  const outside = html.replace(/(<script id="posenc-standalone">)[^]*?(<\/script>)/, '$1$2');
  assert.equal(outside.length < 2000, true, 'the page is the script and a few lines');
  assert.doesNotMatch(outside, /\s(src|href)=|<link/);
  assert.equal((outside.match(/<script\b/g) ?? []).length, 1);
  assert.doesNotMatch(outside, /<script[^>]*type="module"/);
});

test('from file:// in Chromium: paints, a control works, a worker computes, no request, no console error', async () => {
  const p = await newPage();
  const url = pathToFileURL(file).href;
  await p.goto(url);
  const fig = p.locator('posenc-figure');
  assert.equal(await ready(fig), 'ok', p.errors.join(' | '));
  assert.ok(Math.abs(await readout(fig) - scoreAt(500000)) < SCORE_TOL, `score at 15000, base 500000: ${await readout(fig)} vs ${scoreAt(500000)}`);
  const ink = await fig.evaluate((el) => {
    const c = el.shadowRoot.querySelector('pe-lines').shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  assert.ok(ink > 2000, `the plot has ink (${ink} pixels)`);
  assert.equal(await fig.evaluate((el) => el.engine), 'worker');
  await fig.locator('select[name="d"]').selectOption('128');
  assert.equal(await ready(fig), 'ok');
  assert.ok(Math.abs(await readout(fig) - scoreAt(500000, 128)) < SCORE_TOL, `after the control: ${await readout(fig)} vs ${scoreAt(500000, 128)}`);
  // toHTML() of the new state, from inside the file: the same page with d = 128
  const again = await fig.evaluate((el) => el.toHTML());
  assert.equal(again, readFileSync(file, 'utf8').replace('base="500000" controls', 'base="500000" d="128" controls'));
  await shot(p, 'standalone/file');
  const other = p.requests.filter((u) => u !== url && !u.startsWith('blob:') && !u.startsWith('data:'));
  assert.deepEqual(other, [], 'no request besides the file itself');
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('prefers-color-scheme: dark without a parent', async () => {
  const p = await newPage({ colorScheme: 'dark' });
  await p.goto(pathToFileURL(file).href);
  const fig = p.locator('posenc-figure');
  assert.equal(await ready(fig), 'ok');
  assert.equal(await fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim()), '#17171a');
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('under a sub-path in a sandboxed iframe: the parent\'s 3 lines apply the height, its theme message turns the figure dark', async () => {
  const p = await newPage();
  await p.goto(`${S.origin}/2025/blog/post/index.html`);
  const frame = p.frameLocator('#f');
  const fig = frame.locator('posenc-figure');
  assert.equal(await ready(fig), 'ok', p.errors.join(' | '));
  assert.ok(Math.abs(await readout(fig) - scoreAt(500000)) < SCORE_TOL);
  // opaque origin (sandbox without allow-same-origin): the worker still runs
  assert.equal(await fig.evaluate(() => origin), 'null');
  assert.equal(await fig.evaluate((el) => el.engine), 'worker');
  await fig.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const want = await fig.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  await p.waitForFunction((h) => Number(document.getElementById('f').getAttribute('height')) === h, want, { timeout: 5000 })
    .catch(async () => assert.fail(`iframe height ${await p.locator('#f').getAttribute('height')} vs the document's ${want}`));
  assert.ok(want > 600, `the figure is taller than the template's 600 px (${want})`);
  await fig.evaluate(() => document.documentElement.dataset.theme === 'dark' || new Promise((r) => setTimeout(r, 500)));
  assert.equal(await fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim()), '#17171a', 'the parent\'s theme');
  // a control inside the iframe still works, and the height follows
  await fig.locator('select[name="base"]').selectOption('10000');
  assert.equal(await ready(fig), 'ok');
  assert.ok(Math.abs(await readout(fig) - scoreAt(10000)) < SCORE_TOL);
  await shot(p, 'standalone/iframe-dark');
  // back to light when the parent says so
  await p.evaluate(() => document.getElementById('f').contentWindow.postMessage({ type: 'posenc:theme', theme: 'light' }, '*'));
  await fig.evaluate(() => new Promise((r) => setTimeout(r, 200)));
  assert.equal(await fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim()), '#ffffff');
  assert.deepEqual(p.errors, []);
  await p.context().close();
});

test('command line: a bad parameter, an unknown one, an unknown figure are named; exit 2', () => {
  let r = cli('figure', 'rope-decay', 'base=abc', '--html');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Attribute "base" must be/);
  r = cli('figure', 'rope-decay', 'bse=5', '--html');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown parameter "bse" for figure "rope-decay"/);
  r = cli('figure', 'rope-decy', '--html');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /Unknown figure "rope-decy"/);
  r = cli('figure', 'alibi', '--html', '--theme', 'night');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /"theme" must be auto, light or dark/);
});

test('the inlined scalar build (no wasm SIMD) and the main thread (no Worker) compute the same read-out', async () => {
  for (const [what, init, engine] of [
    // the SIMD probe (a 31-byte module using v128) fails: the page compiles the inlined scalar build
    ['scalar', () => {
      const v = WebAssembly.validate, c = WebAssembly.compile;
      WebAssembly.validate = (b) => (b.byteLength === 31 ? false : v(b));
      WebAssembly.compile = (b) => { window.compiledBytes = b.byteLength; return c(b); };   // which build was inflated
    }, 'worker'],
    ['no worker', () => { window.Worker = undefined; }, 'main'],
  ]) {
    const p = await newPage();
    await p.addInitScript(init);
    await p.goto(pathToFileURL(file).href);
    const fig = p.locator('posenc-figure');
    assert.equal(await ready(fig), 'ok', `${what}: ${p.errors.join(' | ')}`);
    assert.equal(await fig.evaluate((el) => el.engine), engine, what);
    if (what === 'scalar') assert.equal(await p.evaluate(() => window.compiledBytes), statSync(join(repo, 'dist/posenc-scalar.wasm')).size, 'the scalar build was compiled');
    assert.ok(Math.abs(await readout(fig) - scoreAt(500000)) < SCORE_TOL, `${what}: ${await readout(fig)} vs ${scoreAt(500000)}`);
    assert.deepEqual(p.errors, [], what);
    await p.context().close();
  }
});
