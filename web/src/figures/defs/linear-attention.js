// @ts-check
// Section 8: linear attention with RoPE — eq. (28) rotates the normaliser too, eq. (29) keeps it positive.
import { L } from '../params.js';
import { randomRows } from './util.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'linear-attention',
  title: L('Linear attention with RoPE', '线性注意力中的 RoPE'),
  description: L('Denominators and outputs of linear attention (φ = elu + 1) with RoPE in both numerator and denominator (eq. 28) or the numerator only (eq. 29).',
    '线性注意力（φ = elu + 1）加 RoPE：分子分母都旋转（式 28）或只旋转分子（式 29）时的分母与输出。'),
  takeaway: L('Rotating the denominator (eq. 28) lets it cross zero and the output blow up; eq. (29) keeps the positive denominator of plain linear attention.',
    '旋转分母（式 28）会让它穿过 0、输出爆炸；式 (29) 保留普通线性注意力的正分母。'),
  params: {
    n: { type: 'enum', values: [32, 128, 512], default: 128, label: L('Length', '长度') },
    head_dim: { type: 'enum', values: [8, 16, 64], default: 8, label: L('head_dim', 'head_dim') },
    base: { type: 'enum', values: [100, 10000], default: 100, label: L('Base', '底数') },
    causal: { type: 'bool', default: true, label: L('causal', '因果') },
    seed: { type: 'int', min: 0, max: 1000000, default: 0, label: L('seed', '种子') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { n: 512 }, look: L('512 queries: the eq. (28) denominator keeps crossing 0 and its outputs spike, while eq. (29)’s stays positive.',
    '512 个查询：式 (28) 的分母反复穿过 0，输出出现尖峰；式 (29) 的分母始终为正。') }],
  panels: () => [{ id: 'den', block: 'lines', height: 220 }, { id: 'naive', block: 'heatmap', palette: 'rdbu', size: 460, aspect: 0 }, { id: 'num', block: 'heatmap', palette: 'rdbu', size: 460, aspect: 0 }],
  compute(pe, { n, head_dim: d, base, causal, seed }) {
    const common = { q: randomRows(pe, n, d, seed, 'lq'), k: randomRows(pe, n, d, seed, 'lk'), v: randomRows(pe, n, 8, seed, 'lv'), seq: n, head_dim: d, v_dim: 8, causal, rope_theta: base };
    const naive = pe.linearAttentionRope({ ...common, form: 'naive' }), num = pe.linearAttentionRope({ ...common, form: 'numerator_only' });
    const min = (/** @type {Float32Array} */ a) => a.reduce((m, x) => Math.min(m, x), Infinity), maxAbs = (/** @type {Float32Array} */ a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    return { n, naive, num, minNaive: min(naive.denominator), minNum: min(num.denominator), maxNaive: maxAbs(naive.output), maxNum: maxAbs(num.output) };
  },
  render(r) {
    return {
      den: { series: [{ y: r.naive.denominator, label: L('denominator, eq. (28)', '分母，式 (28)') }, { y: r.num.denominator, label: L('denominator, eq. (29)', '分母，式 (29)') }],
        marks: [{ y: 0, label: '0' }], caption: L('Normaliser of each query', '每个查询的归一化分母'), xlabel: L('query i', '查询 i'), ylabel: L('denominator', '分母') },
      naive: { data: r.naive.output, rows: r.n, cols: 8, caption: L('output, eq. (28)', '输出，式 (28)'), xlabel: L('v channel', 'v 通道'), ylabel: 'i ↓' },
      num: { data: r.num.output, rows: r.n, cols: 8, caption: L('output, eq. (29)', '输出，式 (29)'), xlabel: L('v channel', 'v 通道'), ylabel: 'i ↓' },
      readouts: [{ id: 'min-naive', label: L('smallest denominator, eq. (28)', '分母最小值，式 (28)'), value: r.minNaive }, { id: 'min-num', label: L('smallest denominator, eq. (29)', '分母最小值，式 (29)'), value: r.minNum },
        { id: 'max-naive', label: L('largest |output|, eq. (28)', '输出绝对值最大值，式 (28)'), value: r.maxNaive }, { id: 'max-num', label: L('largest |output|, eq. (29)', '输出绝对值最大值，式 (29)'), value: r.maxNum }],
    };
  },
};
