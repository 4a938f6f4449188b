// The page's first figure drawn at build time (web/site/first-paint.js, issue 34): the pictures inside §1's
// <posenc-figure id="permutation"> exist as files, hold the numbers the live figure computes, stand in for it until it
// paints (the picture of the page's language, colours and width), and give way to it once it has painted; without
// scripts they are the figure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CSP } from '../../web/site/csp.js';
import { CHROMIUM_ARGS } from './browser.mjs';

const SITE = new URL('../../build/site/', import.meta.url);
const html = readFileSync(new URL('index.html', SITE), 'utf8');
const figure = /<posenc-figure id="permutation"[^>]*>([\s\S]*?)<\/posenc-figure>/.exec(html)?.[1] ?? '';
let browser, server, base;
before(async () => {
  server = await serve(0); base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); server?.close(); });

/** The numbers an SVG draws as text (the heatmaps' cells and colour bars, the read-outs), sorted. */
const numbers = (/** @type {string} */ svg) => [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].trim())
  .filter((t) => /^[−-]?\d+(?:\.\d+)?$/.test(t)).sort();
/** What a page at `path` shows of the figure's children: [class, lang, the image's file] of each picture on display. */
const shown = (page) => page.evaluate(() => [...document.querySelectorAll('#permutation > picture')]
  .filter((p) => /** @type {HTMLElement} */ (p).checkVisibility())
  .map((p) => [p.className, p.lang, /** @type {HTMLImageElement} */ (p.querySelector('img')).currentSrc.split('/').pop(), /** @type {HTMLImageElement} */ (p.querySelector('img')).naturalWidth > 0]));

test('the first figure carries its pictures: English and Chinese, light and dark, desktop and phone, as files of the site', () => {
  const pictures = [...figure.matchAll(/<picture class="first-paint (light|dark)" lang="(en|zh)"><source media="\(max-width: 420px\)" srcset="\.\/([^"]+)" width="374" height="\d+"><img src="\.\/([^"]+)" width="988" height="\d+" alt="([^"]+)"/g)];
  assert.deepEqual(pictures.map((m) => `${m[2]}-${m[1]}`), ['en-light', 'en-dark', 'zh-light', 'zh-dark'], figure.slice(0, 300));
  for (const m of pictures) {
    for (const f of [m[3], m[4]]) assert.ok(existsSync(new URL(f, SITE)), `${f} is in the site`);
    assert.match(m[3], new RegExp(`^assets/permutation-${m[2]}-${m[1]}-374-[0-9a-f]{10}\\.svg$`));
    assert.match(m[4], new RegExp(`^assets/permutation-${m[2]}-${m[1]}-988-[0-9a-f]{10}\\.svg$`));
    assert.match(m[5], m[2] === 'en' ? /^Attention cannot see word order\. / : /^注意力看不到语序。没有位置编码时/, 'the alt text is the figure\'s own, in its language');
  }
});

test('the picture shows what the live figure computes, stands in for it until it paints, and then gives way', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('body[data-ready="true"]');
  // far below the first screen the figure has not computed yet: its picture stands in for it
  assert.equal(await page.getAttribute('#permutation', 'data-placeholder'), '');
  const [first] = await shown(page);
  assert.deepEqual(first.slice(0, 2), ['first-paint light', 'en']);
  assert.match(first[2], /^permutation-en-light-988-/);
  const drawn = readFileSync(new URL(`assets/${first[2]}`, SITE), 'utf8');
  await page.locator('#permutation').scrollIntoViewIfNeeded();
  await page.evaluate(() => /** @type {any} */ (document.getElementById('permutation')).ready);
  assert.equal(await page.getAttribute('#permutation', 'data-placeholder'), null, 'painted: the figure shows itself');
  assert.deepEqual(await shown(page), [], 'no picture on display beside the live figure');
  // the same numbers: every cell value, colour-bar value and read-out number of the picture drawn in Node at build
  // time is the live figure's (the same default parameters, computed again by the wasm core in the browser)
  const live = await page.evaluate(() => /** @type {any} */ (document.getElementById('permutation')).toSVG());
  const a = numbers(drawn), b = numbers(live);
  assert.ok(a.length >= 27, `the picture draws the three 3 × 3 maps' values (${a.length} numbers)`);
  assert.deepEqual(a, b);
  await context.close();
});

test('without scripts the picture is the figure: the page\'s colours, the phone\'s drawing at 420 px and less', async () => {
  for (const [width, colorScheme, want] of /** @type {const} */ ([[1280, 'light', 'en-light-988'], [1280, 'dark', 'en-dark-988'], [390, 'light', 'en-light-374']])) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/#permutation`, { waitUntil: 'load' });
    const s = await shown(page);
    assert.equal(s.length, 1, JSON.stringify(s));
    assert.match(s[0][2], new RegExp(`^permutation-${want}-[0-9a-f]{10}\\.svg$`));
    assert.equal(s[0][3], true, 'loaded');
    const box = await page.locator('#permutation > picture:visible img').boundingBox();
    assert.ok(box && Math.abs(box.width - (width === 390 ? 374 : 988)) <= 2, `drawn at the column's width (${box?.width} px)`);
    await context.close();
  }
});

// The swap moves nothing: the picture is as tall as the live figure (its controls and Export bar included) and its
// maps begin where the live figure's do (first-paint.js draws it with that room), at the widths where the picture is
// shown; in between (where the live figure wraps its maps otherwise) there is no picture and the figure paints itself
// as before.
test('the swap from picture to figure moves nothing: the same height, the maps in the same place (1280 and 390 px, en and zh); at 900 px no picture stands in', async () => {
  for (const [width, lang, tol] of /** @type {const} */ ([[1280, 'en', 6], [1280, 'zh', 6], [390, 'en', 16], [390, 'zh', 16], [900, 'en', null]])) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/?lang=${lang}`);
    await page.waitForSelector('body[data-ready="true"]');
    const height = () => page.evaluate(() => document.getElementById('permutation').getBoundingClientRect().height);
    const before = await height(), placeholder = await page.getAttribute('#permutation', 'data-placeholder');
    // where the picture's maps begin: the first drawn transform's y in the SVG file, at the picture's scale
    const pic = await page.evaluate(() => {
      const f = /** @type {HTMLElement} */ (document.getElementById('permutation'));
      const img = [...f.querySelectorAll('picture')].find((p) => p.checkVisibility())?.querySelector('img');
      const source = /** @type {HTMLSourceElement | null | undefined} */ (img?.parentElement?.querySelector('source'));
      const chosen = source && matchMedia(source.media).matches ? source : null;   // the drawing the picture shows (loaded or not: lazy)
      return img ? { src: (chosen?.srcset ?? img.getAttribute('src') ?? '').split('/').pop(), top: img.getBoundingClientRect().top - f.getBoundingClientRect().top,
        scale: img.getBoundingClientRect().width / Number(chosen?.getAttribute('width') ?? img.getAttribute('width')) } : null;
    });
    await page.locator('#permutation').scrollIntoViewIfNeeded();
    await page.evaluate(() => /** @type {any} */ (document.getElementById('permutation')).ready);
    await page.waitForTimeout(100);
    const after = await height();
    const panels = await page.evaluate(() => { const f = /** @type {HTMLElement} */ (document.getElementById('permutation'));
      return /** @type {HTMLElement} */ (f.shadowRoot?.querySelector('.panels')).getBoundingClientRect().top - f.getBoundingClientRect().top; });
    if (tol === null) assert.equal(placeholder, null, `${width} px: no picture on display, no stand-in`);
    else {
      assert.equal(placeholder, '', `${width} px ${lang}: the picture stands in`);
      assert.ok(Math.abs(after - before) <= tol, `${width} px ${lang}: ${before.toFixed(0)} px with the picture, ${after.toFixed(0)} px live (tolerance ${tol})`);
      assert.ok(pic);
      const first = Number(/transform="matrix\([-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ ([-\d.]+)\)"/.exec(readFileSync(new URL(`assets/${pic.src}`, SITE), 'utf8'))?.[1]);
      const drawn = pic.top + first * pic.scale;
      assert.ok(Math.abs(drawn - panels) <= tol, `${width} px ${lang}: the maps begin at ${drawn.toFixed(0)} px in the picture, ${panels.toFixed(0)} px live (tolerance ${tol})`);
    }
    await context.close();
  }
});

test('in Chinese, the Chinese picture stands in for the figure', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/?lang=zh`);
  await page.waitForSelector('body[data-ready="true"]');
  const s = await shown(page);
  assert.deepEqual(s.map((x) => x.slice(0, 2)), [['first-paint light', 'zh']]);
  await context.close();
});

// A link into the page lands on its target and stays there while the page builds itself (web/site/hold-hash.js): the
// figures take their heights and the formulas theirs only once the page's code runs (the page grows from about 35,000 to
// 64,000 px at 1280), and before the hold the browser's scroll anchoring kept only part of that — a link to #rope-decay
// left the reader about 6,000 px above the figure. The reader's own scroll lets go: nothing pulls the page back.
test('a link lands on its target and stays there while the page builds itself (1280 and 390 px); a scroll lets go', async () => {
  for (const [width, id] of /** @type {const} */ ([[1280, 'rope-decay'], [390, 'rope-decay'], [1280, 'config-reader']])) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/#${id}`);
    await page.waitForSelector('body[data-ready="true"]');
    // the formulas and figures below the first screen come in slices after the first figures: wait for the last
    await page.waitForFunction(() => document.querySelectorAll('[data-tex-k]:not([data-tex-set])').length === 0, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const top = await page.evaluate((i) => document.getElementById(i).getBoundingClientRect().top, id);
    const bar = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--toc-h')));
    assert.ok(Math.abs(top - (bar + 4)) <= 2, `${width} px #${id}: its top ${top.toFixed(0)} px, under the contents bar (${bar} px + 4)`);
    await context.close();
  }
  // the reader scrolls away while the page still builds: the page stays where the reader put it
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/#rope-decay`, { waitUntil: 'domcontentloaded' });
  await page.mouse.move(600, 500);
  await page.mouse.wheel(0, -3000);
  await page.waitForFunction(() => scrollY > 0);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForTimeout(500);
  const top = await page.evaluate(() => document.getElementById('rope-decay').getBoundingClientRect().top);
  assert.ok(top > 1000, `scrolled away: the figure is not pulled back (its top ${top.toFixed(0)} px)`);
  await context.close();
});

// The browser itself scrolls to a link's target only once the whole document is parsed (Chromium: a cold 390 px load
// showed the page's top for 1.0–1.3 s); the page's inline land.js puts it in view as soon as the target and the style
// sheets are there. Here index.html comes in two parts, the second only once the test has looked: while the document
// is still loading, the target already stands under the contents bar.
test('a link lands on its target while the document still loads (land.js), at 390 and 1280 px', async () => {
  const cut = html.indexOf('<section id="s2"');   // §1 whole (the first figure, and room below it to scroll it up)
  for (const width of [390, 1280]) {
    /** @type {() => void} */
    let release = () => {};
    const held = new Promise((resolve) => { release = () => resolve(undefined); });
    const slow = createServer(async (req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-cache' });
        res.write(html.slice(0, cut));
        await held;
        res.end(html.slice(cut));
        return;
      }
      const r = await fetch(base + req.url);
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/octet-stream', 'content-security-policy': CSP });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise((resolve) => slow.listen(0, '127.0.0.1', () => resolve(undefined)));
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    // closed whatever happens: a failed assertion must fail the test, not leave the server holding the run open
    try {
      const page = await context.newPage();
      const violations = [];
      page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
      await page.goto(`http://127.0.0.1:${/** @type {any} */ (slow.address()).port}/#permutation`, { waitUntil: 'commit' });
      const landed = await page.waitForFunction(() => {
        const t = document.getElementById('permutation');
        if (!t || document.readyState !== 'loading') return false;
        const margin = parseFloat(getComputedStyle(t).scrollMarginTop) || 0;
        return scrollY > 0 && Math.abs(t.getBoundingClientRect().top - margin) <= 2 ? { state: document.readyState, y: scrollY } : false;
      }, null, { timeout: 15000, polling: 50 }).then((h) => h.jsonValue(), (e) => e.message);
      release();
      assert.equal(typeof landed, 'object', `${width} px: the target in view while loading (${landed})`);
      assert.equal(landed.state, 'loading');
      await page.waitForSelector('body[data-ready="true"]');
      assert.deepEqual(violations, [], 'the inline script is the one the policy allows');
    } finally {
      release();
      await context.close();
      slow.closeAllConnections(); slow.close();
    }
  }
});
