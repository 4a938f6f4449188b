// @ts-check
// Numbers on figures. Axis ticks come from d3-scale (nice steps) with one d3-format per axis: plain decimals with
// the precision the step needs, SI prefixes (15k, 1M) for large magnitudes, exponent notation for tiny ones.
// fmt() is the short form for read-outs and tool tips.
import { scaleLinear, scaleLog } from 'd3-scale';
import { format } from 'd3-format';

/** @param {unknown} v @param {number} [digits] */
export function fmt(v, digits = 4) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(Math.max(1, digits - 1)).replace('-', '−');
  const s = Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return s.replace('-', '−');
}

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
