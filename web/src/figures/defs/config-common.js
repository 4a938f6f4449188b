// What the config figures share (config-wavelengths, -schedule, -decay, -scale, -mrope): the `config` parameter, reading
// it with pe.ropeFromConfig (a PosencError becomes a FigureError naming the key path, the rule in English and Chinese),
// and the layer types that rotate. Not a figure: the registry does not list it.
import { L, FigureError } from '../params.js';
import { errorText } from '../messages.js';

/** Llama 4 Scout's position keys (every 4th layer NoPE, llama3 with equal band factors, attention temperature tuning): the default. */
export const LLAMA4 = '{"model_type": "llama4_text", "num_hidden_layers": 48, "head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 10485760, "attention_chunk_size": 8192, "attn_temperature_tuning": true, "floor_scale": 8192, "attn_scale": 0.1, "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}}';
/** Qwen2.5-VL 7B's position keys and the token ids get_rope_index reads. */
export const QWEN25VL = '{"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0, "max_position_embeddings": 128000, "image_token_id": 151655, "video_token_id": 151656, "vision_start_token_id": 151652, "vision_end_token_id": 151653, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}';

export const configParam = (def) => ({ type: 'string', default: def, maxLength: 20000, multiline: true, label: L('config.json', 'config.json') });

// Rules only the config reader's PosencErrors use → Chinese ($1… kept as written); the rules every API shares are
// translated by messages.js (errorText), which also sets the form: "参数错误：key path：rule。".
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
const VALUES = [[/ \(a string\)/g, '（字符串）'], [/ \(a boolean\)/g, '（布尔值）'], [/learned absolute positions/g, '可学习的绝对位置'],
  [/T5 relative-position buckets/g, 'T5 的相对位置分桶'], [/DeBERTa relative positions/g, 'DeBERTa 的相对位置']];

/** A config reader PosencError ("key path: rule") as {en, zh}, in the page's form for errors (messages.js). */
export function configErrorText(e) {
  const m = /^([\w.[\]-]+): (.+)$/s.exec(e.message);
  for (const [re, zh] of m ? RULES : []) {
    if (!re.test(m[2])) continue;
    let rule = m[2].replace(re, zh);
    for (const [v, z] of VALUES) rule = rule.replace(v, z);
    return L(e.message, `参数错误：${m[1]}：${rule}。`);
  }
  return errorText(e);
}

/** pe.ropeFromConfig, a PosencError turned into a FigureError on the `config` attribute. */
export function fromConfig(pe, config, options) {
  try {
    return pe.ropeFromConfig(config, options);
  } catch (e) {
    if (e?.name !== 'PosencError') throw e;
    throw new FigureError(configErrorText(e), 'config');
  }
}

/** The layer types that rotate, the default one first: [[name, rope]]. */
export function ropeTypes(r) {
  const all = Object.entries(r.layer_types).filter(([, v]) => v);
  return [...all.filter(([t]) => t === r.layer_type), ...all.filter(([t]) => t !== r.layer_type)];
}

/** Short name of a layer type for labels ('sliding_attention' → 'sliding'). */
export const shortType = (t) => t.replace(/_attention$/, '');
