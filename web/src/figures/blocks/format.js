// @ts-check
// Numbers on figures. Axis ticks come from d3-scale (nice steps) with one d3-format per axis: plain decimals with
// the precision the step needs, SI prefixes (15k, 1M) for large magnitudes, exponent notation for tiny ones.
// fmt() is the short form for read-outs and tool tips.
import { scaleLinear, scaleLog } from 'd3-scale';
import { format } from 'd3-format';

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** a × 10ⁿ with `sig` significant digits (trailing zeros dropped), e.g. 1.19×10⁻⁷. */
/** @param {number} v @param {number} [sig] */
export function sci(v, sig = 3) {
  const [m, e] = Math.abs(v).toExponential(Math.max(0, sig - 1)).split('e');
  const mant = m.includes('.') ? m.replace(/0+$/, '').replace(/\.$/, '') : m;
  return `${v < 0 ? '−' : ''}${mant}×10${e.startsWith('-') ? '⁻' : ''}${[...e.replace(/^[+-]/, '')].map((c) => SUP[Number(c)]).join('')}`;
}
/** Digits of an integer string grouped by threes with a narrow no-break space (SI), from 10 000 up. */
const group = (/** @type {string} */ int) => (int.length > 4 ? int.replace(/\B(?=(\d{3})+$)/g, '\u202f') : int);

/**
 * A number for people (read-outs, tool tips): at most `digits` decimals and at most 6 significant digits (the results
 * are float32: a 7th digit is rounding noise — 7.9999990 reads 8); a value that rounds to a whole number is printed as
 * one; nothing prints as −0 or 0.00e+0; thousands grouped with a narrow space from 10 000; below 0.001 (not 0) and from
 * 10¹² up as a × 10ⁿ; the minus sign is U+2212.
 * @param {unknown} v @param {number} [digits]
 */
export function fmt(v, digits = 4) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return String(v);
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a < 1e-3) return sci(v, Math.min(3, Math.max(1, digits)));
  if (a >= 1e12) return sci(v, 6);
  const whole = Math.floor(Math.log10(a)) + 1;                    // digits before the point (≤ 0 below 1)
  const dec = Math.max(0, Math.min(digits, 6 - Math.max(whole, 0)));
  let s = a.toFixed(dec);
  if (Number(s) === 0) return '0';
  if (/\./.test(s) && Number(s) === Math.round(Number(s))) s = String(Math.round(Number(s)));   // 8.00000 → 8
  const [int, frac] = s.split('.');
  return `${v < 0 ? '−' : ''}${group(int)}${frac !== undefined ? `.${frac}` : ''}`;
}

/** A read-out's number when the figure gives no text: fmt(v, 6) without trailing zeros after the point (0.125, not
 * 0.125000; the 6 significant digits are an upper bound, not a claim of precision).
 * @param {unknown} v */
export const fmtReadout = (v) => { const s = fmt(v, 6); return /^[−\d\u202f]*\.\d*$/.test(s) ? s.replace(/0+$/, '').replace(/\.$/, '') : s; };

/** Ticks for [lo, hi]: {values, format} — format is one function for the whole axis.
 * @param {number} lo @param {number} hi @param {{ log?: boolean, count?: number }} [o] @returns {{ values: number[], format: (v: number) => string }} */
export function axisTicks(lo, hi, { log = false, count = 5 } = {}) {
  if (log) {
    const s = scaleLog().domain([lo, hi]);
    let values = s.ticks().filter((t) => Math.abs(Math.log10(t) - Math.round(Math.log10(t))) < 1e-9);
    if (values.length > count + 2) { const k = Math.ceil(values.length / (count + 1)); values = values.filter((_, i) => i % k === 0); }
    if (values.length < 2) { const f = s.tickFormat(count, '~g'); values = s.ticks(count).filter((v) => f(v) !== ''); }   // d3 thins crowded labels
    const big = Math.max(...values.map(Math.abs)), small = Math.min(...values.map(Math.abs));
    return { values, format: format(big >= 1e4 && small >= 1 ? '~s' : small < 1e-3 || big >= 1e6 ? '.0e' : '~g') };
  }
  const s = scaleLinear().domain([lo, hi]), values = s.ticks(count);
  const big = Math.max(...values.map(Math.abs)), step = values.length > 1 ? Math.abs(values[1] - values[0]) : Math.abs(hi - lo) || 1;
  const f = big >= 1e4 ? s.tickFormat(count, '~s') : big > 0 && big < 1e-2 ? format(`.${Math.max(0, Math.floor(Math.log10(big)) - Math.floor(Math.log10(step)))}e`) : s.tickFormat(count);
  return { values, format: (/** @type {number} */ v) => (v === 0 ? '0' : f(v)) };
}

/** Indices to tick: integer steps 1, 2, 5, 10, … so that neighbouring ticks are at least `gap` px apart. */
export function tickIndices(/** @type {number} */ n, /** @type {number} */ cell, /** @type {number} */ gap) {
  let step = 1;
  for (const m of [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000]) { step = m; if (m * cell >= gap) break; }
  /** @type {number[]} */
  const out = [];
  for (let i = 0; i < n; i += step) out.push(i);
  return out;
}
/** A cell's value in about 4 characters: integers as they are; others with 2 decimals below 1, 1 below 10, none above (no trailing 0). */
export function cellText(/** @type {number} */ v) {
  if (Number.isInteger(v)) return String(v).replace('-', '−');
  const a = Math.abs(v);
  const s = (a >= 10 ? v.toFixed(0) : a >= 1 ? v.toFixed(1) : v.toFixed(2)).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return Number(s) === 0 ? '0' : s.replace('-', '−');
}
