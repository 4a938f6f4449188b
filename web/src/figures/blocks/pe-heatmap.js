// <pe-heatmap>: a heatmap of a row-major matrix on a canvas in shadow DOM, with optional row/column labels, a colour
// bar with values, and a hover/keyboard read-out.
//   properties: data (Float32Array rows·cols), rows, cols, rowLabels, colLabels, vmin, vmax (default: data range)
//   attributes: caption, palette ('viridis' | 'rdbu'; rdbu is centred on 0), size (px, default 320), xlabel, ylabel
//   events: 'cell-hover' {row, col, value}; 'rendered'
//   export: exportSize() → {w, h}; paint(g) draws caption, map, labels and colour bar into a 2D context (canvas or
//   the SVG recorder: cells as rects up to 128×128, one embedded image beyond); table() → the numbers drawn.
// −∞ and NaN cells (masked) are drawn in the theme's "missing" grey. Arrow keys move a cursor when the map has focus.
import { lut, colour } from './colormap.js';
import { fmt } from './format.js';
import { Base, shadow, define, theme, FONT } from './base.js';

const css = `
:host { display: inline-block; font: 12px ${FONT}; color: var(--pe-fg, #1d1d1f); max-width: 100%; }
.wrap { position: relative; display: flex; gap: 6px; align-items: flex-start; }
canvas.map { display: block; touch-action: none; outline-offset: 2px; }
canvas.map:focus-visible { outline: 2px solid var(--pe-focus, #1d1d1f); }
.bar { display: grid; grid-template-columns: 14px auto; grid-template-rows: auto 1fr auto; column-gap: 3px; }
.bar canvas { grid-row: 1 / 4; }
.bar span { font-size: 11px; font-variant-numeric: tabular-nums; }
.bar .mid { align-self: center; }
.tip { position: absolute; pointer-events: none; background: var(--pe-bg, #fff); border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: nowrap; display: none; box-shadow: 0 1px 3px #0003; z-index: 2; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
.axis { color: var(--pe-muted, #4f4f5a); font-size: 11px; }
`;
const CELL_RECTS = 128;

export class PeHeatmap extends Base {
  static get observedAttributes() { return ['caption', 'palette', 'size', 'xlabel', 'ylabel']; }

  constructor() {
    super();
    shadow(this, css, `<div class="caption" part="caption"></div><div class="axis ylabel"></div>
      <div class="wrap"><canvas class="map" part="map" tabindex="0" role="img"></canvas>
      <div class="bar" aria-hidden="true"><canvas class="scale" width="14" height="160"></canvas><span class="max"></span><span class="mid"></span><span class="min"></span></div>
      <div class="tip" role="status"></div></div><div class="axis xlabel"></div>`);
    this._data = null; this.rows = 0; this.cols = 0; this.rowLabels = null; this.colLabels = null;
    this.vmin = undefined; this.vmax = undefined; this.renderCount = 0; this.hovered = null; this.lastRenderMs = 0;
    this._cursor = { row: 0, col: 0 };
    const map = this.shadowRoot.querySelector('.map');
    map.addEventListener('pointermove', (e) => { const at = this.cellAt(e.clientX, e.clientY); this._show(at, e.clientX, e.clientY); });
    map.addEventListener('pointerleave', () => this._show(null));
    map.addEventListener('blur', () => this._show(null));
    map.addEventListener('keydown', (e) => this._key(e));
    // The container's width comes from the ResizeObserver, so a repaint never forces a layout of the page to read it.
    this._ro = new ResizeObserver(([e]) => { const w = e.contentRect.width; if (w !== this._pw) { this._pw = w; this.render(); } });
  }

  connectedCallback() { if (this.parentElement) this._ro.observe(this.parentElement); }
  disconnectedCallback() { this._ro.disconnect(); this._theme = null; }

  attributeChangedCallback(name) {
    const sr = this.shadowRoot, text = this.getAttribute(name) || '';
    if (name === 'caption') { sr.querySelector('.caption').textContent = text; sr.querySelector('.map').setAttribute('aria-label', text || 'heatmap'); }
    else if (name === 'xlabel' || name === 'ylabel') sr.querySelector(`.${name}`).textContent = text;
    else this.render();
  }

  set data(v) { this._data = v; this.render(); }
  get data() { return this._data; }

  /** Sets everything at once: {data, rows, cols, rowLabels, colLabels, vmin, vmax} and repaints. */
  update(o) {
    this.rows = o.rows; this.cols = o.cols; this.rowLabels = o.rowLabels ?? null; this.colLabels = o.colLabels ?? null;
    this.vmin = o.vmin; this.vmax = o.vmax; this._data = o.data;
    this.render();
  }

  get palette() { return this.getAttribute('palette') || 'viridis'; }

  _geometry() {
    const labelW = this.rowLabels && this.rows <= 64 ? 56 : 0, labelH = this.colLabels && this.cols <= 64 ? 40 : 0;
    // Fit the container: the map plus row labels and the colour bar (~70 px) must not overflow it (phones).
    this._pw ??= this.parentElement?.clientWidth;
    const room = Math.min(this._pw || Infinity, globalThis.innerWidth || 1000) - labelW - 72;
    const avail = Math.max(100, Math.min(Number(this.getAttribute('size')) || 320, room));
    // Cells fill the square `avail` but stay within 3:1, so a 64 × 32 table is not squeezed into a thin strip.
    let cw = avail / Math.max(this.cols, 1), ch = avail / Math.max(this.rows, 1);
    if (labelW || labelH) cw = ch = Math.min(cw, ch);
    cw = Math.min(cw, 3 * ch); ch = Math.min(ch, 3 * cw);
    return { labelW, labelH, cw, ch, cell: Math.min(cw, ch), w: Math.ceil(labelW + cw * this.cols), h: Math.ceil(labelH + ch * this.rows) };
  }

  _range() {
    let lo = Infinity, hi = -Infinity;
    const d = this._data;
    for (let i = 0; i < d.length; i++) { const v = d[i]; if (v > -Infinity && v < Infinity) { if (v < lo) lo = v; if (v > hi) hi = v; } }
    if (lo === Infinity) { lo = 0; hi = 1; }
    lo = this.vmin ?? lo; hi = this.vmax ?? hi;
    if (this.palette === 'rdbu' && this.vmin === undefined && this.vmax === undefined) { const m = Math.max(Math.abs(lo), Math.abs(hi)); lo = -m; hi = m; }
    return hi > lo ? [lo, hi] : [lo - 0.5, lo + 0.5];
  }

  /** One pixel per cell in a small canvas (through a 256-colour lookup table). */
  _pixels(lo, hi, missing) {
    if (!this._img || this._img.width !== this.cols || this._img.height !== this.rows) {
      this._img = new ImageData(this.cols, this.rows);
      this._px = new Uint32Array(this._img.data.buffer);
      this._off = document.createElement('canvas'); this._off.width = this.cols; this._off.height = this.rows;
      this._offg = this._off.getContext('2d');
    }
    const colours = lut(this.palette), n = this.rows * this.cols, d = this._data, px = this._px;
    const [mr, mg, mb] = [1, 3, 5].map((i) => parseInt(missing.slice(i, i + 2), 16) || 0xe3);
    const grey = (255 << 24 | mb << 16 | mg << 8 | mr) >>> 0, s = 255 / (hi - lo);
    for (let i = 0; i < n; i++) {
      const v = d[i];
      if (v === -Infinity || Number.isNaN(v)) { px[i] = grey; continue; }
      let t = (v - lo) * s; t = t < 0 ? 0 : t > 255 ? 255 : t;
      px[i] = colours[t | 0];
    }
    this._offg.putImageData(this._img, 0, 0);
    return this._off;
  }

  /** Draws the map and its labels at (0, 0) of g. */
  _paintMap(g, geo, lo, hi, th) {
    const { labelW, labelH, cw, ch, cell } = geo;
    if (g.isSvg && this.rows <= CELL_RECTS && this.cols <= CELL_RECTS) {
      const colours = lut(this.palette), s = 255 / (hi - lo);
      for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) {
        const v = this._data[r * this.cols + c];
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
      g.drawImage(this._pixels(lo, hi, th.missing), labelW, labelH, cw * this.cols, ch * this.rows);
    }
    g.fillStyle = th.fg; g.font = `11px ${FONT}`;
    if (labelW && cell >= 9) {
      g.textAlign = 'right'; g.textBaseline = 'middle';
      this.rowLabels.forEach((t, i) => g.fillText(String(t).slice(0, 8), labelW - 4, labelH + (i + 0.5) * cell));
    }
    if (labelH && cell >= 9) {
      g.textAlign = 'left'; g.textBaseline = 'middle';
      this.colLabels.forEach((t, j) => {
        g.save(); g.translate(labelW + (j + 0.5) * cell, labelH - 4); g.rotate(-Math.PI / 3);
        g.fillText(String(t).slice(0, 8), 0, 0); g.restore();
      });
    }
  }

  render() {
    if (!this._data || !this.rows || !this.cols || !this.isConnected) return;
    const t0 = performance.now();
    const geo = this._geometry(), { w, h, labelH } = geo, th = (this._theme ??= theme(this));
    const canvas = this.shadowRoot.querySelector('.map');
    const dpr = globalThis.devicePixelRatio || 1;
    // Resizing a canvas reallocates it: only when the size changes (repaints at a fixed size stay cheap).
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
      canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
    }
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const [lo, hi] = this._range();
    this.range = [lo, hi];
    this._paintMap(g, geo, lo, hi, th);
    const key = `${lo},${hi},${h - labelH},${this.palette}`;
    if (this._scaleKey !== key) { this._drawScale(lo, hi, Math.min(220, Math.max(100, h - labelH))); this._scaleKey = key; }
    this.renderCount++;
    this.lastRenderMs = performance.now() - t0;
    if (this.hovered) this._show(this.hovered);
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  _drawScale(lo, hi, height) {
    const c = this.shadowRoot.querySelector('.scale'), colours = lut(this.palette);
    c.height = height; c.style.height = `${height}px`;
    const g = c.getContext('2d'), img = new ImageData(c.width, height), px = new Uint32Array(img.data.buffer);
    for (let y = 0; y < height; y++) px.fill(colours[Math.round(255 * (1 - y / (height - 1)))], y * c.width, (y + 1) * c.width);
    g.putImageData(img, 0, 0);
    const sr = this.shadowRoot, [a, b, m] = this._scaleLabels(lo, hi);
    sr.querySelector('.max').textContent = b; sr.querySelector('.mid').textContent = m; sr.querySelector('.min').textContent = a;
  }

  _scaleLabels(lo, hi) { return [fmt(lo, 3), fmt(hi, 3), fmt((lo + hi) / 2, 3)]; }

  // ── export ──
  exportSize() {
    const geo = this._geometry(), cap = this.getAttribute('caption') ? 18 : 0, yl = this.getAttribute('ylabel') ? 16 : 0;
    const bar = Math.min(220, Math.max(100, geo.h - geo.labelH));
    return { w: geo.w + 80, h: cap + yl + Math.max(geo.h, geo.labelH + bar) + (this.getAttribute('xlabel') ? 18 : 0) + 4 };
  }

  /** Caption, y label, map, colour bar with its values, x label — the same as on screen — into g at (0, 0). */
  paint(g) {
    if (!this._data) return;
    const geo = this._geometry(), th = theme(this), [lo, hi] = this._range();
    let y = 0;
    g.textAlign = 'left'; g.textBaseline = 'top';
    const text = (s, font, colour, dy) => { if (!s) return; g.font = font; g.fillStyle = colour; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(s, 0, y); y += dy; };
    text(this.getAttribute('caption'), `600 12px ${FONT}`, th.fg, 18);
    text(this.getAttribute('ylabel'), `11px ${FONT}`, th.muted, 16);
    g.save(); g.translate(0, y); this._paintMap(g, geo, lo, hi, th); g.restore();
    const bar = Math.min(220, Math.max(100, geo.h - geo.labelH)), bx = geo.w + 6, by = y + geo.labelH, steps = 64;
    for (let i = 0; i < steps; i++) {
      const [r, gg, b] = colour(this.palette, 1 - i / (steps - 1));
      g.fillStyle = `rgb(${Math.round(r)},${Math.round(gg)},${Math.round(b)})`;
      g.fillRect(bx, by + (i * bar) / steps, 14, bar / steps + 0.5);
    }
    const [a, b, m] = this._scaleLabels(lo, hi);
    g.font = `11px ${FONT}`; g.fillStyle = th.fg; g.textAlign = 'left';
    g.textBaseline = 'top'; g.fillText(b, bx + 17, by);
    g.textBaseline = 'middle'; g.fillText(m, bx + 17, by + bar / 2);
    g.textBaseline = 'bottom'; g.fillText(a, bx + 17, by + bar);
    y += Math.max(geo.h, geo.labelH + bar) + 4;
    text(this.getAttribute('xlabel'), `11px ${FONT}`, th.muted, 18);
  }

  /** The numbers drawn: one row per cell. */
  table() {
    const rows = [];
    for (let r = 0; r < this.rows; r++) for (let c = 0; c < this.cols; c++) rows.push([r, c, this._data[r * this.cols + c]]);
    return { columns: ['row', 'col', 'value'], rows };
  }

  /** Cell under client coordinates, or null. */
  cellAt(clientX, clientY) {
    const { labelW, labelH, cw, ch } = this._geometry();
    const r = this.shadowRoot.querySelector('.map').getBoundingClientRect();
    const col = Math.floor((clientX - r.left - labelW) / cw), row = Math.floor((clientY - r.top - labelH) / ch);
    return row >= 0 && col >= 0 && row < this.rows && col < this.cols ? { row, col } : null;
  }

  /** Centre of a cell in client coordinates (tests, keyboard tip). */
  cellCentre(row, col) {
    const { labelW, labelH, cw, ch } = this._geometry();
    const r = this.shadowRoot.querySelector('.map').getBoundingClientRect();
    return { x: r.left + labelW + (col + 0.5) * cw, y: r.top + labelH + (row + 0.5) * ch };
  }

  _key(e) {
    const d = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[e.key];
    if (!d || !this._data) return;
    e.preventDefault();
    const c = this._cursor;
    c.row = Math.min(this.rows - 1, Math.max(0, c.row + d[0])); c.col = Math.min(this.cols - 1, Math.max(0, c.col + d[1]));
    const p = this.cellCentre(c.row, c.col);
    this._show({ ...c }, p.x, p.y);
  }

  _show(at, clientX, clientY) {
    const tip = this.shadowRoot.querySelector('.tip');
    if (!at || !this._data || at.row >= this.rows || at.col >= this.cols) { tip.style.display = 'none'; this.hovered = null; return; }
    if (clientX === undefined) ({ x: clientX, y: clientY } = this.cellCentre(at.row, at.col));
    const value = this._data[at.row * this.cols + at.col];
    this.hovered = { row: at.row, col: at.col, value };
    this._cursor = { row: at.row, col: at.col };
    const rl = this.rowLabels ? ` ${this.rowLabels[at.row]}` : '', cl = this.colLabels ? ` ${this.colLabels[at.col]}` : '';
    // Words of the read-out follow the nearest lang attribute (across shadow roots: the figure's, or the page's).
    const zh = langOf(this).startsWith('zh');
    tip.textContent = `${zh ? '行' : 'row'} ${at.row}${rl} · ${zh ? '列' : 'col'} ${at.col}${cl}: ${fmt(value, 4)}`;
    tip.dataset.value = String(value);
    const r = this.shadowRoot.querySelector('.wrap').getBoundingClientRect();
    tip.style.left = `${Math.min(clientX - r.left + 12, r.width - 150)}px`; tip.style.top = `${clientY - r.top + 12}px`;
    tip.style.display = 'block';
    this.dispatchEvent(new CustomEvent('cell-hover', { detail: this.hovered, bubbles: true, composed: true }));
  }
}

/** The nearest lang attribute, crossing shadow-root boundaries. */
export function langOf(el) {
  for (let n = el; n; n = n.parentNode ?? n.host) if (n.getAttribute?.('lang')) return n.getAttribute('lang').toLowerCase();
  return '';
}

define('pe-heatmap', PeHeatmap);
