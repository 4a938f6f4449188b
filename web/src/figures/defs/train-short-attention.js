// @ts-check
// "Train short, test long", the attention: one head of the last layer of a scheme's tiny model (the head most local
// inside the trained 128 characters) over the last 256 queries of a 2048-character held-out passage and every key,
// pooled to 24 × 48 cells; and the layer's gauges — attention mass on keys at least 128 away (a distance training never
// showed) and on the last 16. Computed by posenc's own forward pass (lm.evaluate's attention rows and gauges).
import { L } from '../params.js';
import { CTX, PASSAGE_LABELS, PROBE, SCHEMES, SCHEME_LABELS, TINY_PARAMS, TRAINED, runs } from './train-short-live.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ scheme: import('./train-short-live.js').Scheme, passage: import('./train-short-live.js').Passage, models: string }} P */

const mean = (/** @type {number[]} */ a) => a.reduce((s, x) => s + x, 0) / a.length;
const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(0)} %`;

/** @type {import('../params.js').FigureDef<P>} */
export default {
  name: 'train-short-attention',
  long: (p) => p.passage !== TINY_PARAMS.passage.default,
  title: L('Train short, test long: where each scheme attends at position 2000', '短训练、长测试：各方案在第 2000 个位置关注哪里'),
  description: L('One head of the last layer of a tiny model trained on 128 characters: the attention of the last 256 queries (rows) of a 2048-character passage over every key (columns), pooled into cells; the dashed column marks keys 128 characters before the first query. Beneath: the layer’s mean attention mass on keys at least 128 away and on the last 16.',
    '一个在 128 个字符上训练的小模型最后一层的某个头：2048 字符段落中最后 256 个查询（行）对所有键（列）的注意力，合并成格；虚线列标出第一个查询之前 128 个字符处的键。下方：该层各头对至少 128 之外的键、以及对最近 16 个键的平均注意力。'),
  takeaway: L('Near position 2000, RoPE’s last layer puts 99 % of its attention on keys more than 128 characters back, a distance it never saw in training, and 1 % on the last 16 (inside the trained length: 93 %). ALiBi keeps its local heads local: 19 % far, 47 % on the last 16.',
    '在第 2000 个位置附近，RoPE 最后一层把 99% 的注意力放在 128 个字符以外的键上——训练中从未见过的距离——最近 16 个键上只有 1%（训练长度以内为 93%）。ALiBi 的局部头仍然局部：远处 19%，最近 16 个键上 47%。'),
  params: {
    scheme: { type: 'enum', values: [...SCHEMES], default: 'rope', label: L('scheme', '方案'), valueLabels: SCHEME_LABELS },
    passage: TINY_PARAMS.passage, models: TINY_PARAMS.models,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [
    { params: { scheme: 'alibi' }, look: L('ALiBi: a bright diagonal band — the recent keys — and nothing far back.', 'ALiBi：一条明亮的对角带（最近的键），远处几乎没有。') },
    { params: { scheme: 'learned' }, look: L('The learned table: every position past 127 reads the same row, so the queries cannot tell near from far and spread over everything.', '可学习位置表：127 之后的位置读的都是同一行，查询分不清远近，注意力摊到所有键上。') },
  ],
  panels: () => [{ id: 'map', block: 'heatmap', size: 520, palette: 'viridis' }],
  /** @param {Posenc} pe @param {P} p @param {any} ctx */
  async compute(pe, p, ctx) {
    return runs(pe, p, [p.scheme], ctx);
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const s = r.runs[p.scheme], map = s.map, n = CTX + 1, q0 = n - PROBE.rows;   // 2049 characters: positions 0 … 2048
    const far = mean(s.gauges.far), near = mean(s.gauges.near), inNear = mean(s.inRangeNear);
    const col = Math.round(((q0 - TRAINED) / n) * map.cols);
    return {
      map: { data: Float32Array.from(map.data, (/** @type {number} */ v) => Math.sqrt(v)), rows: map.rows, cols: map.cols, vmin: 0,
        rowTicks: Array.from({ length: map.rows }, (_, i) => q0 + Math.round((i * PROBE.rows) / map.rows)),
        colTicks: Array.from({ length: map.cols }, (_, j) => Math.round((j * n) / map.cols)), marks: [{ col, label: `${q0 - TRAINED}` }],
        caption: L(`${SCHEME_LABELS[p.scheme].en}, layer ${PROBE.layer + 1}, head ${s.head + 1}: the last ${PROBE.rows} queries of ${PASSAGE_LABELS[p.passage].en} (√ of the mass per cell)`,
          `${SCHEME_LABELS[p.scheme].zh}，第 ${PROBE.layer + 1} 层第 ${s.head + 1} 个头：${PASSAGE_LABELS[p.passage].zh}的最后 ${PROBE.rows} 个查询（每格注意力之和的平方根）`),
        xlabel: L('key position', '键的位置'), ylabel: L('query position', '查询位置') },
      readouts: [
        { id: 'far', label: L(`layer ${PROBE.layer + 1}: attention on keys ≥ ${PROBE.far} away`, `第 ${PROBE.layer + 1} 层：落在 ${PROBE.far} 之外的键上的注意力`), value: far, text: pct(far) },
        { id: 'near', label: L(`layer ${PROBE.layer + 1}: attention on the last ${PROBE.near} keys`, `第 ${PROBE.layer + 1} 层：落在最近 ${PROBE.near} 个键上的注意力`), value: near, text: pct(near),
          note: L(`inside the trained length: ${pct(inNear)}`, `训练长度以内：${pct(inNear)}`) },
      ],
      status: L(`posenc’s own ${p.scheme} model; text: King James Bible, held-out books${r.live ? '; computed live' : '; precomputed at build time'}`,
        `posenc 自己的 ${p.scheme} 模型；文本：《钦定本圣经》留出的书卷${r.live ? '；现场计算' : '；构建时预先算出'}`),
    };
  },
};
