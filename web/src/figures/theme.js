// @ts-check
// The figure's theme: theme="light" | "dark" | "auto" (the default: absent, empty or "auto").
// "auto" follows the host page's dark mode, decided in this order:
//   1. a marker on <html> or <body> that the common engines set: class "dark" / "light" (VitePress, Tailwind, Hexo
//      Butterfly's "dark" on html…), data-theme (Docusaurus, Hexo NexT), data-user-color-scheme (Hexo Fluid),
//      data-bs-theme (Bootstrap 5.3), data-color-scheme / data-color-mode (many Jekyll and Hugo themes),
//      data-md-color-scheme (MkDocs Material: "slate" is dark), data-jp-theme-light (JupyterLab: "false" is dark);
//   2. else the page's actual background (the first opaque background-color from the figure up): dark when its
//      relative luminance is below 0.2 — this catches pages that switch by @media (prefers-color-scheme: dark);
//   3. else (every background transparent) the canvas colour: dark when the root's color-scheme allows dark and the
//      reader prefers dark (prefers-color-scheme).
// A page that has no dark mode therefore keeps light figures even when the reader's system is dark.
// The figure re-renders when any of these changes: one MutationObserver on <html> and <body>, one matchMedia listener.
// The dark colours are one adopted stylesheet (no attribute is added to the host: frameworks that hydrate the element,
// React and Vue, see exactly the attributes they rendered). Curve colours: blocks call `curveColour`, which maps each
// colour of the light categorical palette to its dark counterpart (figures name light colours); labels drawn in a
// curve's colour go through `textColour` (text needs 4.5:1, a curve 3:1).
import { series, seriesDark } from './blocks/colormap.js';

/** Light and dark values of the CSS custom properties the figure and its blocks read. */
export const LIGHT = { fg: '#1d1d1f', muted: '#4f4f5a', grid: '#d6d6dc', frame: '#6b6b75', bg: '#ffffff', missing: '#e3e3e8', focus: '#1d1d1f', panel: '#f1f3f6', accent: '#1f5a8c' };
export const DARK = { fg: '#e8e8ea', muted: '#b4b4be', grid: '#3a3a42', frame: '#8a8a95', bg: '#17171a', missing: '#3a3a42', focus: '#ffffff', panel: '#24242a', accent: '#8cc4f0' };
const vars = (/** @type {Record<string, string>} */ t, /** @type {string} */ scheme) => `${Object.entries(t).map(([k, v]) => `--pe-${k}: ${v};`).join(' ')} --pe-palette: ${scheme}; color-scheme: ${scheme};`;
/** The light values, for the figure's own :host rule. */
export const LIGHT_CSS = vars(LIGHT, 'light');

/** @type {CSSStyleSheet | null} */
let darkSheet = null;
const sheet = () => {
  if (!darkSheet) { darkSheet = new CSSStyleSheet(); darkSheet.replaceSync(`:host { ${vars(DARK, 'dark')} }`); }
  return darkSheet;
};

/** Maps a colour of the light categorical palette to the dark one (other colours unchanged). */
export function curveColour(/** @type {string} */ c, /** @type {boolean} */ dark) {
  if (!dark) return c;
  const i = series.findIndex((s) => s.toLowerCase() === c.toLowerCase());
  return i < 0 ? c : seriesDark[i];
}

const MARKERS = ['data-theme', 'data-user-color-scheme', 'data-bs-theme', 'data-color-scheme', 'data-color-mode', 'data-mode'];
// Markers whose values are not "dark"/"light": MkDocs Material's palette (data-md-color-scheme="slate" | "default"),
// JupyterLab's (data-jp-theme-light="false" | "true").
/** @type {Record<string, Record<string, 'dark' | 'light'>>} */
const OTHER = { 'data-md-color-scheme': { slate: 'dark', default: 'light' }, 'data-jp-theme-light': { false: 'dark', true: 'light' } };
const WATCHED = [...MARKERS, ...Object.keys(OTHER)];
/** 'dark' | 'light' from a marker on <html> or <body>, else null. */
function marker() {
  for (const el of [document.documentElement, document.body]) {
    if (!el) continue;
    if (el.classList.contains('dark')) return 'dark';
    if (el.classList.contains('light')) return 'light';
    for (const a of MARKERS) { const v = el.getAttribute(a)?.toLowerCase(); if (v === 'dark' || v === 'light') return v; }
    for (const [a, map] of Object.entries(OTHER)) { const v = el.getAttribute(a)?.toLowerCase(); if (v && Object.hasOwn(map, v)) return map[v]; }
  }
  return null;
}

/** Relative luminance (WCAG 2) of an sRGB colour given as [r, g, b] in 0..255. */
export function luminance(/** @type {number[]} */ [r, g, b]) {
  const f = (/** @type {number} */ c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

/** [r, g, b, a] (0..255, alpha 0..1) of a computed CSS colour: rgb()/rgba() read directly, any other syntax
 * (oklch, color(): Tailwind 4, Open Props) drawn into one canvas pixel. */
function rgba(/** @type {string} */ css) {
  const m = /^rgba?\(([^)]*)\)$/.exec(css);
  if (m) { const v = m[1].split(/[\s,/]+/).filter(Boolean).map(Number); return [v[0], v[1], v[2], v.length > 3 ? v[3] : 1]; }
  const g = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  if (!g) return [0, 0, 0, 0];
  g.fillStyle = css; g.fillRect(0, 0, 1, 1);
  const d = g.getImageData(0, 0, 1, 1).data;
  return [d[0], d[1], d[2], d[3] / 255];
}

const hex = (/** @type {string} */ c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrast(/** @type {string} */ a, /** @type {string} */ b) {
  const [x, y] = [luminance(hex(a)), luminance(hex(b))].sort((u, v) => v - u);
  return (x + 0.05) / (y + 0.05);
}
/** A label drawn in a curve's colour `c`: that colour, mixed toward the text colour `fg` just enough for 4.5:1 on `bg`. */
export function textColour(/** @type {string} */ c, /** @type {string} */ bg, /** @type {string} */ fg) {
  if (![c, bg, fg].every((x) => /^#[0-9a-f]{6}$/i.test(x))) return c;
  const a = hex(c), b = hex(fg);
  for (let t = 0; t <= 1; t += 0.05) {
    const m = `#${a.map((v, i) => Math.round(v + (b[i] - v) * t).toString(16).padStart(2, '0')).join('')}`;
    if (contrast(m, bg) >= 4.5) return m;
  }
  return fg;
}

/** Whether the page around `el` is dark (auto mode; see the top of this file). */
export function pageIsDark(/** @type {Element} */ el) {
  const m = marker();
  if (m) return m === 'dark';
  /** @type {Node | null} */
  let n = el.parentNode;
  while (n) {
    if (n instanceof Element) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0.5) return luminance(c) < 0.2;
    }
    n = n instanceof ShadowRoot ? n.host : n.parentNode;
  }
  return /dark/.test(getComputedStyle(document.documentElement).colorScheme) && !!globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches;
}

/** The theme `el` draws in now: 'light' or 'dark'. */
export function resolveTheme(/** @type {Element} */ el) {
  const t = el.getAttribute('theme');
  return t === 'dark' || t === 'light' ? t : pageIsDark(el) ? 'dark' : 'light';
}

/** Applies `el`'s theme to its shadow root; true when it changed (the caller repaints). */
export function applyTheme(/** @type {HTMLElement} */ el) {
  const root = el.shadowRoot, dark = resolveTheme(el) === 'dark';
  if (!root || root.adoptedStyleSheets.includes(sheet()) === dark) return false;
  root.adoptedStyleSheets = dark ? [...root.adoptedStyleSheets, sheet()] : root.adoptedStyleSheets.filter((s) => s !== darkSheet);
  return true;
}

// ── one watcher for every figure on the page ──
/** @type {Set<HTMLElement & { _retheme(): void }>} */
const watched = new Set();
/** @type {MutationObserver | null} */
let observer = null;
const recheck = () => { for (const el of watched) el._retheme(); };
function startWatching() {
  observer = new MutationObserver(recheck);
  const attributeFilter = ['class', 'style', ...WATCHED];
  observer.observe(document.documentElement, { attributes: true, attributeFilter });
  if (document.body) observer.observe(document.body, { attributes: true, attributeFilter });
  else document.addEventListener('DOMContentLoaded', () => { observer?.observe(document.body, { attributes: true, attributeFilter }); recheck(); }, { once: true });
  globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', recheck);
  // A page's background may change by a CSS transition after the marker flips: look again when it has ended.
  document.addEventListener('transitionend', (e) => { if (e.target === document.body || e.target === document.documentElement) recheck(); });
}

/** Starts following the page's theme for `el` (connectedCallback); stopped by `unwatchTheme`. */
export function watchTheme(/** @type {HTMLElement & { _retheme(): void }} */ el) {
  watched.add(el);
  if (!observer) startWatching();
  el._retheme();
}
export function unwatchTheme(/** @type {HTMLElement & { _retheme(): void }} */ el) { watched.delete(el); }
