// End to end: the page at phone width (360 px) in both languages — no horizontal scrolling of the page, display
// formulas set on several lines where they have parts to split (all but two fit their box; those scroll inside it),
// and set back on one line when the window grows again (issue 12, craft: layout reflows on resize and at 360 px).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './browser.mjs';

let ctx, page;
before(async () => { ctx = await openPage('/', { width: 360, height: 800 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

const wideFormulas = () => page.$$eval('.math', (els) => els.filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1).map((e) => e.dataset.tex.slice(0, 40)));
const stackedCount = () => page.$$eval('.math[data-stacked]', (els) => els.length);

test('360 px, en and zh: no horizontal page scroll; long formulas stacked, at most two scroll inside their box', async () => {
  for (const lang of ['en', 'zh']) {
    await page.click(`#lang-${lang}`);
    await page.waitForFunction((l) => document.documentElement.dataset.lang === l, lang);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360, lang);
    const wide = await wideFormulas();
    assert.ok(wide.length <= 2, `${lang}: ${wide.join(' | ')}`);
    assert.ok(await stackedCount() >= 5, `${lang}: formulas set on several lines`);
  }
});

test('growing the window sets the stacked formulas back on one line', async () => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForFunction(() => document.querySelectorAll('.math[data-stacked]').length === 0, null, { timeout: 5000 });
  assert.deepEqual(await wideFormulas(), []);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.waitForFunction(() => document.querySelectorAll('.math[data-stacked]').length >= 5, null, { timeout: 5000 });
  assert.deepEqual(ctx.errors, []);
});
