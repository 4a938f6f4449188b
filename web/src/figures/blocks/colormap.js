// @ts-check
// Colour-blind-safe palettes, as 256-entry lookup tables (packed RGBA little-endian uint32 for ImageData).
//   viridis  — sequential (perceptually uniform, readable in greyscale and by all common colour-vision deficiencies)
//   rdbu     — diverging (ColorBrewer RdBu, listed as colour-blind safe), negative blue, zero white, positive red
//   series   — categorical colours for curves: Okabe & Ito's hues (2008), darkened where needed so that every one has
//              a contrast of at least 3:1 against the light background (WCAG 1.4.11); seriesDark for the dark theme
const STOPS = {
  viridis: [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
    [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]],
  rdbu: [[33, 102, 172], [67, 147, 195], [146, 197, 222], [209, 229, 240], [247, 247, 247],
    [253, 219, 199], [244, 165, 130], [214, 96, 77], [178, 24, 43]],
};

export const series = ['#0072B2', '#D55E00', '#007A5A', '#A6488B', '#8A6100', '#000000', '#6A51A3'];
export const seriesDark = ['#56B4E9', '#E69F00', '#2FD0A0', '#E58FC8', '#F0E442', '#FFFFFF', '#B0B0FF'];

/** @param {number[][]} stops @param {number} t @returns {[number, number, number]} */
function sample(stops, t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x)), f = x - i;
  const a = stops[i], b = stops[i + 1];
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
}

/** @type {Record<string, Uint32Array>} */
const luts = {};
/** @type {(name: string) => number[][]} */
const stopsOf = (name) => (/** @type {Record<string, number[][]>} */ (STOPS))[name] ?? STOPS.viridis;
/** 256 packed RGBA colours of a palette. @param {string} name */
export function lut(name) {
  if (!luts[name]) {
    const stops = stopsOf(name), out = new Uint32Array(256);
    for (let i = 0; i < 256; i++) {
      const [r, g, b] = sample(stops, i / 255);
      out[i] = (255 << 24) | (Math.round(b) << 16) | (Math.round(g) << 8) | Math.round(r);
    }
    luts[name] = out;
  }
  return luts[name];
}

/** RGB of t ∈ [0, 1] in a palette. @param {string} name @param {number} t */
export function colour(name, t) { return sample(stopsOf(name), t); }
/** @param {number} t */
export function viridis(t) { return sample(STOPS.viridis, t); }
