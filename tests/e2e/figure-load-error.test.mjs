// A figure whose computation cannot start (the .wasm answers HTTP 404, as on a host missing the files) shows its error
// box and nothing that says it is still computing: no "computing… Cancel" row above the error (issue 34 item 5; the
// report saw the bar stay above the red box after a wasm 404 and under a CSP without 'wasm-unsafe-eval').
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

test('a load failure (wasm HTTP 404) leaves the error box and no progress row', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-nowasm-'));
  // the package's files without the .wasm builds (and without the explainer)
  cpSync(dist, dir, { recursive: true, filter: (src) => !src.endsWith('.wasm') && !src.startsWith(join(dist, 'site')) });
  const S = await serveStatic({ mounts: { '/posenc/': dir }, pages: { '/post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title>
<script type="module" src="/posenc/figures.js"></script></head><body>
<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure></body></html>` } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const p = await browser.newPage();
    await p.goto(`${S.origin}/post.html`);
    const fig = p.locator('posenc-figure');
    const r = await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'painted', (e) => e.message));
    assert.match(r, /wasm|404/i);
    const state = await fig.evaluate((el) => {
      const sr = el.shadowRoot, shown = (s) => { const n = sr.querySelector(s); return !!n && !n.hidden && n.getClientRects().length > 0; };
      return { error: shown('.error'), progress: shown('.progress'), cancel: shown('.cancel'), text: sr.querySelector('.error').textContent };
    });
    await shot(fig, 'figures/load-error');
    assert.equal(state.error, true, 'the error box is shown');
    assert.match(state.text, /HTTP 404/);
    assert.equal(state.progress, false, 'no "computing… Cancel" row above the error');
    assert.equal(state.cancel, false);
  } finally { await browser.close(); S.server.close(); rmSync(dir, { recursive: true, force: true }); }
});
