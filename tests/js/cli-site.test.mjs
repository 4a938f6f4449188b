// `npx posenc site`: the explainer served offline from the package (dist/site): the index, embed.html and the gallery
// answer over http with their types, the wasm as application/wasm; in Chromium the embed page's figure paints its
// read-out (rope-decay at base 500000: the closed form) with no console error; bad arguments exit 2 naming them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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

test('posenc site: bad arguments exit 2 naming them', () => {
  let r = spawnSync(process.execPath, [cli, 'site', '--port', 'x'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--port: must be an integer from 0 to 65535 \(got 'x'\)/);
  r = spawnSync(process.execPath, [cli, 'site', '--nope'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown argument '--nope'/);
});
