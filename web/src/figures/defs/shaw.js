// @ts-check
// Section 3: Shaw et al. (2018) — which of the 2K + 1 relative embeddings each (query, key) pair uses.
import { L } from '../params.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'shaw',
  title: L('Shaw et al.: clipped relative positions', 'Shaw 等：截断的相对位置'),
  description: L('The index clip(j − i, −K, K) + K of the relative embedding used by each query–key pair (Shaw et al., 2018).',
    '每对查询–键所用相对嵌入的下标 clip(j − i, −K, K) + K（Shaw 等，2018）。'),
  takeaway: L('Only 2K + 1 embeddings exist: every offset beyond ±K shares the edge one (the flat corners of the map).',
    '只有 2K + 1 个嵌入：超过 ±K 的距离都共用边上的那一个（图中平坦的两角）。'),
  params: {
    n: { type: 'int', min: 2, max: 128, default: 16, label: L('Length', '长度') },
    max_relative_position: { type: 'int', min: 0, max: 64, default: 4, slider: true, label: L('Clip K', '截断 K') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { max_relative_position: 1 }, look: L('K = 1: only three embeddings remain — the map has three colours: left of the diagonal, on it, right of it.',
    'K = 1：只剩三个嵌入——图中只有三种颜色：对角线左侧、对角线上、对角线右侧。') }],
  panels: () => [{ id: 'map', block: 'heatmap', size: 480 }],
  compute(pe, { n, max_relative_position }) {
    const idx = pe.shawRelativeIndex({ q_len: n, max_relative_position });
    return { n, idx: Float32Array.from(idx), corner: idx[n - 1] };
  },
  render(r, p) {
    return {
      map: { data: r.idx, rows: r.n, cols: r.n, caption: L('index clip(j − i, −K, K) + K of the embedding used', '所用嵌入的下标 clip(j − i, −K, K) + K'), xlabel: L('key j →', '键 j →'), ylabel: L('query i ↓', '查询 i ↓') },
      readouts: [{ id: 'count', label: L('embeddings used (2K + 1)', '使用的嵌入个数（2K+1）'), value: 2 * p.max_relative_position + 1, text: String(2 * p.max_relative_position + 1) },
        { id: 'corner', label: L('index at (0, last)', '(0, 最后) 处的下标'), value: r.corner, text: String(r.corner) }],
    };
  },
};
