// @ts-check
// <pe-lines>: a chart of curves on a canvas in shadow DOM.
//   property series: [{ label, y: ArrayLike, x?: ArrayLike (default x0 + i·dx), x0?, dx?, color?, dash?: number[],
//                       kind?: 'line' | 'step' | 'bar' | 'points', y2?: ArrayLike (with y: a min/max band), width? }]
//   property marks: [{ x?, y?, label, color? }]  vertical (x) or horizontal (y) reference lines
//   property regions: [{ x0, x1, label?, color? }] highlighted x ranges (annotations)
//   attributes: caption, xlabel, ylabel, log-x, log-y, height (px, default 240), ymin, ymax
//   events: 'point-hover' {x, values: [{label, y}]}; 'rendered'
//   export: exportSize(), paint(g) (caption, plot, legend) and table() (the numbers drawn)
// Ticks: d3-scale's nice steps, one d3-format per axis (integers only where every x is an integer index); labels
// never leave the canvas. Mark and region labels are placed where no curve and no other label passes (textBoxes() and
// curvePaths() give what was drawn, for layout tests). A band (y, y2) is drawn light
// with its upper edge as a solid line, so the curve stays readable and the band secondary.
import { fmt, axisTicks } from './format.js';
import { Base, shadow, define, theme, FONT, $ } from './base.js';

/** @typedef {ArrayLike<number>} Nums */
/**
 * A curve: `y` (with `y2`: a min/max band), at `x` (default x0 + i·dx); `kind` line (default), step, bar or points.
 * @typedef {{ y: Nums, x?: Nums, x0?: number, dx?: number, y2?: Nums, label?: string, color?: string, dash?: number[],
 *   kind?: 'line' | 'step' | 'bar' | 'points', width?: number }} Series
 */
/** A vertical (x) or horizontal (y) reference line. @typedef {{ x?: number, y?: number, label?: string, color?: string }} Mark */
/** A highlighted x range. @typedef {{ x0: number, x1: number, label?: string, color?: string }} Region */
/** A box in canvas CSS px. @typedef {{ x: number, y: number, w: number, h: number }} Rect */
/** A text drawn, in canvas CSS px. @typedef {Rect & { text: string, kind: string }} TextBox */
/** An entry of the legend. @typedef {{ label?: string, color: string, dash?: number[], kind?: string }} LegendItem */
/** @typedef {import('./export.js').Ctx} Ctx */
import { wrapText } from './text.js';
import { labelPlacer } from './label-place.js';
import { codeParts, setCodeText } from './code-text.js';

const css = `
:host { display: block; font: 12px ${FONT}; color: var(--pe-fg, #1d1d1f); max-width: 100%; }
:host([hidden]) { display: none; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
.wrap { position: relative; }
canvas { display: block; width: 100%; touch-action: none; outline-offset: 2px; }
canvas:focus-visible { outline: 2px solid var(--pe-focus, #1d1d1f); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 2px; }
.legend i { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
.legend i.dot { width: 8px; height: 8px; border-radius: 50%; margin: 0 9px 0 5px; }
.tip { position: absolute; pointer-events: none; background: var(--pe-bg, #fff); border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: pre; display: none; box-shadow: 0 1px 3px #0003; font-variant-numeric: tabular-nums; }
`;

export class PeLines extends Base {
  static get observedAttributes() { return ['caption', 'xlabel', 'ylabel', 'log-x', 'log-y', 'height', 'ymin', 'ymax']; }

  constructor() {
    super();
    shadow(this, css, `<div class="caption" part="caption"></div>
      <div class="wrap"><canvas tabindex="0" role="img"></canvas><div class="tip" role="status"></div></div><div class="legend"></div>`);
    /** @type {Series[]} */ this._series = [];
    /** @type {Mark[]} */ this.marks = [];
    /** @type {Region[]} */ this.regions = [];
    this.renderCount = 0;
    /** the read-out shown under the pointer @type {{ x: number, values: Array<{ label: string, x: number, y: number, y2?: number, index: number }> } | null} */
    this.hovered = null;
    /** @type {number | null} */ this._hx = null;
    /** @type {number | undefined} */ this._w = undefined;
    /** @type {TextBox[] | undefined} */ this._boxes = undefined;
    /** @type {Array<Array<[number, number]>> | undefined} */ this._paths = undefined;
    /** @type {Rect[] | undefined} */ this._solids = undefined;
    /** @type {LegendItem[] | undefined} */ this._overflow = undefined;
    /** @type {Rect | undefined} */ this._frame = undefined;
    const c = $(this.shadowRoot, 'canvas');
    c.addEventListener('pointermove', (e) => this._hover(e.clientX));
    c.addEventListener('pointerleave', () => this._hide());
    c.addEventListener('blur', () => this._hide());
    c.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      const r = c.getBoundingClientRect(), { left, right } = this._scales().f;
      this._hx = Math.min(right, Math.max(left, (this._hx ?? left) + (e.key === 'ArrowRight' ? 4 : -4)));
      this._hover(r.left + this._hx);
    });
    this._ro = new ResizeObserver(() => { if (this._w !== this.clientWidth) this.render(); });
  }

  connectedCallback() { this._ro.observe(this); }
  disconnectedCallback() { this._ro.disconnect(); }
  /** @param {string} name */
  attributeChangedCallback(name) {
    if (name === 'caption') {
      setCodeText($(this.shadowRoot, '.caption'), this.getAttribute('caption') || '');
      this._describe();
    } else this.render();
  }

  /** The curves drawn. @param {Series[]} v */
  set series(v) { this._series = v || []; this._describe(); this.render(); }
  /** The canvas's text alternative: the caption, then each curve (up to 8) with its x range, first and last value and
   * its range, and the marked values — the numbers drawn, in words a screen reader can say. */
  _describe() {
    const parts = [this.getAttribute('caption') || 'chart'];
    const f = (/** @type {number} */ v) => (v === 0 || (Math.abs(v) >= 1e-3 && Math.abs(v) < 1e5) ? String(Number(v.toPrecision(5))).replace('-', '−') : fmt(v, 4));
    for (const s of (this._series || []).slice(0, 8)) {
      const xs = this._xs(s), n = s.y.length;
      let lo = Infinity, hi = -Infinity;
      for (let i = 0; i < n; i++) { const v = s.y[i]; if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; } }
      if (!n || hi < lo) continue;
      parts.push(`${s.label ?? ''}: x ${f(xs[0])} … ${f(xs[n - 1])}; y ${f(s.y[0])} → ${f(s.y[n - 1])} (${f(lo)} … ${f(hi)})`);
    }
    for (const r of (this.regions || []).slice(0, 4)) if (r.label) parts.push(`${r.label} (x ${f(r.x0)} … ${f(r.x1)})`);
    for (const m of (this.marks || []).slice(0, 6)) if (m.label) parts.push(`${m.label}${m.x !== undefined ? ` (x = ${f(m.x)})` : m.y !== undefined ? ` (y = ${f(m.y)})` : ''}`);
    $(this.shadowRoot, 'canvas').setAttribute('aria-label', parts.join('. '));
  }
  /** @returns {Series[]} */
  get series() { return this._series; }
  /** Draws `series` with `marks` and `regions`. @param {{ series: Series[], marks?: Mark[], regions?: Region[] }} o */
  update({ series, marks, regions }) { this.marks = marks || []; this.regions = regions || []; this.series = series; }

  /** @param {Series} s @returns {Nums} */
  _xs(s) { const n = s.y.length; return s.x ?? Array.from({ length: n }, (_, i) => (s.x0 ?? 0) + i * (s.dx ?? 1)); }

  /** @param {number} [w] @param {Ctx | null} [g] */
  _scales(w = Math.max(200, this.clientWidth || 600), g = null) {
    const h = Number(this.getAttribute('height')) || 240;
    const logx = this.hasAttribute('log-x'), logy = this.hasAttribute('log-y');
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (const s of this._series) {
      const xs = this._xs(s);
      for (let i = 0; i < s.y.length; i++) {
        const x = xs[i];
        if (!Number.isFinite(x) || (logx && x <= 0)) continue;
        x0 = Math.min(x0, x); x1 = Math.max(x1, x);
        for (const v of s.y2 ? [s.y[i], s.y2[i]] : [s.y[i]]) if (Number.isFinite(v) && !(logy && v <= 0)) { y0 = Math.min(y0, v); y1 = Math.max(y1, v); }
      }
      if (s.kind === 'bar' && !logy) { y0 = Math.min(y0, 0); y1 = Math.max(y1, 0); }
    }
    for (const m of this.marks) if (m.y !== undefined && Number.isFinite(m.y) && !(logy && m.y <= 0)) { y0 = Math.min(y0, m.y); y1 = Math.max(y1, m.y); }
    if (this.hasAttribute('ymin')) y0 = Number(this.getAttribute('ymin'));
    if (this.hasAttribute('ymax')) y1 = Number(this.getAttribute('ymax'));
    if (!(x1 > x0)) { x0 = Number.isFinite(x0) ? x0 - 1 : 0; x1 = x0 + 2; }
    if (!(y1 > y0)) { y0 = Number.isFinite(y0) ? (logy ? y0 / 2 : y0 - 1) : logy ? 0.1 : 0; y1 = logy ? y0 * 4 : y0 + 2; }
    // a little headroom so extreme points are not cut by the frame
    // (more above when a vertical mark has a label: it then has a line of its own over the curves)
    const room = this.marks.some((m) => m.x !== undefined && m.label);
    if (logy) { if (!this.hasAttribute('ymax')) y1 *= room ? (y1 / y0) ** 0.12 * 1.25 : 1.25; if (!this.hasAttribute('ymin')) y0 /= 1.25; }
    else { const pad = 0.04 * (y1 - y0); if (!this.hasAttribute('ymax')) y1 += room ? 3.5 * pad : pad; if (!this.hasAttribute('ymin') && y0 !== 0) y0 -= pad; }
    // a labelled horizontal mark at the top of the plot gets room above it for its label (a line of text and a gap)
    const top = Math.max(...this.marks.filter((m) => m.x === undefined && m.label && Number.isFinite(m.y) && !(logy && (m.y ?? 0) <= 0)).map((m) => /** @type {number} */ (m.y)));
    const kTop = 22 / Math.max(60, h - 42), tTop = logy ? Math.log10 : (/** @type {number} */ v) => v, T = (tTop(top) - kTop * tTop(y0)) / (1 - kTop);
    if (Number.isFinite(top) && !this.hasAttribute('ymax') && T > tTop(y1)) y1 = logy ? 10 ** T : T;
    const yt = axisTicks(y0, y1, { log: logy, count: Math.max(3, Math.round(h / 50)) });
    // The left margin fits the widest y tick label (measured in the drawing font).
    let left = 58;
    if (g) { const gg = g; gg.font = `12px ${FONT}`; left = Math.max(40, 26 + Math.max(...yt.values.map((v) => gg.measureText(yt.format(v)).width))); }
    const f = { w, h, left, right: w - 14, top: 8, bottom: h - 34 };
    const xt = axisTicks(x0, x1, { log: logx, count: Math.max(3, Math.floor((f.right - f.left) / 80)) });
    // Counts (heads, pairs, channels): an axis whose every x is an integer gets integer ticks only.
    const intX = !logx && this._series.length && this._series.every((s) => (s.x ? Array.prototype.every.call(s.x, Number.isInteger) : Number.isInteger(s.x0 ?? 0) && Number.isInteger(s.dx ?? 1)));
    if (intX && xt.values.some((v) => !Number.isInteger(v))) {
      xt.values = xt.values.filter(Number.isInteger);
      if (xt.values.length < 2) xt.values = Array.from({ length: Math.floor(x1) - Math.ceil(x0) + 1 }, (_, i) => Math.ceil(x0) + i);
      xt.format = (v) => String(v);
    }
    const tx = logx ? Math.log10 : (/** @type {number} */ x) => x, ty = logy ? Math.log10 : (/** @type {number} */ y) => y;
    const [X0, X1, Y0, Y1] = [tx(x0), tx(x1), ty(y0), ty(y1)];
    const nmax = Math.max(1, ...this._series.map((s) => s.y.length));
    const barPad = this._series.some((s) => s.kind === 'bar' || s.kind === 'points') ? 0.5 * ((X1 - X0) / Math.max(1, nmax - 1)) : 0;
    const px = (/** @type {number} */ x) => f.left + ((tx(x) - X0 + barPad) / (X1 - X0 + 2 * barPad)) * (f.right - f.left);
    const py = (/** @type {number} */ y) => f.bottom - ((ty(y) - Y0) / (Y1 - Y0)) * (f.bottom - f.top);
    const invx = (/** @type {number} */ p) => { const t = X0 - barPad + ((p - f.left) / (f.right - f.left)) * (X1 - X0 + 2 * barPad); return logx ? 10 ** t : t; };
    return { f, px, py, invx, x0, x1, y0, y1, logx, logy, xt, yt };
  }

  /** Axes, marks, regions and curves of a w-wide plot into g at (0, 0). */
  /** @param {Ctx} g @param {number} w */
  _plot(g, w) {
    const th = theme(this), sc = this._scales(w, g), { f, px, py, xt, yt, logy, y0, y1 } = sc;
    /** @type {TextBox[]} */ const boxes = [];
    /** @type {Array<Array<[number, number]>>} */ const paths = [];
    /** @type {Rect[]} */ const solids = [];
    const box = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ bw, /** @type {number} */ bh, /** @type {string} */ text, /** @type {string} */ kind) => boxes.push({ x, y, w: bw, h: bh, text, kind });
    g.font = `12px ${FONT}`; g.strokeStyle = th.grid; g.fillStyle = th.fg; g.lineWidth = 1; g.setLineDash([]);
    for (const r of this.regions) {
      g.globalAlpha = 0.14; g.fillStyle = th.colour(r.color, th.series[4]);
      const a = Math.max(f.left, px(r.x0)), b = Math.min(f.right, px(r.x1));
      if (b > a) g.fillRect(a, f.top, b - a, f.bottom - f.top);
      g.globalAlpha = 1;
    }
    g.textAlign = 'right'; g.textBaseline = 'middle'; g.fillStyle = th.fg; g.strokeStyle = th.grid;
    for (const v of yt.values) {
      const y = py(v); if (y < f.top - 0.5 || y > f.bottom + 0.5) continue;
      g.beginPath(); g.moveTo(f.left, y); g.lineTo(f.right, y); g.stroke();
      const s = yt.format(v), tw = g.measureText(s).width; g.fillText(s, f.left - 4, y); box(f.left - 4 - tw, y - 6, tw, 12, s, 'ytick');
    }
    g.textBaseline = 'top';
    for (const v of xt.values) {
      const x = px(v); if (x < f.left - 0.5 || x > f.right + 0.5) continue;
      g.beginPath(); g.moveTo(x, f.top); g.lineTo(x, f.bottom); g.stroke();
      const s = xt.format(v), half = g.measureText(s).width / 2, cx = Math.min(f.w - half - 1, Math.max(half + 1, x));
      g.textAlign = 'center'; g.fillText(s, cx, f.bottom + 3); box(cx - half, f.bottom + 3, 2 * half, 12, s, 'xtick');
    }
    g.strokeStyle = th.frame; g.strokeRect(f.left, f.top, f.right - f.left, f.bottom - f.top);
    g.fillStyle = th.fg; g.textAlign = 'center'; g.textBaseline = 'top';
    const xl = this.getAttribute('xlabel') || '', yl = this.getAttribute('ylabel') || '';
    g.fillText(xl, (f.left + f.right) / 2, f.bottom + 18);
    if (xl) { const tw = g.measureText(xl).width; box((f.left + f.right - tw) / 2, f.bottom + 18, tw, 12, xl, 'xlabel'); }
    g.save(); g.translate(10, (f.top + f.bottom) / 2); g.rotate(-Math.PI / 2); g.textBaseline = 'middle'; g.fillText(yl, 0, 0); g.restore();
    if (yl) { const tw = g.measureText(yl).width; box(4, (f.top + f.bottom - tw) / 2, 12, tw, yl, 'ylabel'); }
    g.save(); g.beginPath(); g.rect(f.left, f.top, f.right - f.left, f.bottom - f.top); g.clip();
    for (const m of this.marks) {
      g.strokeStyle = th.colour(m.color, th.muted); g.lineWidth = 1.2; g.setLineDash([4, 3]); g.beginPath();
      if (m.x !== undefined) { g.moveTo(px(m.x), f.top); g.lineTo(px(m.x), f.bottom); } else { g.moveTo(f.left, py(m.y ?? NaN)); g.lineTo(f.right, py(m.y ?? NaN)); }
      g.stroke(); g.setLineDash([]);
    }
    this._series.forEach((s, si) => {
      const col = th.colour(s.color, th.series[si % th.series.length]), xs = this._xs(s), n = s.y.length;
      g.strokeStyle = col; g.fillStyle = col; g.lineWidth = s.width ?? 1.8; g.setLineDash(s.dash || []);
      const line = (/** @type {Nums} */ ys) => {
        /** @type {Array<[number, number]>} */
        let run = [];
        g.beginPath(); let pen = false;
        for (let i = 0; i < n; i++) {
          const v = ys[i];
          if (!Number.isFinite(v) || (logy && v <= 0) || (sc.logx && xs[i] <= 0)) { pen = false; if (run.length) paths.push(run); run = []; continue; }
          const x = px(xs[i]), y = py(v);
          if (!pen) { g.moveTo(x, y); pen = true; } else if (s.kind === 'step') { g.lineTo(x, py(ys[i - 1])); run.push([x, py(ys[i - 1])]); g.lineTo(x, y); } else g.lineTo(x, y);
          run.push([x, y]);
        }
        g.stroke(); if (run.length) paths.push(run);
      };
      if (s.y2) {
        g.globalAlpha = 0.22; g.beginPath();
        const bw = Math.max(1, (f.right - f.left) / n);
        const y2 = s.y2;
        for (let i = 0; i < n; i++) { const x = px(xs[i]); g.rect(x - 0.5, py(y2[i]), bw, Math.max(1, py(s.y[i]) - py(y2[i]))); }
        g.fill(); g.globalAlpha = 1;
        line(s.y2);
        paths.push(Array.from({ length: n }, (_, i) => /** @type {[number, number]} */ ([px(xs[i]), py(s.y[i])])).filter(([, y]) => Number.isFinite(y)));
      } else if (s.kind === 'bar') {
        const bw = Math.max(1, ((f.right - f.left) / Math.max(n, 1)) * 0.7), base = py(logy ? y0 : Math.max(y0, Math.min(0, y1)));
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i])) {
          const x = px(xs[i]), y = py(s.y[i]); g.fillRect(x - bw / 2, Math.min(y, base), bw, Math.abs(base - y));
          solids.push({ x: x - bw / 2, y: Math.min(y, base), w: bw, h: Math.abs(base - y) });   // nothing is placed on a bar
        }
      } else if (s.kind === 'points') {
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i]) && !(logy && s.y[i] <= 0)) {
          const x = px(xs[i]), y = py(s.y[i]); g.beginPath(); g.arc(x, y, 2.5, 0, 7); g.fill();
          solids.push({ x: x - 3, y: y - 3, w: 6, h: 6 });   // the whole dot: a label must not touch it
        }
      } else line(s.y);
      g.setLineDash([]);
    });
    g.restore();
    // Labels last, clear of every curve, dot and label already placed (label-place.js); what finds no room goes to the legend
    /** @type {LegendItem[]} */
    const overflow = [];
    const place = labelPlacer(g, f, th, { paths, solids, boxes, overflow });
    const ys = (/** @type {number} */ step) => Array.from({ length: Math.max(1, Math.floor((f.bottom - f.top - 14) / step)) }, (_, i) => f.top + 2 + i * step);
    g.font = `12px ${FONT}`;
    // A mark's label stands by its own line: its box at most NEAR px from the line (or across it), inside the frame,
    // clear of everything drawn; where there is no such spot it goes to the legend, never across the plot.
    const NEAR = 8, gap = (/** @type {number} */ a, /** @type {number} */ len, /** @type {number} */ at) => (a > at ? a - at : a + len < at ? at - a - len : 0);
    for (const m of this.marks) {
      if (!m.label) continue;
      if (m.x !== undefined) {
        const x = px(m.x), keep = (/** @type {number} */ lx, /** @type {number} */ _y, /** @type {number} */ _h, /** @type {number} */ w) => gap(lx, w, x) <= NEAR;
        place(m.label, (tw) => ys(7).flatMap((y) => /** @type {Array<[number, number]>} */ ([[x + 4, y], [x - 4 - tw, y]])), th.colour(m.color, th.muted), keep);
      } else {
        const y = py(m.y ?? NaN), xsC = (/** @type {number} */ tw) => Array.from({ length: Math.max(1, Math.floor((f.right - f.left - tw - 8) / 24)) }, (_, i) => f.left + 4 + i * 24);
        // near its own line, and its middle nearer that line than any other horizontal mark's (never read as theirs);
        // tried just below or above the line, then a little further off, then across it (on its halo)
        const others = this.marks.filter((o) => o !== m && o.x === undefined && Number.isFinite(o.y)).map((o) => py(o.y ?? NaN));
        const keep = (/** @type {number} */ _x, /** @type {number} */ ly, /** @type {number} */ h) => gap(ly, h, y) <= NEAR && others.every((oy) => Math.abs(ly + h / 2 - y) < Math.abs(ly + h / 2 - oy));
        place(m.label, (tw) => [[3, -15], [7, -20], [-6.5]].flatMap((dys) => xsC(tw).flatMap((x) => dys.map((dy) => /** @type {[number, number]} */ ([x, y + dy])))), th.colour(m.color, th.muted), keep);
      }
    }
    for (const r of this.regions) {
      if (!r.label) continue;
      const cx = Math.min(f.right - 40, Math.max(f.left + 40, (px(r.x0) + px(Math.min(r.x1, sc.x1))) / 2));
      place(r.label, (tw) => [...ys(7).reverse().map((y) => /** @type {[number, number]} */ ([cx - tw / 2, y])), ...ys(7).reverse().flatMap((y) => /** @type {Array<[number, number]>} */ ([[px(r.x0) + 3, y], [px(Math.min(r.x1, sc.x1)) - tw - 3, y]]))], th.fg);
    }
    this._boxes = boxes; this._paths = paths; this._solids = solids; this._overflow = overflow; this._frame = { x: f.left, y: f.top, w: f.right - f.left, h: f.bottom - f.top };
    this._markLines = this.marks.filter((m) => m.label && Number.isFinite(m.x ?? m.y)).map((m) => (m.x !== undefined ? { label: m.label ?? '', x: px(m.x) } : { label: m.label ?? '', y: py(m.y ?? NaN) }));
    return sc;
  }

  /** Every text drawn on the canvas: {x, y, w, h, text, kind: xtick | ytick | xlabel | ylabel | label (marks, regions)}, canvas CSS px. */
  /** @returns {TextBox[]} */
  textBoxes() { return this._boxes ?? []; }
  /** The labelled marks drawn: label and canvas y (horizontal) or x (vertical), CSS px, for tests that a label stands by its own line. */
  markLines() { return this._markLines ?? []; }
  /** The bars drawn, as boxes {x, y, w, h} in canvas CSS px. */
  /** @returns {Rect[]} */
  solidBoxes() { return this._solids ?? []; }
  /** The plot frame {x, y, w, h} in canvas CSS px. */
  /** @returns {Rect} */
  frameBox() { return /** @type {Rect} */ (this._frame); }
  /** The curves drawn, as runs of [x, y] canvas CSS px (bars as their outline, points as two crossed strokes). */
  /** @returns {Array<Array<[number, number]>>} */
  curvePaths() { return this._paths ?? []; }

  render() {
    const c = $(this.shadowRoot, /** @type {string} */ ('canvas')), cv = /** @type {HTMLCanvasElement} */ (/** @type {unknown} */ (c));
    if (!this.isConnected) return;
    const w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    this._w = this.clientWidth;
    const dpr = globalThis.devicePixelRatio || 1;
    cv.width = Math.round(w * dpr); cv.height = Math.round(h * dpr); c.style.height = `${h}px`;
    const g = /** @type {CanvasRenderingContext2D} */ (cv.getContext('2d'));
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    this._plot(g, w);
    const th = theme(this), leg = $(this.shadowRoot, '.legend');
    leg.replaceChildren();
    this._legendItems(th).forEach((s) => {
      const span = document.createElement('span'), i = document.createElement('i'), col = s.color;
      // the swatch looks like the series: a dot for points, a dashed line for a dashed curve
      if (s.kind === 'points') i.className = 'dot';
      i.style.background = s.dash ? `repeating-linear-gradient(90deg, ${col} 0 ${s.dash[0]}px, transparent ${s.dash[0]}px ${s.dash[0] + s.dash[1]}px)` : col;
      span.append(i, ...codeParts(s.label ?? '')); leg.append(span);
    });
    this.renderCount++;
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  // ── export ──
  /** What the legend lists: every labelled series, then the mark labels that found no clear place in the plot. */
  /** @param {ReturnType<typeof theme>} th @returns {LegendItem[]} */
  _legendItems(th) {
    return [...this._series.map((s, si) => ({ ...s, color: th.colour(s.color, th.series[si % th.series.length]) })).filter((s) => s.label), ...(this._overflow ?? [])];
  }
  /** @param {Ctx} g @param {number} w */
  _legendRows(g, w) {
    g.font = `12px ${FONT}`;
    /** @type {Array<Array<{ s: LegendItem, x: number }>>} */
    const rows = [[]]; let x = 0;
    this._legendItems(theme(this)).forEach((s) => {
      const iw = 24 + g.measureText(s.label ?? '').width + 14;
      if (x + iw > w && rows[rows.length - 1].length) { rows.push([]); x = 0; }
      rows[rows.length - 1].push({ s, x }); x += iw;
    });
    return rows.filter((r) => r.length);
  }
  /** The caption as drawn in an export: wrapped to the plot's width (never cut on a phone). */
  /** @param {number} w */
  _captionLines(w) { const c = this.getAttribute('caption'); return c ? wrapText(c, `600 12px ${FONT}`, w) : []; }
  /** @param {Ctx} g */
  exportSize(g) {
    const w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    return { w, h: 18 * this._captionLines(w).length + h + 18 * this._legendRows(g, w).length + 4 };
  }
  /** Caption, plot and legend into g at (0, 0). @param {Ctx} g */
  paint(g) {
    const th = theme(this), w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    let y = 0;
    for (const line of this._captionLines(w)) { g.font = `600 12px ${FONT}`; g.fillStyle = th.fg; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(line, 0, y); y += 18; }
    g.save(); g.translate(0, y); this._plot(g, w); g.restore();
    y += h;
    for (const row of this._legendRows(g, w)) {
      for (const { s, x } of row) {
        g.fillStyle = s.color;
        if (s.kind === 'points') { g.beginPath(); g.arc(x + 9, y + 7.5, 4, 0, 7); g.fill(); }
        else if (s.dash) for (let a = 0; a < 18; a += s.dash[0] + s.dash[1]) g.fillRect(x + a, y + 6, Math.min(s.dash[0], 18 - a), 3);
        else g.fillRect(x, y + 6, 18, 3);
        g.fillStyle = th.fg; g.font = `12px ${FONT}`; g.textAlign = 'left'; g.textBaseline = 'middle'; g.fillText(s.label ?? '', x + 22, y + 8);
      }
      y += 18;
    }
  }
  /** The numbers drawn: one row per point of every series (x, y; a band adds y2). */
  /** @returns {{ columns: string[], rows: Array<Array<string | number>> }} */
  table() {
    /** @type {Array<Array<string | number>>} */
    const rows = [];
    for (const s of this._series) {
      const xs = this._xs(s);
      for (let i = 0; i < s.y.length; i++) rows.push([s.label || '', xs[i], s.y[i], s.y2 ? s.y2[i] : '']);
    }
    return { columns: ['series', 'x', 'y', 'y2'], rows };
  }

  _hide() { $(this.shadowRoot, '.tip').style.display = 'none'; this.hovered = null; }

  /** Read-out of every series at the x nearest to a client x coordinate. */
  /** @param {number} clientX */
  _hover(clientX) {
    if (!this._series.length) return;
    const c = $(this.shadowRoot, 'canvas'), r = c.getBoundingClientRect();
    const { invx, f } = this._scales(undefined, /** @type {HTMLCanvasElement} */ (/** @type {unknown} */ (c)).getContext('2d'));
    const p = Math.min(f.right, Math.max(f.left, clientX - r.left)); this._hx = p;
    const xv = invx(p);
    /** @type {Array<{ label: string, x: number, y: number, y2?: number, index: number }>} */
    const values = [];
    for (const s of this._series) {
      const xs = this._xs(s);
      let best = 0, bd = Infinity;
      if (!s.x) best = Math.min(s.y.length - 1, Math.max(0, Math.round((xv - (s.x0 ?? 0)) / (s.dx ?? 1))));
      else for (let i = 0; i < xs.length; i++) { const dd = Math.abs(xs[i] - xv); if (dd < bd) { bd = dd; best = i; } }
      values.push({ label: s.label || '', x: xs[best], y: s.y[best], y2: s.y2?.[best], index: best });
    }
    this.hovered = { x: values[0].x, values };
    const tip = $(this.shadowRoot, '.tip');
    tip.textContent = `x = ${fmt(values[0].x, 3)}\n` + values.map((v) => `${v.label}: ${fmt(v.y, 4)}${v.y2 !== undefined ? ` … ${fmt(v.y2, 4)}` : ''}`).join('\n');
    tip.style.display = 'block';
    tip.style.left = `${Math.min(p + 10, f.w - 170)}px`; tip.style.top = `${f.top + 6}px`;
    this.dispatchEvent(new CustomEvent('point-hover', { detail: this.hovered }));
  }
}

define('pe-lines', PeLines);
