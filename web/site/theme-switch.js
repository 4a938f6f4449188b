// @ts-check
// The page's colour theme: "auto" (the default: the reader's system, prefers-color-scheme), "light" or "dark", chosen
// with the header's buttons and kept in the address (?theme=light|dark; state.js writes and checks it). The resolved
// theme is set as data-theme="light" | "dark" on <html>: the figures follow it (their theme
// mechanism, web/src/figures/theme.js, follows a data-theme marker on <html>); the choice is data-theme-choice, which
// style.css reads. index.html ships data-theme="light": with a marker in place from the start, no figure reads computed
// styles to decide its theme (that cost ~35 ms of main-thread time at load); this module corrects it before any figure
// paints (compute.js imports it).

/** @typedef {'auto' | 'light' | 'dark'} ThemeChoice */
export const THEMES = /** @type {const} */ (['auto', 'light', 'dark']);
const media = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
const asked = globalThis.location ? new URLSearchParams(location.search).get('theme') : null;   // (Node imports state.js, hence this, for its constants)
/** @type {ThemeChoice} */
let choice = asked === 'light' || asked === 'dark' ? asked : 'auto';

export function getTheme() { return choice; }
/** @type {Set<(theme: string) => void>} */
const listeners = new Set();
/** Calls `f` with the resolved theme whenever it changes (the page's own blocks repaint: app.js). @param {(theme: string) => void} f */
export function onTheme(f) { listeners.add(f); }

function apply() {
  const root = document.documentElement, was = root.dataset.theme;
  root.dataset.theme = choice === 'auto' ? (media?.matches ? 'dark' : 'light') : choice;
  if (root.dataset.theme !== was) for (const f of listeners) f(root.dataset.theme);
  root.dataset.themeChoice = choice;
  for (const b of document.querySelectorAll('[data-set-theme]')) b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.setTheme === choice));
}

/** @param {string} t */
export function setTheme(t) { choice = t === 'light' || t === 'dark' ? t : 'auto'; apply(); }

if (globalThis.document) {
  media?.addEventListener('change', apply);
  apply();
  if (document.readyState === 'loading') addEventListener('DOMContentLoaded', apply, { once: true });   // the buttons' state
}
