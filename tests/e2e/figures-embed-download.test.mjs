// The explainer's Embed panel → "Download HTML" (the built site, served with its strict Content-Security-Policy): the
// file it saves is the single-file figure of that figure's current state, and it works opened from file:// (the
// read-out of rope-decay equals the closed form for the state chosen on the site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPage } from './browser.mjs';
import { scoreAt, SCORE_TOL } from '../engines/engines.mjs';

test('Embed panel: Download HTML saves the figure in its state, which opens from file://', async () => {
  const ctx = await openPage('/');
  try {
    const { page } = ctx, sel = 'main posenc-figure[figure="rope-decay"][id]';
    const id = await page.$eval(sel, (el) => el.id);
    await page.$eval(sel, (el) => { el.scrollIntoView(); el.setAttribute('base', '500000'); el.setAttribute('d', '128'); });
    await page.$eval(sel, (el) => el.ready);
    const bar = page.locator(`#${id} + .embed-bar`);
    await bar.locator('button.embed').click();
    const button = bar.locator('button[data-download="html"]');
    assert.equal(await button.textContent(), 'Download HTML');
    const [dl] = await Promise.all([page.waitForEvent('download'), button.click()]);
    assert.equal(dl.suggestedFilename(), 'posenc-rope-decay.html');
    // saved under its own name (Playwright keeps downloads without an extension, which Chromium would show as text)
    const path = join(await mkdtemp(join(tmpdir(), 'posenc-dl-')), dl.suggestedFilename());
    await dl.saveAs(path);
    const html = await readFile(path, 'utf8');
    assert.match(html, /<posenc-figure figure="rope-decay" base="500000" d="128" controls><\/posenc-figure>/);
    assert.ok((await stat(path)).size < 1024 * 1024);
    const p = await page.context().newPage();
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await p.goto(pathToFileURL(path).href);
    const fig = p.locator('posenc-figure');
    assert.equal(await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => e.message)), 'ok');
    const v = await fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
    assert.ok(Math.abs(v - scoreAt(500000, 128)) < SCORE_TOL, `${v} vs ${scoreAt(500000, 128)}`);
    assert.deepEqual(errors, []);
    assert.deepEqual(ctx.errors, []);
    await rm(dirname(path), { recursive: true });
  } finally { await ctx.close(); }
});
