// @ts-check
// Formulas typeset at build time (the Vite plugin in vite.config.js calls prerenderTex on the expanded page): KaTeX
// in Node renders every data-tex formula to HTML (+ MathML for screen readers), so the page ships no KaTeX code and
// spends no main-thread time on typesetting (the walk of 2026-11-26 measured ~0.8 s for 280 formulas).
// A display formula (.math) whose top level has separators (\qquad, ",\quad") is also set a second time with each part
// on its own line; tex-fill.js shows that version when the one-line one does not fit its box (a phone).
import katex from 'katex';

/** The formula with its top-level separators (\qquad, ",\quad") as line breaks, or null when it has none.
 * @param {string} tex @returns {string | null} */
export function stacked(tex) {
  let depth = 0, out = '', any = false;
  for (let i = 0; i < tex.length;) {
    const rest = tex.slice(i);
    const sep = depth === 0 && /^(,?\\qquad|,\\quad)(?![a-zA-Z])/.exec(rest);
    if (sep) { out += sep[0].startsWith(',') ? ',\\\\' : '\\\\'; i += sep[0].length; any = true; continue; }
    const m = /^\\(begin|end|left|right)(?![a-zA-Z])|^\\.|^[{}]/.exec(rest);
    if (m) {
      if (m[0] === '{' || m[1] === 'begin' || m[1] === 'left') depth++;
      else if (m[0] === '}' || m[1] === 'end' || m[1] === 'right') depth--;
      out += m[0]; i += m[0].length;
    } else { out += tex[i]; i++; }
  }
  return any ? `\\begin{gathered}${out}\\end{gathered}` : null;
}

const entities = /** @type {Record<string, string>} */ ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" });
/** @param {string} s */
const unescape = (s) => s.replace(/&(amp|lt|gt|quot|apos|#39);/g, (_, e) => entities[e]);

/** @param {string} tex @param {boolean} display */
// KaTeX sizes its boxes with style attributes, which the page's CSP (style-src 'self', no 'unsafe-inline') would refuse
// in markup: they travel as data-s and tex-fill.js sets them through the CSSOM (el.style.cssText), which CSP allows.
const render = (tex, display) => katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml' })
  .replace(/ style="/g, ' data-s="');

/** Typesets every empty element carrying data-tex="…". The typeset HTML does not go inside the elements: parsing
 * ~20,000 KaTeX spans held the parser for over a second on a slow machine, and with it the first figure. Nor does it
 * go into the page: as one JSON text (1.8 MB, 86% of index.html) it still cost the parser 0.1–0.2 s before the page's
 * scripts could run (issue 34). It is returned as `json`, one entry per formula — [html] or, for a display formula
 * that can be stacked, [html, stacked html] — which vite.config.js writes to a file of its own (assets/tex-HASH.json,
 * preloaded by the page); each element gets data-tex-k = its index, and tex-fill.js puts them in place, those on screen
 * first. No KaTeX code runs in the browser. `json` is null for a page without formulas.
 * @param {string} html @returns {{ html: string, json: string | null }} */
export function prerenderTex(html) {
  /** @type {string[][]} */
  const out = [];
  const page = html.replace(/<(span|div)(\s[^>]*?\bdata-tex="([^"]*)"[^>]*)>\s*<\/\1>/g, (whole, tag, attrs, raw) => {
    const tex = unescape(raw), display = /\bclass="[^"]*\bmath\b/.test(attrs);
    const s = display ? stacked(tex) : null;
    out.push(s ? [render(tex, display), render(s, true)] : [render(tex, display)]);
    return `<${tag}${attrs} data-tex-k="${out.length - 1}"></${tag}>`;
  });
  return { html: page, json: out.length ? JSON.stringify(out) : null };
}
