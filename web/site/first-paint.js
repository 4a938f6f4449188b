// @ts-check
// A figure's first paint, drawn at build time (issue 34: the first figure within a second of a cold load). The figure
// marked `data-prerender` in index.html (the page's first, §1's permutation) is drawn by the package in Node — the
// Export menu's own code (posenc/figures' figureSVG, at its default parameters or the attributes given) — in English
// and Chinese, light and dark, at the page column's width on a desktop (988 px) and on a phone (374 px): eight SVG files
// in assets/, named by a hash of their text. Inside the element go one <picture> per language and theme; style.css
// shows the one for the page's language and colours where its layout is the live figure's, and each picks the phone's
// drawing at 420 px and less. The English pictures load with the page (the language it opens in; the light and the
// dark one, one of them hidden; fetchpriority high, else Chromium fetched them as late as other images below the first
// screen), the Chinese ones lazily, only where the page shows them. The element shows them until its own first paint
// (element.js: a picture among its children stands in for it), so the reader sees the figure as soon as the page
// paints, not once the scripts, the worker and the wasm have run; the same pictures are what a reader without scripts
// sees.
import { createHash } from 'node:crypto';
import { esc } from './figure-bars.js';

const DESKTOP = 988, PHONE = 374, PHONE_MAX = 420;   // the column's width at ≥ 1020 px and on a 390 px phone (style.css)
// The live figure's layout at those widths, in CSS px (Chromium, the page's fonts): where its maps begin (under its
// title, takeaway and controls) and its whole height (with the read-outs and the Export bar). The drawing gets the
// same room above its maps and below them, so that the swap moves nothing (first-paint.test.mjs holds it to within a
// few px; a figure not listed is drawn as the Export menu draws it).
/** @type {Record<string, Record<number, Record<'en' | 'zh', { panels: number, height: number }>>>} */
const LIVE = {
  permutation: { [DESKTOP]: { en: { panels: 123, height: 420 }, zh: { panels: 102, height: 399 } },
    [PHONE]: { en: { panels: 258, height: 1275 }, zh: { panels: 258, height: 1275 } } },
};
/** The Export menu's SVG with room for the live figure's controls: everything from its maps down (each drawn with a
 * transform; the read-outs under them at their own y) moves down to `live.panels`, and the drawing is `live.height` tall.
 * @param {string} svg @param {{ panels: number, height: number }} live */
function withRoom(svg, live) {
  const matrix = /transform="matrix\(([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+)\)"/g;
  const first = Math.min(...[...svg.matchAll(matrix)].map((m) => Number(m[6])));
  const gap = live.panels - first, h = live.height;
  if (!(gap >= 0)) throw new Error(`first-paint: the drawing's maps begin at ${first} px, below the live figure's (${live.panels} px)`);
  return svg.replace(matrix, (_, a, b, c, d, e, f) => `transform="matrix(${a} ${b} ${c} ${d} ${e} ${+(Number(f) + gap).toFixed(2)})"`)
    .replace(/(<text(?![^>]*transform=)[^>]*\by=")([-\d.]+)"/g, (all, pre, y) => (Number(y) > first ? `${pre}${+(Number(y) + gap).toFixed(2)}"` : all))
    .replace(/^(<svg[^>]*\bheight=")[\d.]+("[^>]*viewBox="0 0 [\d.]+ )[\d.]+"/, `$1${h}$2${h}"`)
    .replace(/(<rect x="0" y="0" width="[\d.]+" height=")[\d.]+"/, `$1${h}"`);
}

/** The vite plugin: draws the marked figure (before Vite reads the page's URLs: it leaves a comment in the figure) and
 *  emits the files; firstPaintPost(it) turns the comment into the pictures once Vite has read the page's URLs (their
 *  files do not exist before the bundle is written). */
export function firstPaint() {
  /** @type {Map<string, string>} */
  const files = new Map();   // assets/NAME.svg → SVG text
  /** @type {Map<string, string>} */
  const markup = new Map();  // figure id → the <picture>s
  return {
    name: 'posenc-first-paint',
    apply: /** @type {const} */ ('build'),
    transformIndexHtml: {
      order: /** @type {const} */ ('pre'),
      /** @param {string} html */
      async handler(html) {
        const m = /<posenc-figure\b([^>]*\bdata-prerender\b[^>]*)>/.exec(html);
        if (!m) return html;
        const attrs = Object.fromEntries([...m[1].matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1], a[2] ?? 'true']));
        const { id, figure } = attrs;
        if (!id || !figure) throw new Error(`first-paint: <posenc-figure data-prerender> needs an id and a figure (${m[0]})`);
        const [{ init }, { figureSVG, describeFigure }] = await Promise.all([import('../../dist/node.js'), import('../../dist/figures.js')]);
        const names = new Set(describeFigure(figure).params.map((x) => x.name));   // the figure's parameters among its attributes
        const params = Object.fromEntries(Object.entries(attrs).filter(([k]) => names.has(k)));
        const pe = await init();
        const pictures = [];
        for (const lang of /** @type {const} */ (['en', 'zh'])) {
          for (const theme of /** @type {const} */ (['light', 'dark'])) {
            /** @type {Record<number, { file: string, width: number, height: number, alt: string }>} */
            const at = {};
            for (const width of [DESKTOP, PHONE]) {
              const r = await figureSVG(pe, { figure, params, width, lang, theme });
              const live = LIVE[id]?.[width]?.[lang], svg = live ? withRoom(r.svg, live) : r.svg, height = live?.height ?? r.height;
              const file = `assets/${id}-${lang}-${theme}-${width}-${createHash('sha256').update(svg).digest('hex').slice(0, 10)}.svg`;
              files.set(file, svg);
              at[width] = { file, width: Math.round(r.width), height: Math.round(height), alt: r.alt };
            }
            const d = at[DESKTOP], p = at[PHONE];
            pictures.push(`<picture class="first-paint ${theme}" lang="${lang}"><source media="(max-width: ${PHONE_MAX}px)" srcset="./${p.file}" width="${p.width}" height="${p.height}">` +
              `<img src="./${d.file}" width="${d.width}" height="${d.height}" alt="${esc(d.alt)}" ${lang === 'en' ? 'fetchpriority="high"' : 'loading="lazy"'} elementtiming="first-paint"></picture>`);
          }
        }
        markup.set(id, pictures.join(''));
        return html.replace(m[0], `${m[0]}<!-- first-paint ${id} -->`);
      },
    },
    generateBundle() {
      for (const [fileName, source] of files) /** @type {any} */ (this).emitFile({ type: 'asset', fileName, source });
    },
    markup,
  };
}

/** The second half (a plugin of its own, order 'post'): the comment left by firstPaint() becomes its pictures. */
export function firstPaintPost(/** @type {ReturnType<typeof firstPaint>} */ pre) {
  return {
    name: 'posenc-first-paint-post',
    apply: /** @type {const} */ ('build'),
    transformIndexHtml: {
      order: /** @type {const} */ ('post'),
      /** @param {string} html */
      handler(html) {
        return html.replace(/<!-- first-paint ([\w-]+) -->/g, (all, id) => pre.markup.get(id) ?? all);
      },
    },
  };
}
