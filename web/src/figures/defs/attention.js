// @ts-check
// Section 1: attention over a longer text, with or without RoPE and a causal mask.
import { L } from '../params.js';
import { tokensQK } from './util.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'attention',
  title: L('Attention over a text', '一段文本上的注意力'),
  description: L('softmax(q·kᵀ/√d) of a text’s tokens (seeded projections), with RoPE and a causal mask as options.',
    '文本中各词元的 softmax(q·kᵀ/√d)（固定种子的投影），可选 RoPE 与因果掩码。'),
  takeaway: L('With RoPE, repeated words no longer attend identically: the same token pair scores differently at different distances.',
    '加了 RoPE 后，重复出现的词的注意力不再相同：同一对词元在不同距离上的分数不同。'),
  params: {
    text: { type: 'string', default: 'the cat chased the mouse and the mouse ran under the old table', maxLength: 400, label: L('Text', '文本') },
    seq: { type: 'int', min: 2, max: 512, default: 16, slider: true, label: L('Sequence length', '序列长度') },
    head_dim: { type: 'enum', values: [8, 16, 32, 64, 128], default: 32, label: L('Head dim', '头维度') },
    base: { type: 'enum', values: [100, 1000, 10000, 500000], default: 10000, label: L('Base θ', '底数 θ') },
    rope: { type: 'bool', default: true, label: L('RoPE', 'RoPE') },
    causal: { type: 'bool', default: false, label: L('causal mask', '因果掩码') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { rope: false }, look: L('Untick RoPE: the five rows of “the” (0, 3, 6, 10, 13) become identical — without positions a word attends the same wherever it stands.',
    '取消勾选 RoPE：同一个字（例如中文默认文本里的“老”和“鼠”，各出现两次）所在的各行变得完全相同——没有位置信息时，一个字不论在哪里，注意力都一样。') }],
  panels: () => [{ id: 'map', block: 'heatmap', size: 560 }],
  compute(pe, { text, seq, head_dim, base, rope, causal }, ctx) {
    const { tokens, q, k } = tokensQK(pe, text, seq, head_dim);
    const scores = pe.attentionScores({ q, k, seq, head_dim, rope: rope ? { rope_theta: base } : null, causal, out: ctx.take(seq * seq) });
    return { tokens, scores, seq };
  },
  render(r) {
    return { map: { data: r.scores, rows: r.seq, cols: r.seq, rowLabels: r.tokens, colLabels: r.tokens,
      caption: L('softmax(q·kᵀ/√d): row = query, column = key (q, k: seeded random projections, not a trained model — §6 shows a real one)', 'softmax(q·kᵀ/√d)：行 = 查询，列 = 键（q、k 来自固定种子的随机投影，不是训练过的模型；§6 有真实模型）') } };
  },
};
