// `npx posenc site`: the explainer served offline from the package (dist/site): the index, embed.html and the gallery
// answer over http with their types, the wasm as application/wasm; in Chromium the embed page's figure paints its
// read-out (rope-decay at base 500000: the closed form) with no console error; bad arguments exit 2 naming them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';
import { scoreAt, SCORE_TOL } from '../engines/engines.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cli = join(repo, 'dist/cli.js');

test('posenc site: serves the explainer, embed.html and the gallery offline', async () => {
  const proc = spawn(process.execPath, [cli, 'site', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [line] = await once(proc.stdout, 'data');
    const base = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(line))?.[1];
    assert.ok(base, String(line));
    for (const [path, type] of [['', 'text/html'], ['embed.html', 'text/html'], ['gallery.html', 'text/html']]) {
      const r = await fetch(base + path);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type'), new RegExp(type));
    }
    const wasm = /assets\/posenc-simd-[\w-]+\.wasm/.exec(await (await fetch(`${base}embed.html`)).text()) ?? null;
    assert.equal((await fetch(`${base}nope.html`)).status, 404);
    // dist/site is self-contained (any static host serves it as it is): the standalone script is a file of its own, the
    // same text as widget.js's standaloneText, and there is no map of files only this server could follow
    assert.equal(existsSync(join(repo, 'dist/site/links.json')), false);
    const standalone = readdirSync(join(repo, 'dist/site/assets')).find((f) => /^figures-standalone-[\w-]+\.js$/.test(f));
    assert.ok(standalone, 'dist/site/assets/figures-standalone-*.js');
    const sr = await fetch(`${base}assets/${standalone}`);
    assert.equal(sr.status, 200);
    assert.match(sr.headers.get('content-type'), /text\/javascript/);
    assert.equal(await sr.text(), (await import(join(repo, 'dist/widget.js'))).standaloneText);
    assert.equal((await fetch(`${base}..%2Fpackage.json`)).status, 403);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    try {
      const p = await browser.newPage(), errors = [], wasmTypes = [];
      p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      p.on('pageerror', (e) => errors.push(String(e)));
      p.on('response', (r) => { if (r.url().endsWith('.wasm')) wasmTypes.push(r.headers()['content-type']); });
      await p.goto(`${base}embed.html?figure=rope-decay&base=500000`);
      const fig = p.locator('posenc-figure');
      assert.equal(await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => e.message)), 'ok');
      const v = await fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
      assert.ok(Math.abs(v - scoreAt(500000)) < SCORE_TOL, `${v} vs ${scoreAt(500000)}`);
      assert.ok(wasmTypes.length && wasmTypes.every((t) => t === 'application/wasm'), String(wasmTypes) + String(wasm));
      assert.deepEqual(errors, []);
    } finally { await browser.close(); }
  } finally { proc.kill(); }
});

// The package keeps one font format (woff2) of KaTeX's fonts: every file a page, script or stylesheet of dist/site
// names — fonts, scripts, styles, images, the wasm — is a file of dist/site and is served, and no stylesheet names a .woff or .ttf any more.
test('posenc site: every asset the pages and stylesheets name is served; fonts as woff2 only', async () => {
  const site = join(repo, 'dist/site'), files = readdirSync(site, { recursive: true }).map(String);
  assert.deepEqual(files.filter((f) => /\.(?:ttf|woff)$/.test(f)), []);
  const css = files.filter((f) => f.endsWith('.css')).map((f) => [f, readFileSync(join(site, f), 'utf8')]);
  const fonts = css.flatMap(([, t]) => [...t.matchAll(/url\(\.?\/?([^)"']+\.woff2)\)/g)].map((m) => `assets/${m[1]}`));
  assert.ok(fonts.length >= 15, `${fonts.length} woff2 fonts`);
  assert.equal(css.reduce((n, [, t]) => n + (t.match(/@font-face/g) ?? []).length, 0), fonts.length);   // one file per face
  const named = new Set(fonts);
  for (const f of files.filter((x) => x.endsWith('.html'))) {
    for (const m of readFileSync(join(site, f), 'utf8').matchAll(/(?:src|href)="(?:\.\/)?(assets\/[^"#?]+)"/g)) named.add(m[1]);
  }
  for (const f of files.filter((x) => /^assets\/.*\.js$/.test(x))) {
    for (const m of readFileSync(join(site, f), 'utf8').matchAll(/["'`](?:\.\/|\/assets\/)?([\w.-]+\.(?:js|css|wasm|png|svg|woff2))["'`]/g)) if (files.includes(`assets/${m[1]}`)) named.add(`assets/${m[1]}`);
  }
  assert.ok(named.size >= 30, `${named.size} assets`);
  const proc = spawn(process.execPath, [cli, 'site', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [line] = await once(proc.stdout, 'data');
    const base = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(line))?.[1];
    for (const a of named) { const r = await fetch(base + a); assert.equal(r.status, 200, a); await r.arrayBuffer(); }
  } finally { proc.kill(); }
});

test('posenc site: bad arguments exit 2 naming them', () => {
  let r = spawnSync(process.execPath, [cli, 'site', '--port', 'x'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--port: must be an integer from 0 to 65535 \(got 'x'\)/);
  r = spawnSync(process.execPath, [cli, 'site', '--nope'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown argument '--nope'/);
});
