// @ts-check
// What the config figures share (config-wavelengths, -schedule, -decay, -scale, -mrope): the `config` parameter, reading
// it with pe.ropeFromConfig (a PosencError becomes a FigureError naming the key path, the rule in English and Chinese),
// and the layer types that rotate. Not a figure: the registry does not list it.
import { L, FigureError } from '../params.js';
import { errorText } from '../messages.js';
/** @typedef {import('../params.js').Posenc} Posenc */
/** @typedef {ReturnType<Posenc['ropeFromConfig']>} RopeFromConfig */
/** @typedef {RopeFromConfig['layer_types'][string] & object} ConfigRope */

/** Llama 4 Scout's position keys (every 4th layer NoPE, llama3 with equal band factors, attention temperature tuning): the default. */
export const LLAMA4 = '{"model_type": "llama4_text", "num_hidden_layers": 48, "head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 10485760, "attention_chunk_size": 8192, "attn_temperature_tuning": true, "floor_scale": 8192, "attn_scale": 0.1, "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}}';
/** Qwen2.5-VL 7B's position keys and the token ids get_rope_index reads. */
export const QWEN25VL = '{"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0, "max_position_embeddings": 128000, "image_token_id": 151655, "video_token_id": 151656, "vision_start_token_id": 151652, "vision_end_token_id": 151653, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}';

/** The `config` parameter with a default config.json. @param {string} def @returns {import('../params.js').ParamSpec} */
export const configParam = (def) => ({ type: 'string', default: def, maxLength: 20000, multiline: true, label: L('config.json', 'config.json') });

// Rules only the config reader's PosencErrors use → Chinese ($1… kept as written); the rules every API shares are
// translated by messages.js (errorText), which also sets the form: "参数错误：key path：rule。".
/** @type {Array<[RegExp, string | ((m: string, ...g: string[]) => string)]>} */
const RULES = [
  [/^must be an object \(a parsed config\.json\)$/, '必须是一个对象（解析后的 config.json）'],
  [/^must be an object(?: or null)? \(got (.+)\)$/, '必须是对象（收到 $1）'],
  [/^must be an integer \(got (.+)\)$/, '必须是整数（收到 $1）'],
  [/^must be a list of finite numbers \(got (.+)\)$/, '必须是有限数组成的列表（收到 $1）'],
  [/^must be a list of strings$/, '必须是字符串列表'],
  [/^must be >= (\w+) \(got (.+)\)$/, '必须不小于 $1（收到 $2）'],
  [/^length must equal (.+?) \(got (.+)\)$/, '长度必须等于 $1（收到 $2）'],
  [/^must sum to (.+?) \(got (.+)\)$/, '之和必须等于 $1（收到 $2）'],
  [/^must be a list of 3 non-negative integers \[t, h, w\] \(got (.+)\)$/, '必须是 3 个非负整数 [t, h, w]（收到 $1）'],
  [/^must be a list of 0\/1 per layer \(1 = the layer uses RoPE\)$/, '必须是每层一个 0/1 的列表（1 = 该层使用 RoPE）'],
  [/^has no entry for layer type '(.+?)' \(keys: (.+)\)$/, "缺少层类型 '$1' 的条目（现有的键：$2）"],
  [/^required when rope_parameters is keyed by layer type$/, 'rope_parameters 按层类型分组时必须提供'],
  [/^required to lay out the (NoPE layers|local\/global layer pattern)$/, (m, w) => `排出${w === 'NoPE layers' ? ' NoPE 层' : '局部/全局层的模式'}时必须提供`],
  [/^required with llama_4_scaling_beta \(the length of its steps\)$/, '有 llama_4_scaling_beta 时必须提供（它的台阶长度）'],
  [/^no layer uses RoPE$/, '没有任何层使用 RoPE'],
  [/^'(.+?)' uses (.+), not RoPE$/, "'$1' 使用的是$2，不是 RoPE"],
  [/^true means ALiBi, not RoPE$/, '为 true 表示 ALiBi，不是 RoPE'],
  [/^required, an integer token id \(got (.+)\)$/, '必须提供，且为整数词元编号（收到 $1）'],
];
/** @type {Array<[RegExp, string]>} */
const VALUES = [[/ \(a string\)/g, '（字符串）'], [/ \(a boolean\)/g, '（布尔值）'], [/learned absolute positions/g, '可学习的绝对位置'],
  [/T5 relative-position buckets/g, 'T5 的相对位置分桶'], [/DeBERTa relative positions/g, 'DeBERTa 的相对位置']];

/** A config reader PosencError ("key path: rule") as {en, zh}, in the page's form for errors (messages.js). */
/** @param {{ name: string, message: string }} e */
export function configErrorText(e) {
  const m = /^([\w.[\]-]+): (.+)$/s.exec(e.message);
  for (const [re, zh] of m ? RULES : []) {
    if (!re.test(/** @type {RegExpExecArray} */ (m)[2])) continue;
    let rule = /** @type {RegExpExecArray} */ (m)[2].replace(re, /** @type {any} */ (zh));
    for (const [v, z] of VALUES) rule = rule.replace(v, z);
    return L(e.message, `参数错误：${/** @type {RegExpExecArray} */ (m)[1]}：${rule}。`);
  }
  return errorText(e);
}

/** pe.ropeFromConfig, a PosencError turned into a FigureError on the `config` attribute. */
/** @param {Posenc} pe @param {unknown} config @param {Parameters<Posenc['ropeFromConfig']>[1]} [options] */
export function fromConfig(pe, config, options) {
  try {
    return pe.ropeFromConfig(config, options);
  } catch (e) {
    if (/** @type {Error} */ (e)?.name !== 'PosencError') throw e;
    throw new FigureError(configErrorText(/** @type {Error} */ (e)), 'config');
  }
}

/** The layer types that rotate, the default one first: [[name, rope]]. */
/** @param {RopeFromConfig} r @returns {Array<[string, ConfigRope]>} */
export function ropeTypes(r) {
  const all = /** @type {Array<[string, ConfigRope]>} */ (Object.entries(r.layer_types).filter(([, v]) => v));
  return [...all.filter(([t]) => t === r.layer_type), ...all.filter(([t]) => t !== r.layer_type)];
}

/** Short name of a layer type for labels ('sliding_attention' → 'sliding'). */
export const shortType = (/** @type {string} */ t) => t.replace(/_attention$/, '');

/** A layer type in Chinese prose ('full_attention' → '全局注意力'); unknown types keep their identifier. */
/** @type {Record<string, string>} */
const TYPE_ZH = { full_attention: '全局注意力', sliding_attention: '滑动窗口注意力', chunked_attention: '分块注意力', linear_attention: '线性注意力',
  global: '全局', local: '局部', conv: '卷积' };
export const typeZh = (/** @type {string} */ t) => TYPE_ZH[t] ?? TYPE_ZH[shortType(t)] ?? t;
/** Short label of a layer type in a language: en 'full', zh '全局注意力'. */
/** A layer type's identifier followed by its Chinese name: 'full_attention（全局注意力）'. */
export const typeNamed = (/** @type {string} */ t) => (typeZh(t) === t ? t : `${t}（${typeZh(t)}）`);

const num = (/** @type {number} */ x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6))));

/**
 * The scaling parameters a layer type's RoPE was read with, beyond factor and rope_theta, as {en, zh} phrases:
 * llama3's low_freq_factor / high_freq_factor and the bands the package computes (llama3_bands), YaRN's β_fast / β_slow,
 * mscale / mscale_all_dim (when set) and the ramp (yarn_correction_range); and the wavelength thresholds for a plot
 * ({y, name}: shorter wavelengths are kept, longer ones scaled; L = original_max_position_embeddings).
 */
/** @param {ConfigRope} t @returns {{ en: string[], zh: string[], thresholds: Array<{ y: number, name: string }> }} */
export function scalingFacts(t) {
  const p = t.params ?? {}, L0 = t.original_max_position_embeddings;
  /** @type {string[]} */ const en = [], zh = [];
  /** @type {Array<{ y: number, name: string }>} */ const thresholds = [];
  if (t.rope_type === 'llama3' && t.llama3_bands) {
    const b = t.llama3_bands, lo = p.low_freq_factor ?? 1, hi = p.high_freq_factor ?? 4;
    en.push(`low_freq_factor ${num(lo)}, high_freq_factor ${num(hi)}: pairs ${b.n_kept} kept / ${b.n_smoothed} smoothed / ${b.n_scaled} scaled (wavelength < ${num(b.high_freq_wavelen)} kept, > ${num(b.low_freq_wavelen)} divided by the factor)`);
    zh.push(`low_freq_factor ${num(lo)}，high_freq_factor ${num(hi)}：通道对保持 ${b.n_kept} / 平滑过渡 ${b.n_smoothed} / 缩放 ${b.n_scaled}（波长 < ${num(b.high_freq_wavelen)} 保持，> ${num(b.low_freq_wavelen)} 除以 factor）`);
    thresholds.push({ y: b.high_freq_wavelen, name: 'L/high_freq_factor' }, { y: b.low_freq_wavelen, name: 'L/low_freq_factor' });
  }
  if (t.rope_type === 'yarn') {
    const bf = p.beta_fast ?? 32, bs = p.beta_slow ?? 1, y = t.yarn_correction_range;
    en.push(`beta_fast ${num(bf)}, beta_slow ${num(bs)}${y ? `: ramp over pairs ${num(y.low)} … ${num(y.high)}` : ''}`);
    zh.push(`beta_fast ${num(bf)}，beta_slow ${num(bs)}${y ? `：第 ${num(y.low)} … ${num(y.high)} 对线性过渡` : ''}`);
    if (p.mscale || p.mscale_all_dim) { en.push(`mscale ${num(p.mscale ?? 0)}, mscale_all_dim ${num(p.mscale_all_dim ?? 0)}`); zh.push(`${t.source}.mscale = ${num(p.mscale ?? 0)}，${t.source}.mscale_all_dim = ${num(p.mscale_all_dim ?? 0)}`); }
    if (L0) thresholds.push({ y: L0 / bf, name: 'L/beta_fast' }, { y: L0 / bs, name: 'L/beta_slow' });
  }
  return { en, zh, thresholds };
}

/**
 * DeepSeek's softmax factor explained: mscale² with get_mscale(factor, mscale_all_dim) = 0.1·mscale_all_dim·ln(factor) + 1
 * (HF's DeepseekV3Attention; 1 when factor ≤ 1 or mscale_all_dim is 0).
 */
/** @param {ConfigRope} t @param {{ softmax_scale_factor: number }} mla */
export function mscaleNote(t, mla) {
  const p = t.params ?? {}, f = t.factor ?? 1, m = p.mscale_all_dim ?? 0;
  const g = f <= 1 || !m ? 1 : 0.1 * m * Math.log(f) + 1;
  return L(`softmax scale × mscale² = ${num(mla.softmax_scale_factor)}, mscale = get_mscale(factor, mscale_all_dim) = 0.1·mscale_all_dim·ln(factor) + 1 = 0.1·${num(m)}·ln ${num(f)} + 1 = ${num(g)}`,
    `softmax 缩放 × get_mscale(factor, mscale_all_dim)² = ${num(mla.softmax_scale_factor)}，get_mscale(factor, mscale_all_dim) = 0.1·mscale_all_dim·log(factor) + 1 = 0.1·${num(m)}·log(${num(f)}) + 1 = ${num(g)}（log 为自然对数）`);
}

// The package's notes (ropeFromConfig(...).warnings, English sentences naming keys) → Chinese; a note no rule matches
// is shown as written (its key names are identifiers).
/** @type {Array<[RegExp, string]>} */
const NOTES = [
  [/^(.+?): ignored; did you mean '(.+)'\?$/, "$1：已忽略；是不是想写 '$2'？"],
  [/^(.+?): (.+) not in the config: the defaults of HF's (.*) config class$/, '$1 中没有 $2：采用 Hugging Face 中 $3 配置类的默认值'],
  [/^(.+?): missing; HF v5 uses max_position_embeddings = (\d+), so the bands sit at the extended length$/,
    '$1：缺失；Hugging Face v5 改用 max_position_embeddings = $2，所以频段的边界落在扩展后的长度上'],
  [/^vision_config: no embed_dim \/ hidden_size and num_heads, so no vision_rope$/, 'vision_config：没有 embed_dim / hidden_size 与 num_heads，因此不给出 vision_rope'],
  [/^(.+?): ignored \(rope_type '(.+)' does not read it\)$/, "$1：已忽略（rope_type '$2' 不读这个键）"],
  [/^(.*)no_rope_layers: empty or not set; HF's default makes every 4th layer NoPE$/, '$1no_rope_layers：为空或未设置；按 Hugging Face 的默认值，每 4 层中有 1 层是 NoPE'],
  [/^(.+?): dynamic NTK \((.+?)\) — .*effective_base is the base at seq_len = (\d+)$/s,
    '$1：动态 NTK（$2）——每当最大位置 + 1 超过此前见过的最长长度，Hugging Face 就用 seq_len = 最大位置 + 1 重新计算 inv_freq（序列回到 max_position_embeddings 以内时恢复原值）；KV 缓存中已有的键保留旋转时所用底数的角度，所以超过 max_position_embeddings 后，缓存的键与新的键用的是不同的底数。effective_base 是 seq_len = $3 时的底数'],
];
/** One package note in both languages. */
/** @param {string} w */
export function noteText(w) {
  for (const [re, zh] of NOTES) if (re.test(w)) return L(w, w.replace(re, zh));
  return L(w, w);
}

/** One colour per layer kind, in the order the config lists its kinds, the same in every config figure; the unscaled
 * reference is grey and dashed everywhere (as in the context-extension figure). */
export const TYPE_COLOURS = ['#0072B2', '#D55E00', '#007A5A', '#A6488B'];
export const UNSCALED = { color: '#6b6b75', dash: [4, 3] };
