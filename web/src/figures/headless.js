// @ts-check
// A figure as an SVG without a browser (Node: `npx posenc figure <name> … --svg|--png`): the figure computed with the
// posenc API given, its panels laid out for the width asked as the page lays them out (panels.js's rules: full-width
// charts, small multiples two or three to a row, heatmaps sharing the row), and painted by the blocks' own paint()
// into the SVG recorder — the same code as the page's Export menu. The blocks are not elements here: each is its
// class's prototype with the few fields and attributes paint() reads (no DOM, no jsdom); text is measured from font
// metrics (blocks/text.js), since there is no canvas.
import { checkedFigure } from './html.js';
import { tr } from './params.js';
import { PeLines } from './blocks/pe-lines.js';
import { PeHeatmap } from './blocks/pe-heatmap.js';
import { PeVec2 } from './blocks/pe-vec2.js';
import { SvgContext } from './blocks/svgctx.js';
import { setPngEncoder } from './blocks/text.js';
import { fmtReadout } from './blocks/format.js';
import { exportLayout, paintExport, PAD } from './export-layout.js';
import { altTextOf, exportSubtitle, svgWithAlt, checkWidth } from './export-extras.js';
import { LIGHT, DARK } from './theme.js';

/** @typedef {Record<string, any>} Obj */

/** A block without an element: `cls`'s prototype with attributes and the fields its export reads. */
function block(/** @type {any} */ cls, /** @type {Record<string, unknown>} */ attrs, /** @type {Obj} */ fields) {
  const a = new Map(Object.entries(attrs).filter(([, v]) => v != null && v !== false).map(([k, v]) => [k, v === true ? '' : String(v)]));
  return Object.assign(Object.create(cls.prototype), { isConnected: false, shadowRoot: null,
    getAttribute: (/** @type {string} */ n) => a.get(n) ?? null, hasAttribute: (/** @type {string} */ n) => a.has(n) }, fields);
}

/** Widths of charts with `cols` set (small multiples: flex 1 1 calc(33.3% − 14px), min 240 px, 20 px gaps), row by row. */
function multiples(/** @type {number} */ n, /** @type {number} */ W) {
  const per = Math.max(1, Math.min(n, Math.floor((W + 20) / (Math.max(240, W / 3 - 14) + 20)))), out = [];
  for (let i = 0; i < n; i += per) { const k = Math.min(per, n - i); for (let j = 0; j < k; j++) out.push(Math.floor((W - 20 * (k - 1)) / k)); }
  return out;
}

/**
 * Figure `figure` with `params` as an SVG laid out `width` CSS px wide (default 680).
 * @param {import('./params.js').Posenc} pe the posenc API (`await init()` of the package, in Node)
 * @param {{ figure: string, params?: Record<string, string | number | boolean>, width?: number, lang?: 'en' | 'zh', theme?: 'light' | 'dark',
 *   png?: (w: number, h: number, rgba: Uint8ClampedArray) => string }} o png: encodes a large heatmap's pixels (a data: URL)
 * @returns {Promise<{ svg: string, alt: string, title: string, width: number, height: number, readouts: { id: string, value?: number, text: string }[] }>}
 * @throws FigureError naming a bad parameter; PosencError for a bad width
 */
export async function figureSVG(pe, o) {
  const { def, p } = checkedFigure(o), width = o.width ?? 680, lang = o.lang === 'zh' ? 'zh' : 'en', dark = o.theme === 'dark';
  checkWidth(width);
  if (o.png) setPngEncoder(o.png);
  const ctx = { take: (/** @type {number} */ n) => new Float32Array(n), signal: undefined, progress: () => {}, checkpoint: async () => {} };
  const d = /** @type {Obj} */ (def), r = await d.compute(pe, p, ctx), panels = d.panels(p, r), /** @type {Obj} */ out = d.render(r, p, { ms: 0 });
  const t = (/** @type {import('./params.js').Bilingual | string | null | undefined} */ s) => (s == null ? s : tr(s, lang)), W = width - 2 * PAD;
  const vars = Object.fromEntries([...Object.entries(dark ? DARK : LIGHT).map(([k, v]) => [`--pe-${k}`, v]), ['--pe-palette', dark ? 'dark' : 'light']]);
  const heatmaps = panels.filter((/** @type {Obj} */ x) => x.block === 'heatmap' && !x.full).length;
  const small = multiples(panels.filter((/** @type {Obj} */ x) => x.block === 'lines' && x.cols).length, W);
  const blocks = panels.map((/** @type {Obj} */ x) => {
    const o2 = out[x.id], attrs = { caption: t(o2.caption), xlabel: t(o2.xlabel), ylabel: t(o2.ylabel), palette: x.palette, size: x.size, height: x.height,
      range: x.range, 'log-y': !!x.logY, 'data-full': !!x.full, lang };
    if (x.block === 'lines') {
      return block(PeLines, attrs, { _vars: vars, clientWidth: x.cols ? small.shift() : W, _series: o2.series.map((/** @type {Obj} */ s) => ({ ...s, label: t(s.label) })),
        marks: (o2.marks || []).map((/** @type {Obj} */ m) => ({ ...m, label: t(m.label) })), regions: (o2.regions || []).map((/** @type {Obj} */ m) => ({ ...m, label: t(m.label) })) });
    }
    if (x.block === 'heatmap') {
      const el = block(PeHeatmap, attrs, { _vars: vars, _pw: W, parentElement: { clientWidth: W, querySelectorAll: () => ({ length: heatmaps }) } });
      el.update(o2.categories ? { ...o2, categories: o2.categories.map((/** @type {Obj} */ c) => ({ ...c, label: t(c.label) })) } : o2);   // render() returns: not connected
      return el;
    }
    return block(PeVec2, attrs, { _vars: vars, _vectors: o2.vectors });
  });
  /** @type {{ id: string, value?: number, text: string }[]} */
  const readouts = (out.readouts || []).map((/** @type {Obj} */ ro) => ({ id: ro.id, value: Number.isFinite(ro.value) ? ro.value : undefined,
    text: `${t(ro.label)}${lang === 'zh' ? '：' : ': '}${ro.text != null ? t(ro.text) : fmtReadout(ro.value)}${ro.note ? ` — ${t(ro.note)}` : ''}` }));
  const title = tr(def.title, lang), takeaway = tr(def.takeaway, lang);
  const given = Object.entries(o.params ?? {}).map(([k, v]) => /** @type {[string, string]} */ ([k, String(v)]));
  const lay = exportLayout(new SvgContext(0, 0), { W, title, takeaway: exportSubtitle(takeaway, given, lang === 'zh'), readouts: readouts.map((x) => x.text), blocks });
  const g = new SvgContext(lay.W, lay.H);
  paintExport(g, lay, { fg: vars['--pe-fg'], bg: vars['--pe-bg'] });
  const alt = altTextOf({ title, takeaway, params: given, readouts: readouts.map((x) => x.text), zh: lang === 'zh' });
  const svg = svgWithAlt(g.toString(), title, alt).replace(/^<svg\b/, `<svg xml:lang="${lang}"`);
  return { svg, alt, title, width: lay.W, height: lay.H, readouts };
}
