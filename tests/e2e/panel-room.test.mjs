// A figure keeps its panels' room until it paints (web/src/figures/panel-room.js): what follows it on the page does
// not move when it arrives. For every figure of the page, at a desktop's and a phone's width: the room a copy of it
// keeps before its first paint (a copy placed far below the screen: it never computes, and its observer's first report
// gives it its width) against the height of the original's panels once painted. Line plots: never more than painted
// (a long caption or legend may wrap: the room is then short, never long) and within 20 %; heatmaps (taken as square; word labels make them smaller): within a third; a vector plane or a strip: none.
// And in all: the page under the figures moves at least 80 % less than with the element's former 260 px floor.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CHROMIUM_ARGS } from './browser.mjs';

const PX = 2, LINES_TOL = 0.2, MAPS_TOL = 1 / 3, FLOOR = 260;
let browser, server, base;
before(async () => {
  server = await serve(0); base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); server?.close(); });

for (const width of [1280, 390]) {
  test(`each figure keeps the room its panels take once painted (${width} px)`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true', null, { timeout: 60000 });
    const rows = await page.evaluate(async () => {
      const figs = [...document.querySelectorAll('main posenc-figure[id]')].filter((f) => f.checkVisibility());
      const far = document.createElement('div');
      Object.assign(far.style, { position: 'absolute', left: '0', top: `${document.documentElement.scrollHeight + 20000}px`, width: `${figs[0].getBoundingClientRect().width}px` });
      document.body.append(far);
      const copies = figs.map((f) => { const c = document.createElement('posenc-figure'); for (const a of f.attributes) if (a.name !== 'id' && a.name !== 'data-prerender') c.setAttribute(a.name, a.value); far.append(c); return c; });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const f of figs) { f.scrollIntoView(); await Promise.race([f.ready.catch(() => {}), new Promise((r) => setTimeout(r, 20000))]); }
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300)));
      const out = figs.map((f, i) => {
        const panels = /** @type {HTMLElement} */ (f.shadowRoot?.querySelector('.panels'));
        return { id: f.id, blocks: [...panels.children].map((b) => b.tagName.toLowerCase() + (b.hasAttribute('data-full') ? '-full' : '')),
          room: copies[i].shadowRoot?.querySelector('.panels')?.style.minHeight ?? '', painted: Math.round(panels.getBoundingClientRect().height), shownPanels: !panels.hidden };
      });
      far.remove();
      return out;
    });
    assert.ok(rows.length >= 40, `${rows.length} figures`);
    let estimated = 0, moved = 0, movedBefore = 0;
    const off = [];
    for (const r of rows) {
      const room = parseFloat(r.room) || 0;
      if (!r.shownPanels || !r.blocks.length) continue;   // a state with nothing to draw
      if (r.blocks.some((b) => b === 'pe-vec2' || b.endsWith('-full'))) { assert.equal(room, 0, `${r.id}: no estimate for ${r.blocks}`); continue; }
      if (!room) continue;   // panels that need the result (config-mrope, explorer…)
      estimated += 1;
      moved += Math.abs(room - r.painted); movedBefore += Math.abs(Math.max(FLOOR, 0) - r.painted);
      const lines = r.blocks.every((b) => b === 'pe-lines');
      const ok = lines ? room <= r.painted + PX && r.painted - room <= LINES_TOL * r.painted : Math.abs(room - r.painted) <= MAPS_TOL * r.painted;
      if (!ok) off.push(`${r.id} (${r.blocks}): room ${room} px, painted ${r.painted} px`);
    }
    assert.deepEqual(off, []);
    assert.ok(moved <= 0.2 * movedBefore, `the page under the figures moves ${moved} px in all (with a 260 px floor: ${movedBefore} px)`);
    console.log(`# ${width} px: ${estimated} figures keep a room; the page under them moves ${moved} px in all (with a 260 px floor: ${movedBefore} px)`);
    assert.ok(estimated >= 30, `figures with a room kept: ${estimated}`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
