// Accessibility (issue 19): axe-core (npm devDependency) run in Chromium on the built index (light and dark, full and
// folded), gallery and an embed, in English and Chinese: no serious or critical violation (nor a landmark-unique or empty-table-header one). axe's source is evaluated through the DevTools protocol,
// which the pages' strict CSP (no inline script but land.js) does not govern.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openPage, setLang } from './browser.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
// lesser rules the page once broke and now keeps: each section's takeaways box is a landmark named with its section,
// and a table's empty corner cell is not a header
const ALSO = ['landmark-unique', 'empty-table-header'];
let ctx;
before(async () => { ctx = await openPage('/', { width: 1280, height: 1000 }); });
after(async () => { await ctx?.close(); });

/** The axe rules each variant of a page can break: all of them on the English light page, the dark theme's colours,
 * the Chinese page's names, labels and languages (its structure is the English page's), all again on the Chinese dark
 * folded page. A full axe run of the explainer takes 10–20 s, half of it colour contrast. */
const ALL = null, COLOUR = ['cat.color'], TEXT = ['cat.text-alternatives', 'cat.name-role-value', 'cat.language', 'cat.forms', 'cat.aria', 'cat.semantics'];

async function violations(page, tags = ALL) {
  await page.evaluate(async () => { for (const f of document.querySelectorAll('posenc-figure')) { if (!f.checkVisibility()) continue; f.scrollIntoView(); await f.ready?.catch(() => {}); } });
  await page.evaluate(AXE);
  const r = await page.evaluate((t) => {
    // the rules of those categories that a default run has (AAA, experimental and deprecated ones are off by default)
    const rules = t && window.axe.getRules(t).filter((x) => !x.tags.some((g) => ['wcag2aaa', 'experimental', 'deprecated'].includes(g))).map((x) => x.ruleId);
    return window.axe.run(document, { resultTypes: ['violations'], ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}) });
  }, tags);
  assert.ok(r.passes.length >= (tags ? 1 : 20), `axe ran its rules (${r.passes.length} passed)`);
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || ALSO.includes(v.id))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// The explainer in three states on one page (its figures computed once, repainted by each switch): English light,
// all rules; the language switch to Chinese, the rules of names, labels and languages; the theme switch to dark, the
// colour rules. Then the Chinese dark folded page as a link opens it, all rules; the gallery and two embeds.
test('axe: no serious or critical violations on /, then switched to Chinese, then to dark', async () => {
  const p = ctx.page;
  assert.deepEqual(await violations(p), [], '/');
  await setLang(p, 'zh');
  await p.waitForFunction(() => document.body.dataset.pending === '0');
  assert.deepEqual(await violations(p, TEXT), [], 'zh');
  await p.click('#theme-dark');
  await p.waitForFunction(() => document.documentElement.dataset.theme === 'dark' && document.body.dataset.pending === '0');
  assert.deepEqual(await violations(p, COLOUR), [], 'zh, dark');   // the colours are the same in either language
});

for (const path of ['/?lang=zh&theme=dark&level=intuition', '/gallery.html', '/embed.html?figure=rope-rotation', '/embed.html?figure=t5&lang=zh']) {
  test(`axe: no serious or critical violations on ${path}`, async () => {
    const p = await ctx.open(path);
    assert.deepEqual(await violations(p), []);
    await p.close();
  });
}

test('a skip link is the first Tab stop and moves focus to the content', async () => {
  const p = await ctx.open('/');
  await p.keyboard.press('Tab');
  assert.equal(await p.evaluate(() => document.activeElement?.className), 'skip-link');
  assert.ok(await p.evaluate(() => document.activeElement.getBoundingClientRect().top >= 0), 'visible when focused');
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => location.hash === '#main');
  await p.context().close();
});

test('a canvas figure has a text alternative that states the numbers drawn (curves, marks, shaded bands; a map’s size and range)', async () => {
  const p = await ctx.open('/#ntk-base');
  await p.locator('#ntk-base').evaluate(async (el) => { el.scrollIntoView(); await el.ready; });
  const [speed, angle] = await p.$eval('#ntk-base', (el) => [...el.shadowRoot.querySelectorAll('pe-lines')].map((b) => b.shadowRoot.querySelector('canvas').getAttribute('aria-label')));
  assert.match(speed, /NTK-aware: base 10000 → 82685: x 0 … 63; y 1 → 0\.125 \(0\.125 … 1\)/);
  assert.match(angle, /pairs 46–62: past the trained angles \(x 45\.5 … 62\.5\)/);
  await p.locator('#sinusoidal').evaluate(async (el) => { el.scrollIntoView(); await el.ready; });
  assert.match(await p.$eval('#sinusoidal', (el) => el.shadowRoot.querySelector('pe-heatmap').shadowRoot.querySelector('canvas').getAttribute('aria-label')), /^PE table: .*\. 64 × 32: −1 … 1$/);
  await p.context().close();
});
