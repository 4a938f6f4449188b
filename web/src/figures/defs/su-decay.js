// @ts-check
// Section 5: Su's decay curve, reproducing the source's figure (d = 128, relative distance 0…256), through pe.gpu.
import { L } from '../params.js';
import { backendParam, gpuCall } from '../backend.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'su-decay',
  title: L('Su’s decay curve', '苏剑林的衰减曲线'),
  description: L('The average (1/(d/2))·Σⱼ |Sⱼ| of the partial sums Sⱼ = Σ_{i<j} e^{i r θᵢ} against relative distance r.',
    '部分和 Sⱼ = Σ_{i<j} e^{i r θᵢ} 的平均 (1/(d/2))·Σⱼ |Sⱼ| 随相对距离 r 的变化。'),
  takeaway: L('The relative size of the bound falls quickly with distance: RoPE favours nearby tokens (source figure: d = 128, 0…256).',
    '上界的相对大小随距离迅速下降：RoPE 偏向近处的词元（原文图：d = 128，0…256）。'),
  params: {
    rotary_dim: { type: 'enum', values: [32, 64, 128, 256, 512], default: 128, label: L('d', 'd') },
    rope_theta: { type: 'enum', values: [100, 1000, 10000, 500000], default: 10000, label: L('Base', '底数') },
    count: { type: 'int', min: 2, max: 65536, default: 257, label: L('Distances', '距离数') },
    backend: backendParam,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { count: 65536 }, look: L('Distances up to 65 536: the curve falls fast over the first few hundred distances, then stops falling and swings between about 1 and 14 — the bound shrinks only at short range.',
    '距离到 65 536：曲线在前几百个距离内迅速下降，之后不再下降，在约 1 到 14 之间来回摆动——上界只在近距离内变小。') }],
  panels: () => [{ id: 'plot', block: 'lines', height: 240 }],
  async compute(pe, p, ctx) {
    const r = await pe.gpu.ropeDecayBound({ rotary_dim: p.rotary_dim, rope_theta: p.rope_theta, count: p.count, ...gpuCall(p, ctx) });
    return { avg: r.values, backend: r.backend };
  },
  render(r) {
    return { plot: { series: [{ y: r.avg, label: L('(1/(d/2))·Σⱼ |Sⱼ|', '(1/(d/2))·Σⱼ |Sⱼ|') }],
      caption: L('RoPE’s long-range decay (relative size)', 'RoPE 的远程衰减（相对大小）'), xlabel: L('relative distance', '相对距离'), ylabel: L('relative size', '相对大小') } };
  },
};
