// @ts-check
// A recorder with the part of the Canvas 2D API the building blocks draw with, writing SVG elements instead of
// pixels: the same drawing code paints the canvas on screen, the PNG export and the SVG export (vector: paths,
// text, rects), so the three show the same thing.
import { measure, baselineShift } from './text.js';

/** The font stack written into SVG text: the page's system-ui, then named faces an SVG viewer or rasteriser has
 * (resvg knows no system-ui), with CJK faces before the generic family so Chinese text never falls to boxes. */
export const SVG_FONT = 'system-ui, -apple-system, Segoe UI, Roboto, Helvetica Neue, Arial, DejaVu Sans, Liberation Sans, '
  + 'PingFang SC, Hiragino Sans GB, Microsoft YaHei, Noto Sans CJK SC, Source Han Sans SC, WenQuanYi Micro Hei, sans-serif';   // unquoted: resvg drops a list with a quoted name after the first
const r2 = (/** @type {number} */ v) => Math.round(v * 100) / 100;
const esc = (/** @type {unknown} */ s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** @type {Record<string, string>} */
const ANCHOR = { left: 'start', start: 'start', center: 'middle', right: 'end', end: 'end' };

export class SvgContext {
  /** @param {number} width @param {number} height */
  constructor(width, height) {
    this.width = width; this.height = height; this.isSvg = true;
    /** @type {string[]} */ this.out = [];
    /** @type {string[]} */ this.defs = [];
    /** @type {Array<Pick<SvgContext, 'm' | 'clipId' | 'fillStyle' | 'strokeStyle' | 'lineWidth' | 'font' | 'textAlign' | 'textBaseline' | 'globalAlpha' | 'dash'>>} */
    this.stack = [];
    this.path = ''; this.nclip = 0;
    /** @type {string} */ this.fillStyle = '#000';
    /** @type {string} */ this.strokeStyle = '#000';
    this.lineWidth = 1; this.font = '10px sans-serif';
    /** @type {string} */ this.textAlign = 'start';
    /** @type {string} */ this.textBaseline = 'alphabetic';
    this.globalAlpha = 1; this.imageSmoothingEnabled = false;
    /** @type {number[]} */ this.m = [1, 0, 0, 1, 0, 0];
    /** @type {string | null} */ this.clipId = null;
    /** @type {number[]} */ this.dash = [];
    /** a background a text is drawn on (its contrast is checked against it) @type {string | undefined} */ this.textBg = undefined;
  }
  save() { this.stack.push({ m: [...this.m], clipId: this.clipId, fillStyle: this.fillStyle, strokeStyle: this.strokeStyle, lineWidth: this.lineWidth,
    font: this.font, textAlign: this.textAlign, textBaseline: this.textBaseline, globalAlpha: this.globalAlpha, dash: this.dash }); }
  restore() { const s = this.stack.pop(); if (s) Object.assign(this, s); }
  /** @param {number} a @param {number} b @param {number} c @param {number} d @param {number} e @param {number} f */
  setTransform(a, b, c, d, e, f) { this.m = [1, 0, 0, 1, 0, 0]; } // the recorder works in CSS pixels (no device scale)
  /** @param {number} x @param {number} y */
  translate(x, y) { const m = this.m; m[4] += m[0] * x + m[2] * y; m[5] += m[1] * x + m[3] * y; }
  /** @param {number} t */
  rotate(t) { const [a, b, c, d] = this.m, cs = Math.cos(t), sn = Math.sin(t); this.m[0] = a * cs + c * sn; this.m[1] = b * cs + d * sn; this.m[2] = c * cs - a * sn; this.m[3] = d * cs - b * sn; }
  /** @param {number[]} d */
  setLineDash(d) { this.dash = d || []; }
  clearRect() {}
  beginPath() { this.path = ''; }
  /** @param {number} x @param {number} y */
  moveTo(x, y) { this.path += `M${r2(x)} ${r2(y)}`; }
  /** @param {number} x @param {number} y */
  lineTo(x, y) { this.path += `L${r2(x)} ${r2(y)}`; }
  closePath() { this.path += 'Z'; }
  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  rect(x, y, w, h) { this.path += `M${r2(x)} ${r2(y)}h${r2(w)}v${r2(h)}h${r2(-w)}Z`; }
  /** @param {number} x @param {number} y @param {number} r @param {number} [_a0] @param {number} [_a1] */
  arc(x, y, r, _a0, _a1) { this.path += `M${r2(x + r)} ${r2(y)}A${r2(r)} ${r2(r)} 0 1 0 ${r2(x - r)} ${r2(y)}A${r2(r)} ${r2(r)} 0 1 0 ${r2(x + r)} ${r2(y)}Z`; }
  _common() {
    const m = this.m, t = m.every((v, i) => v === [1, 0, 0, 1, 0, 0][i]) ? '' : ` transform="matrix(${m.map(r2).join(' ')})"`;
    return `${t}${this.clipId ? ` clip-path="url(#${this.clipId})"` : ''}`;
  }
  /** @param {string} kind */
  _alpha(kind) { return this.globalAlpha < 1 ? ` ${kind}-opacity="${r2(this.globalAlpha)}"` : ''; }
  stroke() {
    if (!this.path) return;
    const dash = this.dash.length ? ` stroke-dasharray="${this.dash.join(' ')}"` : '';
    this.out.push(`<path d="${this.path}" fill="none" stroke="${esc(this.strokeStyle)}" stroke-width="${r2(this.lineWidth)}"${dash}${this._alpha('stroke')}${this._common()}/>`);
  }
  fill() { if (this.path) this.out.push(`<path d="${this.path}" fill="${esc(this.fillStyle)}"${this._alpha('fill')}${this._common()}/>`); }
  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  fillRect(x, y, w, h) { this.out.push(`<rect x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}" fill="${esc(this.fillStyle)}"${this._alpha('fill')}${this._common()}/>`); }
  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  strokeRect(x, y, w, h) { this.out.push(`<rect x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}" fill="none" stroke="${esc(this.strokeStyle)}" stroke-width="${r2(this.lineWidth)}"${this._common()}/>`); }
  clip() {
    const id = `clip${++this.nclip}`;
    this.defs.push(`<clipPath id="${id}"><path d="${this.path}"/></clipPath>`);
    this.clipId = id;
  }
  /** @param {string} text @param {number} x @param {number} y */
  fillText(text, x, y) {
    const f = /^(?:(bold|\d00)\s+)?(\d+(?:\.\d+)?)px\s+(.*)$/.exec(this.font) || [null, null, '10', 'sans-serif'];
    const weight = f[1] ? ` font-weight="${f[1] === 'bold' ? 700 : f[1]}"` : '';
    // Canvas baselines (top, middle, bottom) become an alphabetic baseline moved by the font's em box, measured as the
    // canvas measures it, so the text lands where it does on the canvas.
    const dy = this._baselineShift();
    this.out.push(`<text x="${r2(x)}" y="${r2(y + dy)}" font-family="${esc(f[3] === 'system-ui, sans-serif' ? SVG_FONT : f[3])}" font-size="${f[2]}"${weight} text-anchor="${ANCHOR[this.textAlign] || 'start'}" fill="${esc(this.fillStyle)}"${this.textBg ? ` data-bg="${esc(this.textBg)}"` : ''}${this._common()}>${esc(text)}</text>`);
  }
  /** An embedded raster (a heatmap larger than the cell limit): `src` is a canvas, drawn without smoothing. */
  /** @param {{ toDataURL(type: string): string }} src @param {number} x @param {number} y @param {number} w @param {number} h */
  drawImage(src, x, y, w, h) {
    this.out.push(`<image href="${src.toDataURL('image/png')}" x="${r2(x)}" y="${r2(y)}" width="${r2(w)}" height="${r2(h)}" preserveAspectRatio="none" image-rendering="optimizeSpeed"${this._common()}/>`);
  }
  /** How far below y the alphabetic baseline lies when the canvas draws with this.textBaseline (measured by a canvas; headless, from the em box). */
  _baselineShift() { return baselineShift(this.font, this.textBaseline); }
  /** @param {string} s */
  measureText(s) { return { width: measure(this.font, s) }; }
  toString() {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">`
      + `${this.defs.length ? `<defs>${this.defs.join('')}</defs>` : ''}${this.out.join('\n')}</svg>`;
  }
}
