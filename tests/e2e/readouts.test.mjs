// @ts-check
// Read-outs for people (issue 28): every number the page prints as a read-out — the figures' read-outs, status lines
// and tables (in their shadow roots), the page's own outputs, checks and tables — in English and Chinese, in every
// figure's default state and after each "Try this" (English), carries none of the patterns a program prints and a
// person should not read: an exponent in e-notation (0.00e+0, 2.679e-1), float noise (7.999999, 1.0000001), a negative
// zero (−0.00), NaN / undefined; and in Chinese every read-out label ends with the full-width colon.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, settled } from './browser.mjs';

/** @type {[RegExp, string][]} */
const BAD = [
  [/\d(?:\.\d+)?e[+\-−]?\d/i, 'e-notation'],
  [/\d\.\d*(?:9{5,}\d|0{5,}[1-9])/, 'float noise'],
  [/(?:^|[^\d.,\w])[−-]0(?:\.0+)?(?![\d.])/, 'negative zero'],
  [/\bNaN\b|\bundefined\b/, 'NaN or undefined'],
];
/** The patterns that a text breaks. @param {string} s */
const breaks = (s) => BAD.filter(([re]) => re.test(s)).map(([, why]) => why);

test('the patterns catch what the walk of 2026-11-26 saw, and pass what the page should print', () => {
  for (const s of ['0.00e+0', 'max |S′ − P S Pᵀ|: 2.679e-1 / 1.500e+0', 'score 7.999999', '1.0000001', 'max |Δ| = -0.00', '−0', 'x = NaN', '1.19209e−7'])
    assert.notDeepEqual(breaks(s), [], s);
  for (const s of ['0', '1.19×10⁻⁷', '8', '0.2658 − 0.0250', '35 332.9', '1 048 576', 'n − m = −2', '−0.4', 'rows 0…63', 'θ = 1.000, 0.0100', 'layer 10 · 0.5'])
    assert.deepEqual(breaks(s), [], s);
});

/** @type {Awaited<ReturnType<typeof openPage>>} */
let ctx;
before(async () => { ctx = await openPage('/', { width: 1280, height: 1000 }); });
after(async () => { await ctx?.close(); });

/** Every figure painted (scrolled into view), then every read-out text of the page: [where, text]. @param {import('playwright-core').Page} p */
async function readouts(p) {
  await p.evaluate(async () => {
    for (const f of /** @type {NodeListOf<any>} */ (document.querySelectorAll('main posenc-figure'))) {
      if (!f.checkVisibility()) continue;
      f.scrollIntoView(); await f.ready?.catch(() => {});
    }
  });
  await settled(p);
  return p.evaluate(() => {
    /** @type {[string, string][]} */
    const out = [];
    const text = (/** @type {Element} */ e) => /** @type {HTMLElement} */ (e).innerText ?? e.textContent ?? '';
    for (const f of document.querySelectorAll('main posenc-figure')) {
      const r = f.shadowRoot;
      if (!r) continue;
      for (const e of r.querySelectorAll('.readouts p, .status, .tables td, .tables th')) out.push([`#${f.id}`, text(e)]);
    }
    for (const e of document.querySelectorAll('main output, main .readout, main .check, main table.nums td, main #s4x-table td'))
      if (/** @type {HTMLElement} */ (e).checkVisibility()) out.push([e.id ? `#${e.id}` : e.closest('[id]')?.id ?? '?', text(e)]);
    return out;
  });
}

for (const lang of ['en', 'zh']) {
  test(`read-outs for people, ${lang}: every figure's default state`, async () => {
    const p = lang === 'en' ? ctx.page : await ctx.open(`/?lang=${lang}`);
    const all = await readouts(p);
    assert.ok(all.length >= 150, `read-outs scanned: ${all.length}`);
    const bad = all.map(([where, s]) => [where, s, breaks(s).join(', ')]).filter((x) => x[2]);
    assert.deepEqual(bad, []);
    if (lang === 'zh') {
      // a figure's read-out label ends with the full-width colon; the page's own read-outs have no ASCII colon after Chinese
      const labels = await p.$$eval('main posenc-figure', (fs) => fs.flatMap((f) => [...(f.shadowRoot?.querySelectorAll('.readouts p') ?? [])].map((q) => q.firstChild?.textContent ?? '')));
      assert.ok(labels.length >= 40, `figure read-outs: ${labels.length}`);
      assert.deepEqual(labels.filter((l) => !l.endsWith('：')), []);
      assert.deepEqual(all.filter(([, s]) => /[\u3400-\u9fff）]: /.test(s)), []);
    }
    if (p !== ctx.page) await p.context().close();
  });
}

test('read-outs for people after every "Try this" (en)', async () => {
  const p = await ctx.open('/');
  // the tries a reader can press: not those of a hidden figure (the config reader's M-RoPE box, shown for an M-RoPE model)
  const tries = await p.$$eval('[data-try] button', (bs) => bs.flatMap((b, i) => (b.checkVisibility() ? [i] : [])));
  assert.ok(tries.length >= 25, `tries: ${tries.length}`);
  /** @type {string[][]} */
  const bad = [];
  for (const i of tries) {
    const id = await p.$$eval('[data-try] button', (bs, k) => { const b = /** @type {HTMLButtonElement} */ (bs[k]); b.scrollIntoView(); b.click(); return b.closest('[data-try]')?.getAttribute('data-try') ?? ''; }, i);
    await p.$eval(`#${id}`, async (f) => { await new Promise((r) => setTimeout(r, 50)); await /** @type {any} */ (f).ready?.catch(() => {}); });
    const texts = await p.$eval(`#${id}`, (f) => [...(f.shadowRoot?.querySelectorAll('.readouts p, .status, .tables td') ?? [])].map((e) => /** @type {HTMLElement} */ (e).innerText));
    for (const s of texts) if (breaks(s).length) bad.push([`${id} try ${i}`, s, breaks(s).join(', ')]);
  }
  assert.deepEqual(bad, []);
  await p.context().close();
});
