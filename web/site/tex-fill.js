// @ts-check
// The page's formulas, typeset at build time (tex-build.js), put in place: each [data-tex-k] element gets its entry of
// the JSON file that the page preloads (<link id="tex-json">), those on or near the screen first, the rest in small
// slices so that no task is long; KaTeX's sizes (data-s) are set through the CSSOM, which the CSP allows. fitMath()
// swaps a display formula that does not fit its box (a phone) for its stacked version, also prepared at build time.

const link = /** @type {HTMLLinkElement | null} */ (document.getElementById('tex-json'));
/** @type {Promise<string[][]>} the same request as the preload (same URL, CORS mode): the browser answers it from there */
const entries = link ? fetch(link.href, { mode: 'cors', credentials: 'same-origin' }).then((r) => r.json())
  .catch((e) => { console.error(`posenc: the page's formulas did not load (${e.message})`); return []; }) : Promise.resolve([]);
/** @type {string[][]} */
let texts = [];

/** @param {HTMLElement} el */
function fill(el) {
  const k = el.dataset.texK;
  if (k === undefined || el.dataset.texSet !== undefined) return;
  if (!texts[Number(k)]) return;
  const [wide, tall] = texts[Number(k)];
  el.innerHTML = tall ? `<span class="tex-wide">${wide}</span><span class="tex-stacked" hidden>${tall}</span>` : wide;
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll('[data-s]'))) e.style.cssText = e.dataset.s ?? '';
  el.dataset.texSet = '';
}

/** Fills every formula: those on screen now, the rest (nearest the screen first) once `later` has resolved (the first
 * figures have painted); resolves when all are in place.
 * @param {Promise<unknown>} [later] */
export async function fillTex(later) {
  texts = await entries;
  const all = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-tex-k]')]);
  const h = innerHeight, on = (/** @type {HTMLElement} */ el) => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < h; };
  for (const el of all.filter(on)) fill(el);
  await later;
  const near = (/** @type {HTMLElement} */ el) => { const r = el.getBoundingClientRect(); return r.bottom > -h && r.top < 2 * h; };
  for (const el of all.filter((e) => e.dataset.texSet === undefined && near(e))) fill(el);
  const rest = all.filter((el) => el.dataset.texSet === undefined);
  for (let i = 0; i < rest.length; i += 24) {
    await new Promise((r) => setTimeout(r, 0));
    for (const el of rest.slice(i, i + 24)) fill(el);
  }
}

/** A display formula wider than its box shows its stacked version instead; one that still does not fit scrolls inside
 * its box. */
export function fitMath() {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.math[data-tex]'))) {
    const wide = /** @type {HTMLElement | null} */ (el.querySelector(':scope > .tex-wide')), tall = /** @type {HTMLElement | null} */ (el.querySelector(':scope > .tex-stacked'));
    if (!wide || !tall) continue;
    if (el.dataset.stacked) { wide.hidden = false; tall.hidden = true; delete el.dataset.stacked; }
    if (el.scrollWidth <= el.clientWidth + 1 || !el.checkVisibility()) continue;
    wide.hidden = true; tall.hidden = false; el.dataset.stacked = 'true';
  }
}
