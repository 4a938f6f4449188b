// @ts-check
// "How is YaRN's attention factor computed?": Hugging Face's _compute_yarn_parameters (modeling_rope_utils.py at
// huggingface/transformers@ef468064): get_mscale(s, m) = 0.1·m·ln(s) + 1 (1 for s ≤ 1); attention_factor =
// get_mscale(s, mscale)/get_mscale(s, mscale_all_dim) when both are set (DeepSeek), else get_mscale(s). cos and sin are
// multiplied by it, so q·k is multiplied by its square. DeepSeek-V2/V3 also multiply the softmax scale by
// get_mscale(s, mscale_all_dim)². Every number from pe.ropeInvFreqScaled and pe.ropeFromConfig.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ factor: number, mscale: number, mscale_all_dim: number }} P */

const S = Array.from({ length: 97 }, (_, i) => 2 ** (i / 16));   // s = 1 … 64, 16 points per octave
/** DeepSeek-V3's attention and position keys (deepseek-ai/DeepSeek-V3 config.json), the factor and mscale pair replaced. */
const deepseek = (/** @type {number} */ factor, /** @type {number} */ mscale, /** @type {number} */ all) => ({ model_type: 'deepseek_v3', hidden_size: 7168,
  num_attention_heads: 128, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, max_position_embeddings: 163840, rope_theta: 10000,
  rope_scaling: { type: 'yarn', factor, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1, mscale, mscale_all_dim: all } });

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'yarn-attention',
  title: L('YaRN’s attention factor, worked', 'YaRN 的注意力因子，逐步算出'),
  description: L('YaRN multiplies cos and sin by 0.1·ln(s) + 1 for a factor s, so the logits grow by its square; DeepSeek’s configs give mscale and mscale_all_dim instead, and their ratio scales cos and sin while mscale_all_dim’s factor squared scales the softmax.',
    'YaRN 对因子 s 把 cos 和 sin 乘以 0.1·ln(s) + 1，所以注意力分数乘以它的平方；DeepSeek 的配置改给 mscale 和 mscale_all_dim，两者之比缩放 cos 和 sin，而 mscale_all_dim 对应因子的平方缩放 softmax。'),
  takeaway: L('For s = 4 the attention factor is 0.1·ln 4 + 1 = 1.1386, and the logits are multiplied by its square, 1.2965: a sharper softmax to offset the flatter attention of interpolated positions. With mscale = mscale_all_dim (DeepSeek-V3) the ratio is 1 and the same 1.2965 moves to the softmax scale.',
    's = 4 时注意力因子为 0.1·ln 4 + 1 = 1.1386，注意力分数乘以它的平方 1.2965：让 softmax 更尖，抵消插值后注意力变平。mscale = mscale_all_dim 时（DeepSeek-V3）两者之比为 1，同样的 1.2965 移到了 softmax 的缩放上。'),
  params: {
    factor: { type: 'number', min: 1, max: 64, default: 4, slider: true, label: L('factor s', '因子 s') },
    mscale: { type: 'enum', values: [0, 0.707, 1], default: 0, label: L('mscale', 'mscale') },
    mscale_all_dim: { type: 'enum', values: [0, 0.707, 1], default: 0, label: L('mscale_all_dim', 'mscale_all_dim') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { mscale: 1, mscale_all_dim: 1 }, look: L('DeepSeek-V3 (mscale = mscale_all_dim = 1): cos and sin are not scaled (ratio 1); the softmax scale is multiplied by 1.1386² = 1.2965 instead.',
    'DeepSeek-V3（mscale = mscale_all_dim = 1）：cos 和 sin 不缩放（比值为 1）；改为 softmax 缩放乘以 1.1386² = 1.2965。') },
  { params: { factor: 40 }, look: L('s = 40 (DeepSeek-V3’s factor): 0.1·ln 40 + 1 = 1.369, the logits × 1.874.',
    's = 40（DeepSeek-V3 的因子）：0.1·ln 40 + 1 = 1.369，注意力分数乘以 1.874。') }],
  panels: () => [{ id: 'factor', block: 'lines', height: 240, logX: true }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { factor, mscale, mscale_all_dim }) {
    const at = (/** @type {number} */ s) => pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: 10000, factor: s,
      original_max_position_embeddings: 4096, mscale, mscale_all_dim }).attention_scaling;
    const plain = (/** @type {number} */ s) => pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: 10000, factor: s,
      original_max_position_embeddings: 4096 }).attention_scaling;
    const soft = (/** @type {number} */ s) => (mscale_all_dim ? pe.ropeFromConfig(deepseek(s, mscale, mscale_all_dim)).mla?.softmax_scale_factor ?? 1 : 1);
    const a = at(factor), a0 = plain(factor), sf = soft(factor);
    return { s: Float64Array.from(S), plain: Float64Array.from(S, plain), chosen: Float64Array.from(S, at),
      logits: Float64Array.from(S, (s) => at(s) ** 2 * soft(s)), factor, a, a0, sf, total: a * a * sf, deepseekForm: mscale !== 0 && mscale_all_dim !== 0 };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const series = [{ x: r.s, y: r.plain, label: L('0.1·ln s + 1 (no mscale)', '0.1·ln s + 1（无 mscale）'), dash: [4, 3] },
      { x: r.s, y: r.logits, label: L('logit multiplier: attention_factor² × softmax factor', '注意力分数的倍数：attention_factor² × softmax 因子') }];
    if (r.deepseekForm) series.splice(1, 0, { x: r.s, y: r.chosen, label: L(`get_mscale(s, ${p.mscale}) / get_mscale(s, ${p.mscale_all_dim})`, `get_mscale(s, ${p.mscale}) / get_mscale(s, ${p.mscale_all_dim})`) });
    return {
      factor: { series, marks: [{ x: p.factor, label: `s = ${fmt(p.factor)}` }],
        caption: L('YaRN’s attention factor and what it does to the logits, against the factor s', 'YaRN 的注意力因子及其对注意力分数的作用，随因子 s 变化'),
        xlabel: L('factor s (log)', '因子 s（对数）'), ylabel: L('multiplier', '倍数') },
      readouts: [{ id: 'attention-factor', label: L('attention_factor (cos, sin ×)', 'attention_factor（cos、sin 乘以）'), value: r.a,
        note: r.deepseekForm ? L(`(0.1·${p.mscale}·ln ${fmt(p.factor)} + 1)/(0.1·${p.mscale_all_dim}·ln ${fmt(p.factor)} + 1)`, `(0.1·${p.mscale}·ln ${fmt(p.factor)} + 1)/(0.1·${p.mscale_all_dim}·ln ${fmt(p.factor)} + 1)`)
          : L(`0.1·ln ${fmt(p.factor)} + 1`, `0.1·ln ${fmt(p.factor)} + 1`) },
        { id: 'softmax-factor', label: L('softmax scale × get_mscale(s, mscale_all_dim)² (DeepSeek)', 'softmax 缩放 × get_mscale(s, mscale_all_dim)²（DeepSeek）'), value: r.sf },
        { id: 'logit-multiplier', label: L('logits multiplied by', '注意力分数乘以'), value: r.total }],
    };
  },
};

/** @param {number} x */
function fmt(x) { return Number(x.toPrecision(4)).toString(); }
