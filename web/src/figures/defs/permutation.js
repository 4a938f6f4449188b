// @ts-check
// Section 1: without position information, swapping two tokens only permutes the attention scores.
import { L, FigureError } from '../params.js';
import { fmt } from '../blocks/format.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'permutation',
  title: L('Attention cannot see word order', '注意力看不到语序'),
  description: L('Scores of a sentence and of the same sentence with two tokens swapped, with or without RoPE, and their difference beyond the permutation.',
    '一句话与交换两个词元后的注意力分数（可选加 RoPE），以及两者在置换之外的差。'),
  takeaway: L('Without a position encoding the swapped sentence gets the same scores, only permuted: the third map, S′ − P S Pᵀ, is 0 everywhere. With RoPE it is not.',
    '没有位置编码时，交换后的句子得到的是同一组分数，只是换了位置：第三张图 S′ − P S Pᵀ 处处为 0。加了 RoPE 就不再是 0。'),
  params: {
    text: { type: 'string', default: '猫 抓 老鼠', maxLength: 200, label: L('Text', '文本') },
    i: { type: 'int', min: 0, max: 63, default: 0, label: L('Swap token', '交换第') },
    j: { type: 'int', min: 0, max: 63, default: 2, label: L('with', '和第') },
    rope: { type: 'bool', default: false, label: L('RoPE', '加 RoPE') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { rope: true }, look: L('Tick RoPE: the third map is no longer 0 — the swap changed the scores themselves, not just their places.',
    '勾选 RoPE：第三张图不再是 0——交换改变了分数本身，而不只是它们的位置。') }],
  panels: () => [{ id: 'a', block: 'heatmap', size: 300 }, { id: 'b', block: 'heatmap', size: 300 }, { id: 'diff', block: 'heatmap', palette: 'rdbu', size: 300 }],
  compute(pe, { text, i, j, rope }) {
    const hd = 16, a = pe.textQK({ text, head_dim: hd, seed: 0 }), n = a.tokens.length;
    for (const [name, v] of [['i', i], ['j', j]]) {
      if (v >= n) throw new FigureError(L(`Attribute "${name}" must be a token index from 0 to ${n - 1} for this text (got "${v}").`, `属性 "${name}" 必须是这段文本的词元下标 0 到 ${n - 1}（收到 "${v}"）。`), name);
    }
    const perm = a.tokens.map((_, t) => (t === i ? j : t === j ? i : t));
    const b = pe.textQK({ text: perm.map((t) => a.tokens[t]).join(' '), head_dim: hd, seed: 0 });
    const r = rope ? {} : null;
    const sa = pe.attentionScores({ q: a.q, k: a.k, seq: n, head_dim: hd, rope: r });
    const sb = pe.attentionScores({ q: b.q, k: b.k, seq: n, head_dim: hd, rope: r });
    // S′ − P S Pᵀ, cell by cell: what the swap changed beyond moving scores around
    const delta = new Float32Array(n * n);
    for (let r0 = 0; r0 < n; r0++) for (let c = 0; c < n; c++) delta[r0 * n + c] = sb[r0 * n + c] - sa[perm[r0] * n + perm[c]];
    const diff = delta.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    return { n, tokensA: a.tokens, tokensB: b.tokens, sa, sb, delta, diff };
  },
  render(r) {
    // One colour scale for both maps, fitted to their values: the permutation is visible, not washed out by 0…1.
    let lo = Infinity, hi = -Infinity;
    for (const x of [...r.sa, ...r.sb]) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
    const o = { rows: r.n, cols: r.n, vmin: lo, vmax: hi, xlabel: L('key →', '键 →'), ylabel: L('query ↓', '查询 ↓') };
    const same = r.diff <= 1e-6, lim = Math.max(r.diff, 1e-3);
    return {
      a: { ...o, data: r.sa, rowLabels: r.tokensA, colLabels: r.tokensA, caption: L('original: softmax(q·kᵀ/√d)', '原句：softmax(q·kᵀ/√d)') },
      b: { ...o, data: r.sb, rowLabels: r.tokensB, colLabels: r.tokensB, caption: L('two tokens swapped', '交换两个词元后') },
      // its own scale, so a change of 0.01 is as visible as one of 0.5
      diff: { ...o, vmin: -lim, vmax: lim, data: r.delta, rowLabels: r.tokensB, colLabels: r.tokensB, caption: L('S′ − P S Pᵀ (own scale)', 'S′ − P S Pᵀ（单独的色标）') },
      readouts: [{ id: 'diff', label: L('max |S′ − P S Pᵀ|', 'max |S′ − P S Pᵀ|'), value: r.diff, text: fmt(r.diff, 6),
        note: same ? L('only permuted (up to rounding): attention cannot tell the two orders apart', '只是重新排列（在舍入误差内）：注意力分不清两种语序')
          : L('the scores changed: with RoPE attention sees the order', '分数本身变了：加了 RoPE 的注意力能看到语序') }],
    };
  },
};
