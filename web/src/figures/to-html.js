// @ts-check
// el.toHTML(): the figure in its current state as one self-contained HTML page (html.js). The page's script is
// figures-standalone.js: inside a single-file figure it is the running script's own text; elsewhere it is fetched from
// beside figures.js (dist/ of a build from source, copied to a site, or a CDN), else taken from widget.js beside it (the
// npm package ships the text once, as posenc/widget's `standaloneText`), or passed as `script` (a bundled site:
// `el.toHTML({ script: (await import('posenc/widget')).standaloneText })`, a lazily loaded chunk).
import { figureHTML } from './html.js';
import { packageBase } from './where.js';
import { figureDef } from './registry.js';
import { formatParam } from './params.js';

// strings, not new URL('./…', import.meta.url): bundlers would emit 0.6 MB into every site
const FILE = 'figures-standalone.js', WIDGET = 'widget.js';
/** @type {Promise<string> | null} */
let fetched = null;

/** The text of figures-standalone.js, or a clear error saying where it was looked for. */
export function standaloneScript() {
  const own = /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('posenc.standalone.text')];
  if (typeof own === 'string' && own) return Promise.resolve(own);
  return (fetched ??= (async () => {
    const base = (await packageBase()) ?? (import.meta.url || '');
    const url = new URL(FILE, base || location.href).href, widget = new URL(WIDGET, base || location.href).href;
    const res = await fetch(url).catch(() => null);
    const text = res?.ok ? await res.text() : '';
    if (text.includes('posenc')) return text;
    // the npm package: the text is widget.js's export (a module import: the same origin rules as figures.js's own)
    const w = await import(/* @vite-ignore */ /* webpackIgnore: true */ widget).then((m) => m.standaloneText, () => null);
    if (typeof w === 'string' && w.includes('posenc')) return w;
    throw new Error(`toHTML: neither ${url} (${res ? `HTTP ${res.status}` : 'not fetched'}) nor ${widget}'s standaloneText is posenc's ${FILE}. ` +
      `Copy dist/${WIDGET} next to figures.js, or pass toHTML({ script }) with the text (posenc/widget's standaloneText)`);
  })().catch((e) => { fetched = null; throw e; }));
}

/**
 * The page for element `el` in its current state.
 * @param {HTMLElement} el
 * @param {{ script?: string, theme?: 'auto' | 'light' | 'dark', controls?: boolean }} [opts]
 */
export async function toHTML(el, opts = {}) {
  const def = figureDef(el.getAttribute('figure') ?? '');
  /** @type {Record<string, string>} */
  const params = {};
  for (const [k, s] of Object.entries(def.params)) { const v = el.getAttribute(k); if (v != null && v !== formatParam(s, s.default)) params[k] = v; }
  const theme = opts.theme ?? el.getAttribute('theme') ?? undefined, lang = /** @type {{ lang?: string }} */ (el).lang;
  const controls = opts.controls ?? (el.hasAttribute('controls') && el.getAttribute('controls') !== 'false');
  // (a bad theme attribute or lang throws figureHTML's FigureError naming it)
  return figureHTML({ figure: def.name, params, lang: /** @type {'en' | 'zh'} */ (lang), theme: /** @type {'auto' | 'light' | 'dark'} */ (theme), controls, script: opts.script ?? await standaloneScript() });
}
