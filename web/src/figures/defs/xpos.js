// @ts-check
// Section 7: xPos — RoPE with a per-pair scale ζ_i^(n/scale_base) on queries (inverse on keys): an explicit decay.
import { L } from '../params.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'xpos',
  title: L('xPos: RoPE with an explicit decay', 'xPos：带显式衰减的 RoPE'),
  description: L('The factor ζᵢ^((m−n)/scale_base) that xPos puts on pair i of the score, and q·k/√d of all-ones vectors against distance for RoPE and xPos with the ratio of their envelopes.',
    'xPos 乘在分数第 i 对上的因子 ζᵢ^((m−n)/scale_base)，以及全 1 向量的 q·k/√d 随距离的变化（RoPE 与 xPos）和两者包络之比。'),
  takeaway: L('xPos multiplies pair i of the score by ζᵢ to the power distance/scale_base, with ζᵢ < 1: every factor falls with distance (fast pairs fastest), so xPos’s envelope falls below RoPE’s — the ratio panel drops from 1.',
    'xPos 把分数的第 i 对乘以 ζᵢ 的（距离/scale_base）次方，ζᵢ < 1：每个因子都随距离下降（快的对下降最快），所以 xPos 的包络低于 RoPE 的——比值图从 1 往下走。'),
  params: {
    d: { type: 'enum', values: [32, 64, 128], default: 64, label: L('d', 'd') },
    scale_base: { type: 'enum', values: [128, 512, 2048], default: 512, label: L('scale_base', 'scale_base') },
    n: { type: 'enum', values: [256, 1024, 2048], default: 1024, label: L('Length', '长度') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { scale_base: 128 }, look: L('scale_base 128: the same ζᵢ raised to a 4× larger power — every factor and the envelope ratio fall four times faster.',
    'scale_base 设为 128：同样的 ζᵢ，指数大了 4 倍——每个因子和包络之比都下降得快 4 倍。') }],
  panels: () => [{ id: 'factor', block: 'lines', height: 200, logY: true }, { id: 'decay', block: 'lines', height: 200 }, { id: 'ratio', block: 'lines', height: 160 }],
  compute(pe, { d, scale_base, n }) {
    const pairs = d / 2;
    // ζᵢ from the package: its tables at angle 0 with centred position scale_base give cos = ζᵢ^1, sin = 0.
    const zeta = pe.xposTables({ rotary_dim: d, positions: [0], centred: [scale_base], scale_base }).cos.slice(0, pairs);
    const shown = [0, pairs / 4, pairs / 2, pairs - 1];
    const factor = shown.map((i) => Float64Array.from({ length: n }, (_, x) => zeta[i] ** (x / scale_base)));
    // A query of ones at the last position against keys of ones at every position.
    const ones = new Float32Array(n * d).fill(1);
    const q = pe.xposApply(ones, { seq: n, head_dim: d, scale_base }), k = pe.xposApply(ones, { seq: n, head_dim: d, scale_base, downscale: true });
    const plain = pe.ropeApply(ones, { seq: n, head_dim: d, layout: 'interleaved' });
    const s = pe.attentionScores({ q, k, seq: n, head_dim: d, softmax: false }), r = pe.attentionScores({ q: plain, k: plain, seq: n, head_dim: d, softmax: false });
    const last = n - 1;
    const xpos = Float64Array.from({ length: n }, (_, x) => s[last * n + (last - x)]), rope = Float64Array.from({ length: n }, (_, x) => r[last * n + (last - x)]);
    // envelopes: the largest |score| over windows of 32 distances; their ratio is xPos's extra decay
    const W = 32, m = Math.floor(n / W), env = (/** @type {ArrayLike<number>} */ a, /** @type {number} */ j) => { let v = 0; for (let x = j * W; x < (j + 1) * W; x++) v = Math.max(v, Math.abs(a[x])); return v; };
    const ratio = Float64Array.from({ length: m }, (_, j) => env(xpos, j) / env(rope, j));
    return { zeta: Array.from(zeta), shown, factor, xpos, rope, ratio, W };
  },
  render(r) {
    return {
      factor: { series: r.shown.map((/** @type {number} */ i, /** @type {number} */ j) => ({ y: r.factor[j], label: L(`pair ${i}: ζ = ${r.zeta[i].toFixed(3)}`, `第 ${i} 对：ζ = ${r.zeta[i].toFixed(3)}`) })),
        caption: L('factor on pair i of the score: ζᵢ^(distance/scale_base)', '分数第 i 对上的因子：ζᵢ^(距离/scale_base)'), xlabel: L('distance m − n', '距离 m − n'), ylabel: L('factor', '因子') },
      decay: { series: [{ y: r.rope, label: 'RoPE', dash: [4, 3] }, { y: r.xpos, label: 'xPos' }], caption: L('q·k/√d of all-ones q, k against distance', '全 1 的 q、k：q·k/√d 与距离'), xlabel: L('distance m − n', '距离 m − n'), ylabel: 'q·k/√d' },
      ratio: { series: [{ y: r.ratio, x0: r.W / 2, dx: r.W, label: L('xPos envelope ÷ RoPE envelope', 'xPos 包络 ÷ RoPE 包络') }], marks: [{ y: 1, label: '1' }],
        caption: L(`extra decay: max |score| over each ${r.W} distances, xPos ÷ RoPE`, `额外的衰减：每 ${r.W} 个距离内的最大 |分数|，xPos ÷ RoPE`), xlabel: L('distance m − n', '距离 m − n'), ylabel: L('ratio', '比值') },
      readouts: [{ id: 'first', label: L('score at distance 0', '距离 0 的分数'), value: r.xpos[0] },
        { id: 'zeta0', label: L('ζ₀ (fastest pair)', 'ζ₀（最快的一对）'), value: r.zeta[0] }],
    };
  },
};
