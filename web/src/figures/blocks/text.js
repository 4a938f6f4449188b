// @ts-check
// Text measuring and wrapping for the blocks and the exports, in a page (a canvas measures) and headless (Node: the
// command line's --svg/--png, where there is no canvas: widths from per-character advances of a typical sans-serif
// face — Arial/Helvetica metrics widened 18 % (DejaVu Sans, the Linux face of the SVG's font stack), CJK and full-width characters 1 em — a slight over-estimate, so wrapped text and
// margins stay inside their boxes whatever face the SVG viewer picks). Also the pixel canvas of a large heatmap,
// headless: RGBA pixels that an encoder the caller injects (setPngEncoder) turns into a PNG data: URL.

/** The smallest text any block draws (px): tick labels, axis labels, legends, cell values. 12 px stays readable in a
 * 680 px blog column and on a phone. */
export const MIN_TEXT = 12;

// advance widths in 1/1000 em (Helvetica/Arial), ASCII 32..126
const ADV = [278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556,
  278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556,
  333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584];

/** Width (px) of `text` in `font` ("600 12px …"), without a canvas. */
export function approxWidth(/** @type {string} */ font, /** @type {string} */ text) {
  const m = /(\d+(?:\.\d+)?)px/.exec(font), size = m ? Number(m[1]) : 10, bold = /\b(bold|[6-9]00)\b/.test(font);
  let w = 0;
  for (const ch of String(text)) {
    const c = ch.codePointAt(0) ?? 0;
    w += c >= 32 && c <= 126 ? ADV[c - 32] : c >= 0x2e80 || (c >= 0xff00 && c <= 0xffef) ? 1000 : 600;   // CJK: 1 em; other (Greek, −, …): 0.6 em
  }
  return (w / 1000) * size * (bold ? 1.28 : 1.18);   // over Arial: DejaVu Sans (Linux) runs 12–18 % wider, its bold more
}

/** @type {CanvasRenderingContext2D | null} */
let probe = null;
const canvas2d = () => (probe ??= typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d'));

/** Width (px) of `text` in `font`: a canvas measures in a page; approxWidth headless. */
export function measure(/** @type {string} */ font, /** @type {string} */ text) {
  const g = canvas2d();
  if (!g) return approxWidth(font, text);
  g.font = font;
  return g.measureText(text).width;
}

/** How far below y the alphabetic baseline lies when text is drawn with `baseline` (top, middle, bottom…) at y. */
export function baselineShift(/** @type {string} */ font, /** @type {string} */ baseline) {
  if (baseline === 'alphabetic') return 0;
  const g = canvas2d();
  if (!g) {
    const m = /(\d+(?:\.\d+)?)px/.exec(font), s = m ? Number(m[1]) : 10;   // em box: ascent 0.8, descent 0.2 (as a canvas has it)
    return baseline === 'top' || baseline === 'hanging' ? 0.8 * s : baseline === 'middle' ? 0.3 * s : baseline === 'bottom' || baseline === 'ideographic' ? -0.2 * s : 0;
  }
  g.font = font;
  g.textBaseline = 'alphabetic'; const a = g.measureText('Hg').actualBoundingBoxAscent;
  g.textBaseline = /** @type {CanvasTextBaseline} */ (baseline); const b = g.measureText('Hg').actualBoundingBoxAscent;
  return a - b;
}

/** `text` broken into lines no wider than `width` px in `font` (at spaces, and between CJK characters). */
export function wrapText(/** @type {string} */ text, /** @type {string} */ font, /** @type {number} */ width) {
  const words = String(text).split(/(?<=\s)|(?=[\u3000-\u9fff\uff00-\uffef])/), lines = [];
  let line = '';
  for (const w of words) {
    if (line && measure(font, line + w) > width) { lines.push(line.trimEnd()); line = w.trimStart(); } else line += w;
  }
  if (line) lines.push(line);
  return lines;
}

/** @type {((w: number, h: number, rgba: Uint8ClampedArray) => string) | null} */
let pngEncoder = null;
/** Headless: how an RGBA image becomes a data: URL (the command line passes a zlib-backed PNG encoder). */
export function setPngEncoder(/** @type {(w: number, h: number, rgba: Uint8ClampedArray) => string} */ f) { pngEncoder = f; }

/**
 * A w × h pixel surface: a canvas in a page; headless, an object with the same putImageData/toDataURL the heatmap
 * uses (its pixels encoded by the injected PNG encoder).
 * @returns {{ canvas: { width: number, height: number, toDataURL(type?: string): string }, put(img: { data: Uint8ClampedArray }): void, image(): { data: Uint8ClampedArray } }}
 */
export function pixelSurface(/** @type {number} */ w, /** @type {number} */ h) {
  if (typeof document !== 'undefined') {
    const c = document.createElement('canvas'); c.width = w; c.height = h;
    const g = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
    return { canvas: c, put: (img) => g.putImageData(/** @type {ImageData} */ (img), 0, 0), image: () => new ImageData(w, h) };
  }
  const data = new Uint8ClampedArray(w * h * 4);
  return { canvas: { width: w, height: h, toDataURL: () => { if (!pngEncoder) throw new Error('posenc: no PNG encoder set for a headless heatmap image'); return pngEncoder(w, h, data); } },
    put: () => {}, image: () => ({ data }) };
}
