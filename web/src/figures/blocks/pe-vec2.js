// @ts-check
// <pe-vec2>: a 2-D vector plane in SVG (shadow DOM) for the RoPE playground.
//   property vectors: [{ id, x, y, label, color?, draggable?, dashed? }]  (draggable ones have a focusable handle)
//   attributes: caption, range (half-width of the plane, default 2)
//   events: 'vector-change' {id, x, y} while dragging a handle (pointer) or with arrow keys (0.05 per press); a handle
//           never leaves the plane: x and y stay within ±range (the pointer outside the plane moves it along the edge)
//   export: exportSize(), paint(g), table()
// The element only draws what it is given; rotated vectors are computed by the figure (in the wasm worker).
import { Base, shadow, define, theme, FONT, $ } from './base.js';

/** A vector of the plane. @typedef {{ id: string, x: number, y: number, label: string, color?: string, draggable?: boolean, dashed?: boolean }} Vec */
/** A label's box in plane coordinates (leader: away from its tip, joined to it by a thin line). @typedef {{ x: number, y: number, w: number, h: number, text: string, leader?: boolean }} Box */
import { wrapText } from './text.js';
import { setCodeText } from './code-text.js';

const NS = 'http://www.w3.org/2000/svg';
const css = `
:host { display: inline-block; font: 12px ${FONT}; max-width: 100%; color: var(--pe-fg, #1d1d1f); }
.caption { font-weight: 600; margin-bottom: 4px; }
svg { width: var(--pe-vec-size, min(340px, 86vw)); height: auto; background: var(--pe-bg, #fafafa); border: 1px solid var(--pe-grid, #ddd); border-radius: 4px; touch-action: none; }
.handle { cursor: grab; }
.handle:focus { outline: none; stroke: var(--pe-fg, #000); stroke-width: 3; }
`;

export class PeVec2 extends Base {
  static get observedAttributes() { return ['caption', 'range']; }
  constructor() {
    super();
    shadow(this, css, '<div class="caption"></div><svg viewBox="-170 -170 340 340" role="group"></svg>');
    /** @type {Vec[]} */ this._vectors = [];
    this.renderCount = 0;
    /** @type {string | null} */ this._drag = null;
    /** @type {string | null} */ this._refocus = null;
    /** the labels' boxes, as last drawn (tests) @type {Array<Box | null>} */ this.boxes = [];
    const svg = $(this.shadowRoot, 'svg');
    svg.addEventListener('pointermove', (e) => {
      if (!this._drag) return;
      const p = this._toData(e.clientX, e.clientY);
      this._emit(this._drag, p.x, p.y);
    });
    const end = () => { this._drag = null; };
    svg.addEventListener('pointerup', end); svg.addEventListener('pointercancel', end);
  }
  /** @param {string} n */
  attributeChangedCallback(n) {
    if (n === 'caption') setCodeText($(this.shadowRoot, '.caption'), this.getAttribute('caption') || '');
    else this.render();
  }
  get range() { return Number(this.getAttribute('range')) || 2; }
  /** The vectors drawn: [{ id, x, y, label, color?, draggable?, dashed? }]. @param {Vec[]} v */
  set vectors(v) { this._vectors = v || []; this.render(); }
  /** @returns {Vec[]} */
  get vectors() { return this._vectors; }

  /** @param {number} cx @param {number} cy */
  _toData(cx, cy) {
    const r = $(this.shadowRoot, 'svg').getBoundingClientRect(), s = 340 / r.width;
    const k = this.range / 150;
    return { x: ((cx - r.left) * s - 170) * k, y: -((cy - r.top) * s - 170) * k };
  }
  /** Client coordinates of a data point (tests). @param {number} x @param {number} y */
  toClient(x, y) {
    const r = $(this.shadowRoot, 'svg').getBoundingClientRect(), s = r.width / 340, k = 150 / this.range;
    return { x: r.left + (170 + x * k) * s, y: r.top + (170 - y * k) * s };
  }
  /** @param {string} id @param {number} x @param {number} y */
  _emit(id, x, y) {
    const R = this.range, keep = (/** @type {number} */ v) => Math.round(Math.min(R, Math.max(-R, v)) * 100) / 100;
    this.dispatchEvent(new CustomEvent('vector-change', { detail: { id, x: keep(x), y: keep(y) }, bubbles: true }));
  }

  render() {
    const svg = $(this.shadowRoot, 'svg'), k = 150 / this.range, th = theme(this);
    svg.replaceChildren();
    /** @type {(tag: string, attrs: Record<string, string | number>, parent?: Element) => SVGElement} */
    const el = (tag, attrs, parent = svg) => { const e = document.createElementNS(NS, tag); for (const [a, v] of Object.entries(attrs)) e.setAttribute(a, String(v)); parent.append(e); return e; };
    const defs = el('defs', {});
    el('line', { x1: -165, y1: 0, x2: 165, y2: 0, stroke: th.frame }); el('line', { x1: 0, y1: -165, x2: 0, y2: 165, stroke: th.frame });
    el('circle', { cx: 0, cy: 0, r: k, fill: 'none', stroke: th.grid, 'stroke-dasharray': '3 3' });
    const spots = labelSpots(this._vectors, k);
    this.boxes = spots;
    this._vectors.forEach((v, i) => {
      const col = th.colour(v.color, th.series[i % th.series.length]), id = `a${i}`;
      const m = el('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
      el('path', { d: 'M0,0 L10,5 L0,10 z', fill: col }, m);
      const X = v.x * k, Y = -v.y * k;
      el('line', { x1: 0, y1: 0, x2: X, y2: Y, stroke: col, 'stroke-width': 2.2, 'marker-end': `url(#${id})`, 'stroke-dasharray': v.dashed ? '5 4' : '' });
      const at = /** @type {Box} */ (spots[i]);
      if (at.leader) { const [lx, ly] = leaderEnd(at, X, Y); el('line', { x1: X, y1: Y, x2: lx, y2: ly, stroke: col, 'stroke-width': 1, 'stroke-dasharray': '2 2', class: 'leader' }); }
      const t = el('text', { x: at.x, y: at.y + 10, fill: th.text(col), 'font-size': 13 });
      t.textContent = v.label;
      if (v.draggable) {
        const h = el('circle', { cx: X, cy: Y, r: 9, fill: col, 'fill-opacity': 0.25, stroke: col, class: 'handle', tabindex: 0, role: 'slider',
          'aria-label': /** @type {{ host?: HTMLElement }} */ (this.getRootNode()).host?.lang === 'zh' ? `${v.label}：拖动，或用方向键` : `${v.label}: drag, or use arrow keys`, 'aria-valuetext': `(${v.x.toFixed(2)}, ${v.y.toFixed(2)})` });
        h.addEventListener('pointerdown', (e) => { this._drag = v.id; svg.setPointerCapture(e.pointerId); e.preventDefault(); });
        h.addEventListener('keydown', (e) => {
          const d = (/** @type {Record<string, [number, number]>} */ ({ ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }))[e.key];
          if (!d) return;
          e.preventDefault();
          this._refocus = v.id;
          this._emit(v.id, v.x + 0.05 * d[0], v.y + 0.05 * d[1]);
        });
        h.dataset.id = v.id;
      }
    });
    if (this._refocus) { /** @type {SVGElement | null} */ (svg.querySelector(`[data-id="${this._refocus}"]`))?.focus(); this._refocus = null; }
    this.renderCount++;
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  // ── export: the same plane at 340 × 340 px ──
  _captionLines() { const c = this.getAttribute('caption'); return c ? wrapText(c, `600 12px ${FONT}`, 340) : []; }
  exportSize() { return { w: 340, h: 340 + 18 * this._captionLines().length }; }
  /** @param {import('./export.js').Ctx} g */
  paint(g) {
    const th = theme(this), k = 150 / this.range;
    let y0 = 0;
    for (const line of this._captionLines()) { g.font = `600 12px ${FONT}`; g.fillStyle = th.fg; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(line, 0, y0); y0 += 18; }
    g.save(); g.translate(170, 170 + y0);
    g.strokeStyle = th.frame; g.lineWidth = 1; g.setLineDash([]);
    g.beginPath(); g.moveTo(-165, 0); g.lineTo(165, 0); g.moveTo(0, -165); g.lineTo(0, 165); g.stroke();
    g.strokeStyle = th.grid; g.setLineDash([3, 3]); g.beginPath(); g.arc(0, 0, k, 0, 7); g.stroke(); g.setLineDash([]);
    const spots = labelSpots(this._vectors, k);
    this._vectors.forEach((v, i) => {
      const col = th.colour(v.color, th.series[i % th.series.length]), X = v.x * k, Y = -v.y * k, len = Math.hypot(X, Y) || 1;
      const ux = X / len, uy = Y / len, hx = X - 10 * ux, hy = Y - 10 * uy;
      g.strokeStyle = col; g.fillStyle = col; g.lineWidth = 2.2; g.setLineDash(v.dashed ? [5, 4] : []);
      g.beginPath(); g.moveTo(0, 0); g.lineTo(hx, hy); g.stroke(); g.setLineDash([]);
      g.beginPath(); g.moveTo(X, Y); g.lineTo(hx - 5 * uy, hy + 5 * ux); g.lineTo(hx + 5 * uy, hy - 5 * ux); g.closePath(); g.fill();
      g.font = `13px ${FONT}`; g.textAlign = 'left'; g.textBaseline = 'alphabetic'; g.fillStyle = th.text(col);
      const at = /** @type {Box} */ (spots[i]); g.fillText(v.label, at.x, at.y + 10);
      if (at.leader) { const [lx, ly] = leaderEnd(at, X, Y); g.strokeStyle = col; g.lineWidth = 1; g.setLineDash([2, 2]); g.beginPath(); g.moveTo(X, Y); g.lineTo(lx, ly); g.stroke(); g.setLineDash([]); }
    });
    g.restore();
  }
  /** @returns {{ columns: string[], rows: Array<Array<string | number>> }} */
  table() { return { columns: ['vector', 'x', 'y'], rows: this._vectors.map((v) => [v.label, v.x, v.y]) }; }
}

/**
 * Where each vector's label goes (its box {x, y, w, h} in plane coordinates, origin at the centre): just beyond the
 * tip along the vector, or turned around the tip until it overlaps no label placed before it and no vector's shaft.
 * @param {Vec[]} vectors @param {number} k @returns {Array<Box | null>}
 */
function labelSpots(vectors, k) {
  /** @type {Box[]} */
  const placed = [], W = (/** @type {string} */ s) => 7.5 * [...s].length + 2, H = 13;
  const tips = vectors.map((v) => [v.x * k, -v.y * k]);
  const crossesShaft = (/** @type {Box} */ b) => tips.some(([X, Y]) => {
    for (let t = 0.15; t <= 1; t += 0.05) { const x = X * t, y = Y * t; if (x > b.x - 2 && x < b.x + b.w + 2 && y > b.y - 2 && y < b.y + b.h + 2) return true; }
    return false;
  });
  return vectors.map((v, i) => {
    const [X, Y] = tips[i], len = Math.hypot(X, Y) || 1, w = W(v.label), a0 = Math.atan2(Y / len, X / len);
    /** @type {Box | null} */
    let best = null, fallback = null;
    search: for (const da of [0, 0.5, -0.5, 1, -1, 1.6, -1.6, 2.2, -2.2, Math.PI]) for (const r of [12, 22]) {
      const cx = X + r * Math.cos(a0 + da), cy = Y + r * Math.sin(a0 + da);
      const b = { x: Math.min(165 - w, Math.max(-168, cx - w / 2 + (w / 2) * Math.cos(a0 + da))), y: Math.min(165 - H, Math.max(-168, cy - H / 2 + (H / 2) * Math.sin(a0 + da))), w, h: H, text: v.label };
      if (!placed.some((p) => p.x < b.x + b.w && b.x < p.x + p.w && p.y < b.y + b.h && b.y < p.y + p.h) && !crossesShaft(b)) { best = b; break search; }
      fallback ??= b;
    }
    // no free spot by the tip (a crowd of hands): a free corner of the plane, outside the circle, nearest the tip first;
    // the label then gets a leader line from the tip (drawn by render and paint)
    if (!best && v.label) {
      const corners = [[165 - w, -168], [-168, -168], [165 - w, 165 - H], [-168, 165 - H]].map(([x, y]) => ({ x, y, w, h: H, text: v.label, leader: true }))
        .sort((a, b) => Math.hypot(a.x + w / 2 - X, a.y + H / 2 - Y) - Math.hypot(b.x + w / 2 - X, b.y + H / 2 - Y));
      best = corners.find((b) => !placed.some((p) => p.x < b.x + b.w && b.x < p.x + p.w && p.y < b.y + b.h && b.y < p.y + p.h) && !crossesShaft(b)) ?? null;
    }
    best ??= fallback;
    if (best) placed.push(best);
    return best;
  });
}

/** The point of a label's box nearest the tip (X, Y): where its leader line ends. @param {Box} b @param {number} X @param {number} Y */
const leaderEnd = (b, X, Y) => [Math.min(b.x + b.w, Math.max(b.x, X)), Math.min(b.y + b.h, Math.max(b.y, Y))];

define('pe-vec2', PeVec2);
