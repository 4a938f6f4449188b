// @ts-check
// What every building block shares: a base class that also loads in Node (server-side rendering imports the module;
// nothing is defined there), styles as constructable stylesheets adopted by the shadow root (allowed under a strict
// Content-Security-Policy without 'unsafe-inline': no <style> element, no style attribute), and the theme colours,
// read from CSS custom properties that a host (e.g. <posenc-figure theme="dark">) sets and shadow DOM inherits.
import { series, seriesDark } from './colormap.js';
import { curveColour, textColour } from '../theme.js';

/** HTMLElement in browsers; in Node (no DOM) an empty class, so the modules load there. */
export const Base = /** @type {typeof HTMLElement} */ (globalThis.HTMLElement ?? class {});

/** @type {Map<string, CSSStyleSheet>} */
const sheets = new Map();
/**
 * An element of a shadow root that is there by construction (the root and the element were made together):
 * `E` its element type (HTMLElement unless given).
 * @template {Element} [E=HTMLElement] @param {ParentNode | null} root @param {string} sel @returns {E}
 */
export const $ = (root, sel) => /** @type {E} */ (/** @type {ParentNode} */ (root).querySelector(sel));

/** Attaches an open shadow root with `css` adopted (one CSSStyleSheet per distinct text) and `html` inside.
 * @param {HTMLElement} el @param {string} css @param {string} html @returns {ShadowRoot} */
export function shadow(el, css, html) {
  const root = el.attachShadow({ mode: 'open' });
  css += '\ncode { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }';   // identifiers (code-text.js)
  if (!sheets.has(css)) { const s = new CSSStyleSheet(); s.replaceSync(css); sheets.set(css, s); }
  root.adoptedStyleSheets = [/** @type {CSSStyleSheet} */ (sheets.get(css))];
  root.innerHTML = html;
  return root;
}

/** Defines custom element `name` once, where there are custom elements. @param {string} name @param {CustomElementConstructor} cls */
export function define(name, cls) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, cls);
}

/** Theme colours of an element: text, muted text, grid lines, frame, background, curve colours (light defaults).
 * @param {Element & { _vars?: Record<string, string> }} el */
export function theme(el) {
  // headless (the command line's --svg/--png): the custom properties are given as el._vars
  const vars = el._vars;
  const cs = vars ? { getPropertyValue: (/** @type {string} */ n) => vars[n] ?? '' } : el.isConnected ? getComputedStyle(el) : null;
  const v = (/** @type {string} */ name, /** @type {string} */ fallback) => (cs?.getPropertyValue(name).trim() || fallback), dark = v('--pe-palette', 'light') === 'dark';
  return { fg: v('--pe-fg', '#1d1d1f'), muted: v('--pe-muted', '#4f4f5a'), grid: v('--pe-grid', '#d6d6dc'),
    frame: v('--pe-frame', '#6b6b75'), bg: v('--pe-bg', '#ffffff'), missing: v('--pe-missing', '#e3e3e8'),
    series: dark ? seriesDark : series,
    /** A colour a figure names (light palette) in this theme, or `fallback` when it names none. */
    colour: (/** @type {string | undefined} */ c, /** @type {string} */ fallback) => (c ? curveColour(c, dark) : fallback),
    /** A label in curve colour `c`, made readable as text (4.5:1 on the background). */
    text: (/** @type {string} */ c) => textColour(c, v('--pe-bg', '#ffffff'), v('--pe-fg', '#1d1d1f')) };
}

export const FONT = 'system-ui, sans-serif';
