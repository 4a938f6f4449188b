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

/** Llama 3.1 8B's config.json, verbatim (as in the config reader's gallery): llama3 scaling, factor 8, from 8192: the default. */
export const LLAMA31 = '{"architectures":["LlamaForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"bos_token_id":128000,"eos_token_id":128001,"hidden_act":"silu","hidden_size":4096,"initializer_range":0.02,"intermediate_size":14336,"max_position_embeddings":131072,"mlp_bias":false,"model_type":"llama","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"pretraining_tp":1,"rms_norm_eps":1e-05,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","transformers_version":"4.43.0.dev0","use_cache":true,"vocab_size":128256}';
/** Qwen3.5-9B's position keys (its config.json, verbatim values: interleaved M-RoPE, 262144 trained): a try. */
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
  takeaway: L('The factor is the target over the trained length (the read-outs give it for the file loaded). For the default file, Llama 3.1 8B, from its original_max_position_embeddings 8192 to 131072 it is 16, and yarn at 16 stretches the slowest pairs 16 times, keeps the fastest, and scales attention by 1.2773. Llama 3.1’s own config.json says llama3, factor 8, for the same 16× — Meta’s choice, with long-context pre-training to 128K after it (Llama 3 paper, 2024), not the ratio; the figure draws the ratio. Interleaved M-RoPE (Qwen3.5, Qwen3-VL) needs less — the Qwen3-VL README says 2 or 3, not 4, for 1M tokens from 256K — because its position ids grow more slowly than the token count.',
    '因子等于目标长度除以训练长度（读数给出当前载入文件的值）。以默认文件 Llama 3.1 8B 为例，从 original_max_position_embeddings 的 8192 到 131072 是 16，yarn 取 16 时最慢的通道对拉长 16 倍，最快的不变，注意力乘以 1.2773。Llama 3.1 自己的 config.json 写的是 llama3、因子 8，对应同样的 16 倍——这是 Meta 的选择，之后还做了到 128K 的长上下文预训练（Llama 3 论文，2024），并不是比值；图中画的是比值。交错式 M-RoPE（Qwen3.5、Qwen3-VL）需要的更小——Qwen3-VL 的 README 说从 256K 到 1M 用 2 或 3 而不是 4——因为它的位置编号比词元数增长得慢。'),
  params: {
    config: configParam(LLAMA31),
    target: { type: 'enum', values: [32768, 65536, 131072, 262144, 524288, 1048576], default: 131072, label: L('Target length', '目标长度') },
    method: { type: 'enum', values: ['linear', 'dynamic', 'yarn'], default: 'yarn', label: L('Method', '方法') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { method: 'linear' }, look: L('linear: every wavelength grows 16 times, the fastest pairs’ too, so neighbouring tokens are squeezed closer — why position interpolation needs fine-tuning.',
    'linear：每个波长都变为 16 倍，最快的通道对也一样，相邻词元被挤得更近——这就是位置插值需要微调的原因。') },
  { params: { method: 'dynamic' }, look: L('dynamic NTK at 131072 tokens: the fastest pair is unchanged, the slowest wavelength grows 241 times (16² − 16 + 1), not 16.',
    'dynamic NTK 在 131072 个词元处：最快的通道对不变，最慢的波长变为 241 倍（16² − 16 + 1），而不是 16 倍。') },
  { params: { config: QWEN35, target: 1048576 }, look: L('Qwen3.5 9B, interleaved M-RoPE as in Qwen3-VL, 1M from 262144: the ratio is 4, drawn at 3 — the Qwen3-VL README says factor 2 or 3, not 4.',
    'Qwen3.5 9B，与 Qwen3-VL 一样是交错式 M-RoPE，从 262144 到 1M：比值是 4，图中按 3 画出——Qwen3-VL 的 README 说因子用 2 或 3，而不是 4。') }],
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
      attention: after.attention_scaling, source: r.source, own: r.rope_type !== 'default' && r.params.factor ? { type: r.rope_type, factor: r.params.factor } : null };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const reasons = r.ratio <= 1
      ? [L(`The target ${r.target} is within the trained ${r.trained}: no scaling needed (factor 1).`, `目标 ${r.target} 没有超过训练长度 ${r.trained}：不需要缩放（因子 1）。`)]
      : [L(`target / original_max_position_embeddings = ${r.target} / ${r.trained} = ${fmt(r.ratio)}.`, `目标长度 / original_max_position_embeddings = ${r.target} / ${r.trained} = ${fmt(r.ratio)}。`), WHY[p.method]];
    if (r.own && r.own.factor !== r.factor) reasons.push(L(`This config.json’s own rope_scaling says ${r.own.type}, factor ${fmt(r.own.factor)}: its makers’ choice; drawn here: the rule above, factor ${fmt(r.factor)} with ${p.method}.`,
      `这个 config.json 自己的 rope_scaling 写的是 ${r.own.type}、因子 ${fmt(r.own.factor)}：这是模型作者的选择；图中画的是上面的规则，用 ${p.method}、因子 ${fmt(r.factor)}。`));
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
