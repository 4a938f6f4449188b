// @ts-check
// Section 3: Transformer-XL's four score terms with memory, and their sum.
import { L } from '../params.js';
import { randomRows } from './util.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'transformer-xl',
  title: L('Transformer-XL: four terms with memory', 'Transformer-XL：带记忆的四项'),
  description: L('Content–content, content–position (sinusoidal Rᵢ₋ⱼ), global content bias u and global position bias v, with cached memory rows.',
    '内容–内容、内容–位置（正弦 Rᵢ₋ⱼ）、全局内容偏置 u、全局位置偏置 v，并带缓存的记忆行。'),
  takeaway: L('(d) sees only the distance i − j: constant along every diagonal; (c) sees only the key: constant down each column; (b) mixes the query’s content with the distance. Keys after the query (grey) are masked.',
    '(d) 只看距离 i − j：沿每条对角线不变；(c) 只看键：每列上下一致；(b) 把查询的内容与距离混在一起。查询之后的键（灰色）被掩码遮住。'),
  params: {
    text: { type: 'string', default: 'a b c d e f g h', maxLength: 200, label: L('Text', '文本') },
    mem: { type: 'int', min: 0, max: 16, default: 2, label: L('Memory rows', '记忆长度') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { text: 'x x x x x x x x', mem: 0 }, look: L('The same word everywhere, no memory: (a) and (b) lose their word-to-word detail too — (a) becomes flat and (b) constant along every diagonal, like (d).',
    '每个位置同一个词、没有记忆：(a) 与 (b) 也失去了词与词的差别——(a) 变平，(b) 像 (d) 一样沿对角线不变。') }],
  panels: () => ['a', 'b', 'c', 'd', 'score'].map((id) => ({ id, block: 'heatmap', palette: 'rdbu', size: 300 })),
  compute(pe, { text, mem }) {
    const d = 16, seg = pe.textQK({ text, head_dim: d, seed: 0 });
    const qlen = seg.tokens.length, klen = qlen + mem;
    const k = new Float32Array(klen * d); k.set(randomRows(pe, mem, d, 1, 'mem')); k.set(seg.k, mem * d);
    const uv = randomRows(pe, 2, d, 2, 'bias');
    const r = pe.xlPositionEmbedding({ klen, d });
    const out = pe.xlScores({ q: seg.q, k, r, u: uv.subarray(0, d), v: uv.subarray(d), qlen, klen, d });
    // Keys after the query are masked in every term, as in the score: (a) and (c) there would be numbers the model never
    // uses, and (b), (d) there are rel_shift's leftovers, not distances.
    for (const t of [out.a, out.b, out.c, out.d]) out.score.forEach((s, i) => { if (s === -Infinity) t[i] = NaN; });
    return { qlen, klen, rows: seg.tokens, cols: [...Array.from({ length: mem }, (_, i) => `m${i}`), ...seg.tokens], ...out };
  },
  render(r) {
    const o = { rows: r.qlen, cols: r.klen, rowLabels: r.rows, colLabels: r.cols, xlabel: L('key →', '键 →'), ylabel: L('query ↓', '查询 ↓') };
    return {
      a: { ...o, data: r.a, caption: L('(a) content–content', '(a) 内容–内容') },
      b: { ...o, data: r.b, caption: L('(b) content–position: query and distance', '(b) 内容–位置：查询与距离') },
      c: { ...o, data: r.c, caption: L('(c) global content bias: constant down each column', '(c) 全局内容偏置：每列不变') },
      d: { ...o, data: r.d, caption: L('(d) global position bias: constant along diagonals', '(d) 全局位置偏置：沿对角线不变') },
      score: { ...o, data: r.score, caption: L('score (a+b+c+d)/√d, causal', '总分 (a+b+c+d)/√d，因果') },
      readouts: [{ id: 'last', label: L('score[last, last]', '总分[末行, 末列]'), value: r.score[r.qlen * r.klen - 1] }],
    };
  },
};
