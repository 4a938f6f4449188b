// The iframe that fits: the Embed panel's iframe snippet for rope-decay (the tallest case the blog trial found),
// pasted into a host page on another origin and opened at a phone's width (390 px):
//   - with the snippet's script lines: embed.html posts its height and the iframe takes it — no inner scrollbar, no gap;
//     widening the window shrinks it again;
//   - with scripts stripped (as many platforms do): the height attribute alone, measured by the panel for a phone,
//     still shows the whole figure without an inner scrollbar.
// Also: the Embed panel offers the self-hosted snippet first and the CDN one pinned to package.json's version.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { openPage, CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
let ctx, host, browser, snippet;
const errors = [];
before(async () => {
  ctx = await openPage('/');
  const p = ctx.page;
  await p.locator('#rope-decay').scrollIntoViewIfNeeded();
  await p.$eval('#rope-decay', (el) => el.ready);
  await p.locator('#rope-decay + .embed-bar .embed').click();
  await p.waitForFunction(() => !document.querySelector('#rope-decay + .embed-bar .embed-panel').dataset.measuring, null, { timeout: 30000 });
  snippet = Object.fromEntries(await p.$$eval('#rope-decay + .embed-bar textarea', (els) => els.map((t) => [t.className.replace('snippet-', ''), t.value])));
  const page = (body) => `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:8px">${body}</body></html>`;
  host = await serveStatic({ pages: { '/with.html': page(snippet.iframe), '/stripped.html': page(snippet.iframe.replace(/<script>[\s\S]*?<\/script>/g, '')) } });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); host?.server.close(); await ctx?.close(); });

test('the Embed panel: self-hosted snippet first, then the CDN pinned to package.json\'s version with the mainland China note', async () => {
  const keys = await ctx.page.$$eval('#rope-decay + .embed-bar textarea', (els) => els.map((t) => t.className));
  assert.deepEqual(keys, ['snippet-script', 'snippet-cdn', 'snippet-iframe']);
  assert.match(snippet.script, /^<script type="module" src="\/posenc\/figures\.js"><\/script>\n<posenc-figure figure="rope-decay"><\/posenc-figure>$/);
  assert.equal(snippet.cdn.split('\n')[0], `<script type="module" src="https://cdn.jsdelivr.net/npm/posenc@${version}/dist/figures.js"></script>`);
  const note = await ctx.page.$eval('#rope-decay + .embed-bar [data-key="cdn"]', (el) => el.textContent);
  assert.match(note, /mainland China/);
  assert.ok(note.includes(`registry.npmmirror.com/posenc/${version}/files/dist/figures.js`));
});

async function frameOf(path, width) {
  const p = await browser.newPage({ viewport: { width, height: 800 } });
  p.on('console', (m) => { if (m.type() === 'error') errors.push(`${path}: ${m.text()}`); });
  p.on('pageerror', (e) => errors.push(`${path}: ${e}`));
  await p.goto(`${host.origin}${path}`);
  const frame = await (await p.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { p, frame };
}
/** The iframe's inner page: its content height and whether it scrolls (an inner scrollbar). */
const inner = (frame) => frame.evaluate(() => ({ content: Math.ceil(document.body.getBoundingClientRect().height),
  scrolls: document.documentElement.scrollHeight > document.documentElement.clientHeight, viewport: innerHeight }));

/** Waits until the iframe's height equals its content's (the message applied); returns inner(frame). */
async function fitted(p, frame) {
  for (let t = 0; t < 50; t++) {
    const i = await inner(frame);
    if (Math.abs(i.viewport - i.content) <= 1) return i;
    await p.waitForTimeout(200);
  }
  return inner(frame);
}

test('390 px with the snippet\'s script: the iframe takes the figure\'s height (no inner scrollbar, no gap); wider, it shrinks', async () => {
  const { p, frame } = await frameOf('/with.html', 390);
  await fitted(p, frame);
  let i = await inner(frame);
  assert.equal(i.scrolls, false, `inner scrollbar at 390 px: ${JSON.stringify(i)}`);
  assert.ok(Math.abs(i.viewport - i.content) <= 1, `iframe ${i.viewport} px for ${i.content} px of content`);
  assert.ok(i.content > 900, `rope-decay on a phone is tall (${i.content} px)`);
  await shot(p, 'embed-fit/390-script', { fullPage: true });
  const phone = i.content;
  await p.setViewportSize({ width: 1100, height: 800 });
  await p.waitForFunction((h) => document.querySelector('iframe').clientHeight < h - 50, phone, { timeout: 10000 });
  i = await fitted(p, frame);
  assert.equal(i.scrolls, false);
  assert.ok(Math.abs(i.viewport - i.content) <= 1, `wide: iframe ${i.viewport} px for ${i.content} px`);
  await p.close();
});

test('390 px with scripts stripped: the height attribute alone shows the whole figure', async () => {
  const { p, frame } = await frameOf('/stripped.html', 390);
  const i = await inner(frame);
  assert.equal(i.scrolls, false, `inner scrollbar: ${JSON.stringify(i)}`);
  assert.ok(i.viewport - i.content < 120, `no large gap below the figure: ${JSON.stringify(i)}`);
  await shot(p, 'embed-fit/390-stripped', { fullPage: true });
  await p.close();
});

test('no console errors', () => { assert.deepEqual([...errors, ...ctx.errors], []); });
