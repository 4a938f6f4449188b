// @ts-check
// What a trained RoPE model attends to past its training length: one head of its last layer (the head most local
// inside the trained range) over the last 256 queries of a 4096-token TinyStories text and every key, pooled to
// 24 × 48 cells (each cell: the mean over 8 or so query rows of the attention mass on its keys), and the layer's
// gauges — attention mass on keys at least 512 tokens away and on the last 32 — for the original RoPE or a method.
// Computed by posenc's own forward pass (lm.evaluate's attention rows and gauges).
import { L } from '../params.js';
import { MODEL_PARAMS, precomputed, summaries } from './model-live.js';
import { METHOD_LABELS, METHOD_NAMES, MODELS, PRECOMPUTED } from './model-methods.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ model: import('./model-methods.js').ModelName, method: import('./model-methods.js').Method, factor: number, window: number, ctx: number, models: string }} P */

const mean = (/** @type {number[]} */ a) => a.reduce((s, x) => s + x, 0) / a.length;
const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(0)} %`;

/** @type {import('../params.js').FigureDef<P>} */
export default {
  name: 'model-attention',
  long: (p) => !precomputed(/** @type {any} */ (p)) || !PRECOMPUTED.maps.includes(/** @type {any} */ (p).method),
  title: L('A real model’s attention past its training length', '真实模型越过训练长度后的注意力'),
  description: L('One head of a trained RoPE model’s last layer: the attention of its last 256 queries (rows) over every key (columns) of a 4096-token text, pooled into cells; the dashed column marks keys 512 tokens before the first query. Beneath: the layer’s mean attention mass on keys at least 512 tokens away and within the last 32.',
    '一个训练好的 RoPE 模型最后一层的某个头：4096 词元文本中最后 256 个查询（行）对所有键（列）的注意力，合并成格；虚线列标出第一个查询之前 512 个词元处的键。下方：该层各头对至少 512 个词元之外的键、以及对最近 32 个键的平均注意力。'),
  takeaway: L('Inside its trained length the second layer of TinyStories-656K puts most of its attention (56 %) on the last 32 tokens. With the original RoPE past 3800 tokens that band is gone: 95 % of the attention lands on keys more than 512 tokens back, 1 % on the last 32. ReRoPE brings the band back (25 % far, 58 % near).',
    'TinyStories-656K 的第二层在训练长度以内把大部分注意力（56%）放在最近 32 个词元上。用原始 RoPE 到了 3800 个词元之后这条带消失了：95% 的注意力落在 512 个词元以外的键上，落在最近 32 个上的只有 1%。ReRoPE 让这条带回来了（远处 25%，近处 58%）。'),
  params: {
    model: MODEL_PARAMS.model,
    method: { type: 'enum', values: [...METHOD_NAMES], default: 'original', label: L('method', '方法'), valueLabels: METHOD_LABELS },
    factor: MODEL_PARAMS.factor, window: MODEL_PARAMS.window, ctx: MODEL_PARAMS.ctx, models: MODEL_PARAMS.models,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [
    { params: { method: 'rerope' }, look: L('ReRoPE: the bright band along the diagonal (recent keys) returns.', 'ReRoPE：对角线上的亮带（最近的键）回来了。') },
  ],
  panels: () => [{ id: 'map', block: 'heatmap', size: 520, palette: 'viridis' }],
  /** @param {Posenc} pe @param {P} p @param {any} ctx */
  async compute(pe, p, ctx) {
    return summaries(pe, p, [p.method], true, ctx);
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const m = MODELS[p.model], s = r.runs[p.method], map = s.map;
    const q0 = r.ctx - 256, far = mean(s.gauges.far), near = mean(s.gauges.near);
    const inNear = r.inRange ? mean(r.inRange.near) : NaN;
    const col = Math.round(((q0 - m.trained) / r.ctx) * map.cols);
    return {
      map: { data: Float32Array.from(map.data, (/** @type {number} */ v) => Math.sqrt(v)), rows: map.rows, cols: map.cols, vmin: 0,
        rowTicks: Array.from({ length: map.rows }, (_, i) => q0 + Math.round((i * 256) / map.rows)),
        colTicks: Array.from({ length: map.cols }, (_, j) => Math.round((j * r.ctx) / map.cols)), marks: [{ col, label: `${q0 - m.trained}` }],
        caption: L(`${m.label.en}, layer ${m.layer + 1}, head ${r.head + 1}: attention of the last 256 queries (√ of the mass per cell), ${METHOD_LABELS[p.method].en}`,
          `${m.label.zh}，第 ${m.layer + 1} 层第 ${r.head + 1} 个头：最后 256 个查询的注意力（每格注意力之和的平方根），${METHOD_LABELS[p.method].zh}`),
        xlabel: L('key position', '键的位置'), ylabel: L('query position', '查询位置') },
      readouts: [
        { id: 'far', label: L(`layer ${m.layer + 1}: attention on keys ≥ 512 away`, `第 ${m.layer + 1} 层：落在 512 之外的键上的注意力`), value: far, text: pct(far) },
        { id: 'near', label: L(`layer ${m.layer + 1}: attention on the last 32 keys`, `第 ${m.layer + 1} 层：落在最近 32 个键上的注意力`), value: near, text: pct(near),
          note: L(`inside the trained length: ${pct(inNear)}`, `训练长度以内：${pct(inNear)}`) },
      ],
      status: L(`${m.credit.en}; text: TinyStories validation stories (CDLA-Sharing-1.0)${r.live ? '; computed live' : '; precomputed at build time'}`,
        `${m.credit.zh}；文本：TinyStories 验证集故事（CDLA-Sharing-1.0）${r.live ? '；现场计算' : '；构建时预先算出'}`),
    };
  },
};
