// @ts-check
// el.toHTML(): the figure in its current state as one self-contained HTML page (html.js). The page's script is
// figures-standalone.js: inside a single-file figure it is the running script's own text; elsewhere it is fetched from
// beside figures.js (dist/ copied to a site, or a CDN), or passed as `script` (a bundler that did not emit the file:
// e.g. Vite's `import url from 'posenc/dist/figures-standalone.js?url'`, then fetch(url).then((r) => r.text())).
import { figureHTML } from './html.js';
import { packageBase } from './where.js';
import { figureDef } from './registry.js';
import { formatParam } from './params.js';

const FILE = 'figures-standalone.js';   // a string, not new URL('./…', import.meta.url): bundlers would emit 0.6 MB into every site
/** @type {Promise<string> | null} */
let fetched = null;

/** The text of figures-standalone.js, or a clear error saying where it was looked for. */
export function standaloneScript() {
  const own = /** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('posenc.standalone.text')];
  if (typeof own === 'string' && own) return Promise.resolve(own);
  return (fetched ??= (async () => {
    const base = (await packageBase()) ?? (import.meta.url || '');
    const url = new URL(FILE, base || location.href).href;
    const res = await fetch(url).catch((e) => { throw new Error(`toHTML: could not fetch ${url} (${e.message}). Pass toHTML({ script }) with the text of posenc's dist/${FILE}`); });
    const text = res.ok ? await res.text() : '';
    if (!text.includes('posenc')) throw new Error(`toHTML: ${url} is not posenc's ${FILE} (HTTP ${res.status}). Copy dist/${FILE} next to figures.js, or pass toHTML({ script }) with its text`);
    return text;
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
