// What every building block shares: a base class that also loads in Node (server-side rendering imports the module;
// nothing is defined there), styles as constructable stylesheets adopted by the shadow root (allowed under a strict
// Content-Security-Policy without 'unsafe-inline': no <style> element, no style attribute), and the theme colours,
// read from CSS custom properties that a host (e.g. <posenc-figure theme="dark">) sets and shadow DOM inherits.
import { series, seriesDark } from './colormap.js';
import { curveColour, textColour } from '../theme.js';

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
  // headless (the command line's --svg/--png): the custom properties are given as el._vars
  const cs = el._vars ? { getPropertyValue: (n) => el._vars[n] ?? '' } : el.isConnected ? getComputedStyle(el) : null;
  const v = (name, fallback) => (cs?.getPropertyValue(name).trim() || fallback), dark = v('--pe-palette', 'light') === 'dark';
  return { fg: v('--pe-fg', '#1d1d1f'), muted: v('--pe-muted', '#4f4f5a'), grid: v('--pe-grid', '#d6d6dc'),
    frame: v('--pe-frame', '#6b6b75'), bg: v('--pe-bg', '#ffffff'), missing: v('--pe-missing', '#e3e3e8'),
    series: dark ? seriesDark : series,
    /** A colour a figure names (light palette) in this theme, or `fallback` when it names none. */
    colour: (/** @type {string | undefined} */ c, /** @type {string} */ fallback) => (c ? curveColour(c, dark) : fallback),
    /** A label in curve colour `c`, made readable as text (4.5:1 on the background). */
    text: (/** @type {string} */ c) => textColour(c, v('--pe-bg', '#ffffff'), v('--pe-fg', '#1d1d1f')) };
}

export const FONT = 'system-ui, sans-serif';
