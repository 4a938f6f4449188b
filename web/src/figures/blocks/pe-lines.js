// <pe-lines>: a chart of curves on a canvas in shadow DOM.
//   property series: [{ label, y: ArrayLike, x?: ArrayLike (default x0 + i·dx), x0?, dx?, color?, dash?: number[],
//                       kind?: 'line' | 'step' | 'bar' | 'points', y2?: ArrayLike (with y: a min/max band), width? }]
//   property marks: [{ x?, y?, label, color? }]  vertical (x) or horizontal (y) reference lines
//   property regions: [{ x0, x1, label?, color? }] highlighted x ranges (annotations)
//   attributes: caption, xlabel, ylabel, log-x, log-y, height (px, default 240), ymin, ymax
//   events: 'point-hover' {x, values: [{label, y}]}; 'rendered'
//   export: exportSize(), paint(g) (caption, plot, legend) and table() (the numbers drawn)
// Ticks: d3-scale's nice steps, one d3-format per axis; labels never leave the canvas. A band (y, y2) is drawn light
// with its upper edge as a solid line, so the curve stays readable and the band secondary.
import { fmt, axisTicks } from './format.js';
import { Base, shadow, define, theme, FONT } from './base.js';

const css = `
:host { display: block; font: 12px ${FONT}; color: var(--pe-fg, #1d1d1f); max-width: 100%; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
.wrap { position: relative; }
canvas { display: block; width: 100%; touch-action: none; outline-offset: 2px; }
canvas:focus-visible { outline: 2px solid var(--pe-focus, #1d1d1f); }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 2px; }
.legend i { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
.tip { position: absolute; pointer-events: none; background: var(--pe-bg, #fff); border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: pre; display: none; box-shadow: 0 1px 3px #0003; font-variant-numeric: tabular-nums; }
`;

export class PeLines extends Base {
  static get observedAttributes() { return ['caption', 'xlabel', 'ylabel', 'log-x', 'log-y', 'height', 'ymin', 'ymax']; }

  constructor() {
    super();
    shadow(this, css, `<div class="caption" part="caption"></div>
      <div class="wrap"><canvas tabindex="0" role="img"></canvas><div class="tip" role="status"></div></div><div class="legend"></div>`);
    this._series = []; this.marks = []; this.regions = []; this.renderCount = 0; this.hovered = null; this._hx = null;
    const c = this.shadowRoot.querySelector('canvas');
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
  attributeChangedCallback(name) {
    if (name === 'caption') {
      this.shadowRoot.querySelector('.caption').textContent = this.getAttribute('caption') || '';
      this.shadowRoot.querySelector('canvas').setAttribute('aria-label', this.getAttribute('caption') || 'chart');
    } else this.render();
  }

  set series(v) { this._series = v || []; this.render(); }
  get series() { return this._series; }
  update({ series, marks, regions }) { this.marks = marks || []; this.regions = regions || []; this.series = series; }

  _xs(s) { const n = s.y.length; return s.x ?? Array.from({ length: n }, (_, i) => (s.x0 ?? 0) + i * (s.dx ?? 1)); }

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
    if (logy) { if (!this.hasAttribute('ymax')) y1 *= 1.25; if (!this.hasAttribute('ymin')) y0 /= 1.25; }
    else { const pad = 0.04 * (y1 - y0); if (!this.hasAttribute('ymax')) y1 += pad; if (!this.hasAttribute('ymin') && y0 !== 0) y0 -= pad; }
    const yt = axisTicks(y0, y1, { log: logy, count: Math.max(3, Math.round(h / 50)) });
    // The left margin fits the widest y tick label (measured in the drawing font).
    let left = 58;
    if (g) { g.font = `11px ${FONT}`; left = Math.max(40, 26 + Math.max(...yt.values.map((v) => g.measureText(yt.format(v)).width))); }
    const f = { w, h, left, right: w - 14, top: 8, bottom: h - 34 };
    const xt = axisTicks(x0, x1, { log: logx, count: Math.max(2, Math.floor((f.right - f.left) / 90)) });
    const tx = logx ? Math.log10 : (x) => x, ty = logy ? Math.log10 : (y) => y;
    const [X0, X1, Y0, Y1] = [tx(x0), tx(x1), ty(y0), ty(y1)];
    const nmax = Math.max(1, ...this._series.map((s) => s.y.length));
    const barPad = this._series.some((s) => s.kind === 'bar') ? 0.5 * ((X1 - X0) / Math.max(1, nmax - 1)) : 0;
    const px = (x) => f.left + ((tx(x) - X0 + barPad) / (X1 - X0 + 2 * barPad)) * (f.right - f.left);
    const py = (y) => f.bottom - ((ty(y) - Y0) / (Y1 - Y0)) * (f.bottom - f.top);
    const invx = (p) => { const t = X0 - barPad + ((p - f.left) / (f.right - f.left)) * (X1 - X0 + 2 * barPad); return logx ? 10 ** t : t; };
    return { f, px, py, invx, x0, x1, y0, y1, logx, logy, xt, yt };
  }

  /** Axes, marks, regions and curves of a w-wide plot into g at (0, 0). */
  _plot(g, w) {
    const th = theme(this), sc = this._scales(w, g), { f, px, py, xt, yt, logy, y0, y1 } = sc;
    g.font = `11px ${FONT}`; g.strokeStyle = th.grid; g.fillStyle = th.fg; g.lineWidth = 1; g.setLineDash([]);
    for (const r of this.regions) {
      g.globalAlpha = 0.14; g.fillStyle = th.colour(r.color, th.series[4]);
      const a = Math.max(f.left, px(r.x0)), b = Math.min(f.right, px(r.x1));
      if (b > a) g.fillRect(a, f.top, b - a, f.bottom - f.top);
      g.globalAlpha = 1;
    }
    g.textAlign = 'right'; g.textBaseline = 'middle'; g.fillStyle = th.fg; g.strokeStyle = th.grid;
    for (const v of yt.values) { const y = py(v); if (y < f.top - 0.5 || y > f.bottom + 0.5) continue; g.beginPath(); g.moveTo(f.left, y); g.lineTo(f.right, y); g.stroke(); g.fillText(yt.format(v), f.left - 4, y); }
    g.textBaseline = 'top';
    for (const v of xt.values) {
      const x = px(v); if (x < f.left - 0.5 || x > f.right + 0.5) continue;
      g.beginPath(); g.moveTo(x, f.top); g.lineTo(x, f.bottom); g.stroke();
      const s = xt.format(v), half = g.measureText(s).width / 2;
      g.textAlign = 'center'; g.fillText(s, Math.min(f.w - half - 1, Math.max(half + 1, x)), f.bottom + 3);
    }
    g.strokeStyle = th.frame; g.strokeRect(f.left, f.top, f.right - f.left, f.bottom - f.top);
    g.fillStyle = th.fg; g.textAlign = 'center'; g.textBaseline = 'top';
    g.fillText(this.getAttribute('xlabel') || '', (f.left + f.right) / 2, f.bottom + 18);
    g.save(); g.translate(10, (f.top + f.bottom) / 2); g.rotate(-Math.PI / 2); g.textBaseline = 'middle'; g.fillText(this.getAttribute('ylabel') || '', 0, 0); g.restore();
    g.save(); g.beginPath(); g.rect(f.left, f.top, f.right - f.left, f.bottom - f.top); g.clip();
    for (const m of this.marks) {
      g.strokeStyle = th.colour(m.color, th.muted); g.lineWidth = 1.2; g.setLineDash([4, 3]); g.beginPath();
      if (m.x !== undefined) { g.moveTo(px(m.x), f.top); g.lineTo(px(m.x), f.bottom); } else { g.moveTo(f.left, py(m.y)); g.lineTo(f.right, py(m.y)); }
      g.stroke(); g.setLineDash([]);
      g.fillStyle = th.text(th.colour(m.color, th.muted)); g.textBaseline = 'top';
      if (m.label) {
        const tw = g.measureText(m.label).width;
        if (m.x !== undefined) { const x = px(m.x), right = x + 3 + tw > f.right; g.textAlign = right ? 'right' : 'left'; g.fillText(m.label, right ? x - 3 : x + 3, f.top + 2); }
        else { g.textAlign = 'left'; const y = py(m.y); g.fillText(m.label, f.left + 4, y + 14 > f.bottom ? y - 14 : y + 2); }
      }
    }
    this._series.forEach((s, si) => {
      const col = th.colour(s.color, th.series[si % th.series.length]), xs = this._xs(s), n = s.y.length;
      g.strokeStyle = col; g.fillStyle = col; g.lineWidth = s.width ?? 1.8; g.setLineDash(s.dash || []);
      if (s.y2) {
        g.globalAlpha = 0.22; g.beginPath();
        const bw = Math.max(1, (f.right - f.left) / n);
        for (let i = 0; i < n; i++) { const x = px(xs[i]); g.rect(x - 0.5, py(s.y2[i]), bw, Math.max(1, py(s.y[i]) - py(s.y2[i]))); }
        g.fill(); g.globalAlpha = 1;
        g.beginPath();
        for (let i = 0; i < n; i++) { const v = s.y2[i]; if (Number.isFinite(v) && !(logy && v <= 0)) i === 0 ? g.moveTo(px(xs[i]), py(v)) : g.lineTo(px(xs[i]), py(v)); }
        g.stroke();
      } else if (s.kind === 'bar') {
        const bw = Math.max(1, ((f.right - f.left) / Math.max(n, 1)) * 0.7), base = py(logy ? y0 : Math.max(y0, Math.min(0, y1)));
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i])) { const x = px(xs[i]), y = py(s.y[i]); g.fillRect(x - bw / 2, Math.min(y, base), bw, Math.abs(base - y)); }
      } else if (s.kind === 'points') {
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i]) && !(logy && s.y[i] <= 0)) { g.beginPath(); g.arc(px(xs[i]), py(s.y[i]), 2.5, 0, 7); g.fill(); }
      } else {
        g.beginPath(); let pen = false;
        for (let i = 0; i < n; i++) {
          const v = s.y[i];
          if (!Number.isFinite(v) || (logy && v <= 0) || (sc.logx && xs[i] <= 0)) { pen = false; continue; }
          const x = px(xs[i]), y = py(v);
          if (!pen) { g.moveTo(x, y); pen = true; } else if (s.kind === 'step') { g.lineTo(x, py(s.y[i - 1])); g.lineTo(x, y); } else g.lineTo(x, y);
        }
        g.stroke();
      }
      g.setLineDash([]);
    });
    g.restore();
    for (const r of this.regions) if (r.label) { g.fillStyle = th.fg; g.textAlign = 'center'; g.textBaseline = 'bottom'; g.fillText(r.label, Math.min(f.right - 40, Math.max(f.left + 40, (px(r.x0) + px(Math.min(r.x1, sc.x1))) / 2)), f.bottom - 2); }
    return sc;
  }

  render() {
    const c = this.shadowRoot.querySelector('canvas');
    if (!this.isConnected) return;
    const w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    this._w = this.clientWidth;
    const dpr = globalThis.devicePixelRatio || 1;
    c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); c.style.height = `${h}px`;
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    this._plot(g, w);
    const th = theme(this), leg = this.shadowRoot.querySelector('.legend');
    leg.replaceChildren();
    this._series.forEach((s, si) => {
      if (!s.label) return;
      const span = document.createElement('span'), i = document.createElement('i');
      i.style.background = th.colour(s.color, th.series[si % th.series.length]);
      span.append(i, s.label); leg.append(span);
    });
    this.renderCount++;
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  // ── export ──
  _legendRows(g, w) {
    g.font = `12px ${FONT}`;
    const rows = [[]]; let x = 0;
    this._series.forEach((s, si) => {
      if (!s.label) return;
      const iw = 24 + g.measureText(s.label).width + 14;
      if (x + iw > w && rows.at(-1).length) { rows.push([]); x = 0; }
      rows.at(-1).push({ s, si, x }); x += iw;
    });
    return rows.filter((r) => r.length);
  }
  exportSize(g) {
    const w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    return { w, h: (this.getAttribute('caption') ? 18 : 0) + h + 18 * this._legendRows(g, w).length + 4 };
  }
  /** Caption, plot and legend into g at (0, 0). */
  paint(g) {
    const th = theme(this), w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    let y = 0;
    if (this.getAttribute('caption')) { g.font = `600 12px ${FONT}`; g.fillStyle = th.fg; g.textAlign = 'left'; g.textBaseline = 'top'; g.fillText(this.getAttribute('caption'), 0, 0); y = 18; }
    g.save(); g.translate(0, y); this._plot(g, w); g.restore();
    y += h;
    for (const row of this._legendRows(g, w)) {
      for (const { s, si, x } of row) {
        g.fillStyle = th.colour(s.color, th.series[si % th.series.length]); g.fillRect(x, y + 6, 18, 3);
        g.fillStyle = th.fg; g.font = `12px ${FONT}`; g.textAlign = 'left'; g.textBaseline = 'middle'; g.fillText(s.label, x + 22, y + 8);
      }
      y += 18;
    }
  }
  /** The numbers drawn: one row per point of every series (x, y; a band adds y2). */
  table() {
    const rows = [];
    for (const s of this._series) {
      const xs = this._xs(s);
      for (let i = 0; i < s.y.length; i++) rows.push([s.label || '', xs[i], s.y[i], s.y2 ? s.y2[i] : '']);
    }
    return { columns: ['series', 'x', 'y', 'y2'], rows };
  }

  _hide() { this.shadowRoot.querySelector('.tip').style.display = 'none'; this.hovered = null; }

  /** Read-out of every series at the x nearest to a client x coordinate. */
  _hover(clientX) {
    if (!this._series.length) return;
    const c = this.shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
    const { invx, f } = this._scales(undefined, c.getContext('2d'));
    const p = Math.min(f.right, Math.max(f.left, clientX - r.left)); this._hx = p;
    const xv = invx(p), values = [];
    for (const s of this._series) {
      const xs = this._xs(s);
      let best = 0, bd = Infinity;
      if (!s.x) best = Math.min(s.y.length - 1, Math.max(0, Math.round((xv - (s.x0 ?? 0)) / (s.dx ?? 1))));
      else for (let i = 0; i < xs.length; i++) { const dd = Math.abs(xs[i] - xv); if (dd < bd) { bd = dd; best = i; } }
      values.push({ label: s.label || '', x: xs[best], y: s.y[best], y2: s.y2?.[best], index: best });
    }
    this.hovered = { x: values[0].x, values };
    const tip = this.shadowRoot.querySelector('.tip');
    tip.textContent = `x = ${fmt(values[0].x, 3)}\n` + values.map((v) => `${v.label}: ${fmt(v.y, 4)}${v.y2 !== undefined ? ` … ${fmt(v.y2, 4)}` : ''}`).join('\n');
    tip.style.display = 'block';
    tip.style.left = `${Math.min(p + 10, f.w - 170)}px`; tip.style.top = `${f.top + 6}px`;
    this.dispatchEvent(new CustomEvent('point-hover', { detail: this.hovered }));
  }
}

define('pe-lines', PeLines);
