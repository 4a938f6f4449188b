// @ts-check
// Section 3: DeBERTa's disentangled attention — three terms and the log-bucketed relative position.
import { L } from '../params.js';
import { randomRows } from './util.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'deberta',
  title: L('DeBERTa: disentangled attention', 'DeBERTa：解耦注意力'),
  description: L('DeBERTa’s relative position δ = i − j with its log buckets, and its content→content, content→position and position→content terms.',
    'DeBERTa 的相对位置 δ = i − j 及其对数分桶，以及内容→内容、内容→位置、位置→内容三项。'),
  takeaway: L('Content and position stay separate vectors: with the same word at every position, content→content is flat and both position terms are constant along each diagonal (they see only the bucketed δ); past |δ| = position_buckets/2 the log buckets make neighbouring diagonals share one value. The sum is divided by √(3d), not √d.',
    '内容与位置始终是两个向量：每个位置都是同一个词时，内容→内容是平的，两个位置项沿每条对角线不变（只看分桶后的 δ）；|δ| 超过 position_buckets/2 后，对数分桶让相邻的对角线取同一个值。三项之和除以 √(3d) 而不是 √d。'),
  params: {
    position_buckets: { type: 'enum', values: [0, 8, 16, 32], default: 16, label: L('position_buckets', 'position_buckets') },
    max_relative_positions: { type: 'enum', values: [32, 64, 128], default: 64, label: L('max_relative_positions', 'max_relative_positions') },
    n: { type: 'int', min: 2, max: 64, default: 24, label: L('Length', '长度') },
    same_word: { type: 'bool', default: true, label: L('Same word at every position', '每个位置同一个词') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { position_buckets: 32 }, look: L('position_buckets 32: the staircase starts at |δ| = 16 instead of 8 — twice as many distances keep a bucket of their own.',
    'position_buckets 设为 32：台阶从 |δ| = 16 而不是 8 开始——有独立桶的距离多了一倍。') }],
  panels: () => [{ id: 'plot', block: 'lines', height: 220 }, ...['c2c', 'c2p', 'p2c', 'score'].map((id) => ({ id, block: 'heatmap', palette: 'rdbu', size: 360 }))],
  compute(pe, { position_buckets: pb, max_relative_positions: mr, n, same_word: same }) {
    const Lh = mr;   // δ from −max_relative_positions to +max_relative_positions: the range the model has
    const rel = pe.debertaRelativePositions({ q_len: 2 * Lh + 1, position_buckets: pb, max_relative_positions: mr });
    const delta = Float64Array.from({ length: 2 * Lh + 1 }, (_, j) => Lh - j); // row Lh: δ = Lh − j
    const mapped = Float64Array.from(rel.subarray(Lh * (2 * Lh + 1), (Lh + 1) * (2 * Lh + 1)));
    const d = 16, span = pb > 0 ? pb : mr;
    const { q, k, tokens } = pe.textQK({ text: Array.from({ length: n }, (_, i) => (same ? 'w' : `w${i % 7}`)).join(' '), head_dim: d, seed: 0 });
    const s = pe.debertaScores({ q, k, pos_key: randomRows(pe, 2 * span, d, 4, 'pk'), pos_query: randomRows(pe, 2 * span, d, 5, 'pq'),
      seq: n, d, position_buckets: pb, max_relative_positions: mr });
    // The same word everywhere: rows and columns are labelled by position.
    return { n, pb, delta, mapped, tokens: same ? tokens.map((_, i) => String(i)) : tokens, c2c: s.c2c, c2p: s.c2p, p2c: s.p2c, score: s.score, scale: s.scale };
  },
  render(r) {
    // One colour scale for the three terms, so that their sizes compare (a flat term is pale, not saturated).
    let lim = 0;
    for (const t of [r.c2c, r.c2p, r.p2c]) for (const x of t) lim = Math.max(lim, Math.abs(x));
    const o = { rows: r.n, cols: r.n, rowLabels: r.tokens, colLabels: r.tokens, xlabel: L('key j →', '键 j →'), ylabel: L('query i ↓', '查询 i ↓') };
    const terms = { ...o, vmin: -lim, vmax: lim };
    const mid = r.pb / 2, lo = r.delta[r.delta.length - 1], hi = r.delta[0];
    // δ itself only where it fits the bucketed range: the y axis is the bucket's, so the log staircase stays visible
    const top = r.mapped.reduce((/** @type {number} */ m, /** @type {number} */ x) => Math.max(m, Math.abs(x)), 0), ident = r.delta.map((/** @type {number} */ x) => (Math.abs(x) <= top ? x : NaN));
    const logb = L('log buckets', '对数分桶');
    return {
      plot: { series: [{ x: r.delta, y: r.mapped, kind: 'step', label: L('bucketed δ', '分桶后的 δ') }, { x: r.delta, y: ident, dash: [4, 3], label: L('δ (unbucketed)', 'δ（不分桶）') }],
        ...(r.pb > 0 && { regions: [{ x0: lo, x1: -mid, label: logb }, { x0: mid, x1: hi, label: logb }] }),
        caption: L('DeBERTa relative position δ = i − j and its log bucket', 'DeBERTa 相对位置 δ = i − j 及其对数分桶'), xlabel: 'δ = i − j', ylabel: L('bucket', '桶') },
      c2c: { ...terms, data: r.c2c, caption: L('content→content', '内容→内容') },
      c2p: { ...terms, data: r.c2p, caption: L('content→position', '内容→位置') },
      p2c: { ...terms, data: r.p2c, caption: L('position→content', '位置→内容') },
      score: { ...o, data: r.score, caption: L('sum ÷ √(3d)', '总和 ÷ √(3d)') },
      readouts: [{ id: 'scale', label: L('scale', '缩放'), value: r.scale }],
    };
  },
};
