// Section 7: xPos — RoPE with a per-pair scale ζ_i^(n/scale_base) on queries (inverse on keys): an explicit decay.
import { L } from '../params.js';

export default {
  name: 'xpos',
  title: L('xPos: RoPE with an explicit decay', 'xPos：带显式衰减的 RoPE'),
  description: L('The per-pair query scale of xPos at several positions, and q·k/√d of all-ones vectors against distance for RoPE and xPos.',
    'xPos 在几个位置上对查询向量的逐对缩放，以及全 1 向量的 q·k/√d 随距离的变化（RoPE 与 xPos）。'),
  takeaway: L('xPos multiplies pair i of the score by ζᵢ to the power distance/scale_base, with ζᵢ < 1: the score decays with distance on top of RoPE’s oscillation.',
    'xPos 把分数的第 i 对乘以 ζᵢ 的（距离/scale_base）次方，ζᵢ < 1：在 RoPE 的振荡之上分数随距离衰减。'),
  params: {
    d: { type: 'enum', values: [32, 64, 128], default: 64, label: L('d', 'd') },
    scale_base: { type: 'enum', values: [128, 512, 2048], default: 512, label: L('scale_base', 'scale_base') },
    n: { type: 'enum', values: [256, 1024, 2048], default: 1024, label: L('Length', '长度') },
  },
  panels: () => [{ id: 'scale', block: 'lines', height: 200, logY: true }, { id: 'decay', block: 'lines', height: 200 }],
  compute(pe, { d, scale_base, n }) {
    const pairs = d / 2, probe = [0, 128, 256, 512, 1024, 2048].filter((x) => x <= n);
    // The scale alone: the package's tables at angle 0 (position 0) with the scale's exponent at centred position p,
    // so cos = ζ_i^(p/scale_base) and sin = 0.
    const t = pe.xposTables({ rotary_dim: d, positions: probe.map(() => 0), centred: probe, scale_base });
    const scale = probe.map((_, r) => t.cos.slice(r * pairs, (r + 1) * pairs));
    // A query of ones at the last position against keys of ones at every position.
    const ones = new Float32Array(n * d).fill(1);
    const q = pe.xposApply(ones, { seq: n, head_dim: d, scale_base }), k = pe.xposApply(ones, { seq: n, head_dim: d, scale_base, downscale: true });
    const plain = pe.ropeApply(ones, { seq: n, head_dim: d, layout: 'interleaved' });
    const s = pe.attentionScores({ q, k, seq: n, head_dim: d, softmax: false }), r = pe.attentionScores({ q: plain, k: plain, seq: n, head_dim: d, softmax: false });
    const last = n - 1;
    return { probe, scale, xpos: Float64Array.from({ length: n }, (_, x) => s[last * n + (last - x)]), rope: Float64Array.from({ length: n }, (_, x) => r[last * n + (last - x)]) };
  },
  render(r) {
    return {
      scale: { series: r.probe.map((p, i) => ({ y: r.scale[i], label: L(`position ${p}`, `位置 ${p}`) })), caption: L('query scale per pair: ζᵢ to the power n/scale_base', '查询向量的逐对缩放：ζᵢ 的 n/scale_base 次方'), xlabel: L('pair i', '通道对 i'), ylabel: L('scale', '缩放') },
      decay: { series: [{ y: r.rope, label: 'RoPE' }, { y: r.xpos, label: 'xPos' }], caption: L('q·k/√d of all-ones q, k against distance', '全 1 的 q、k：q·k/√d 与距离'), xlabel: L('distance', '距离'), ylabel: 'q·k/√d' },
      readouts: [{ id: 'first', label: L('score at distance 0', '距离 0 的分数'), value: r.xpos[0] }],
    };
  },
};
