// @ts-check
// The map of <pe-heatmap> drawn into a 2D context (canvas, or the SVG recorder of an export): cells, row / column labels
// or numeric ticks, values in the cells, marks. Shared by the element's screen render and its export paint (pe-heatmap.js).
import { lut, colour } from './colormap.js';
import { tickIndices, cellText } from './format.js';
import { FONT } from './base.js';
import { contrast as contrastRatio } from '../theme.js';
import { MIN_TEXT } from './text.js';

/** @typedef {import('./export.js').Ctx} Ctx */
/** A text drawn on the map, in CSS px of the canvas. @typedef {{ x: number, y: number, w: number, h: number, text: string, rotated?: boolean }} TextBox */
/** Where the map sits: label margins, cell size, total width, and whether rows / columns are labelled in words. @typedef {{ labelW: number, labelH: number, cw: number, ch: number, w: number, rowText: boolean, colText: boolean }} Geometry */
/**
 * What the map is drawn from (the element's properties).
 * @typedef {{ _data: ArrayLike<number> | null | undefined, rows: number, cols: number, palette: string, rowLabels?: Array<string | number> | null, colLabels?: Array<string | number> | null,
 *   rowTicks?: Array<number | string> | null, colTicks?: Array<number | string> | null, x0: number, y0: number, marks?: Array<{ col: number, label?: string }> | null }} HeatmapView
 */

/** Cells drawn as rects in an SVG up to this many per side; one embedded image beyond. */
export const CELL_RECTS = 128;
/** Row labels (words) are cut to this many characters. */
export const ROW_CHARS = 18;

/**
 * Draws the map (cells: rects in an SVG up to 128×128, else one image of `pixels()`), its row / column labels or numeric
 * ticks, the values in the cells when `values`, and the marks, at (0, 0) of g; returns every text drawn.
 * @param {Ctx} g @param {HeatmapView} m @param {Geometry} geo @param {number} lo @param {number} hi
 * @param {{ fg: string, bg: string, missing: string }} th @param {boolean} values @param {() => unknown} pixels @returns {TextBox[]}
 */
export function paintMap(g, m, geo, lo, hi, th, values, pixels) {
  const { labelW, labelH, cw, ch } = geo, data = m._data ?? [];
  if ('isSvg' in g && m.rows <= CELL_RECTS && m.cols <= CELL_RECTS) {
    const colours = lut(m.palette), s = 255 / (hi - lo);
    for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) {
      const v = data[r * m.cols + c];
      let hex = th.missing;
      if (!(v === -Infinity || Number.isNaN(v))) {
        let t = (v - lo) * s; t = t < 0 ? 0 : t > 255 ? 255 : t;
        const p = colours[t | 0];
        hex = `#${[p & 255, (p >> 8) & 255, (p >> 16) & 255].map((x) => x.toString(16).padStart(2, '0')).join('')}`;
      }
      g.fillStyle = hex; g.fillRect(labelW + c * cw, labelH + r * ch, cw, ch);
    }
  } else {
    g.imageSmoothingEnabled = false;
    /** @type {CanvasRenderingContext2D} */ (g).drawImage(/** @type {HTMLCanvasElement} */ (pixels()), labelW, labelH, cw * m.cols, ch * m.rows);
  }
  /** @type {TextBox[]} */
  const boxes = [], box = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ w, /** @type {number} */ h, /** @type {string} */ text) => boxes.push({ x, y, w, h, text });
  g.fillStyle = th.fg; g.font = `12px ${FONT}`;
  const top = labelH, bottom = labelH + ch * m.rows, right = labelW + cw * m.cols;
  if (geo.rowText) {
    g.textAlign = 'right'; g.textBaseline = 'middle';
    (m.rowLabels ?? []).forEach((t, i) => { const s = String(t).slice(0, ROW_CHARS), tw = g.measureText(s).width; g.fillText(s, labelW - 4, top + (i + 0.5) * ch); box(labelW - 4 - tw, top + (i + 0.5) * ch - 6, tw, 12, s); });
  } else {
    g.textAlign = 'right'; g.textBaseline = 'middle';
    for (const i of tickIndices(m.rows, ch, 16)) { const s = String(m.rowTicks ? m.rowTicks[i] : m.y0 + i), tw = g.measureText(s).width, y = top + (i + 0.5) * ch; g.fillText(s, labelW - 4, y); box(labelW - 4 - tw, y - 6, tw, 12, s); }
  }
  if (geo.colText) {
    g.textAlign = 'left'; g.textBaseline = 'middle';
    (m.colLabels ?? []).forEach((t, j) => {
      const s = String(t).slice(0, 8), tw = g.measureText(s).width, x = labelW + (j + 0.5) * cw;
      g.save(); g.translate(x, labelH - 4); g.rotate(-Math.PI / 3); g.fillText(s, 0, 0); g.restore();
      boxes.push({ x: x - 3, y: labelH - 4 - tw * 0.87 - 3, w: tw * 0.5 + 6, h: tw * 0.87 + 6, text: s, rotated: true });
    });
  } else {
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (const j of tickIndices(m.cols, cw, 30)) {
      const s = String(m.colTicks ? m.colTicks[j] : m.x0 + j), tw = g.measureText(s).width, x = Math.min(geo.w - tw / 2, labelW + (j + 0.5) * cw);
      g.fillText(s, x, bottom + 3); box(x - tw / 2, bottom + 3, tw, 12, s);
    }
  }
  if (values) {
    const fs = MIN_TEXT;   // never smaller: shown only where a cell has room for it (_values)
    g.font = `${fs}px ${FONT}`; g.textAlign = 'center'; g.textBaseline = 'middle';
    for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) {
      const v = data[r * m.cols + c];
      if (v === -Infinity || Number.isNaN(v)) continue;
      const t = Math.min(1, Math.max(0, (v - lo) / (hi - lo))), [R, G, B] = colour(m.palette, t);
      // the darker or the lighter text, whichever stands out more on this cell (WCAG contrast); the SVG export
      // records the cell colour as the text's data-bg so its contrast can be checked against what it sits on
      const cell = '#' + [R, G, B].map((u) => Math.round(u).toString(16).padStart(2, '0')).join('');
      g.fillStyle = contrastRatio('#111111', cell) >= contrastRatio('#ffffff', cell) ? '#111111' : '#ffffff'; if ('isSvg' in g) g.textBg = cell;
      const s = cellText(v), x = labelW + (c + 0.5) * cw, y = top + (r + 0.5) * ch;
      /** @type {CanvasRenderingContext2D} */ (g).fillText(s, x, y, cw - 2);
      const tw = Math.min(cw - 2, g.measureText(s).width); box(x - tw / 2, y - fs / 2, tw, fs, s);
    }
    if ('isSvg' in g) g.textBg = undefined;
  }
  for (const mk of m.marks || []) {
    const x = labelW + mk.col * cw;
    g.strokeStyle = th.fg; g.lineWidth = 2; g.setLineDash([5, 3]);
    g.beginPath(); g.moveTo(x, top); g.lineTo(x, bottom); g.stroke(); g.setLineDash([]);
    if (mk.label) {
      g.font = `600 12px ${FONT}`; const tw = g.measureText(mk.label).width, left = x + 4 + tw > right;
      const tx = left ? x - 4 - tw : x + 4, ty = top + 4;
      g.fillStyle = th.bg; g.fillRect(tx - 2, ty - 1, tw + 4, 14);
      g.fillStyle = th.fg; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(mk.label, tx, ty); box(tx, ty, tw, 12, mk.label);
      g.font = `12px ${FONT}`;
    }
  }
  return boxes;
}
