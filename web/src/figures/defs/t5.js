// @ts-check
// Section 3: T5's relative position buckets and the per-head bias they index.
import { L } from '../params.js';
import { randomRows, range } from './util.js';

const HEADS = 8;
/** @type {import('../params.js').FigureDef} */
export default {
  name: 't5',
  title: L('T5: bucketed relative positions', 'T5：分桶的相对位置'),
  description: L('T5’s bucket of each relative position j − i (exact for small offsets, logarithmic beyond) and one head’s bias.',
    'T5 对相对位置 j − i 的分桶（近处一一对应，远处按对数合并）以及一个头的偏置。'),
  takeaway: L('Small offsets get a bucket each; farther ones share logarithmically wider buckets, and everything beyond max_distance lands in the last one.',
    '近距离各有独立的桶；远距离共享越来越宽的对数桶，超过 max_distance 的全部落入最后一个桶。'),
  params: {
    num_buckets: { type: 'enum', values: [8, 16, 32, 64], default: 32, label: L('Buckets', '桶数') },
    max_distance: { type: 'enum', values: [32, 64, 128, 256], default: 128, label: L('max_distance', 'max_distance') },
    bidirectional: { type: 'bool', default: true, label: L('bidirectional (encoder)', '双向（编码器）') },
    head: { type: 'int', min: 0, max: HEADS - 1, default: 0, label: L(`Head (of ${HEADS})`, `头（共 ${HEADS} 个）`) },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { bidirectional: false }, look: L('Untick bidirectional (a decoder): every key after the query, j − i > 0, falls into bucket 0 and all 32 buckets go to the past.',
    '取消勾选双向（解码器）：查询之后的所有键（j − i > 0）都落入 0 号桶，32 个桶全部留给过去。') }],
  panels: () => [{ id: 'plot', block: 'lines', height: 200 }, { id: 'bias', block: 'heatmap', palette: 'rdbu', size: 480 }],
  compute(pe, { num_buckets, max_distance, bidirectional, head }) {
    const o = { num_buckets, max_distance, bidirectional }, R = max_distance + 40;
    const rel = Float64Array.from({ length: 2 * R + 1 }, (_, i) => i - R);
    const buckets = Float64Array.from(rel, (x) => pe.t5RelativePositionBucket(x, o));
    // The source's table is for i − j = 0 … 30, i.e. relative_position = j − i = −(i − j).
    const table = range(31, (t) => pe.t5RelativePositionBucket(-t, o));
    const seq = 48, weights = randomRows(pe, num_buckets, HEADS, 3, 'bucket');
    const bias = pe.t5Bias({ q_len: seq, table: weights, num_heads: HEADS, ...o });
    return { rel, buckets, table, seq, bias: bias.slice(head * seq * seq, (head + 1) * seq * seq) };
  },
  render(r, p) {
    return {
      plot: { series: [{ x: r.rel, y: r.buckets, kind: 'step', label: L('bucket(j − i)', 'j − i 的桶号') }],
        marks: [{ x: -p.max_distance, label: '−max_distance' }, { x: p.max_distance, label: 'max_distance' }],
        caption: L('T5 bucket of the relative position j − i', 'T5 相对位置 j − i 的桶号'), xlabel: 'j − i', ylabel: L('bucket', '桶') },
      bias: { data: r.bias, rows: r.seq, cols: r.seq, caption: L(`per-head bias (head ${p.head}, random bucket weights)`, `逐头偏置（第 ${p.head} 个头，随机桶权重）`), xlabel: L('key j →', '键 j →'), ylabel: L('query i ↓', '查询 i ↓') },
      tables: [{ id: 'buckets', caption: L('bucket of i − j = 0 … 30 (the source’s table)', 'i − j = 0 … 30 的桶号（原文的表）'),
        rows: [['i − j', ...range(31, String)], ['f(i − j)', ...r.table.map(String)]] }],
    };
  },
};
