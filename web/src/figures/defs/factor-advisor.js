// @ts-check
// "Which factor for my target context?": a config (pe.ropeFromConfig), a target length and a method → the rope_scaling
// factor, with the reasons, and the wavelengths before and after (pe.ropeInvFreqScaled). The factor is the target over
// the length the model was trained at (original_max_position_embeddings, else max_position_embeddings). Models with
// interleaved M-RoPE (Qwen3-VL) need less: their README (QwenLM/Qwen3-VL@96588727) says factor 2 or 3 — not 4 — for
// 1M tokens from 256K, because M-RoPE position ids grow more slowly than the token count.
import { L } from '../params.js';
import { configParam, fromConfig } from './config-common.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ config: string, target: number, method: 'linear' | 'dynamic' | 'yarn' }} P */

/** Qwen3.5-9B's position keys (its config.json, verbatim values: interleaved M-RoPE, 262144 trained): the default. */
export const QWEN35 = '{"model_type": "qwen3_5", "text_config": {"model_type": "qwen3_5_text", "head_dim": 256, "hidden_size": 4096, "num_attention_heads": 16, "max_position_embeddings": 262144, "rope_parameters": {"mrope_interleaved": true, "mrope_section": [11, 11, 10], "rope_type": "default", "rope_theta": 10000000, "partial_rotary_factor": 0.25}}}';

const WHY = {
  linear: L('linear (position interpolation): every pair is divided by the factor, so the target’s positions land on trained angles; near positions are squeezed too, so it needs fine-tuning (Chen et al. 2023).',
    'linear（位置插值）：每一对都除以该因子，目标长度的位置落回训练过的角度；近处的位置也被压缩，所以需要微调（Chen 等 2023）。'),
  dynamic: L('dynamic NTK: nothing changes up to max_position_embeddings; at a longer length L the base becomes b·(factor·L/max_position_embeddings − (factor − 1))^(d/(d−2)) (transformers’ _compute_dynamic_ntk_parameters), so with factor = target/trained f the slowest wavelength grows by f² − f + 1 at the target, more than the f it needs (factor 1 would already give f); the fast pairs stay as trained, no fine-tuning.',
    'dynamic（动态 NTK）：长度不超过 max_position_embeddings 时不变；长度 L 更长时底数变为 b·(factor·L/max_position_embeddings − (factor − 1))^(d/(d−2))（Hugging Face 的 _compute_dynamic_ntk_parameters），所以因子取目标长度与训练长度之比 f 时，最慢的波长在目标长度处变为 f² − f + 1 倍，比所需的 f 倍更多（因子取 1 就已是 f 倍）；快的通道对保持训练时的样子，无需微调。'),
  yarn: L('yarn: fast pairs kept, slow pairs divided by the factor, a ramp between (beta_fast 32, beta_slow 1), and attention scaled by 0.1·ln(factor) + 1.',
    'yarn：快的通道对不变，慢的通道对除以该因子，其间线性过渡（beta_fast 32、beta_slow 1），注意力再乘以 0.1·ln(factor) + 1。'),
};

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'factor-advisor',
  title: L('Which factor for my target context?', '目标上下文该用多大的因子？'),
  description: L('A model’s config, a target length and a method give the rope_scaling factor: the target over the training length original_max_position_embeddings, with the reasons, and every pair’s wavelength before and after.',
    '模型的配置、目标长度和方法给出 rope_scaling 的因子：目标长度除以训练长度 original_max_position_embeddings，附上理由，以及缩放前后每一对的波长。'),
  takeaway: L('The factor is the target over the trained length: after linear or yarn scaling, the slowest pairs span the target as they spanned the training length (dynamic NTK stretches them f² − f + 1 times at the target). Interleaved M-RoPE (Qwen3-VL) needs less — its README says 2 or 3, not 4, for 1M tokens from 256K — because its position ids grow more slowly than the token count.',
    '因子等于目标长度除以训练长度：用 linear 或 yarn 缩放后，最慢的通道对覆盖目标长度，就像原来覆盖训练长度一样（dynamic NTK 在目标长度处把它们拉长 f² − f + 1 倍）。交错式 M-RoPE（Qwen3-VL）需要的更小——它的 README 说从 256K 到 1M 用 2 或 3 而不是 4——因为它的位置编号比词元数增长得慢。'),
  params: {
    config: configParam(QWEN35),
    target: { type: 'enum', values: [32768, 65536, 131072, 262144, 524288, 1048576], default: 1048576, label: L('Target length', '目标长度') },
    method: { type: 'enum', values: ['linear', 'dynamic', 'yarn'], default: 'yarn', label: L('Method', '方法') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { target: 524288 }, look: L('512K from 256K: the plain ratio is 2; read proportionally, the Qwen3-VL README’s “2 or 3 for 4×” makes it 1–1.5, drawn at 1.5.',
    '从 256K 到 512K：直接的比值是 2；按 Qwen3-VL 的 README 中“4 倍用 2 或 3”成比例地读，是 1–1.5，图中按 1.5 画出。') },
  { params: { method: 'linear' }, look: L('linear: every wavelength grows by the factor (3 here, interleaved M-RoPE), the fastest pairs’ too, so neighbouring tokens are squeezed closer — why position interpolation needs fine-tuning.',
    'linear：每个波长都乘以该因子（这里是交错式 M-RoPE 的 3），最快的通道对也一样，相邻词元被挤得更近——这就是位置插值需要微调的原因。') }],
  panels: () => [{ id: 'wavelengths', block: 'lines', height: 240, logY: true }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { config, target, method }) {
    const r = fromConfig(pe, config);
    const trained = r.original_max_position_embeddings ?? r.max_position_embeddings ?? 0;
    const ratio = trained > 0 ? target / trained : NaN;
    const interleaved = r.mrope_interleaved === true;
    // interleaved M-RoPE: the README's 3 (of "2 or 3") for 4×, read proportionally: ¾ of the ratio, the upper end
    const factor = Math.max(1, interleaved ? 0.75 * ratio : ratio);
    const base = { rotary_dim: r.rotary_dim, rope_theta: r.rope_theta };
    const before = pe.ropeInvFreqScaled({ rope_type: 'default', ...base });
    const after = factor > 1 ? pe.ropeInvFreqScaled({ rope_type: method, ...base, factor, original_max_position_embeddings: trained,
      max_position_embeddings: trained, seq_len: method === 'dynamic' ? target : 0 }) : before;
    const wl = (/** @type {Float64Array} */ inv) => Float64Array.from(inv, (t) => 2 * Math.PI / t);
    return { trained, target, ratio, factor, interleaved, range: interleaved ? [ratio / 2, (3 * ratio) / 4] : null,
      pair: Float64Array.from({ length: before.inv_freq.length }, (_, i) => i), before: wl(before.inv_freq), after: wl(after.inv_freq),
      attention: after.attention_scaling, source: r.source };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const reasons = r.ratio <= 1
      ? [L(`The target ${r.target} is within the trained ${r.trained}: no scaling needed (factor 1).`, `目标 ${r.target} 没有超过训练长度 ${r.trained}：不需要缩放（因子 1）。`)]
      : [L(`target / original_max_position_embeddings = ${r.target} / ${r.trained} = ${fmt(r.ratio)}.`, `目标长度 / original_max_position_embeddings = ${r.target} / ${r.trained} = ${fmt(r.ratio)}。`), WHY[p.method]];
    if (r.interleaved && r.ratio > 1) reasons.push(L(`Interleaved M-RoPE: Qwen3-VL’s README says factor 2 or 3, not 4, for 1M from 256K (position ids grow more slowly than the token count); read proportionally, ${fmt(r.range[0])}–${fmt(r.range[1])} here; drawn at ${fmt(r.factor)}.`,
      `交错式 M-RoPE：Qwen3-VL 的 README 说从 256K 到 1M 用 2 或 3 而不是 4（位置编号比词元数增长得慢）；按比例读，这里是 ${fmt(r.range[0])}–${fmt(r.range[1])}；图中按 ${fmt(r.factor)} 画出。`));
    return {
      wavelengths: { series: [{ x: r.pair, y: r.before, label: L('as trained', '训练时'), dash: [4, 3] },
        { x: r.pair, y: r.after, label: L(`${p.method}, factor ${fmt(r.factor)}${p.method === 'dynamic' ? ` (at ${r.target} tokens)` : ''}`, `${p.method}，因子 ${fmt(r.factor)}${p.method === 'dynamic' ? `（在 ${r.target} 个词元处）` : ''}`) }],
        marks: [{ y: r.trained, label: L(`trained ${r.trained}`, `训练长度 ${r.trained}`) }, { y: r.target, label: L(`target ${r.target}`, `目标 ${r.target}`) }],
        caption: L(`wavelength 2π/θᵢ of every pair (${r.source})`, `每一对的波长 2π/θᵢ（${r.source}）`), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens (log)', '词元数（对数）') },
      readouts: [{ id: 'ratio', label: L('target / trained length', '目标长度 / 训练长度'), value: r.ratio },
        { id: 'factor', label: L('factor', '因子'), value: r.factor, note: L(reasons.map((x) => x.en).join(' '), reasons.map((x) => x.zh).join('')) },
        { id: 'attention', label: L('attention_scaling (cos and sin multiplied by)', 'attention_scaling（cos 与 sin 乘以）'), value: r.attention },
        { id: 'slowest', label: L('slowest wavelength after scaling', '缩放后最慢的波长'), value: r.after[r.after.length - 1] }],
    };
  },
};

/** @param {number} x */
function fmt(x) { return Number(x.toPrecision(4)).toString(); }
