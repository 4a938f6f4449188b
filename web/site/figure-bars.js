// @ts-check
// The page's markup around each <posenc-figure id>: its "Try this" box just before it (one row per `tries` entry of
// the figure's definition) and its "Permalink · Embed" bar just after it. vite.config.js writes both into index.html
// at build time, so the page's first layout has their room: added by the scripts at load (45 bars of 23 px, the boxes
// of 22–70 px), they moved everything under them, a deep link's target included (the layout shift of a load, issue 34).
// try.js and embed-bar.js wire what they find and write the same markup themselves where a page has none (the
// gallery). Every text is there in both languages (the root's data-lang shows one, as for the rest of the page).
// No DOM and no package import: the build runs this in Node.

/** @typedef {{ en: string, zh: string }} Text */
const LABEL = { try: { en: 'Try this', zh: '试一试' }, link: { en: 'Permalink', zh: '链接' }, embed: { en: 'Embed', zh: '嵌入' } };

/** Text or an attribute value as HTML (also first-paint.js's). */
export const esc = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
/** @param {Text} t */
const both = (t) => `<span lang="en">${esc(t.en)}</span><span lang="zh">${esc(t.zh)}</span>`;

/**
 * The "Try this" box of figure `id`; '' when it has no tries.
 * @param {string} id @param {{ params: Record<string, unknown>, look: Text }[]} tries
 */
export function tryBoxHTML(id, tries) {
  if (!tries.length) return '';
  const rows = tries.map((t) => {
    const params = Object.entries(t.params).map(([k, v]) => `${k}=${v}`).join(' ');
    return `<div class="try-row"><button type="button" data-params="${esc(params)}" aria-pressed="false">▶ ${both(LABEL.try)}</button>` +
      `<span class="try-look">${both(t.look)}</span></div>`;
  });
  return `<div class="presets try" data-try="${esc(id)}">${rows.join('')}</div>`;
}

/** The "Permalink · Embed" bar of figure `id` (its panel is the script's: embed-bar.js). @param {string} id */
export function embedBarHTML(id) {
  return `<div class="embed-bar"><a class="permalink" href="#${esc(id)}"># ${both(LABEL.link)}</a> · ` +
    `<button type="button" class="embed" aria-expanded="false">${both(LABEL.embed)}</button></div>`;
}

/**
 * `html` with the box and the bar around every <posenc-figure> that has an id and a figure name (build time).
 * @param {string} html @param {(name: string) => { tries: { params: Record<string, unknown>, look: Text }[] } | undefined} describe
 */
export function withFigureBars(html, describe) {
  return html.replace(/<posenc-figure\b([^>]*)>[\s\S]*?<\/posenc-figure>/g, (el, attrs) => {
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1], name = /\bfigure="([^"]+)"/.exec(attrs)?.[1];
    if (!id || !name) return el;
    return `${tryBoxHTML(id, describe(name)?.tries ?? [])}${el}${embedBarHTML(id)}`;
  });
}
