// @ts-check
// Section 5, intuition first: why RoPE's score decays with distance — the clocks of §4 again, all d/2 of them. With
// q = k = all ones, each pair adds one unit hand at angle (m − n)·θᵢ, and the score is 2·Σ cos((m − n)θᵢ). At distance 0
// every hand points the same way; as the distance grows the fast pairs' hands spread round the circle and cancel, while
// the slow pairs' hands have barely moved and keep adding about 1 each. The hands are the package's cos / sin tables
// (ropeTablesScaled at the distance), the curve its ⟨R_m q, R_n k⟩ sweep (ropeInnerProductSweep).
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ distance: number, rotary_dim: number, rope_theta: number }} P */

const WINDOW = 4096;                          // the score curve: distances 0 … WINDOW
const [FAST, SLOW] = ['#D55E00', '#0072B2'];  // the fast half of the pairs, the slow half (Okabe–Ito)

/** Mean of a[lo … hi). @param {ArrayLike<number>} a @param {number} lo @param {number} hi */
const mean = (a, lo, hi) => { let s = 0; for (let i = lo; i < hi; i++) s += a[i]; return s / (hi - lo); };
/** Three decimals for people: −0.021, 0.975 (never "−0.000" or an exponent). @param {number} v */
const dec = (v) => (Math.abs(v) < 5e-4 ? 0 : v).toFixed(3).replace('-', '−');

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-phasor',
  title: L('Why the score decays: fast hands cancel, slow hands remain', '分数为什么衰减：快指针相互抵消，慢指针留下'),
  description: L('q = k = all ones: each of the d/2 pairs contributes one clock hand at angle (m − n)·θᵢ, θᵢ = base^(−2i/d), and the score ⟨R_m q, R_n k⟩ is twice the sum of their cosines. Defaults as in most models: head size d = 128, base 10000.',
    'q = k = 全 1：d/2 个通道对各贡献一根钟表指针，角度为 (m − n)·θᵢ，θᵢ = base^(−2i/d)；分数 ⟨R_m q, R_n k⟩ 是这些指针余弦之和的两倍。默认值与大多数模型相同：头维度 d = 128，底数 10000。'),
  takeaway: L('At distance 64 the 32 fast pairs’ hands point every way and their cosines average about 0, while the 32 slow pairs’ hands have turned less than a radian and average about 1: the score has fallen to about half, carried by the slow pairs. Further out the slow hands fan out too, and the score keeps falling.',
    '距离 64 时，32 个快通道对的指针指向四面八方，余弦平均约为 0；32 个慢通道对的指针转了不到 1 弧度，余弦平均约为 1：分数降到一半左右，全靠慢通道对撑着。再远一些，慢指针也散开，分数继续下降。'),
  params: {
    distance: { type: 'int', min: 0, max: WINDOW, default: 64, slider: true, label: L('distance m − n', '距离 m − n') },
    rotary_dim: { type: 'enum', values: [64, 128], default: 128, label: L('head size d', '头维度 d') },
    rope_theta: { type: 'enum', values: [10000, 500000], default: 10000, label: L('base', '底数 base') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { distance: 0 }, look: L('distance 0: all 64 hands point the same way, every cosine is 1 and the score is its largest, 2·64 = 128.',
    '距离 0：64 根指针全部同向，每个余弦都是 1，分数最大，为 2·64 = 128。') },
  { params: { distance: 1000 }, look: L('distance 1000: the fast half still averages about 0, and now the slow half has fanned out to about 0.34 — the score is down to about a sixth of its peak.',
    '距离 1000：快的一半平均仍约为 0，慢的一半也散开了，平均约 0.34——分数降到峰值的六分之一左右。') },
  { params: { distance: 1000, rope_theta: 500000 }, look: L('base 500000 (Llama 3) at distance 1000: the slow hands turn far less and still average above 0.9, so the score is still about half its peak (63 of 128) instead of a sixth — a larger base for a longer context.',
    '底数 500000（Llama 3）、距离 1000：慢指针转得少得多，平均仍高于 0.9，分数仍约为峰值的一半（128 中的 63），而不是六分之一——上下文越长，底数越大。') }],
  panels: () => [{ id: 'hands', block: 'vec2', range: 1.15 }, { id: 'cos', block: 'lines', height: 220 }, { id: 'score', block: 'lines', height: 220 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { distance, rotary_dim: d, rope_theta }) {
    const inv = pe.ropeInvFreq({ rotary_dim: d, rope_theta });
    const t = pe.ropeTablesScaled({ inv_freq: inv, positions: [distance] });
    const half = d / 4, cos = Float64Array.from(t.cos), sin = Float64Array.from(t.sin);
    const curve = pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: d, inv_freq: inv, q_position: 0, k_start: 0, count: WINDOW + 1 });
    return { d, cos, sin, half, fast: mean(cos, 0, half), slow: mean(cos, half, d / 2), score: curve[distance], curve: Float64Array.from(curve) };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const n = r.d / 2, idx = Float64Array.from({ length: n }, (_, i) => i);
    const hand = (/** @type {number} */ i) => ({ id: `p${i}`, x: r.cos[i], y: r.sin[i], label: '', color: i < r.half ? FAST : SLOW });
    const meanHand = { id: 'mean', x: mean(r.cos, 0, n), y: mean(r.sin, 0, n), label: 'q·k ÷ d', color: '#000000' };
    return {
      hands: { caption: L(`The ${n} hands at distance ${p.distance} (orange: fast pairs 0…${r.half - 1}; blue: slow pairs ${r.half}…${n - 1})`, `距离 ${p.distance} 处的 ${n} 根指针（橙：快通道对 0…${r.half - 1}；蓝：慢通道对 ${r.half}…${n - 1}）`),
        vectors: [...Array.from({ length: n }, (_, i) => hand(i)), meanHand] },
      cos: {
        series: [{ x: idx.subarray(0, r.half), y: r.cos.subarray(0, r.half), kind: 'points', label: L('fast pairs: cos((m − n)θᵢ)', '快通道对：cos((m − n)θᵢ)'), color: FAST },
          { x: idx.subarray(r.half), y: r.cos.subarray(r.half), kind: 'points', label: L('slow pairs', '慢通道对'), color: SLOW }],
        marks: [{ y: r.fast, label: L(`fast mean ${dec(r.fast)}`, `快的平均 ${dec(r.fast)}`), color: FAST }, { y: r.slow, label: L(`slow mean ${dec(r.slow)}`, `慢的平均 ${dec(r.slow)}`), color: SLOW }],
        caption: L(`Each pair’s contribution cos((m − n)θᵢ) at distance ${p.distance}`, `距离 ${p.distance} 处每个通道对的贡献 cos((m − n)θᵢ)`), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('cosine', '余弦'),
      },
      score: {
        series: [{ y: r.curve, label: L('score ⟨R_m q, R_n k⟩, q = k = ones', '分数 ⟨R_m q, R_n k⟩，q = k = 全 1'), color: '#000000' }],
        marks: [{ x: p.distance, label: L(`distance ${p.distance}`, `距离 ${p.distance}`) }],
        caption: L(`The score against the distance (peak ${r.d} at 0)`, `分数随距离的变化（0 处峰值为 ${r.d}）`), xlabel: L('distance m − n', '距离 m − n'), ylabel: L('score', '分数'),
      },
      readouts: [
        { id: 'fast', label: L('mean cosine, fast half', '快的一半：余弦平均'), value: r.fast, text: dec(r.fast) },
        { id: 'slow', label: L('mean cosine, slow half', '慢的一半：余弦平均'), value: r.slow, text: dec(r.slow) },
        { id: 'score', label: L('score (= d × mean cosine)', '分数（= d × 余弦平均）'), value: r.score, text: r.score.toFixed(2).replace('-', '−'), note: L(`${((100 * r.score) / r.d).toFixed(1)} % of the peak`, `峰值的 ${((100 * r.score) / r.d).toFixed(1)}%`) },
      ],
    };
  },
};
