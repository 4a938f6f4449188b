// @ts-check
// Section 3: TUPE's untied positional term (p_i U_Q)(p_j U_K)ᵀ / √(2d).
import { L } from '../params.js';
import { randomRows } from './util.js';

const HEADS = 4;
/** @type {import('../params.js').FigureDef} */
export default {
  name: 'tupe',
  title: L('TUPE: untied positional attention', 'TUPE：解耦的位置注意力'),
  description: L('TUPE’s positional term with its own projections U_Q, U_K (sinusoidal p, seeded random projections), one head.',
    'TUPE 的位置项，使用独立的投影 U_Q、U_K（正弦 p，固定种子的随机投影），单个头。'),
  takeaway: L('With its own projections the positional term is a clean function of the two positions, not mixed with word content.',
    '位置项有自己的投影，只取决于两个位置，不与词的内容混在一起。'),
  params: {
    n: { type: 'int', min: 2, max: 128, default: 32, label: L('Positions', '位置数') },
    head: { type: 'int', min: 0, max: HEADS - 1, default: 0, label: L(`Head (of ${HEADS})`, `头（共 ${HEADS} 个）`) },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { head: 2 }, look: L('Another head: its own U_Q, U_K give another pattern — still a smooth function of the two positions only.',
    '换一个头：它自己的 U_Q、U_K 给出另一种图案——仍然只是两个位置的平滑函数。') }],
  panels: () => [{ id: 'map', block: 'heatmap', palette: 'rdbu', size: 480 }],
  compute(pe, { n, head }) {
    const dm = 32, hd = 8, p = pe.sinusoidal({ positions: n, d: dm });
    const s = pe.tupePositionScores({ p, u_q: randomRows(pe, dm, HEADS * hd, 6, 'uq'), u_k: randomRows(pe, dm, HEADS * hd, 7, 'uk'), n, d_model: dm, heads: HEADS, head_dim: hd });
    return { n, map: s.slice(head * n * n, (head + 1) * n * n) };
  },
  render(r) {
    return { map: { data: r.map, rows: r.n, cols: r.n, caption: L('TUPE positional term (sinusoidal p, random U_Q, U_K)', 'TUPE 位置项（正弦 p，随机 U_Q、U_K）'), xlabel: 'j →', ylabel: 'i ↓' } };
  },
};
