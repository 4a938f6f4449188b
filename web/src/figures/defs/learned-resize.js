// @ts-check
// The contrast to RoPE in images: SigLIP 2 has learned absolute positions — a 16×16 table (num_patches 256) that is
// resized to each image's patch grid (transformers Siglip2VisionEmbeddings.resize_positional_embeddings: bilinear,
// align_corners=False, antialias=True). Drawn on a STAND-IN table (a sin·cos pattern from pe.sinusoidal, not SigLIP 2's
// weights, which are not shipped here): the table, the same table resized by pe.resizePositionGrid, and the weights one
// output row and one output column take from the learned rows and columns (the resize of one-hot tables).
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */

const SIDE = 16;   // SigLIP 2's default num_patches 256

/**
 * The stand-in table T(r, c) = sin(r) · cos(c) (pe.sinusoidal with d = 2: row p = [sin p, cos p]), [16, 16, 1].
 * @param {Posenc} pe
 */
export function standIn(pe) {
  const s = pe.sinusoidal({ positions: SIDE, d: 2 });
  return Float64Array.from({ length: SIDE * SIDE }, (_, k) => s[2 * Math.floor(k / SIDE)] * s[2 * (k % SIDE) + 1]);
}

/**
 * The weights output index i of an axis of n_out takes from the 16 learned indices: the resize of a one-hot table.
 * @param {Posenc} pe @param {number} n_out @param {number} i @param {'rows' | 'cols'} axis
 */
export function weightsOf(pe, n_out, i, axis) {
  // dim = 16 one-hot channels: channel d is 1 on learned row (or column) d; output cell (i, 0) / (0, i) holds the weights
  const table = Float64Array.from({ length: SIDE * SIDE * SIDE }, (_, k) => {
    const d = k % SIDE, cell = Math.floor(k / SIDE), r = Math.floor(cell / SIDE), c = cell % SIDE;
    return (axis === 'rows' ? r : c) === d ? 1 : 0;
  });
  const [height, width] = axis === 'rows' ? [n_out, 1] : [1, n_out];
  const out = pe.resizePositionGrid({ table, rows: SIDE, cols: SIDE, dim: SIDE, height, width });
  return out.slice(i * SIDE, (i + 1) * SIDE);
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'learned-resize',
  title: L('SigLIP 2’s learned positions, stretched to the image', 'SigLIP 2 的可学习位置：拉伸到图像上'),
  description: L('SigLIP 2 learns one vector per cell of a 16×16 grid and, for each image, resizes that table to the image’s patch grid (bilinear, antialiased) before adding it to the patches. Shown on a stand-in table (a sin·cos pattern), not SigLIP 2’s weights.',
    'SigLIP 2 为 16×16 网格的每一格学习一个向量；对每张图像，先把这张表缩放到该图像的图块网格（双线性、抗锯齿），再加到图块上。这里用一张替代表（sin·cos 图案）演示，不是 SigLIP 2 的权重。'),
  takeaway: L('No rotation and no relative position: the learned table is stretched to the image, so a patch gets the embedding of its place as a fraction of the image; an axis with more patches interpolates between two learned cells, an axis with fewer averages several (the fine detail blurs), and nothing is ever extrapolated.',
    '没有旋转，也没有相对位置：可学习的表被拉伸到图像上，一个图块得到的是它在图像中相对位置处的嵌入；图块变多的方向在两个学习过的格子之间插值，图块变少的方向则把几个格子平均（细节变模糊），而且从不外推。'),
  params: {
    grid: { type: 'enum', values: ['8x32', '12x20', '16x16', '32x8', '24x24'], default: '8x32', label: L('Patch grid h×w of the image', '图像的图块网格 h×w') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { grid: '16x16' }, look: L('A square image of 16×16 patches gets the learned table unchanged: every weight is 1 on its own cell.',
    '16×16 个图块的正方形图像直接用原表：每个权重都是 1，只落在自己的格子上。') }],
  panels: () => [{ id: 'table', block: 'heatmap', palette: 'rdbu', size: 240 }, { id: 'resized', block: 'heatmap', palette: 'rdbu', size: 320 },
    { id: 'weights', block: 'lines', height: 200 }],
  /** @param {Posenc} pe @param {{ grid: string }} p */
  compute(pe, { grid }) {
    const [h, w] = grid.split('x').map(Number), table = standIn(pe);
    const resized = pe.resizePositionGrid({ table, rows: SIDE, cols: SIDE, height: h, width: w });
    const i = Math.floor(h / 2), j = Math.floor(w / 2);
    const wr = weightsOf(pe, h, i, 'rows'), wc = weightsOf(pe, w, j, 'cols');
    return { h, w, i, j, table, resized, wr, wc, tapsRows: wr.filter((x) => x > 0).length, tapsCols: wc.filter((x) => x > 0).length };
  },
  /** @param {any} r */
  render(r) {
    const idx = Float64Array.from({ length: SIDE }, (_, k) => k), maxAbs = (/** @type {Float64Array} */ a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    return {
      table: { data: Float32Array.from(r.table), rows: SIDE, cols: SIDE, vmin: -1, vmax: 1, showValues: false,
        caption: L('stand-in learned table, 16×16 (sin(row)·cos(column) — not SigLIP 2’s weights)', '替代的学习表，16×16（sin(行)·cos(列)——不是 SigLIP 2 的权重）'), xlabel: L('column', '列'), ylabel: L('row', '行') },
      resized: { data: Float32Array.from(r.resized), rows: r.h, cols: r.w, vmin: -1, vmax: 1, showValues: false,
        caption: L(`resized to ${r.h}×${r.w} patches (bilinear, antialias)`, `缩放到 ${r.h}×${r.w} 个图块（双线性、抗锯齿）`), xlabel: L('patch column', '图块列'), ylabel: L('patch row', '图块行') },
      weights: { series: [{ x: idx, y: r.wr, kind: 'points', color: '#D55E00', label: L(`patch row ${r.i} of ${r.h}: weights of the learned rows`, `第 ${r.i} 行图块（共 ${r.h} 行）：各学习行的权重`) },
        { x: idx, y: r.wc, kind: 'points', color: '#0072B2', label: L(`patch column ${r.j} of ${r.w}: weights of the learned columns`, `第 ${r.j} 列图块（共 ${r.w} 列）：各学习列的权重`) }],
        caption: L('what one patch row and one patch column take from the 16 learned rows and columns', '一行图块和一列图块分别从 16 个学习行、列中取多少'), xlabel: L('learned row / column', '学习的行或列'), ylabel: L('weight', '权重') },
      readouts: [
        { id: 'taps-rows', label: L('learned rows mixed into one patch row', '一行图块混合的学习行数'), value: r.tapsRows },
        { id: 'taps-cols', label: L('learned columns mixed into one patch column', '一列图块混合的学习列数'), value: r.tapsCols },
        { id: 'peak', label: L('largest |value|: table → resized', '最大 |值|：原表 → 缩放后'), value: maxAbs(r.resized), text: `${maxAbs(r.table).toFixed(3)} → ${maxAbs(r.resized).toFixed(3)}` },
      ],
    };
  },
};
