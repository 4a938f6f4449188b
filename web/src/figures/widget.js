// @ts-check
// posenc/widget (dist/widget.js): the anywidget front-end contract over the figure definitions, for Jupyter,
// marimo and MyST's {anywidget} directive. One ES module with nothing to fetch (the element, its worker and the wasm
// come inlined, as in a single-file figure), so it also works where the module is loaded from a blob: or data: URL.
// Traits (the model's keys):
//   figure: str            the figure's name (posenc/figures' figureNames)
//   params: dict[str, str] its parameters, as attributes ({"base": "500000"}); the figure's controls write them back
//   lang: "en" | "zh", theme: "auto" | "light" | "dark", controls: bool (default true)
// Two-way: a control changes `params` (model.set + save_changes); a model change re-renders the figure.
// Also exports `standaloneText`: the tarball's only copy of figures-standalone.js (dist/ of a build keeps the file too).
import STANDALONE from 'virtual:posenc-standalone-text';

/**
 * The part of anywidget's model the widget uses (traits: figure, params, lang, theme, controls).
 * @typedef {{ get(k: string): any, set(k: string, v: any): void, save_changes(): void,
 *   on(e: string, f: () => void): void, off(e: string, f: () => void): void }} WidgetModel
 */

const KEY = Symbol.for('posenc.standalone.text');
/** Defines <posenc-figure> once per page: the inlined script runs as a classic script (its text also makes the worker). */
function define() {
  if (customElements.get('posenc-figure') || /** @type {Record<symbol, unknown>} */ (globalThis)[KEY]) return;
  const s = document.createElement('script');
  s.id = 'posenc-standalone';
  s.text = STANDALONE;
  document.head.append(s);
}

const OWN = ['figure', 'lang', 'theme', 'controls'];

/**
 * Renders the figure the model's traits name into `el`; returns the cleanup function (anywidget calls it when the view goes).
 * @param {{ model: WidgetModel, el: HTMLElement }} ctx @returns {() => void}
 */
function render({ model, el }) {
  define();
  const fig = document.createElement('posenc-figure');
  let applying = false;
  const apply = () => {
    applying = true;
    try {
      const figure = model.get('figure'), params = model.get('params') ?? {};
      if (typeof figure !== 'string' || !figure) throw new Error(`posenc widget: trait "figure" must be a figure name (got ${JSON.stringify(figure)})`);
      if (typeof params !== 'object' || Array.isArray(params)) throw new Error(`posenc widget: trait "params" must be a dict of parameter → value (got ${JSON.stringify(params)})`);
      // parameters no longer in the trait go back to their defaults
      for (const a of [...fig.getAttributeNames()]) if (!OWN.includes(a) && !(a in params)) fig.removeAttribute(a);
      fig.setAttribute('figure', figure);
      for (const [k, v] of Object.entries(params)) if (fig.getAttribute(k) !== String(v)) fig.setAttribute(k, String(v));
      const lang = model.get('lang'), theme = model.get('theme'), controls = model.get('controls');
      if (lang) fig.setAttribute('lang', lang); else fig.removeAttribute('lang');
      if (theme) fig.setAttribute('theme', theme); else fig.removeAttribute('theme');
      if (controls === false) fig.removeAttribute('controls'); else fig.setAttribute('controls', '');
    } finally { applying = false; }
  };
  /** @param {Event} e */
  const changed = (e) => {
    if (applying) return;
    const detail = /** @type {CustomEvent<{ params: Record<string, string> }>} */ (e).detail;
    model.set('params', { ...detail.params });
    model.save_changes();
  };
  apply();
  fig.addEventListener('figure-change', changed);
  const events = ['change:figure', 'change:params', 'change:lang', 'change:theme', 'change:controls'];
  for (const ev of events) model.on(ev, apply);
  el.append(fig);
  return () => { for (const ev of events) model.off(ev, apply); fig.removeEventListener('figure-change', changed); fig.remove(); };
}

/** The anywidget front-end module: `render({ model, el })`. */
export default { render };

/**
 * The text of figures-standalone.js, the classic script a single-file figure inlines (`el.toHTML({ script: standaloneText })`,
 * html.js). The package ships it once, here: this module must carry it anyway (anywidget loads it from a blob: URL).
 */
export const standaloneText = STANDALONE;
