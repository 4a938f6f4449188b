// @ts-check
// Long context by remapping distances: dual chunk attention (Qwen2.5-1M's dual_chunk_attention_config, vLLM's
// DualChunkRotaryEmbedding). The matrix of the relative distance each query–key pair's rotation encodes
// (pe.dualChunkDistances: intra-chunk, successive-chunk, inter-chunk), and Su's decay bound (pe.ropeDecayBound) read at
// those distances instead of the true ones. Small chunks so the blocks are visible; Qwen2.5-1M uses 262144 / 8192.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ chunk_size: number, local_size: number, n: number, rope_theta: number }} P */

const D = 128;   // Qwen2.5's head_dim

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'dual-chunk',
  title: L('Dual chunk attention: distances folded back', '双块注意力：距离被折回'),
  description: L('Dual chunk attention (Qwen2.5-1M, vLLM) splits positions into chunks of chunk_size − local_size and rotates queries so that keys in the same chunk keep their distance i − j, keys in the previous chunk get min(i mod L + L, chunk_size) − (j mod L), and older keys min(2L − 1, chunk_size) − (j mod L).',
    '双块注意力（Qwen2.5-1M，vLLM）把位置分成长度为 chunk_size − local_size 的块，并旋转查询：同一块内的键保持距离 i − j，前一块的键得到 min(i % L + L, chunk_size) − (j % L)，更早的键得到 min(2L − 1, chunk_size) − (j % L)（% 为取余）。'),
  takeaway: L('No query–key distance ever exceeds chunk_size: far keys are folded back into the trained range, so the decay never falls below its values within chunk_size, where plain RoPE keeps falling — a remapping, not a native long context.',
    '任何查询与键之间的距离都不超过 chunk_size：远处的键被折回训练过的范围，衰减不会低于它在 chunk_size 以内的取值，而普通 RoPE 会继续下降——这是重新映射，不是原生的长上下文。'),
  params: {
    chunk_size: { type: 'enum', values: [16, 32, 64], default: 32, label: L('chunk_size', 'chunk_size') },
    local_size: { type: 'enum', values: [0, 4, 8], default: 8, label: L('local_size', 'local_size') },
    n: { type: 'enum', values: [64, 96, 128, 256], default: 128, label: L('Tokens', '词元数') },
    rope_theta: { type: 'enum', values: [100, 10000, 10000000], default: 100, label: L('Base', '底数') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { chunk_size: 16, local_size: 4 }, look: L('chunk_size 16, local_size 4: chunks of 12 tokens; the largest distance in the whole map is 16, however far apart the tokens are.',
    'chunk_size 16、local_size 4：每块 12 个词元；无论词元相距多远，整张图中最大的距离都是 16。') }],
  panels: () => [{ id: 'map', block: 'heatmap', size: 480 }, { id: 'dist', block: 'lines', height: 200 }, { id: 'decay', block: 'lines', height: 220 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { chunk_size, local_size, n, rope_theta }) {
    const pos = Float64Array.from({ length: n }, (_, i) => i);
    const m = pe.dualChunkDistances({ chunk_size, local_size, q_positions: pos, k_positions: pos });
    const map = Float64Array.from(m.distances, (d, o) => (m.kind[o] === 0 ? NaN : d));
    // the last query against every key: true distance r = i − j, the distance its rotation encodes, and Su's bound at both
    const i = n - 1, r = Float64Array.from({ length: n }, (_, k) => k);
    const eff = Float64Array.from(r, (k) => m.distances[i * n + (i - k)]);
    const bound = pe.ropeDecayBound({ rotary_dim: D, rope_theta, count: n });
    return { n, chunk_size, chunk_len: m.chunk_len, max: m.max_distance, map, kind: Uint8Array.from(m.kind), r, eff,
      plain: Float64Array.from(bound), dca: Float64Array.from(eff, (d) => bound[d]) };
  },
  /** @param {any} r */
  render(r) {
    return {
      map: { data: r.map, rows: r.n, cols: r.n, caption: L(`distance each pair’s rotation encodes (chunks of ${r.chunk_len}; grey: masked)`, `每对查询与键的旋转所编码的距离（每块 ${r.chunk_len} 个；灰色：被遮住）`),
        xlabel: L('key j →', '键 j →'), ylabel: L('query i ↓', '查询 i ↓') },
      dist: { series: [{ x: r.r, y: r.r, label: L('true distance i − j', '真实距离 i − j'), dash: [4, 3] }, { x: r.r, y: r.eff, label: L('dual chunk', '双块注意力') }],
        marks: [{ y: r.chunk_size, label: 'chunk_size' }],
        caption: L(`query at position ${r.n - 1}: the distance its rotation sees`, `位置 ${r.n - 1} 的查询：旋转看到的距离`), xlabel: L('true distance i − j', '真实距离 i − j'), ylabel: L('encoded distance', '编码的距离') },
      decay: { series: [{ x: r.r, y: r.plain, label: L('plain RoPE', '普通 RoPE'), dash: [4, 3] }, { x: r.r, y: r.dca, label: L('dual chunk', '双块注意力') }],
        marks: [{ x: r.chunk_size, label: 'chunk_size' }],
        caption: L(`Su’s decay bound (d = ${D}) at the distance each key is seen at`, `各键被看到的距离处的苏剑林衰减上界（d = ${D}）`), xlabel: L('true distance i − j', '真实距离 i − j'), ylabel: L('relative size', '相对大小') },
      readouts: [{ id: 'chunk-len', label: L('chunk length L = chunk_size − local_size', '块长 L = chunk_size − local_size'), value: r.chunk_len },
        { id: 'max', label: L('largest encoded distance', '最大的编码距离'), value: r.max, note: L(`true: ${r.n - 1}`, `真实：${r.n - 1}`) }],
    };
  },
};
