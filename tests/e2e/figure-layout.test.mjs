// End to end: no label of a figure collides with another or with a curve (issue 19, craft). Every figure of the page,
// at 1280 and 390 px, in English and Chinese (one browser): the text boxes each building block reports drawing on its
// canvas (ticks, axis labels, cell values, mark and region labels), the DOM texts around it (captions, colour-bar
// values, legends) and the vector labels must not overlap one another; no text inside a chart may cross a curve; every
// text stays inside its canvas and every drawn point inside the plot frame. Rotated column labels are checked by
// their spacing (cell · sin 60° ≥ a line of text) instead of their axis-aligned boxes. A heatmap alone in its figure
// takes at least 40 % of the column at desktop width. Also: a finished sweep hides its
// Cancel button, no button label wraps, and every reference line's label stands within 9 px of its own line (or is in
// the legend). The states the "try this" buttons set are checked too (en at 1280 px, zh at 390 px).
import { test, before, after } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { figureNames, describeFigure } from 'posenc/figures';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { figurePage } from './figure-page.mjs';

const NAMES = figureNames;   // every figure, the config reader's included
const LLAMA31 = readFileSync(new URL('../fixtures/configs/Llama-3.1-8B.json', import.meta.url), 'utf8');
let browser;
before(async () => { browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS }); });
after(async () => { await browser?.close(); });

/** In the page: every collision of one figure, as strings (empty: clean). */
function collisions(name) {
  const NEAR = 9;   // px: a mark's label box to its line (pe-lines places it within 8)
  const el = document.querySelector(`posenc-figure[figure="${name}"]`), out = [];
  const hit = (a, b) => a.x < b.x + b.w - 1 && b.x < a.x + a.w - 1 && a.y < b.y + b.h - 1 && b.y < a.y + a.h - 1;
  const texts = [];
  const dom = (e, who) => { const r = e.getBoundingClientRect(); if (r.width && r.height && e.textContent.trim()) texts.push({ x: r.x, y: r.y, w: r.width, h: r.height, text: e.textContent.trim(), who }); };
  for (const b of el.shadowRoot.querySelectorAll('[data-panel]')) {
    const sr = b.shadowRoot, id = b.dataset.panel;
    for (const e of sr.querySelectorAll('.caption, .axis, .bar span, .cats span, .legend span')) if (!e.closest('[hidden]')) dom(e, `${id} dom`);
    if (b.tagName === 'PE-VEC2') {
      for (const t of sr.querySelectorAll('svg text')) dom(t, `${id} vector`);
      // no vector label on a hand's shaft (plane coordinates: k px per unit, y down), sampled from 15 % of its length out
      const k = 150 / b.range;
      for (const box of b.boxes) if (box?.text) for (const v of b.vectors) for (let s = 0.15; s <= 1.0001; s += 0.01) {
        const x = v.x * k * s, y = -v.y * k * s;
        if (x > box.x && x < box.x + box.w && y > box.y && y < box.y + box.h) { out.push(`${id}: "${box.text}" lies on the hand ${v.id}`); break; }
      }
      continue;
    }
    const c = sr.querySelector('canvas'), r = c.getBoundingClientRect();
    const own = b.textBoxes().map((t) => ({ ...t, x: t.x + r.x, y: t.y + r.y, who: `${id} canvas` }));
    for (const t of own) if (t.x < r.x - 1 || t.y < r.y - 1 || t.x + t.w > r.right + 1 || t.y + t.h > r.bottom + 1) out.push(`${id}: "${t.text}" outside its canvas`);
    if (b.tagName === 'PE-HEATMAP' && own.some((t) => t.rotated)) { const g = b._geometry(); if (g.cell * Math.sin(Math.PI / 3) < 11) out.push(`${id}: rotated labels ${g.cell.toFixed(1)} px apart`); }
    if (b.tagName === 'PE-LINES') {
      const f = b.frameBox();
      for (const run of b.curvePaths()) for (let i = 0; i < run.length; i++) {
        const [x, y] = run[i];
        if (x < f.x - 0.5 || x > f.x + f.w + 0.5 || y < f.y - 0.5 || y > f.y + f.h + 0.5) { out.push(`${id}: a curve point (${x.toFixed(0)}, ${y.toFixed(0)}) outside the frame`); break; }
      }
      // every mark's label by its own line (walk 11-28: config-wavelengths' 2048, rope-phasor, ntk-base at 390 px): its box
      // at most NEAR px from the line's own canvas coordinate (or across it), else listed in the legend under the plot
      const legend = sr.querySelector('.legend')?.textContent ?? '';
      for (const m of b.markLines()) {
        const t = b.textBoxes().find((q) => q.kind === 'label' && q.text === m.label);
        if (!t) { if (!legend.includes(m.label)) out.push(`${id}: the label "${m.label}" is neither drawn nor in the legend`); continue; }
        const gap = m.y !== undefined ? Math.max(0, t.y - m.y, m.y - (t.y + t.h)) : Math.max(0, t.x - m.x, m.x - (t.x + t.w));
        if (gap > NEAR) out.push(`${id}: the label "${m.label}" is ${gap.toFixed(1)} px from its line`);
      }
      for (const t of b.textBoxes()) {
        if (b.curvePaths().some((run) => hitsPath(run, t))) out.push(`${id}: "${t.text}" crosses a curve`);
        if (b.solidBoxes().some((s) => hit(s, t))) out.push(`${id}: "${t.text}" lies on a bar or a dot`);
      }
    }
    texts.push(...own);
  }
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i], b = texts[j];
    if (a.rotated && b.rotated) continue;
    if (hit(a, b)) out.push(`"${a.text}" (${a.who}) overlaps "${b.text}" (${b.who})`);
  }
  for (const btn of el.shadowRoot.querySelectorAll('button')) {
    // wrapped: its text takes more than one line box (phones give every button a 44 px min-height, so not its height)
    const range = document.createRange(); range.selectNodeContents(btn);
    const lines = new Set([...range.getClientRects()].filter((q) => q.width && q.height).map((q) => Math.round(q.top)));
    if (btn.getBoundingClientRect().height && lines.size > 1) out.push(`button "${btn.textContent}" wraps (${lines.size} lines)`);
  }
  // a heatmap alone in its figure uses its column (at desktop width: at least 40 % of it), not a 260 px corner of it
  const maps = el.shadowRoot.querySelectorAll('pe-heatmap'), col = el.shadowRoot.querySelector('.panels').clientWidth;
  if (innerWidth >= 1200 && maps.length === 1 && maps[0].shadowRoot.querySelector('canvas').getBoundingClientRect().width < 0.4 * col) out.push(`the heatmap is ${maps[0].shadowRoot.querySelector('canvas').getBoundingClientRect().width} px in a ${col} px column`);
  const cancel = el.shadowRoot.querySelector('.cancel'), prog = el.shadowRoot.querySelector('.progress');
  if (!prog.hidden && !cancel.hidden) out.push('Cancel still shown after the sweep');
  return out;

  function hitsPath(run, t) {
    for (let i = 0; i + 1 < run.length || i === 0; i++) {
      const [ax, ay] = run[i], [bx, by] = run[Math.min(i + 1, run.length - 1)];
      for (let k = 0; k <= 8; k++) { const x = ax + ((bx - ax) * k) / 8, y = ay + ((by - ay) * k) / 8; if (x > t.x && x < t.x + t.w && y > t.y && y < t.y + t.h) return true; }
      if (run.length < 2) break;
    }
    return false;
  }
}

for (const lang of ['en', 'zh']) for (const width of [1280, 390]) {
  test(`no label collides at ${width} px, ${lang}`, async () => {
    const errors = [], P = await figurePage(NAMES, { lang, width, errors, browser });
    const found = [];
    // closed whatever happens: a figure that throws must fail this test, not keep its server (and the run) alive
    try {
      // the default state of every figure, and (at two of the four settings) the state each "try this" sets
      const withTries = (lang === 'en') === (width === 1280);
      // the config reader's figures also with Llama 3.1's file, as the walk pasted it (its 2048 and 8192 threshold lines)
      for (const name of NAMES) for (const [k, params] of [{}, ...(withTries ? describeFigure(name).tries.map((t) => t.params) : []), ...(name.startsWith('config-') ? [{ config: LLAMA31 }] : [])].entries()) {
        await P.draw(name, params);
        const c = await P.page.evaluate(collisions, name);
        if (c.length) { found.push(`${name}${k ? ` (try ${k})` : ''}: ${c.slice(0, 4).join('; ')}${c.length > 4 ? ` (+${c.length - 4})` : ''}`); await shot(P.page.locator(`posenc-figure[figure="${name}"]`), `layout/${name}-${k}-${lang}-${width}`); }
      }
    } finally { await P.close(); }
    assert.deepEqual(found, []);
    assert.deepEqual(errors, []);
  });
}
