// <pe-heatmap>: a self-contained heatmap of a row-major matrix, drawn on a canvas in shadow DOM,
// with row/column labels, a colour bar with values, and a hover read-out.
//   properties: data (Float32Array rows·cols), rows, cols, rowLabels, colLabels, vmin, vmax (default: data range)
//   attributes: caption
//   events: 'cell-hover' with detail {row, col, value}
//   state for tests: renderCount, hovered ({row, col, value} | null)
import { viridis } from './colormap.js';

const css = `
:host { display: inline-block; font: 12px system-ui, sans-serif; color: #222; }
.wrap { position: relative; display: flex; gap: 8px; align-items: flex-start; }
canvas { display: block; touch-action: none; }
.bar { display: flex; flex-direction: column; align-items: flex-start; gap: 2px; }
.tip { position: absolute; pointer-events: none; background: #fff; border: 1px solid #888; border-radius: 3px;
       padding: 2px 6px; white-space: nowrap; display: none; box-shadow: 0 1px 3px #0003; }
.caption { font-weight: 600; margin: 0 0 4px 0; }
`;

function fmt(v) {
  if (v === -Infinity) return '−∞';
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e4) ? v.toExponential(3) : v.toFixed(4);
}

export class PeHeatmap extends HTMLElement {
  static get observedAttributes() { return ['caption']; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.innerHTML = `<style>${css}</style><div class="caption" part="caption"></div>
      <div class="wrap"><canvas class="map" part="map"></canvas>
      <div class="bar"><span class="max"></span><canvas class="scale" width="14" height="160"></canvas><span class="min"></span></div>
      <div class="tip" role="status"></div></div>`;
    this._data = null; this.rows = 0; this.cols = 0; this.rowLabels = null; this.colLabels = null;
    this.vmin = undefined; this.vmax = undefined; this.renderCount = 0; this.hovered = null;
    this.size = 320;
    const map = this.shadowRoot.querySelector('.map');
    map.addEventListener('pointermove', (e) => this._hover(e));
    map.addEventListener('pointerleave', () => { this.hovered = null; this.shadowRoot.querySelector('.tip').style.display = 'none'; });
  }

  attributeChangedCallback() { this.shadowRoot.querySelector('.caption').textContent = this.getAttribute('caption') || ''; }

  /** Sets the matrix and repaints. */
  set data(v) { this._data = v; this.render(); }
  get data() { return this._data; }

  /** Sets everything at once: {data, rows, cols, rowLabels, colLabels, vmin, vmax}. */
  update(o) {
    for (const k of ['rows', 'cols', 'rowLabels', 'colLabels', 'vmin', 'vmax']) if (k in o) this[k] = o[k];
    this._data = o.data;
    this.render();
  }

  _geometry() {
    const labelW = this.rowLabels ? 56 : 0, labelH = this.colLabels ? 40 : 0;
    const cell = Math.max(1, Math.floor(this.size / Math.max(this.rows, this.cols, 1)));
    return { labelW, labelH, cell, w: labelW + cell * this.cols, h: labelH + cell * this.rows };
  }

  _range() {
    let lo = Infinity, hi = -Infinity;
    for (const v of this._data) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (lo === Infinity) { lo = 0; hi = 1; }
    lo = this.vmin ?? lo; hi = this.vmax ?? hi;
    return hi > lo ? [lo, hi] : [lo, lo + 1];
  }

  render() {
    if (!this._data || !this.rows || !this.cols) return;
    const { labelW, labelH, cell, w, h } = this._geometry();
    const canvas = this.shadowRoot.querySelector('.map');
    const dpr = globalThis.devicePixelRatio || 1;
    canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
    canvas.style.width = `${w}px`; canvas.style.height = `${h}px`;
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, w, h);
    const [lo, hi] = this._range();
    // Cells into an ImageData at one pixel per cell, then scaled up without smoothing.
    const img = new ImageData(this.cols, this.rows);
    for (let i = 0; i < this.rows * this.cols; i++) {
      const v = this._data[i];
      const [r, gg, b] = v === -Infinity ? [235, 235, 235] : viridis((v - lo) / (hi - lo));
      img.data.set([r, gg, b, 255], 4 * i);
    }
    const off = new OffscreenCanvas(this.cols, this.rows);
    off.getContext('2d').putImageData(img, 0, 0);
    g.imageSmoothingEnabled = false;
    g.drawImage(off, labelW, labelH, cell * this.cols, cell * this.rows);
    g.fillStyle = '#222'; g.font = '11px system-ui, sans-serif';
    if (this.rowLabels && cell >= 9) {
      g.textAlign = 'right'; g.textBaseline = 'middle';
      this.rowLabels.forEach((t, i) => g.fillText(String(t).slice(0, 8), labelW - 4, labelH + (i + 0.5) * cell));
    }
    if (this.colLabels && cell >= 9) {
      g.textAlign = 'left'; g.textBaseline = 'middle';
      this.colLabels.forEach((t, j) => {
        g.save(); g.translate(labelW + (j + 0.5) * cell, labelH - 4); g.rotate(-Math.PI / 3);
        g.fillText(String(t).slice(0, 8), 0, 0); g.restore();
      });
    }
    this._drawScale(lo, hi);
    this.renderCount++;
    this.dispatchEvent(new CustomEvent('rendered'));
  }

  _drawScale(lo, hi) {
    const c = this.shadowRoot.querySelector('.scale'), g = c.getContext('2d');
    for (let y = 0; y < c.height; y++) {
      const [r, gg, b] = viridis(1 - y / (c.height - 1));
      g.fillStyle = `rgb(${r},${gg},${b})`; g.fillRect(0, y, c.width, 1);
    }
    this.shadowRoot.querySelector('.max').textContent = fmt(hi);
    this.shadowRoot.querySelector('.min').textContent = fmt(lo);
  }

  /** Cell under client coordinates, or null. */
  cellAt(clientX, clientY) {
    const { labelW, labelH, cell } = this._geometry();
    const r = this.shadowRoot.querySelector('.map').getBoundingClientRect();
    const col = Math.floor((clientX - r.left - labelW) / cell), row = Math.floor((clientY - r.top - labelH) / cell);
    return row >= 0 && col >= 0 && row < this.rows && col < this.cols ? { row, col } : null;
  }

  _hover(e) {
    const tip = this.shadowRoot.querySelector('.tip');
    const at = this._data && this.cellAt(e.clientX, e.clientY);
    if (!at) { tip.style.display = 'none'; this.hovered = null; return; }
    const value = this._data[at.row * this.cols + at.col];
    this.hovered = { ...at, value };
    const rl = this.rowLabels ? ` ${this.rowLabels[at.row]}` : '', cl = this.colLabels ? ` ${this.colLabels[at.col]}` : '';
    tip.textContent = `row ${at.row}${rl} · col ${at.col}${cl}: ${fmt(value)}`;
    tip.dataset.value = String(value);
    const r = this.shadowRoot.querySelector('.wrap').getBoundingClientRect();
    tip.style.left = `${e.clientX - r.left + 12}px`; tip.style.top = `${e.clientY - r.top + 12}px`;
    tip.style.display = 'block';
    this.dispatchEvent(new CustomEvent('cell-hover', { detail: this.hovered }));
  }
}

customElements.define('pe-heatmap', PeHeatmap);
