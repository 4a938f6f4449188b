// @ts-check
// Section 2, "design it yourself": three candidate position codes for positions 0 … N − 1, each judged on what a code
// added to token embeddings must do — stay bounded, and put neighbours equally far apart at every position (so that a
// step means the same thing everywhere). Integers: the position itself. Binary: its bits, least significant first (bit
// i flips every 2^i tokens). Sinusoid: pair i = (sin pωᵢ, cos pωᵢ) with ωᵢ = π/2^i, the same period as bit i but
// smooth — its tables from the package (ropeTablesScaled with these frequencies). Binary and integers are plain
// arithmetic.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ positions: number, bits: number }} P */

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'position-codes',
  title: L('Design it yourself: integers, binary, sinusoid', '自己设计位置编码：整数、二进制、正弦'),
  description: L('Three candidate codes for positions 0 … N − 1: the integer itself, its bits (bit i flips every 2^i tokens) and sinusoids with the same periods (pair i: sin and cos of p·π/2^i). Upper maps: the codes, one row per position. Lower plots: the size of each code and the distance from each position’s code to the next one’s.',
    '位置 0 … N − 1 的三种候选编码：整数本身、它的二进制位（第 i 位每 2^i 个词元翻转一次），以及周期相同的正弦（第 i 对：p·π/2^i 的 sin 与 cos）。上面两张图是编码本身，每行一个位置；下面是每个编码的大小，以及每个位置的编码到下一个位置的距离。'),
  takeaway: L('Integers grow without bound (63 at position 63, beside embeddings of size about 1). Bits stay bounded, but neighbours are unevenly far apart: one bit flips between most neighbours, six between 31 and 32. The sinusoid keeps every code the same length and every step the same size, at every position — and further down this section its shift turns out to be a rotation.',
    '整数无限增长（位置 63 处是 63，而词向量的大小约为 1）。二进制位有界，但相邻位置之间的距离忽大忽小：多数相邻位置只差一位，31 与 32 之间却差六位。正弦让每个编码长度相同、每一步距离相同，在任何位置都一样——本节后面还会看到，它的平移就是旋转。'),
  params: {
    positions: { type: 'enum', values: [16, 64, 256], default: 64, label: L('positions N', '位置数 N') },
    bits: { type: 'enum', values: [6, 8], default: 8, label: L('bits = channel pairs', '位数 = 通道对数') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { positions: 256 }, look: L('256 positions: the integer reaches 255, and the widest binary step (127 → 128) flips eight bits; the sinusoid’s step is still the same everywhere.',
    '256 个位置：整数增长到 255，二进制最大的一步（127 → 128）翻转八位；正弦的步长仍然处处相同。') }],
  panels: () => [{ id: 'binary', block: 'heatmap', size: 300 }, { id: 'sine', block: 'heatmap', palette: 'rdbu', size: 300 },
    { id: 'size', block: 'lines', height: 200 }, { id: 'step', block: 'lines', height: 200 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { positions: n, bits }) {
    const omega = Array.from({ length: bits }, (_, i) => Math.PI / 2 ** i);
    const t = pe.ropeTablesScaled({ inv_freq: omega, positions: Array.from({ length: n }, (_, q) => q) });
    const bin = new Float32Array(n * bits), sine = new Float32Array(n * 2 * bits);
    for (let q = 0; q < n; q++) for (let i = 0; i < bits; i++) {
      bin[q * bits + i] = Math.floor(q / 2 ** i) % 2;
      sine[q * 2 * bits + 2 * i] = t.sin[q * bits + i]; sine[q * 2 * bits + 2 * i + 1] = t.cos[q * bits + i];
    }
    const norm = (/** @type {Float32Array} */ a, /** @type {number} */ w, /** @type {number} */ q) => { let s = 0; for (let c = 0; c < w; c++) s += a[q * w + c] ** 2; return Math.sqrt(s); };
    const dist = (/** @type {Float32Array} */ a, /** @type {number} */ w, /** @type {number} */ q) => { let s = 0; for (let c = 0; c < w; c++) s += (a[(q + 1) * w + c] - a[q * w + c]) ** 2; return Math.sqrt(s); };
    const steps = n - 1;
    return { n, bits, bin, sine,
      size: { int: Float64Array.from({ length: n }, (_, q) => q), bin: Float64Array.from({ length: n }, (_, q) => norm(bin, bits, q)), sine: Float64Array.from({ length: n }, (_, q) => norm(sine, 2 * bits, q)) },
      step: { int: new Float64Array(steps).fill(1), bin: Float64Array.from({ length: steps }, (_, q) => dist(bin, bits, q)), sine: Float64Array.from({ length: steps }, (_, q) => dist(sine, 2 * bits, q)) } };
  },
  /** @param {any} r */
  render(r) {
    const S = { int: { label: L('integer p', '整数 p'), color: '#6b6b75', dash: [4, 3] }, bin: { label: L('binary bits', '二进制位'), color: '#D55E00' }, sine: { label: L('sinusoid', '正弦'), color: '#0072B2' } };
    const keys = /** @type {('int' | 'bin' | 'sine')[]} */ (['int', 'bin', 'sine']);
    const maxStep = Math.max(...r.step.bin), at = r.step.bin.indexOf(maxStep);
    const sMin = Math.min(...r.step.sine), sMax = Math.max(...r.step.sine);
    return {
      binary: { data: r.bin, rows: r.n, cols: r.bits, vmin: 0, vmax: 1, caption: L('binary: bit i of position p', '二进制：位置 p 的第 i 位'), xlabel: L('bit i (flips every 2^i)', '第 i 位（每 2^i 翻转）'), ylabel: L('position p ↓', '位置 p ↓') },
      sine: { data: r.sine, rows: r.n, cols: 2 * r.bits, vmin: -1, vmax: 1, caption: L('sinusoid: sin, cos of p·π/2^i', '正弦：p·π/2^i 的 sin、cos'), xlabel: L('channel (pair i = two columns)', '通道（每对 i 占两列）'), ylabel: L('position p ↓', '位置 p ↓') },
      size: { series: keys.map((k) => ({ y: r.size[k], ...S[k] })), caption: L('Size of each code ‖c(p)‖', '每个编码的大小 ‖c(p)‖'), xlabel: L('position p', '位置 p'), ylabel: L('length', '长度') },
      step: { series: keys.map((k) => ({ y: r.step[k], ...S[k] })), caption: L('Distance to the next position ‖c(p + 1) − c(p)‖', '到下一个位置的距离 ‖c(p + 1) − c(p)‖'), xlabel: L('position p', '位置 p'), ylabel: L('distance', '距离') },
      readouts: [
        { id: 'int-max', label: L('largest integer code', '整数编码的最大值'), value: r.n - 1 },
        { id: 'bin-step', label: L('widest binary step', '二进制最大的一步'), value: maxStep * maxStep, text: L(`${Math.round(maxStep * maxStep)} bits flip between ${at} and ${at + 1}`, `${at} 与 ${at + 1} 之间翻转 ${Math.round(maxStep * maxStep)} 位`) },
        { id: 'sine-step', label: L('sinusoid step, smallest … largest', '正弦步长，最小 … 最大'), value: sMax - sMin, text: `${sMin.toFixed(4)} … ${sMax.toFixed(4)}` },
      ],
    };
  },
};
