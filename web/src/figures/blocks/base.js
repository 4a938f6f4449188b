// What every building block shares: a base class that also loads in Node (server-side rendering imports the module;
// nothing is defined there), styles as constructable stylesheets adopted by the shadow root (allowed under a strict
// Content-Security-Policy without 'unsafe-inline': no <style> element, no style attribute), and the theme colours,
// read from CSS custom properties that a host (e.g. <posenc-figure theme="dark">) sets and shadow DOM inherits.
import { series, seriesDark } from './colormap.js';

export const Base = globalThis.HTMLElement ?? class {};

const sheets = new Map();
/** Attaches an open shadow root with `css` adopted (one CSSStyleSheet per distinct text) and `html` inside. */
export function shadow(el, css, html) {
  const root = el.attachShadow({ mode: 'open' });
  if (!sheets.has(css)) { const s = new CSSStyleSheet(); s.replaceSync(css); sheets.set(css, s); }
  root.adoptedStyleSheets = [sheets.get(css)];
  root.innerHTML = html;
  return root;
}

export function define(name, cls) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, cls);
}

/** Theme colours of an element: text, muted text, grid lines, frame, background, curve colours (light defaults). */
export function theme(el) {
  const cs = el.isConnected ? getComputedStyle(el) : null;
  const v = (name, fallback) => (cs?.getPropertyValue(name).trim() || fallback);
  return { fg: v('--pe-fg', '#1d1d1f'), muted: v('--pe-muted', '#4f4f5a'), grid: v('--pe-grid', '#d6d6dc'),
    frame: v('--pe-frame', '#6b6b75'), bg: v('--pe-bg', '#ffffff'), missing: v('--pe-missing', '#e3e3e8'),
    series: v('--pe-palette', 'light') === 'dark' ? seriesDark : series };
}

export const FONT = 'system-ui, sans-serif';
