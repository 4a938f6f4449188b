// The explainer (dist/site) on any static host: the folder from the packed tarball, copied alone and as it is, served
// by Python's http.server (not the project's server: no links.json, no rewrites) at a site's root and under a
// sub-path. index.html, embed.html and gallery.html paint their figures (the embed's read-out is the closed form),
// every request answers below 400 and the console stays clean; every asset a page, script or stylesheet names is a
// file of the folder. (`npx posenc site` keeps serving the same folder: tests/js/cli-site.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from '../e2e/browser.mjs';
import { installPackage, pythonServer, scoreAt, SCORE_TOL, tempDir } from './engines.mjs';

const t = tempDir('static-host'), pkg = join(t.dir, 'consumer');
installPackage(pkg);
const site = join(pkg, 'node_modules/posenc/dist/site');
process.on('exit', () => t.remove());

test('dist/site names only files it holds (no map that one server alone follows)', () => {
  const files = readdirSync(site, { recursive: true }).map(String);
  assert.ok(!files.includes('links.json'));
  const named = new Set();
  for (const f of files.filter((x) => /\.(?:html|js|css)$/.test(x))) {
    const text = readFileSync(join(site, f), 'utf8');
    for (const m of text.matchAll(/(?:src|href)="(?:\.\/)?(assets\/[^"#?]+)"/g)) named.add(m[1]);
    for (const m of text.matchAll(/["'`(](?:\.\/|\/assets\/|assets\/)?([\w.-]+-[\w-]{8}\.(?:js|css|wasm|png|svg|woff2))["'`)]/g)) named.add(`assets/${m[1]}`);
  }
  for (const want of [/^assets\/posenc-simd-[\w-]+\.wasm$/, /^assets\/posenc-scalar-[\w-]+\.wasm$/, /^assets\/figures-standalone-[\w-]+\.js$/]) {
    assert.ok([...named].some((n) => want.test(n)), `a page or script names ${want}`);
  }
  const missing = [...named].filter((n) => !files.includes(n));
  assert.deepEqual(missing, [], 'named but not in dist/site');
});

for (const [where, prefix] of [['the root', '/'], ['a sub-path', '/blog/explainer/']]) {
  test(`dist/site copied as is to a plain static server (python3 -m http.server), at ${where}: index, embed and gallery work`, async () => {
    const root = join(t.dir, `www-${prefix.length}`), into = join(root, prefix);
    mkdirSync(into, { recursive: true });
    cpSync(site, into, { recursive: true });   // the whole recipe: copy the folder
    const S = await pythonServer(root);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const errors = [];
    try {
      const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      const p = await ctx.newPage();
      p.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} ${m.location().url ?? ''}`); });
      p.on('pageerror', (e) => errors.push(String(e)));
      p.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.url()}`); });
      const ready = (loc) => loc.evaluate((el) => { el.scrollIntoView(); return customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => `ERR ${e.message}`); });

      await p.goto(`${S.origin}${prefix}embed.html?figure=rope-decay&base=500000`);
      const fig = p.locator('posenc-figure').first();
      assert.equal(await ready(fig), 'ok', `embed: ${errors.join(' | ')}`);
      const v = await fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
      assert.ok(Math.abs(v - scoreAt(500000)) < SCORE_TOL, `embed read-out ${v} vs ${scoreAt(500000)}`);
      assert.equal(await fig.evaluate((el) => el.shadowRoot.querySelector('.error').hidden), true);
      await shot(p, `static-host/embed-${prefix.length}`);

      for (const page of ['', 'gallery.html']) {
        await p.goto(`${S.origin}${prefix}${page}`);
        await p.waitForSelector('body[data-ready="true"]', { timeout: 60000 }).catch(() => { /* the gallery may not mark itself: its figure below says */ });
        const first = p.locator('posenc-figure').first();
        assert.equal(await ready(first), 'ok', `${page || 'index'}: ${errors.join(' | ')}`);
        assert.equal(await first.evaluate((el) => el.shadowRoot.querySelector('.error').hidden), true, `${page || 'index'}: no error box`);
      }
      // the single-file download's script and both wasm builds answer from this server too
      for (const f of readdirSync(join(into, 'assets')).filter((x) => /^(?:figures-standalone|posenc-simd|posenc-scalar)-.*\.(?:js|wasm)$/.test(x))) {
        const r = await fetch(`${S.origin}${prefix}assets/${f}`);
        assert.equal(r.status, 200, f);
        await r.arrayBuffer();
      }
      assert.deepEqual(errors, []);
    } finally { await browser.close(); S.server.close(); }
  });
}
