// @ts-check
// Export of one building block on its own (a <pe-heatmap> or <pe-lines> a page uses without <posenc-figure>): the
// same paint() that draws it on screen, into a PNG, a vector SVG or the numbers drawn as CSV.
import { SvgContext } from './svgctx.js';
import { theme } from './base.js';

/**
 * A building block as the exports see it: its size and paint() for a canvas or an SVG recorder, and the numbers drawn.
 * @typedef {HTMLElement & { exportSize(g: Ctx): { w: number, h: number }, paint(g: Ctx): void, table(): { columns: string[], rows: Array<Array<string | number>> } }} Block
 * @typedef {CanvasRenderingContext2D | SvgContext} Ctx
 */
const PAD = 8;
/** @param {Block} el @param {Ctx} g @param {number} w @param {number} h */
function draw(el, g, w, h) {
  const th = theme(el);
  g.fillStyle = th.bg; g.fillRect(0, 0, w, h);
  g.save(); g.translate(PAD, PAD); el.paint(g); g.restore();
}

/** The block as a self-contained SVG string. @param {Block} el */
export function blockSVG(el) {
  const s = el.exportSize(new SvgContext(0, 0)), w = s.w + 2 * PAD, h = s.h + 2 * PAD, g = new SvgContext(w, h);
  draw(el, g, w, h);
  return g.toString();
}

/** The block as a PNG Blob, `scale` device pixels per CSS pixel. @param {Block} el @param {{ scale?: number }} [o] @returns {Promise<Blob>} */
export function blockPNG(el, { scale = 2 } = {}) {
  const s = el.exportSize(/** @type {CanvasRenderingContext2D} */ (document.createElement('canvas').getContext('2d'))), w = s.w + 2 * PAD, h = s.h + 2 * PAD;
  const c = document.createElement('canvas');
  c.width = Math.round(w * scale); c.height = Math.round(h * scale);
  const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d')); g.setTransform(scale, 0, 0, scale, 0, 0);
  draw(el, g, w, h);
  return new Promise((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error('PNG encoding failed'))), 'image/png'));
}

/** The numbers drawn: a header naming the block and its columns, then one row per cell or point. @param {Block} el */
export function blockCSV(el) {
  const t = el.table(), cell = (/** @type {string | number} */ v) => (typeof v === 'number' ? String(v) : /[",\n#]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  return [`# posenc ${el.localName}${el.id ? ` #${el.id}` : ''}: ${el.getAttribute('caption') ?? ''}`, t.columns.join(','), ...t.rows.map((r) => r.map(cell).join(','))].join('\n') + '\n';
}
