// @ts-check
// Section 2: multiplicative PE (x ⊙ p) and the recursive form p_{k+1} = R p_k of the sinusoid.
import { L } from '../params.js';
import { maxAbsDiff } from './util.js';
import { fmt } from '../blocks/format.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'multiplicative',
  title: L('Multiplicative and recursive position encoding', '乘性与递归位置编码'),
  description: L('A word vector multiplied channel by channel by its sinusoidal position vector; the recursive table against the direct one.',
    '词向量与其正弦位置向量逐通道相乘；递推得到的表与直接计算的表之差。'),
  takeaway: L('x ⊙ p scales each channel of the word by its position’s sinusoid; the recursion pₖ₊₁ = R·pₖ rebuilds the table to float32 rounding.',
    'x ⊙ p 按位置的正弦值逐通道缩放词向量；递推 pₖ₊₁ = R·pₖ 在 float32 舍入误差内重建出整张表。'),
  params: {
    word: { type: 'string', default: 'cat', maxLength: 40, label: L('Word', '词') },
    pos: { type: 'int', min: 0, max: 100, default: 3, slider: true, label: L('Position', '位置') },
    d: { type: 'enum', values: [16, 32, 64, 128], default: 32, label: L('d', 'd') },
    base: { type: 'enum', values: [100, 1000, 10000], default: 10000, label: L('Base', '底数') },
    positions: { type: 'int', min: 2, max: 1024, default: 64, label: L('Positions (recursion)', '递推的位置数') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { pos: 0 }, look: L('Position 0: p = (0, 1, 0, 1, …), so x ⊙ p is zero on every even channel and x itself on the odd ones.',
    '位置 0：p = (0, 1, 0, 1, …)，所以 x ⊙ p 在偶数通道上为 0，在奇数通道上就是 x。') }],
  panels: () => [{ id: 'lines', block: 'lines', height: 200 }],
  compute(pe, { word, pos, d, base, positions }) {
    const x = pe.textQK({ text: word || 'x', head_dim: d, seed: 0 }).q.slice(0, d);
    const p = pe.sinusoidal({ positions: [pos], d, base });
    const xp = pe.multiplicativePE(x, p);
    const rec = pe.sinusoidRecursive({ d, base, positions }), direct = pe.sinusoidal({ positions, d, base });
    return { x, p, xp, recDiff: maxAbsDiff(rec, direct) };
  },
  render(r) {
    return {
      lines: { series: [{ y: r.x, label: L('embedding x', '词向量 x'), kind: 'step' }, { y: r.p, label: L('pₚₒₛ', 'pₚₒₛ'), kind: 'step' }, { y: r.xp, label: 'x ⊙ p', kind: 'step', width: 2.4 }],
        caption: L('Multiplicative PE, channel by channel', '乘性位置编码（逐通道）'), xlabel: L('channel', '通道') },
      readouts: [{ id: 'rec', label: L('recursive vs direct table, max |difference|', '递推与直接计算之差的最大绝对值'), value: r.recDiff, text: fmt(r.recDiff, 6) }],
    };
  },
};
