// @ts-check
// Section 6: the attention-scale factors a config applies, against the position (sequence length) — each point is
// pe.ropeFromConfig(config, { seq_len }): YaRN / LongRoPE's attention_scaling (multiplies cos and sin, so the logits
// by its square), DeepSeek's softmax factor mscale², Llama 4's query temperature 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋)
// on its NoPE layers and Ministral 3's 1 + beta·ln(1 + ⌊p/original_max_position_embeddings⌋) on every layer. Past original_max_position_embeddings LongRoPE switches to its long factors (shaded).
import { L } from '../params.js';
import { LLAMA4, configParam, fromConfig, ropeTypes } from './config-common.js';

const POINTS = 161;

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'config-scale',
  title: L('Attention-scale factors against the position', '注意力缩放因子随位置的变化'),
  description: L('What a config multiplies attention by, read at each sequence length: YaRN / LongRoPE attention_scaling, DeepSeek’s mscale² softmax factor, Llama 4’s temperature tuning.',
    'config 在各序列长度下给注意力乘上的因子：YaRN / LongRoPE 的 attention_scaling、DeepSeek 的 softmax 因子 yarn_get_mscale²、Llama 4 的温度调节。'),
  takeaway: L('YaRN’s factor is a constant chosen for the extended length; Llama 4’s temperature grows in steps of floor_scale tokens, logarithmically.',
    'YaRN 的因子是按扩展后的长度定下的常数；Llama 4 的温度每 floor_scale 个词元上一个台阶，按对数增长。'),
  params: { config: configParam(LLAMA4) },
  panels: () => [{ id: 'plot', block: 'lines', height: 240 }],
  compute(pe, { config }) {
    let c = config;
    try { c = JSON.parse(config); } catch { /* ropeFromConfig names the JSON error */ }
    const r0 = fromConfig(pe, c);
    const t = r0.attn_temperature;
    const end = Math.max(r0.max_position_embeddings ?? 0, 2 * (r0.original_max_position_embeddings ?? 0), t ? 16 * t.floor_scale : 0, 8192);
    const x = Float64Array.from({ length: POINTS }, (_, i) => Math.round((i * (end - 1)) / (POINTS - 1)));
    const scaling = new Float64Array(POINTS), temp = new Float64Array(POINTS), longSet = new Uint8Array(POINTS);
    // only Llama 4's temperature, LongRoPE's factor set and dynamic NTK depend on the length: else one reading holds
    const varies = t || ropeTypes(r0).some(([, v]) => v.rope_type === 'longrope' || v.rope_type === 'dynamic');
    x.forEach((p, i) => {
      const r = varies ? fromConfig(pe, c, { seq_len: p + 1 }) : r0;
      scaling[i] = r.attention_scaling;
      if (t) temp[i] = /** @type {number} */ (/** @type {NonNullable<typeof r.attn_temperature>} */ (r.attn_temperature).scale_at_seq_len);
      longSet[i] = r.longrope_factors === 'long' ? 1 : 0;
    });
    return { x, scaling, temp: t ? temp : null, mla: r0.mla && r0.mla.softmax_scale_factor, longSet, end,
      original: r0.original_max_position_embeddings, max: r0.max_position_embeddings, rope_type: r0.rope_type, t };
  },
  render(r) {
    /** @type {Array<Record<string, unknown>>} */
    const series = [{ x: r.x, y: r.scaling, label: L(`attention_scaling (cos, sin; ${r.rope_type})`, `attention_scaling（乘在 cos、sin 上；${r.rope_type}）`) },
      { x: r.x, y: Float64Array.from(r.scaling, (s) => s * s), dash: [4, 3], label: L('its effect on the logits: attention_scaling²', '对注意力分数的作用：attention_scaling²') }];
    if (r.mla != null) series.push({ x: r.x, y: new Float64Array(r.x.length).fill(r.mla), label: L('DeepSeek softmax factor mscale²', 'DeepSeek 的 softmax 因子 yarn_get_mscale²') });
    const llama4 = r.t?.form === 'llama4';
    const tempLabel = llama4 ? L('Llama 4 query temperature (NoPE layers)', 'Llama 4 的查询温度（NoPE 层）')
      : L('query scale, llama_4_scaling_beta (every layer)', '查询缩放 llama_4_scaling_beta（每一层）');
    if (r.temp) series.push({ x: r.x, y: r.temp, kind: 'step', label: tempLabel });
    const first = r.longSet.indexOf(1);
    const regions = first >= 0 ? [{ x0: r.x[first], x1: r.end, label: L('LongRoPE long_factor in use', '使用 LongRoPE 的 long_factor') }] : [];
    const marks = [];
    // the line is named in the caption: a label at the top of the plot would cross a constant factor drawn there (DeepSeek's mscale²)
    if (r.original) marks.push({ x: r.original, label: '' });
    const last = r.x.length - 1;
    /** @type {import('../params.js').Readout[]} */
    const readouts = [
      { id: 'scaling', label: L('attention_scaling', 'attention_scaling'), value: r.scaling[last] },
    ];
    if (r.mla != null) readouts.push({ id: 'mscale2', label: L('softmax factor mscale² (MLA)', 'softmax 因子 yarn_get_mscale²（MLA）'), value: r.mla });
    if (r.temp) {
      const f = `1 + ${r.t.attn_scale}·log(1 + ⌊${llama4 ? '(p + 1)' : 'p'}/${r.t.floor_scale}⌋)`;
      readouts.push({ id: 'temperature', label: L(`query scale at position ${r.x[last]}`, `位置 ${r.x[last]} 处的查询缩放`), value: r.temp[last], note: L(f, f) });
    }
    return {
      plot: { series, marks, regions, caption: r.original ? L(`Scale factors at each position (sequence length = position + 1); dashed line: original_max_position_embeddings = ${r.original}`, `各位置（序列长度 = 位置 + 1）上的缩放因子；虚线：原训练长度 original_max_position_embeddings = ${r.original}`)
        : L('Scale factors at each position (sequence length = position + 1)', '各位置（序列长度 = 位置 + 1）上的缩放因子'),
        xlabel: L('position p', '位置 p'), ylabel: L('factor', '因子') },
      readouts,
    };
  },
};
