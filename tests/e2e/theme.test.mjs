// The figures' theme (theme.js): theme="auto" (the default) follows the host page — the markers the blog engines set
// (VitePress html.dark, Docusaurus data-theme, Hexo Fluid data-user-color-scheme, …), else the page's own background
// (pages that switch by @media prefers-color-scheme), and a page without a dark mode stays light; switching at runtime
// repaints. Contrast: in both themes, every figure's SVG export (the same drawing code as the canvas and the PNG) is
// read here, and each colour drawn is checked against the figure's background with WCAG 2's contrast ratio, computed
// in this file: text ≥ 4.5:1, curves, marks and legend swatches ≥ 3:1 (WCAG 1.4.3 and 1.4.11). Grid lines and
// translucent bands are decoration and exempt; heatmap cells are data colours (their colour bars label them).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { figureNames } from 'posenc/figures';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const TEXT_MIN = 4.5, CURVE_MIN = 3;

// WCAG 2.x relative luminance and contrast ratio (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance)
const rgb = (c) => {
  let m = /^#([0-9a-f]{6})$/i.exec(c);
  if (m) return [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(c);
  if (m) return [+m[1], +m[2], +m[3]];
  throw new Error(`colour not understood: ${c}`);
};
const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };

const page = (html, body, head = '') => `<!doctype html><html lang="en"${html}><head><meta charset="utf-8">${head}
<script type="module" src="/pkg/figures.js"></script></head><body${body}>`;
const all = figureNames.map((n) => `<posenc-figure figure="${n}"></posenc-figure>`).join('\n');
const one = '<posenc-figure figure="rope-decay" window="4096" base2="0"></posenc-figure>';
const mediaCss = '<style>body { background: #fff; } @media (prefers-color-scheme: dark) { body { background: #121212; color: #eee; } }</style>';
let S, browser;
const errors = [];
before(async () => {
  S = await serveStatic({ mounts: { '/pkg/': dist }, pages: {
    '/light-all.html': page('', '') + all,
    '/dark-all.html': page(' class="dark"', ' style="background:#1b1b1f"') + all,   // VitePress's marker and background
    '/plain.html': page('', '') + one,
    '/vitepress.html': page(' class="dark"', '') + one,
    '/docusaurus.html': page(' data-theme="dark"', '') + one,
    '/fluid.html': page(' data-user-color-scheme="dark"', '') + one,
    '/media.html': page('', '', mediaCss) + one,
    '/marker-wins.html': page(' data-theme="light"', '', mediaCss) + one,
    '/forced.html': page(' class="dark"', '') + one.replace('<posenc-figure', '<posenc-figure theme="light"'),
  } });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); S?.server.close(); });

async function open(path, colorScheme = 'light') {
  const p = await browser.newPage({ viewport: { width: 1000, height: 900 }, colorScheme });
  p.on('console', (m) => { if (m.type() === 'error') errors.push(`${path}: ${m.text()}`); });
  p.on('pageerror', (e) => errors.push(`${path}: ${e}`));
  await p.goto(`${S.origin}${path}`);
  await p.waitForFunction(() => customElements.get('posenc-figure'));
  return p;
}
const bg = (p, sel = 'posenc-figure') => p.$eval(sel, (el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim());
/** Scrolls to each figure in turn (they compute near the viewport) and waits for it: 'ok' or the error, per figure. */
const readyAll = (p) => p.$$eval('posenc-figure', async (els) => {
  const out = [];
  for (const el of els) { el.scrollIntoView(); out.push(await el.ready.then(() => 'ok', (e) => `${el.getAttribute('figure')}: ${e.message}`)); }
  return out;
});

/** Every colour the SVG export draws, by role, with the background (the first rect). */
function drawnColours(svg) {
  const background = /<rect [^>]*fill="([^"]+)"/.exec(svg)[1], text = [], curve = [];
  // a text drawn on something else than the background (a heatmap cell's value) names that colour in data-bg
  for (const m of svg.matchAll(/<text [^>]*fill="([^"]+)"[^>]*>([^<]*)</g)) {
    text.push({ c: m[1], on: /data-bg="([^"]+)"/.exec(m[0])?.[1], what: `text "${m[2]}"` });
  }
  for (const m of svg.matchAll(/<path [^>]*\/>/g)) {
    const s = /stroke="([^"]+)"/.exec(m[0])?.[1], f = /fill="([^"]+)"/.exec(m[0])?.[1];
    if (/opacity=/.test(m[0])) continue;                                    // translucent bands and regions
    if (s && s !== 'none') curve.push({ c: s, what: 'stroke' });
    else if (f && f !== 'none') curve.push({ c: f, what: 'filled path (bar, arrow head)' });
  }
  for (const m of svg.matchAll(/<rect [^>]*width="18" height="3" fill="([^"]+)"/g)) curve.push({ c: m[1], what: "legend swatch" });   // pe-lines: 18 × 3
  return { background, text, curve };
}

for (const [theme, path, expectBg] of [['light', '/light-all.html', '#ffffff'], ['dark', '/dark-all.html', '#17171a']]) {
  test(`${theme}: every figure's drawn text ≥ ${TEXT_MIN}:1 and curves ≥ ${CURVE_MIN}:1 against its background`, async () => {
    const p = await open(path);
    assert.deepEqual((await readyAll(p)).filter((r) => r !== 'ok'), []);
    const out = await p.$$eval('posenc-figure', (els) => els.map((el) => ({ name: el.getAttribute('figure'), svg: el.toSVG(),
      grid: getComputedStyle(el).getPropertyValue('--pe-grid').trim() })));
    const bad = [];
    let checked = 0;
    for (const { name, svg, grid } of out) {
      const d = drawnColours(svg);
      assert.equal(d.background, expectBg, `${name}: export background`);
      for (const { c, on = d.background, what } of d.text) { checked++; if (contrast(c, on) < TEXT_MIN) bad.push(`${name}: ${what} ${c} on ${on} ${contrast(c, on).toFixed(2)}:1`); }
      for (const { c, what } of d.curve) {
        if (c.toLowerCase() === grid.toLowerCase()) continue;               // grid lines: decoration
        checked++; if (contrast(c, d.background) < CURVE_MIN) bad.push(`${name}: ${what} ${c} ${contrast(c, d.background).toFixed(2)}:1`);
      }
    }
    assert.ok(checked > 500, `colours checked: ${checked}`);
    assert.deepEqual([...new Set(bad)], []);
    // rope-decay's bound panel, the case the blog trial found: its dashed bound curve is drawn in the theme's colour
    const rd = out.find((o) => o.name === 'rope-decay').svg;
    const dashed = [...rd.matchAll(/<path [^>]*stroke="([^"]+)"[^>]*stroke-dasharray="6 3"/g)].map((m) => m[1]);
    assert.ok(dashed.length >= 1);
    for (const c of dashed) assert.ok(contrast(c, expectBg) >= CURVE_MIN, `bound curve ${c} on ${expectBg}`);
    await shot(p.locator('posenc-figure[figure="rope-decay"]'), `theme/rope-decay-${theme}`);
    await p.close();
  });
}

test('theme="auto" follows the engines\' markers and the page\'s own dark mode; a page without one stays light', async () => {
  const cases = [['/plain.html', 'light', '#ffffff'], ['/plain.html', 'dark', '#ffffff'],   // no dark mode on the page: light
    ['/vitepress.html', 'light', '#17171a'], ['/docusaurus.html', 'light', '#17171a'], ['/fluid.html', 'light', '#17171a'],
    ['/media.html', 'dark', '#17171a'], ['/media.html', 'light', '#ffffff'], ['/marker-wins.html', 'dark', '#ffffff'],
    ['/forced.html', 'light', '#ffffff']];
  for (const [path, scheme, want] of cases) {
    const p = await open(path, scheme);
    assert.equal(await bg(p), want, `${path} with prefers-color-scheme: ${scheme}`);
    await p.close();
  }
});

test('switching the page\'s theme at runtime repaints the figure (marker and prefers-color-scheme)', async () => {
  // light pixels of the bound panel's canvas: its dashed bound curve is #FFFFFF in the dark theme, #000000 in the light
  const whitePixels = (p) => p.$eval('posenc-figure', (el) => {
    const c = el.shadowRoot.querySelector('[data-panel="bound"]').shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] > 240 && d[i + 1] > 240 && d[i + 2] > 240 && d[i + 3] > 240) n++;
    return n;
  });
  const p = await open('/docusaurus.html');
  assert.deepEqual(await readyAll(p), ['ok']);
  assert.ok(await whitePixels(p) > 100, 'dark: the bound curve is drawn light');
  await p.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  await p.waitForFunction(() => getComputedStyle(document.querySelector('posenc-figure')).getPropertyValue('--pe-bg').trim() === '#ffffff');
  assert.equal(await whitePixels(p), 0, 'light: no light pixels left on the transparent canvas');
  await p.close();

  const q = await open('/media.html', 'light');
  assert.deepEqual(await readyAll(q), ['ok']);
  assert.equal(await bg(q), '#ffffff');
  await q.emulateMedia({ colorScheme: 'dark' });
  await q.waitForFunction(() => getComputedStyle(document.querySelector('posenc-figure')).getPropertyValue('--pe-bg').trim() === '#17171a');
  assert.ok(await whitePixels(q) > 100);
  const png = await q.$eval('posenc-figure', async (el) => { const b = await createImageBitmap(await el.toPNG({ scale: 1 })); const c = new OffscreenCanvas(4, 4).getContext('2d'); c.drawImage(b, 0, 0); return [...c.getImageData(1, 1, 1, 1).data]; });
  assert.deepEqual(png, [0x17, 0x17, 0x1a, 255], 'the PNG export follows');
  await q.close();
});

test('no console errors', () => { assert.deepEqual(errors, []); });
