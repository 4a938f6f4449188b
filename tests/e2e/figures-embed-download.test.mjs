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

test('Embed panel opened before the figure has rendered: the iframe height holds it, before and after', async () => {
  const ctx = await openPage('/');
  try {
    const { page } = ctx;
    for (const id of ['rope-decay', 'alibi']) {
      const bar = page.locator(`#${id} + .embed-bar`), height = async () => Number(/height="(\d+)"/.exec(await bar.locator('.snippet-iframe').inputValue())[1]);
      const unrendered = await page.$eval(`#${id}`, (el) => Math.ceil(el.getBoundingClientRect().height));
      await bar.locator('button.embed').evaluate((b) => b.click());   // no scrolling: the figure has not computed yet
      await page.waitForFunction((s) => !document.querySelector(s).dataset.measuring, `#${id} + .embed-bar .embed-panel`, { timeout: 30000 });
      const before = await height();
      await page.$eval(`#${id}`, (el) => { el.scrollIntoView(); return el.ready; });
      const rendered = await page.$eval(`#${id}`, (el) => Math.ceil(el.getBoundingClientRect().height)) + 16;
      await page.waitForFunction(([s, h]) => Number(/height="(\d+)"/.exec(document.querySelector(s).value)[1]) >= h, [`#${id} + .embed-bar .snippet-iframe`, rendered], { timeout: 5000 })
        .catch(async () => assert.fail(`${id}: snippet ${await height()} < the rendered figure's ${rendered}`));
      // the truth: embed.html's own height in an iframe on a phone (340 px) and as wide as this page's column
      const column = await page.$eval(`#${id}`, (el) => Math.round(el.parentElement.clientWidth)), truth = [];
      for (const width of [340, column]) {
        const q = await page.context().newPage();
        await q.setViewportSize({ width, height: 800 });
        await q.goto(`${ctx.base}/embed.html?figure=${id}`);
        await q.evaluate(() => customElements.whenDefined('posenc-figure').then(() => document.querySelector('posenc-figure').ready));
        truth.push(await q.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height)));   // what embed.js sends
        await q.close();
      }
      console.log(`# ${id}: unrendered ${unrendered} px, snippet before ${before}, after ${await height()}; embed.html at 340 / ${column} px: ${truth.join(' / ')}`);
      assert.ok(before >= Math.max(...truth) - 2, `${id}: before rendering the snippet holds embed.html at both widths (${before} vs ${truth})`);
    }
    assert.deepEqual(ctx.errors, []);
  } finally { await ctx.close(); }
});
