// @ts-check
// The layout of a whole-figure export (PNG, SVG; in a page and headless): title and takeaway wrapped to the width,
// the panels flowed in rows as the page lays them out, the read-outs wrapped below — then painted into a 2D context
// (a canvas, or the SVG recorder) by the blocks' own paint(). Used by <posenc-figure> (element.js) and by the
// command line's --svg/--png (headless.js), so both give the same picture for the same width.
import { FONT } from './blocks/base.js';
import { wrapText } from './blocks/text.js';

/** @typedef {{ exportSize(g: unknown): { w: number, h: number }, paint(g: unknown): void }} Paintable */
/** @typedef {{ s: string, font: string }} Line */
/** @typedef {{ W: number, H: number, head: Line[], items: { el: Paintable, x: number, y: number }[], foot: Line[], footY: number, pad: number }} ExportLayout */

export const PAD = 12;
const TITLE = `700 15px ${FONT}`, TAKEAWAY = `13px ${FONT}`, READOUT = `12px ${FONT}`;

/**
 * Lays out an export `W` CSS px wide for the panels (the image is W + 2 × 12 px wide: a margin each side).
 * @param {any} g a 2D context (measures the blocks' legends)
 * @param {{ W: number, title?: string | null, takeaway?: string | null, readouts?: string[], blocks: Paintable[] }} o
 * @returns {ExportLayout}
 */
export function exportLayout(g, { W, title, takeaway, readouts = [], blocks }) {
  const pad = PAD, text = W;   // text wraps within the panels' width
  /** @type {Line[]} */
  const head = [...(title ? wrapText(title, TITLE, text).map((s) => ({ s, font: TITLE })) : []),
    ...(takeaway ? wrapText(takeaway, TAKEAWAY, text).map((s) => ({ s, font: TAKEAWAY })) : [])];
  let y = pad + head.length * 20 + (head.length ? 6 : 0), x = pad, rowH = 0;
  const items = [];
  for (const el of blocks) {
    const size = el.exportSize(g);
    if (x > pad && x + size.w > W + pad) { x = pad; y += rowH + 14; rowH = 0; }
    items.push({ el, x, y }); x += size.w + 20; rowH = Math.max(rowH, size.h);
  }
  y += rowH + 8;
  const foot = readouts.flatMap((s) => wrapText(s, READOUT, text)).map((s) => ({ s, font: READOUT }));
  const width = Math.max(W + 2 * pad, ...items.map((it) => it.x + it.el.exportSize(g).w + pad));
  return { W: Math.ceil(width), H: Math.ceil(y + foot.length * 18 + pad), head, items, foot, footY: y, pad };
}

/** Paints a layout into `g`: background, title and takeaway, every block, read-outs. */
export function paintExport(/** @type {any} */ g, /** @type {ExportLayout} */ lay, /** @type {{ fg: string, bg: string }} */ { fg, bg }) {
  g.fillStyle = bg; g.fillRect(0, 0, lay.W, lay.H);
  const line = (/** @type {Line} */ l, /** @type {number} */ y) => { g.font = l.font; g.fillStyle = fg; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(l.s, lay.pad, y); };
  lay.head.forEach((l, i) => line(l, lay.pad + i * 20));
  for (const it of lay.items) { g.save(); g.translate(it.x, it.y); it.el.paint(g); g.restore(); }
  lay.foot.forEach((l, i) => line(l, lay.footY + i * 18));
}
