// @ts-check
// One self-contained HTML file per figure: the page around figures-standalone.js (the element, its compute worker
// and the wasm, inlined as one classic script: Chromium refuses module scripts from file://, and a classic script
// runs there, in a sandboxed iframe and under any sub-path). Used by el.toHTML(), the explainer's "Download HTML" and
// `npx posenc figure <name> … --html`. Loads in Node (no DOM used here).
//
// The page's postMessage protocol with a parent window (when it is in an iframe):
//   out: { type: 'posenc:height', height, figure }  — the document's height in CSS px, on load and on every change;
//   in:  { type: 'posenc:theme', theme: 'dark' | 'light' | 'auto' }  — the parent's theme ('auto': the reader's
//        prefers-color-scheme, which is also the default until a parent asks).
// A parent applies the heights with three lines (the README's "One file per figure"):
//   addEventListener('message', (e) => { if (e.data?.type !== 'posenc:height') return;
//     for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });
import { figureDef, tr } from './registry.js';
import { readParams, formatParam, FigureError, L } from './params.js';

const esc = (/** @type {unknown} */ v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Text made safe to sit inside an inline <script> (no `</script`, no `<!--`: same meaning for JavaScript). */
export function scriptText(/** @type {string} */ js) {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * A figure's name, parameters (strings as in attributes, or typed values), lang and theme, checked as the element
 * checks its attributes: a bad one throws a FigureError naming it. Also used by the command line's --svg/--png.
 * @param {{ figure: string, params?: Record<string, string | number | boolean>, lang?: string, theme?: string }} o
 */
export function checkedFigure(o) {
  const def = figureDef(o.figure), given = o.params ?? {};
  const specs = def.params;
  for (const k of Object.keys(given)) {
    if (!Object.hasOwn(def.params, k)) {
      throw new FigureError(L(`Unknown parameter "${k}" for figure "${def.name}": it takes ${Object.keys(def.params).join(', ') || 'none'}.`,
        `图 "${def.name}" 没有参数 "${k}"：可用的参数是 ${Object.keys(def.params).join('、') || '（无）'}。`), k);
    }
  }
  const p = readParams(def, (/** @type {string} */ n) => (given[n] == null ? null : String(given[n])));
  if (o.lang != null && o.lang !== 'en' && o.lang !== 'zh') throw new FigureError(L(`Attribute "lang" must be en or zh (got "${o.lang}").`, `属性 "lang" 必须是 en 或 zh（收到 "${o.lang}"）。`), 'lang');
  if (o.theme != null && !['auto', 'light', 'dark'].includes(o.theme)) throw new FigureError(L(`Attribute "theme" must be auto, light or dark (got "${o.theme}").`, `属性 "theme" 必须是 auto、light 或 dark（收到 "${o.theme}"）。`), 'theme');
  return { def, p, specs };
}

/**
 * @typedef {{ figure: string, params?: Record<string, string | number | boolean>, lang?: 'en' | 'zh', theme?: 'auto' | 'light' | 'dark',
 *   controls?: boolean, caption?: string, script: string, fragment?: boolean }} FigureHTMLOptions
 */

/**
 * The HTML page of one figure: `params` (strings as in attributes, or typed values) are checked here, so a bad value
 * throws a FigureError naming the parameter. `script`: the text of figures-standalone.js. `fragment`: only the element
 * and the script, to paste into another page (a notebook's HTML output): no page of its own, no parent protocol.
 * @param {FigureHTMLOptions} o
 * @returns {string}
 */
export function figureHTML(o) {
  const { def, p, specs } = checkedFigure(o);
  if (typeof o.script !== 'string' || !o.script.includes('posenc')) throw new TypeError('figureHTML: script must be the text of figures-standalone.js');
  const lang = o.lang === 'zh' ? 'zh' : 'en';
  // only the parameters that differ from the defaults, as the explainer's URL state writes them
  const attrs = Object.entries(p).filter(([k, v]) => formatParam(specs[k], v) !== formatParam(specs[k], specs[k].default))
    .map(([k, v]) => ` ${k}="${esc(formatParam(specs[k], v))}"`).join('');
  const own = `${o.controls === false ? '' : ' controls'}${lang === 'zh' ? ' lang="zh"' : ''}${o.caption != null ? ` caption="${esc(o.caption)}"` : ''}`;
  const theme = o.theme && o.theme !== 'auto' ? o.theme : '';
  if (o.fragment) {
    return `<posenc-figure figure="${def.name}"${attrs}${own}${theme ? ` theme="${theme}"` : ''}></posenc-figure>
<script>${scriptText(o.script)}</script>
`;
  }
  return `<!doctype html>
<html lang="${lang}"${theme ? ` data-theme="${theme}"` : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="posenc figures-standalone">
<title>${esc(tr(def.title, lang))}</title>
<style>
html { color-scheme: light dark; background: Canvas; color: CanvasText; }
html[data-theme="light"] { color-scheme: light; } html[data-theme="dark"] { color-scheme: dark; }
body { margin: 0; padding: 8px; font: 14px/1.5 system-ui, sans-serif; }
</style>
</head>
<body>
<posenc-figure figure="${def.name}"${attrs}${own}></posenc-figure>
<script id="posenc-standalone">${scriptText(o.script)}</script>
</body>
</html>
`;
}
