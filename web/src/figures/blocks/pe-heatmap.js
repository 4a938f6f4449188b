// @ts-check
// <pe-heatmap>: a heatmap of a row-major matrix on a canvas in shadow DOM, with optional row/column labels, a colour
// bar with values, and a hover/keyboard read-out.
//   properties: data (Float32Array rows·cols), rows, cols, rowLabels, colLabels, vmin, vmax (default: data range),
//               x0, y0 (the number of the first column / row on the numeric ticks, default 0), rowTicks, colTicks (the
//               number of each row / column on the ticks instead), showValues (print each
//               cell's value: default when the map is at most 12 × 12), categories ([{value, label}]: a categorical
//               legend instead of the colour bar), marks ([{col, label}]: vertical rules before a column)
//   attributes: data-full (the map has its container's width to itself, not a share), caption, palette ('viridis' | 'rdbu'; rdbu is centred on 0), size (largest map side in px, default
//               480; the map also fits its share of the container's width), xlabel, ylabel
// Axes without row/column labels get numeric ticks (integer steps, never crowded).
//   events: 'cell-hover' {row, col, value}; 'rendered'
//   export: exportSize() → {w, h}; paint(g) draws caption, map, labels and colour bar into a 2D context (canvas or
//   the SVG recorder: cells as rects up to 128×128, one embedded image beyond); table() → the numbers drawn.
// −∞ and NaN cells (masked) are drawn in the theme's "missing" grey. Arrow keys move a cursor when the map has focus.
import { lut, colour } from './colormap.js';
import { fmt } from './format.js';
import { Base, shadow, define, theme, FONT, $ } from './base.js';
import { measure, pixelSurface, wrapText } from './text.js';
import { paintMap, ROW_CHARS } from './heatmap-map.js';
import { codeParts, setCodeText } from './code-text.js';

const css = `
:host { display: inline-block; font: 12px ${FONT}; color: var(--pe-fg, #1d1d1f); max-width: 100%; }
:host([hidden]) { display: none; }
[hidden] { display: none !important; }   /* the colour bar (a grid) and the legend (a flex box) are hidden by attribute */
.wrap { position: relative; display: flex; gap: 6px; align-items: flex-start; }
canvas.map { display: block; touch-action: none; outline-offset: 2px; }
canvas.map:focus-visible { outline: 2px solid var(--pe-focus, #1d1d1f); }
.bar { display: grid; grid-template-columns: 14px auto; grid-template-rows: auto 1fr auto; column-gap: 3px; }
.bar canvas { grid-row: 1 / 4; }
.bar span { font-size: 12px; font-variant-numeric: tabular-nums; }
.bar .mid { align-self: center; }
.cats { display: flex; flex-direction: column; gap: 3px; font-size: 12px; }
.cats i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -2px; border: 1px solid var(--pe-grid, #d6d6dc); }
.tip { position: absolute; pointer-events: none; background: var(--pe-bg, #fff); border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: nowrap; display: none; box-shadow: 0 1px 3px #0003; z-index: 2; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
.caption, .axis { contain: inline-size; }   /* texts wrap within the map's width instead of widening the block */
.axis { color: var(--pe-muted, #4f4f5a); font-size: 12px; }
`;

/**
 * What update() takes: the row-major matrix and how to label it.
 * @typedef {{ data: ArrayLike<number>, rows: number, cols: number, rowLabels?: string[], colLabels?: string[], vmin?: number, vmax?: number,
 *   x0?: number, y0?: number, rowTicks?: Array<number | string>, colTicks?: Array<number | string>, showValues?: boolean,
 *   categories?: Array<{ value: number, label: string }>, marks?: Array<{ col: number, label?: string }> }} HeatmapData
 */
/** @typedef {import('./heatmap-map.js').TextBox} TextBox */
/** @typedef {ReturnType<PeHeatmap['_geometryWith']>} Geometry */
/** @typedef {import('./export.js').Ctx} Ctx */
/** @typedef {{ row: number, col: number }} Cell */

export class PeHeatmap extends Base {
  static get observedAttributes() { return ['caption', 'palette', 'size', 'xlabel', 'ylabel']; }

  constructor() {
    super();
    shadow(this, css, `<div class="caption" part="caption"></div><div class="axis ylabel"></div>
      <div class="wrap"><canvas class="map" part="map" tabindex="0" role="img"></canvas>
      <div class="bar" aria-hidden="true"><canvas class="scale" width="14" height="160"></canvas><span class="max"></span><span class="mid"></span><span class="min"></span></div>
      <div class="cats" hidden></div><div class="tip" role="status"></div></div><div class="axis xlabel"></div>`);
    /** @type {ArrayLike<number> | null} */ this._data = null;
    this.rows = 0; this.cols = 0;
    /** @type {string[] | null} */ this.rowLabels = null;
    /** @type {string[] | null} */ this.colLabels = null;
    /** @type {number | undefined} */ this.vmin = undefined;
    /** @type {number | undefined} */ this.vmax = undefined;
    this.x0 = 0; this.y0 = 0;
    /** @type {boolean | undefined} */ this.showValues = undefined;
    /** @type {Array<{ value: number, label: string }> | null} */ this.categories = null;
    /** @type {Array<{ col: number, label?: string }> | null} */ this.marks = null;
    /** @type {Array<number | string> | null} */ this.rowTicks = null;
    /** @type {Array<number | string> | null} */ this.colTicks = null;
    this.renderCount = 0;
    /** @type {TextBox[]} */ this.boxes = [];
    /** @type {{ row: number, col: number, value: number } | null} */ this.hovered = null;
    this.lastRenderMs = 0;
    /** the value range drawn @type {[number, number] | undefined} */ this.range = undefined;
    /** @type {ReturnType<typeof theme> | null} */ this._theme = null;
    /** @type {number | undefined} */ this._pw = undefined;
    /** @type {string | undefined} */ this._scaleKey = undefined;
    /** @type {ReturnType<typeof pixelSurface> | undefined} */ this._surf = undefined;
    /** @type {{ data: Uint8ClampedArray } | undefined} */ this._img = undefined;
    /** @type {Uint32Array | undefined} */ this._px = undefined;
    this._cursor = { row: 0, col: 0 };
    const map = $(this.shadowRoot, '.map');
    map.addEventListener('pointermove', (e) => { const at = this.cellAt(e.clientX, e.clientY); this._show(at, e.clientX, e.clientY); });
    map.addEventListener('pointerleave', () => this._show(null));
    map.addEventListener('blur', () => this._show(null));
    map.addEventListener('keydown', (e) => this._key(e));
    // The container's width comes from the ResizeObserver, so a repaint never forces a layout of the page to read it.
    this._ro = new ResizeObserver(([e]) => { const w = e.contentRect.width; if (w !== this._pw) { this._pw = w; this.render(); } });
  }

  connectedCallback() { if (this.parentElement) this._ro.observe(this.parentElement); }
  disconnectedCallback() { this._ro.disconnect(); this._theme = null; }

  /** @param {string} name */
  attributeChangedCallback(name) {
    const sr = this.shadowRoot, text = this.getAttribute(name) || '';
    if (name === 'caption') { setCodeText($(sr, '.caption'), text); this._describe(); }
    else if (name === 'xlabel' || name === 'ylabel') setCodeText($(sr, `.${name}`), text);
    else this.render();
  }

  /** The row-major matrix (rows·cols values). @param {ArrayLike<number> | null} v */
  set data(v) { this._data = v; this._describe(); this.render(); }
  /** The canvas's text alternative: the caption, the map's size and the range of the values drawn. */
  _describe() {
    const map = this.shadowRoot?.querySelector('.map');
    if (!map) return;   // painted headless (figureSVG): no canvas to describe
    const d = this._data, text = this.getAttribute('caption') || 'heatmap';
    let lo = Infinity, hi = -Infinity;
    if (d) for (let i = 0; i < d.length; i++) { const v = d[i]; if (v < lo) lo = v; if (v > hi) hi = v; }
    map.setAttribute('aria-label', d && d.length && hi >= lo ? `${text}. ${this.rows} × ${this.cols}: ${fmt(lo, 4)} … ${fmt(hi, 4)}` : text);
  }
  /** @returns {ArrayLike<number> | null} */
  get data() { return this._data; }

  /** Sets everything at once: {data, rows, cols, rowLabels, colLabels, vmin, vmax, x0, y0, rowTicks, colTicks, showValues, categories, marks}. */
  /** @param {HeatmapData} o */
  update(o) {
    this.rows = o.rows; this.cols = o.cols; this.rowLabels = o.rowLabels ?? null; this.colLabels = o.colLabels ?? null;
    this.vmin = o.vmin; this.vmax = o.vmax; this._data = o.data; this.x0 = o.x0 ?? 0; this.y0 = o.y0 ?? 0; this.rowTicks = o.rowTicks ?? null; this.colTicks = o.colTicks ?? null;
    this.showValues = o.showValues; this.categories = o.categories ?? null; this.marks = o.marks ?? null;
    this._describe();
    this.render();
  }

  get palette() { return this.getAttribute('palette') || 'viridis'; }

  _geometry() {
    // Word labels only where their cells carry them: rows ≥ 12 px (a line of text); columns ≥ 13 px (neighbouring labels at 60° are then
    // cell·sin 60° ≥ 11 px apart, a line of text); else numeric ticks.
    let g = this._geometryWith(!!this.rowLabels && this.rows <= 64, !!this.colLabels && this.cols <= 64);
    if (g.colText && g.cell < 13) g = this._geometryWith(g.rowText, false);
    return g.rowText && g.ch < 12 ? this._geometryWith(false, g.colText) : g;
  }

  /** @param {boolean} rowText @param {boolean} colText */
  _geometryWith(rowText, colText) {
    // Row labels (words) or numeric ticks on the left; column labels (words, rotated) above or numeric ticks below.
    const tickChars = this.rowTicks ? Math.max(...this.rowTicks.map((v) => String(v).length)) : String(this.y0 + this.rows - 1).length;
    // Column labels at 60° need their height above the map and half their width right of the last column; numeric
    // row ticks need half a line above the first row.
    const colW = colText ? this._textWidth(this.colLabels ?? []) : 0;
    // row labels (words: layer types like sliding_attention) up to 18 characters, as wide as the widest needs
    const labelW = rowText ? Math.max(56, Math.ceil(this._textWidth(this.rowLabels ?? [], ROW_CHARS)) + 8) : Math.max(22, 8 + 7 * tickChars), labelH = colText ? Math.ceil(colW * 0.87 + 10) : 7, tickH = colText ? 0 : 16;
    const padR = colText ? Math.ceil(colW * 0.5 + 6) : 6;
    // Fit the container: the panels share its width (as many side by side as fit at ~300 px each), and the map plus
    // its labels and the colour bar (~72 px) must not overflow its share (phones).
    this._pw ??= this.parentElement?.clientWidth;
    const pw = Math.min(this._pw || Infinity, globalThis.innerWidth || 1000);
    const k = this.parentElement && !this.hasAttribute('data-full') ? this.parentElement.querySelectorAll(':scope > pe-heatmap:not([data-full])').length : 1;
    const perRow = Math.max(1, Math.min(k, Math.floor(pw / 300)));
    const room = (pw - 20 * (perRow - 1)) / perRow - labelW - padR - this._barW();   // the colour bar or legend (exportSize)
    const avail = Math.max(80, Math.min(Number(this.getAttribute('size')) || 480, room));   // 80: a phone's share with a wide legend
    // Cells fill the square `avail` but stay within 3:1, so a 64 × 32 table is not squeezed into a thin strip.
    let cw = avail / Math.max(this.cols, 1), ch = avail / Math.max(this.rows, 1);
    if (rowText || colText) cw = ch = Math.min(cw, ch);
    cw = Math.min(cw, 3 * ch); ch = Math.min(ch, 3 * cw);
    // a few rows named in words keep a line of text each, however narrow the columns (M-RoPE's t, h, w over 289 tokens)
    if (rowText && !colText && this.rows <= 8) ch = Math.max(ch, 12);
    return { labelW, labelH, tickH, padR, rowText, colText, cw, ch, cell: Math.min(cw, ch),
      w: Math.ceil(labelW + cw * this.cols + padR), h: Math.ceil(labelH + ch * this.rows + tickH) };
  }

  /** Room right of the map for the colour bar and its values (80 px), or the categories' legend (swatch and label). */
  _barW() { return this.categories ? Math.max(80, 6 + 17 + Math.ceil(this._textWidth(this.categories.map((c) => c.label), 40)) + 4) : 80; }

  /** The widest of these labels (as drawn: at most `chars` characters, 11 px). */
  /** @param {Array<string | number>} labels @param {number} [chars] */
  _textWidth(labels, chars = 8) {
    return Math.max(0, ...labels.map((t) => measure(`12px ${FONT}`, String(t).slice(0, chars))));
  }

  /** Whether each cell's value is printed in it (small maps, or as asked, when the cells are big enough). */
  /** @param {Geometry} geo */
  _values(geo) {
    // asked for (id maps): as soon as a short number fits; by default: small maps with room for a decimal
    if (this.showValues === true) return geo.cw >= 14 && geo.ch >= 14;
    return (this.showValues ?? (this.rows <= 12 && this.cols <= 12)) && geo.cw >= 24 && geo.ch >= 15;
  }

  /** @returns {[number, number]} */
  _range() {
    let lo = Infinity, hi = -Infinity;
    const d = this._data ?? [];
    for (let i = 0; i < d.length; i++) { const v = d[i]; if (v > -Infinity && v < Infinity) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    if (lo === Infinity) { lo = 0; hi = 1; }
    lo = this.vmin ?? lo; hi = this.vmax ?? hi;
    if (this.palette === 'rdbu' && this.vmin === undefined && this.vmax === undefined) { const m = Math.max(Math.abs(lo), Math.abs(hi)); lo = -m; hi = m; }
    return hi > lo ? [lo, hi] : [lo - 0.5, lo + 0.5];
  }

  /** One pixel per cell in a small canvas (through a 256-colour lookup table). */
  /** @param {number} lo @param {number} hi @param {string} missing */
  _pixels(lo, hi, missing) {
    if (!this._surf || this._surf.canvas.width !== this.cols || this._surf.canvas.height !== this.rows) {
      this._surf = pixelSurface(this.cols, this.rows);   // a canvas; headless, pixels for the SVG's embedded PNG
      this._img = this._surf.image();
      this._px = new Uint32Array(this._img.data.buffer);
    }
    const colours = lut(this.palette), n = this.rows * this.cols, d = this._data ?? [], px = /** @type {Uint32Array} */ (this._px);
    const [mr, mg, mb] = [1, 3, 5].map((i) => parseInt(missing.slice(i, i + 2), 16) || 0xe3);
    const grey = (255 << 24 | mb << 16 | mg << 8 | mr) >>> 0, s = 255 / (hi - lo);
    for (let i = 0; i < n; i++) {
      const v = d[i];
      if (v === -Infinity || Number.isNaN(v)) { px[i] = grey; continue; }
      let t = (v - lo) * s; t = t < 0 ? 0 : t > 255 ? 255 : t;
      px[i] = colours[t | 0];
    }
    this._surf.put(/** @type {{ data: Uint8ClampedArray }} */ (this._img));
    return this._surf.canvas;
  }

  /** Draws the map and its labels at (0, 0) of g (heatmap-map.js). */
  /** @param {Ctx} g @param {Geometry} geo @param {number} lo @param {number} hi @param {ReturnType<typeof theme>} th @returns {TextBox[]} */
  _paintMap(g, geo, lo, hi, th) {
    return paintMap(g, this, geo, lo, hi, th, this._values(geo), () => this._pixels(lo, hi, th.missing));
  }

  render() {
    if (!this._data || !this.rows || !this.cols || !this.isConnected) return;
    const t0 = performance.now();
    const geo = this._geometry(), { w, h, labelH } = geo, th = (this._theme ??= theme(this));
    const canvas = $(this.shadowRoot, /** @type {string} */ ('.map')), cv = /** @type {HTMLCanvasElement} */ (/** @type {unknown} */ (canvas));
    const dpr = globalThis.devicePixelRatio || 1;
    // Resizing a canvas reallocates it: only when the size changes (repaints at a fixed size stay cheap).
    if (cv.width !== Math.round(w * dpr) || cv.height !== Math.round(h * dpr)) {
      cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
    }
    const g = /** @type {CanvasRenderingContext2D} */ (cv.getContext('2d'));
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const [lo, hi] = this._range();
    this.range = [lo, hi];
    this.boxes = this._paintMap(g, geo, lo, hi, th);
    this._legend();
    const key = `${lo},${hi},${h - labelH},${this.palette},${this._binary(lo, hi)}`;
    if (this._scaleKey !== key) { this._drawScale(lo, hi, Math.min(220, Math.max(100, h - labelH))); this._scaleKey = key; }
    this.renderCount++;
    this.lastRenderMs = performance.now() - t0;
    if (this.hovered) this._show(this.hovered);
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  /** A categorical legend (swatch + label per category) in place of the colour bar, when categories are given. */
  _legend() {
    const sr = this.shadowRoot, cats = $(sr, '.cats'), bar = $(sr, '.bar');
    cats.hidden = !this.categories; bar.hidden = !!this.categories;
    if (!this.categories) return;
    const [lo, hi] = this._range();
    cats.replaceChildren(...this.categories.map((c) => {
      const span = document.createElement('span'), i = document.createElement('i'), [r, g, b] = colour(this.palette, (c.value - lo) / (hi - lo));
      i.style.background = `rgb(${Math.round(r)},${Math.round(g)},${Math.round(b)})`;
      span.append(i, ...codeParts(c.label)); return span;
    }));
  }

  /** @param {number} lo @param {number} hi @param {number} height */
  _drawScale(lo, hi, height) {
    const c = $(this.shadowRoot, /** @type {string} */ ('.scale')), cs = /** @type {HTMLCanvasElement} */ (/** @type {unknown} */ (c)), colours = lut(this.palette);
    cs.height = height; c.style.height = `${height}px`;
    const g = /** @type {CanvasRenderingContext2D} */ (cs.getContext('2d')), img = new ImageData(cs.width, height), px = new Uint32Array(img.data.buffer);
    for (let y = 0; y < height; y++) px.fill(colours[Math.round(255 * (1 - y / (height - 1)))], y * cs.width, (y + 1) * cs.width);
    g.putImageData(img, 0, 0);
    const sr = this.shadowRoot, [a, b, m] = this._scaleLabels(lo, hi);
    $(sr, '.max').textContent = b; $(sr, '.mid').textContent = m; $(sr, '.min').textContent = a;
  }

  // The middle label only where it says something: not on a two-valued (binary) map.
  /** @param {number} lo @param {number} hi */
  _scaleLabels(lo, hi) { return [fmt(lo, 3), fmt(hi, 3), this._binary(lo, hi) ? '' : fmt((lo + hi) / 2, 3)]; }
  /** @param {number} lo @param {number} hi */
  _binary(lo, hi) { const d = this._data ?? []; for (let i = 0; i < d.length; i++) if (d[i] !== lo && d[i] !== hi && Number.isFinite(d[i])) return false; return true; }

  // ── export ──
  exportSize() {
    const geo = this._geometry(), W = geo.w + this._barW(), n = (/** @type {string} */ a, /** @type {string} */ font) => wrapText(this.getAttribute(a) ?? '', font, W).length;
    const bar = this.categories ? 16 * this.categories.length : Math.min(220, Math.max(100, geo.h - geo.labelH));
    return { w: W, h: 18 * n('caption', `600 12px ${FONT}`) + 16 * n('ylabel', `12px ${FONT}`) + Math.max(geo.h, geo.labelH + bar) + 18 * n('xlabel', `12px ${FONT}`) + 4 };
  }

  /** Caption, y label, map, colour bar with its values, x label — the same as on screen — into g at (0, 0). */
  /** @param {Ctx} g */
  paint(g) {
    if (!this._data) return;
    const geo = this._geometry(), th = theme(this), [lo, hi] = this._range();
    let y = 0;
    g.textAlign = 'left'; g.textBaseline = 'top';
    // caption and axis labels wrapped to the block's width (exportSize counts the same lines)
    const text = (/** @type {string | null} */ s, /** @type {string} */ font, /** @type {string} */ colour, /** @type {number} */ dy) => { if (!s) return; for (const l of wrapText(s, font, geo.w + this._barW())) { g.font = font; g.fillStyle = colour; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(l, 0, y); y += dy; } };
    text(this.getAttribute('caption'), `600 12px ${FONT}`, th.fg, 18);
    text(this.getAttribute('ylabel'), `12px ${FONT}`, th.muted, 16);
    g.save(); g.translate(0, y); this._paintMap(g, geo, lo, hi, th); g.restore();
    const bar = this.categories ? 16 * this.categories.length : Math.min(220, Math.max(100, geo.h - geo.labelH)), bx = geo.w + 6, by = y + geo.labelH, steps = 64;
    if (this.categories) {
      g.font = `12px ${FONT}`; g.textAlign = 'left'; g.textBaseline = 'middle';
      this.categories.forEach((c, i) => {
        const [r, gg, b] = colour(this.palette, (c.value - lo) / (hi - lo));
        g.fillStyle = `rgb(${Math.round(r)},${Math.round(gg)},${Math.round(b)})`; g.fillRect(bx, by + i * 16, 12, 12);
        g.fillStyle = th.fg; g.fillText(c.label, bx + 17, by + i * 16 + 6);
      });
      y += Math.max(geo.h, geo.labelH + bar) + 4;
      text(this.getAttribute('xlabel'), `12px ${FONT}`, th.muted, 18);
      return;
    }
    for (let i = 0; i < steps; i++) {
      const [r, gg, b] = colour(this.palette, 1 - i / (steps - 1));
      g.fillStyle = `rgb(${Math.round(r)},${Math.round(gg)},${Math.round(b)})`;
      g.fillRect(bx, by + (i * bar) / steps, 14, bar / steps + 0.5);
    }
    const [a, b, m] = this._scaleLabels(lo, hi);
    g.font = `12px ${FONT}`; g.fillStyle = th.fg; g.textAlign = 'left';
    g.textBaseline = 'top'; g.fillText(b, bx + 17, by);
    g.textBaseline = 'middle'; g.fillText(m, bx + 17, by + bar / 2);
    g.textBaseline = 'bottom'; g.fillText(a, bx + 17, by + bar);
    y += Math.max(geo.h, geo.labelH + bar) + 4;
    text(this.getAttribute('xlabel'), `12px ${FONT}`, th.muted, 18);
  }

  /** The numbers drawn: one row per cell. */
  /** @returns {{ columns: string[], rows: Array<Array<string | number>> }} */
  table() {
    const rows = [], d = this._data ?? [];
    for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) rows.push([r, c, d[r * this.cols + c]]);
    return { columns: ['row', 'col', 'value'], rows };
  }

  /** Every text drawn on the map's canvas (labels, ticks, values, marks), as {x, y, w, h, text} in CSS px of the canvas. @returns {TextBox[]} */
  textBoxes() { return this.boxes; }

  /** Cell under client coordinates, or null. @param {number} clientX @param {number} clientY @returns {Cell | null} */
  cellAt(clientX, clientY) {
    const { labelW, labelH, cw, ch } = this._geometry();
    const r = $(this.shadowRoot, '.map').getBoundingClientRect();
    const col = Math.floor((clientX - r.left - labelW) / cw), row = Math.floor((clientY - r.top - labelH) / ch);
    return row >= 0 && col >= 0 && row < this.rows && col < this.cols ? { row, col } : null;
  }

  /** Centre of a cell in client coordinates (tests, keyboard tip). */
  /** @param {number} row @param {number} col */
  cellCentre(row, col) {
    const { labelW, labelH, cw, ch } = this._geometry();
    const r = $(this.shadowRoot, '.map').getBoundingClientRect();
    return { x: r.left + labelW + (col + 0.5) * cw, y: r.top + labelH + (row + 0.5) * ch };
  }

  /** @param {KeyboardEvent} e */
  _key(e) {
    const d = (/** @type {Record<string, [number, number]>} */ ({ ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }))[e.key];
    if (!d || !this._data) return;
    e.preventDefault();
    const c = this._cursor;
    c.row = Math.min(this.rows - 1, Math.max(0, c.row + d[0])); c.col = Math.min(this.cols - 1, Math.max(0, c.col + d[1]));
    const p = this.cellCentre(c.row, c.col);
    this._show({ ...c }, p.x, p.y);
  }

  /** @param {Cell | null} at @param {number} [clientX] @param {number} [clientY] */
  _show(at, clientX, clientY) {
    const tip = $(this.shadowRoot, '.tip');
    if (!at || !this._data || at.row >= this.rows || at.col >= this.cols) { tip.style.display = 'none'; this.hovered = null; return; }
    if (clientX === undefined || clientY === undefined) ({ x: clientX, y: clientY } = this.cellCentre(at.row, at.col));
    const value = this._data[at.row * this.cols + at.col];
    this.hovered = { row: at.row, col: at.col, value };
    this._cursor = { row: at.row, col: at.col };
    const rl = this.rowLabels ? ` ${this.rowLabels[at.row]}` : '', cl = this.colLabels ? ` ${this.colLabels[at.col]}` : '';
    // Words of the read-out follow the nearest lang attribute (across shadow roots: the figure's, or the page's).
    const zh = langOf(this).startsWith('zh');
    tip.textContent = `${zh ? '行' : 'row'} ${at.row}${rl} · ${zh ? '列' : 'col'} ${at.col}${cl}: ${fmt(value, 4)}`;
    tip.dataset.value = String(value);
    const r = $(this.shadowRoot, '.wrap').getBoundingClientRect();
    tip.style.left = `${Math.min(clientX - r.left + 12, r.width - 150)}px`; tip.style.top = `${clientY - r.top + 12}px`;
    tip.style.display = 'block';
    this.dispatchEvent(new CustomEvent('cell-hover', { detail: this.hovered, bubbles: true, composed: true }));
  }
}

/** The nearest lang attribute, crossing shadow-root boundaries. @param {Node} el */
export function langOf(el) {
  for (let n = /** @type {any} */ (el); n; n = n.parentNode ?? n.host) if (n.getAttribute?.('lang')) return String(n.getAttribute('lang')).toLowerCase();
  return '';
}

define('pe-heatmap', PeHeatmap);
