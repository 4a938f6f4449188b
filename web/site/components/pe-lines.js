// <pe-lines>: a self-contained chart of curves on a canvas in shadow DOM.
//   property series: [{ label, y: ArrayLike, x?: ArrayLike (default x0 + i·dx), x0?, dx?, color?, dash?: number[],
//                       kind?: 'line' | 'step' | 'bar' | 'points', y2?: ArrayLike (with y: a min/max band) }]
//   property marks: [{ x?, y?, label, color? }]  vertical (x) or horizontal (y) reference lines
//   attributes: caption, xlabel, ylabel, log-x, log-y, height (px, default 240), ymin, ymax
//   events: 'point-hover' {x, values: [{label, y}]}; 'rendered'
//   state for tests: renderCount, hovered
// Long curves: pass a min/max envelope as a band (y, y2) per pixel column instead of millions of points.
import { okabeIto } from './colormap.js';
import { fmt } from './fmt.js';

const css = `
:host { display: block; font: 12px system-ui, sans-serif; color: #222; max-width: 100%; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
.wrap { position: relative; }
canvas { display: block; width: 100%; touch-action: none; outline-offset: 2px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin-top: 2px; }
.legend i { display: inline-block; width: 18px; height: 3px; vertical-align: middle; margin-right: 4px; }
.tip { position: absolute; pointer-events: none; background: #fff; border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: pre; display: none; box-shadow: 0 1px 3px #0003; font-variant-numeric: tabular-nums; }
`;

export class PeLines extends HTMLElement {
  static get observedAttributes() { return ['caption', 'xlabel', 'ylabel', 'log-x', 'log-y', 'height', 'ymin', 'ymax']; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.innerHTML = `<style>${css}</style><div class="caption" part="caption"></div>
      <div class="wrap"><canvas tabindex="0" role="img"></canvas><div class="tip" role="status"></div></div><div class="legend"></div>`;
    this._series = []; this.marks = []; this.renderCount = 0; this.hovered = null; this._hx = null;
    const c = this.shadowRoot.querySelector('canvas');
    c.addEventListener('pointermove', (e) => this._hover(e.clientX));
    c.addEventListener('pointerleave', () => this._hide());
    c.addEventListener('blur', () => this._hide());
    c.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      e.preventDefault();
      const r = c.getBoundingClientRect(), { left, right } = this._frame();
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
  update({ series, marks }) { this.marks = marks || []; this.series = series; }

  _xs(s) { const n = s.y.length; return s.x ?? Array.from({ length: n }, (_, i) => (s.x0 ?? 0) + i * (s.dx ?? 1)); }

  _frame() {
    const w = Math.max(200, this.clientWidth || 600), h = Number(this.getAttribute('height')) || 240;
    return { w, h, left: 58, right: w - 12, top: 8, bottom: h - 34 };
  }

  _scales() {
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
    for (const m of this.marks) {
      if (m.y !== undefined && Number.isFinite(m.y)) { y0 = Math.min(y0, m.y); y1 = Math.max(y1, m.y); }
    }
    if (this.hasAttribute('ymin')) y0 = Number(this.getAttribute('ymin'));
    if (this.hasAttribute('ymax')) y1 = Number(this.getAttribute('ymax'));
    if (!(x1 > x0)) { x0 -= 1; x1 += 1; }
    if (!(y1 > y0)) { y0 -= 1; y1 += 1; }
    // a little headroom so extreme points are not cut by the frame
    if (logy) { if (!this.hasAttribute('ymax')) y1 *= 1.25; if (!this.hasAttribute('ymin')) y0 /= 1.25; }
    else { const pad = 0.04 * (y1 - y0); if (!this.hasAttribute('ymax')) y1 += pad; if (!this.hasAttribute('ymin') && y0 !== 0) y0 -= pad; }
    const f = this._frame();
    const tx = logx ? (x) => Math.log10(x) : (x) => x, ty = logy ? (y) => Math.log10(y) : (y) => y;
    const [X0, X1, Y0, Y1] = [tx(x0), tx(x1), ty(y0), ty(y1)];
    const barPad = this._series.some((s) => s.kind === 'bar') ? 0.5 * ((X1 - X0) / Math.max(1, Math.max(...this._series.map((s) => s.y.length)) - 1)) : 0;
    const px = (x) => f.left + ((tx(x) - X0 + barPad) / (X1 - X0 + 2 * barPad)) * (f.right - f.left);
    const py = (y) => f.bottom - ((ty(y) - Y0) / (Y1 - Y0)) * (f.bottom - f.top);
    const invx = (p) => { const t = X0 - barPad + ((p - f.left) / (f.right - f.left)) * (X1 - X0 + 2 * barPad); return logx ? 10 ** t : t; };
    return { f, px, py, invx, x0, x1, y0, y1, logx, logy };
  }

  render() {
    const c = this.shadowRoot.querySelector('canvas');
    if (!this.isConnected) return;
    const { f, px, py, x0, x1, y0, y1, logx, logy } = this._scales();
    this._w = this.clientWidth;
    const dpr = globalThis.devicePixelRatio || 1;
    c.width = Math.round(f.w * dpr); c.height = Math.round(f.h * dpr); c.style.height = `${f.h}px`;
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, f.w, f.h);
    g.font = '11px system-ui, sans-serif'; g.strokeStyle = '#ccc'; g.fillStyle = '#444'; g.lineWidth = 1;
    // axes and ticks
    const ticks = (a, b, log, n) => {
      if (log) { const out = []; for (let e = Math.floor(Math.log10(a)); e <= Math.ceil(Math.log10(b)); e++) if (10 ** e >= a * 0.999 && 10 ** e <= b * 1.001) out.push(10 ** e); return out.length >= 2 ? out : [a, b]; }
      const step0 = (b - a) / n, mag = 10 ** Math.floor(Math.log10(step0)), step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0);
      const out = []; for (let v = Math.ceil(a / step) * step; v <= b + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v); return out;
    };
    g.textAlign = 'right'; g.textBaseline = 'middle';
    for (const v of ticks(y0, y1, logy, 5)) { const y = py(v); g.beginPath(); g.moveTo(f.left, y); g.lineTo(f.right, y); g.stroke(); g.fillText(fmt(v, 2), f.left - 4, y); }
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (const v of ticks(x0, x1, logx, Math.max(3, Math.floor((f.right - f.left) / 80)))) { const x = px(v); g.beginPath(); g.moveTo(x, f.top); g.lineTo(x, f.bottom); g.stroke(); g.fillText(fmt(v, 2), x, f.bottom + 3); }
    g.strokeStyle = '#666'; g.strokeRect(f.left, f.top, f.right - f.left, f.bottom - f.top);
    g.fillStyle = '#333'; g.textAlign = 'center'; g.fillText(this.getAttribute('xlabel') || '', (f.left + f.right) / 2, f.bottom + 18);
    g.save(); g.translate(12, (f.top + f.bottom) / 2); g.rotate(-Math.PI / 2); g.textBaseline = 'middle'; g.fillText(this.getAttribute('ylabel') || '', 0, 0); g.restore();
    g.save(); g.beginPath(); g.rect(f.left, f.top, f.right - f.left, f.bottom - f.top); g.clip();
    for (const m of this.marks) {
      g.strokeStyle = m.color || '#888'; g.setLineDash([4, 3]); g.beginPath();
      if (m.x !== undefined) { g.moveTo(px(m.x), f.top); g.lineTo(px(m.x), f.bottom); } else { g.moveTo(f.left, py(m.y)); g.lineTo(f.right, py(m.y)); }
      g.stroke(); g.setLineDash([]);
      g.fillStyle = m.color || '#555'; g.textAlign = 'left'; g.textBaseline = 'top';
      if (m.label) g.fillText(m.label, m.x !== undefined ? px(m.x) + 3 : f.left + 4, m.x !== undefined ? f.top + 2 : py(m.y) + 2);
    }
    this._series.forEach((s, si) => {
      const col = s.color || okabeIto[si % okabeIto.length], xs = this._xs(s), n = s.y.length;
      g.strokeStyle = col; g.fillStyle = col; g.lineWidth = s.width ?? 1.6; g.setLineDash(s.dash || []);
      if (s.y2) {
        g.globalAlpha = 0.35; g.beginPath();
        for (let i = 0; i < n; i++) { const x = px(xs[i]); g.rect(x - 0.5, py(s.y2[i]), Math.max(1, (f.right - f.left) / n), Math.max(1, py(s.y[i]) - py(s.y2[i]))); }
        g.fill(); g.globalAlpha = 1;
      } else if (s.kind === 'bar') {
        const bw = Math.max(1, ((f.right - f.left) / Math.max(n, 1)) * 0.7), base = py(logy ? y0 : Math.max(y0, Math.min(0, y1)));
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i])) { const x = px(xs[i]), y = py(s.y[i]); g.fillRect(x - bw / 2, Math.min(y, base), bw, Math.abs(base - y)); }
      } else if (s.kind === 'points') {
        for (let i = 0; i < n; i++) if (Number.isFinite(s.y[i])) { g.beginPath(); g.arc(px(xs[i]), py(s.y[i]), 2.5, 0, 7); g.fill(); }
      } else {
        g.beginPath(); let pen = false;
        for (let i = 0; i < n; i++) {
          const v = s.y[i];
          if (!Number.isFinite(v) || (logy && v <= 0) || (logx && xs[i] <= 0)) { pen = false; continue; }
          const x = px(xs[i]), y = py(v);
          if (!pen) { g.moveTo(x, y); pen = true; } else if (s.kind === 'step') { g.lineTo(x, py(s.y[i - 1])); g.lineTo(x, y); } else g.lineTo(x, y);
        }
        g.stroke();
      }
      g.setLineDash([]);
    });
    g.restore();
    const leg = this.shadowRoot.querySelector('.legend');
    leg.innerHTML = '';
    this._series.forEach((s, si) => {
      if (!s.label) return;
      const span = document.createElement('span'), i = document.createElement('i');
      i.style.background = s.color || okabeIto[si % okabeIto.length];
      span.append(i, s.label); leg.append(span);
    });
    this.renderCount++;
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  _hide() { this.shadowRoot.querySelector('.tip').style.display = 'none'; this.hovered = null; }

  /** Read-out of every series at the x nearest to a client x coordinate. */
  _hover(clientX) {
    if (!this._series.length) return;
    const c = this.shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
    const { invx, f } = this._scales();
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

if (!customElements.get('pe-lines')) customElements.define('pe-lines', PeLines);
