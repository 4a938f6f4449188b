// @ts-check
// Section 4, intuition first: why the RoPE score depends only on m − n. The score ⟨Rₘq, Rₙk⟩ of one q and one k put
// at every query position m and key position n (package: ropeInnerProductSweep, one row per m) is constant along each
// diagonal n − m = const; the line below follows one diagonal, (m + t, n + t), against moving q alone, (m + t, n).
import { L } from '../params.js';
import { randomRows } from './util.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ head_dim: number, base: number, seq: number, m: number, n: number }} P */

const STEPS = 128;   // shifts t = 0 … 127 on the line

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-relative',
  title: L('The score sees only m − n', '分数只看 m − n'),
  description: L('One random q and one random k (seeded), q rotated to every query position m and k to every key position n: the map of ⟨Rₘq, Rₙk⟩, and along one diagonal the score at (m + t, n + t) against (m + t, n).',
    '取一个随机 q 和一个随机 k（固定种子），把 q 旋转到每个查询位置 m、k 旋转到每个键位置 n：画出 ⟨Rₘq, Rₙk⟩ 的图，并沿一条对角线比较 (m + t, n + t) 与 (m + t, n) 处的分数。'),
  takeaway: L('Every diagonal of the map is one colour: moving q and k by the same t leaves the score unchanged (the flat line), while moving q alone changes it.',
    '图中每条对角线都是同一种颜色：q 和 k 移动同样的 t，分数不变（水平的线）；只移动 q，分数就变。'),
  params: {
    head_dim: { type: 'enum', values: [8, 16, 64], default: 16, label: L('head_dim d', 'head_dim d') },
    base: { type: 'enum', values: [100, 10000], default: 100, label: L('base', '底数 base') },
    seq: { type: 'int', min: 8, max: 64, default: 32, label: L('positions in the map', '图中的位置数') },
    m: { type: 'int', min: 0, max: 63, default: 6, slider: true, label: L('line starts at m', '线的起点 m') },
    n: { type: 'int', min: 0, max: 63, default: 2, slider: true, label: L('and n', '与 n') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { m: 0, n: 0 }, look: L('Start the line at (0, 0): the flat line is the score of q with k at the same position, −0.0790, at every shift t; it is the main diagonal of the map.',
    '让线从 (0, 0) 出发：水平的线就是 q 与同一位置上的 k 的分数 −0.0790，对每个 t 都一样；它就是图的主对角线。') }],
  panels: () => [{ id: 'map', block: 'heatmap', size: 440, palette: 'rdbu' }, { id: 'line', block: 'lines', height: 220 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { head_dim: d, base, seq, m, n }) {
    const q = randomRows(pe, 1, d, 3, 'q').slice(0, d), k = randomRows(pe, 1, d, 4, 'k').slice(0, d);   // the first token's rows
    const at = (/** @type {number} */ a, /** @type {number} */ b, /** @type {number} */ count) =>
      pe.ropeInnerProductSweep({ q, k, head_dim: d, rope_theta: base, q_position: a, k_start: b, count });
    const map = new Float32Array(seq * seq);
    for (let i = 0; i < seq; i++) map.set(at(i, 0, seq), i * seq);
    const both = new Float64Array(STEPS), qOnly = new Float64Array(STEPS);
    for (let t = 0; t < STEPS; t++) { both[t] = at(m + t, n + t, 1)[0]; qOnly[t] = at(m + t, n, 1)[0]; }
    // how far the map is from constant diagonals: the largest |S(i, j) − S(i + 1, j + 1)|
    let diag = 0;
    for (let i = 0; i + 1 < seq; i++) for (let j = 0; j + 1 < seq; j++) diag = Math.max(diag, Math.abs(map[i * seq + j] - map[(i + 1) * seq + j + 1]));
    let spread = 0;
    for (const v of both) spread = Math.max(spread, Math.abs(v - both[0]));
    let range = 0;
    for (const v of qOnly) range = Math.max(range, Math.abs(v - qOnly[0]));
    return { map, seq, both, qOnly, diag, spread, range };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    return {
      map: { data: r.map, rows: r.seq, cols: r.seq, caption: L('⟨Rₘq, Rₙk⟩ for every m and n', '每个 m、n 处的 ⟨Rₘq, Rₙk⟩'), xlabel: L('key position n →', '键的位置 n →'), ylabel: L('query position m ↓', '查询位置 m ↓') },
      line: { series: [{ y: r.both, label: L(`both move: (${p.m} + t, ${p.n} + t)`, `一起移动：(${p.m} + t, ${p.n} + t)`), color: '#0072B2', width: 2.4 },
        { y: r.qOnly, label: L(`only q moves: (${p.m} + t, ${p.n})`, `只移动 q：(${p.m} + t, ${p.n})`), color: '#D55E00', dash: [4, 3] }],
      caption: L('Score along a diagonal and off it', '沿对角线与离开对角线的分数'), xlabel: L('shift t', '平移 t'), ylabel: L('score', '分数') },
      readouts: [
        { id: 'diag', label: L('largest change along a diagonal of the map, |S(m, n) − S(m + 1, n + 1)|', '图中沿对角线的最大变化 |S(m, n) − S(m + 1, n + 1)|'), value: r.diag, note: L('float32 rounding', 'float32 舍入误差') },
        { id: 'spread', label: L('largest change of the score when both move', '一起移动时分数的最大变化'), value: r.spread },
        { id: 'range', label: L('largest change when only q moves', '只移动 q 时分数的最大变化'), value: r.range },
      ],
    };
  },
};
