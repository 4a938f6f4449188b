// @ts-check
// What the exports carry besides the picture: the figure laid out for a target width (toPNG({ width }): a hidden copy
// of the figure at that width, so panels, legends and wrapped text are laid out as the live figure would be there),
// and the alt text (title, the takeaway where it applies, the parameters drawn and the read-outs) — el.altText(), inside the SVG as
// <title>/<desc>, inside the PNG as iTXt chunks "Title" and "Description" (UTF-8).
import { PosencError, show } from '#wasm';

/** @typedef {HTMLElement & { ready: Promise<unknown>, toPNG(o?: { scale?: number, width?: number }): Promise<Blob>, toSVG(o?: { width?: number }): string | Promise<string>, params: Record<string, unknown> }} Figure */

/** The figure's parameters set as attributes (not data-*, id…), as [name, value]. @returns {[string, string][]} */
export function paramsSet(/** @type {Figure} */ el) {
  /** @type {Record<string, unknown>} */
  let known = {};
  try { known = el.params; } catch { /* a bad attribute: the figure shows the error, nothing is exported */ }
  return [...el.attributes].filter((a) => Object.hasOwn(known, a.name)).map((a) => /** @type {[string, string]} */ ([a.name, a.value]));
}

/** The figure's alt text: what it shows for the parameters drawn (the read-outs are the numbers of this state). */
export function altText(/** @type {Figure} */ el) {
  const sr = /** @type {ShadowRoot} */ (el.shadowRoot), text = (/** @type {string} */ s) => sr.querySelector(s)?.textContent?.trim() ?? '';
  return altTextOf({ title: text('.title'), takeaway: text('.takeaway'), params: paramsSet(el), readouts: [...sr.querySelectorAll('.readouts p')].map((p) => p.textContent?.trim() ?? ''),
    zh: /** @type {{ lang?: string }} */ (el).lang === 'zh' });
}

/**
 * The sentence an image carries under its title: the takeaway, written for the defaults ("with base 10000 and d = 512
 * … (marked)"), only while no parameter is set; else the parameters drawn ("Drawn with base = 500000."), as the alt
 * text says. So an exported image never states a number or a mark that its plot does not show.
 * @param {string | null} takeaway the takeaway as shown (null: hidden, a caption of the author's) @param {[string, string][]} params @param {boolean} zh
 */
export function exportSubtitle(takeaway, params, zh) {
  if (takeaway == null) return null;
  return params.length ? drawnWith(params, zh) : takeaway;
}

/** "Drawn with base = 500000, d = 128." / "参数：base=500000，d=128。" @param {[string, string][]} params @param {boolean} zh */
function drawnWith(params, zh) {
  return zh ? `参数：${params.map(([k, v]) => `${k}=${v}`).join('，')}。` : `Drawn with ${params.map(([k, v]) => `${k} = ${v}`).join(', ')}.`;
}

/**
 * The alt text from its parts (the page's figure and the command line's headless one): title; the takeaway only when
 * no parameter is set (it is written for the defaults: "with base 10000 and d = 512 …"); the parameters set; the read-outs.
 * @param {{ title: string, takeaway: string, params: [string, string][], readouts: string[], zh: boolean }} o
 */
export function altTextOf({ title, takeaway, params, readouts, zh }) {
  const set = params.length ? drawnWith(params, zh) : '';
  const ro = readouts.filter(Boolean).join(zh ? '；' : '; ');
  return [`${title}${zh ? '。' : '.'}`, params.length ? '' : takeaway, set, ro && `${ro}${zh ? '。' : '.'}`].filter(Boolean)
    .join(zh ? '' : ' ');   // Chinese sentences follow one another without a space
}

/**
 * Runs `fn` on a hidden copy of `el` laid out `width` CSS px wide, once it has painted.
 * @template T
 * @param {Figure} el @param {unknown} width @param {(c: Figure) => Promise<T>} fn @returns {Promise<T>}
 */
export async function atWidth(el, width, fn) {
  checkWidth(width);
  const box = document.createElement('div'), copy = /** @type {Figure} */ (document.createElement('posenc-figure'));
  // the export adds a 12 px margin on each side of the panels (element.js _layout)
  Object.assign(box.style, { position: 'fixed', left: '0', top: '0', width: `${/** @type {number} */ (width) - 24}px`, visibility: 'hidden', pointerEvents: 'none', zIndex: '-1' });
  for (const a of el.attributes) if (a.name !== 'id') copy.setAttribute(a.name, a.value);
  copy.setAttribute('lang', /** @type {{ lang: string }} */ (/** @type {unknown} */ (el)).lang);
  box.append(copy);
  (el.parentNode ?? document.body).appendChild(box);   // beside the figure: the same page colours and lang
  try { await copy.ready; return await fn(copy); } finally { box.remove(); }
}

/** Throws unless `width` is an image width the exports lay out for (an integer from 240 to 4096 CSS px). */
export function checkWidth(/** @type {unknown} */ width) {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < 240 || width > 4096) {
    throw new PosencError(`width: must be an integer from 240 to 4096 — the CSS px the image is laid out for, e.g. 680 for a blog column (got ${show(width)})`);
  }
}

/** The SVG with its alt text as <title> and <desc> (and role="img"). */
export function svgWithAlt(/** @type {string} */ svg, /** @type {string} */ title, /** @type {string} */ desc) {
  const esc = (/** @type {string} */ s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return svg.replace(/^<svg\b([^>]*)>/, `<svg$1 role="img"><title>${esc(title)}</title><desc>${esc(desc)}</desc>`);
}

const CRC = (() => { const t = new Uint32Array(256); for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; } return t; })();
const crc32 = (/** @type {Uint8Array} */ b) => { let c = 0xffffffff; for (const x of b) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };

/** An iTXt chunk (uncompressed UTF-8 text under `keyword`). */
function itxt(/** @type {string} */ keyword, /** @type {string} */ text) {
  const body = new Uint8Array([...new TextEncoder().encode(`iTXt${keyword}`), 0, 0, 0, 0, 0, ...new TextEncoder().encode(text)]);
  const out = new Uint8Array(body.length + 8), v = new DataView(out.buffer);
  v.setUint32(0, body.length - 4); out.set(body, 4); v.setUint32(4 + body.length, crc32(body));
  return out;
}

/** The PNG with Title and Description iTXt chunks before its IEND. */
export async function pngWithAlt(/** @type {Blob} */ png, /** @type {string} */ title, /** @type {string} */ desc) {
  const b = new Uint8Array(await png.arrayBuffer()), iend = b.length - 12;
  return new Blob([b.subarray(0, iend), itxt('Title', title), itxt('Description', desc), b.subarray(iend)], { type: 'image/png' });
}

/** Saves `blob` as `filename` through the browser (a temporary link clicked inside `root`). @param {ShadowRoot | Element} root @param {Blob} blob @param {string} filename */
export function saveFile(root, blob, filename) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob); a.download = filename;
  root.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}
