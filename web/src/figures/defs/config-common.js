// What the config figures share (config-wavelengths, -schedule, -decay, -scale, -mrope): the `config` parameter, reading
// it with pe.ropeFromConfig (a PosencError becomes a FigureError naming the key path, the rule in English and Chinese),
// and the layer types that rotate. Not a figure: the registry does not list it.
import { L, FigureError } from '../params.js';

/** Llama 4 Scout's position keys (every 4th layer NoPE, llama3 with equal band factors, attention temperature tuning): the default. */
export const LLAMA4 = '{"model_type": "llama4_text", "num_hidden_layers": 48, "head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 10485760, "attention_chunk_size": 8192, "attn_temperature_tuning": true, "floor_scale": 8192, "attn_scale": 0.1, "rope_scaling": {"rope_type": "llama3", "factor": 16.0, "low_freq_factor": 1.0, "high_freq_factor": 1.0, "original_max_position_embeddings": 8192}}';
/** Qwen2.5-VL 7B's position keys and the token ids get_rope_index reads. */
export const QWEN25VL = '{"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0, "max_position_embeddings": 128000, "image_token_id": 151655, "video_token_id": 151656, "vision_start_token_id": 151652, "vision_end_token_id": 151653, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}';

export const configParam = (def) => ({ type: 'string', default: def, maxLength: 20000, multiline: true, label: L('config.json', 'config.json') });

// Rules of the config reader's PosencErrors → Chinese ($1… kept as written); the path before ": " is kept as is.
const RULES = [
  [/^not valid JSON \((.*)\)$/s, '不是合法的 JSON（$1）'],
  [/^must be an object \(a parsed config\.json\)$/, '必须是一个对象（解析后的 config.json）'],
  [/^must be an object(?: or null)? \(got (.+)\)$/, '必须是对象（收到 $1）'],
  [/^must be a finite number ([<>]=?) (.+?) \(got (.+)\)$/, '必须是 $1 $2 的有限数（收到 $3）'],
  [/^must be a finite number \(got (.+)\)$/, '必须是有限数（收到 $1）'],
  [/^must be a number in (.+?) \(got (.+)\)$/, '必须是 $1 范围内的数（收到 $2）'],
  [/^must be a positive integer \(got (.+)\)$/, '必须是正整数（收到 $1）'],
  [/^must be an integer(?: in \[(.+?)\])? \(got (.+)\)$/, (m, r, g) => `必须是${r ? ` [${r}] 范围内的` : ''}整数（收到 ${g}）`],
  [/^must be a boolean \(got (.+)\)$/, '必须是布尔值（收到 $1）'],
  [/^must be a string \(got (.+)\)$/, '必须是字符串（收到 $1）'],
  [/^must be a list of finite numbers \(got (.+)\)$/, '必须是有限数组成的列表（收到 $1）'],
  [/^must be a list of strings$/, '必须是字符串列表'],
  [/^must be one of (.+?) \(got (.+)\)$/, '必须是 $1 之一（收到 $2）'],
  [/^must be >= (\w+) \(got (.+)\)$/, '必须不小于 $1（收到 $2）'],
  [/^rotary_dim = int\(head_dim \* partial_rotary_factor\) must be even \(got (.+)\)$/, '给出的 rotary_dim = int(head_dim × partial_rotary_factor) 必须是偶数（收到 $1）'],
  [/^length must equal (.+?) \(got (.+)\)$/, '长度必须等于 $1（收到 $2）'],
  [/^must sum to (.+?) \(got (.+)\)$/, '之和必须等于 $1（收到 $2）'],
  [/^must be a list of 3 non-negative integers \[t, h, w\] \(got (.+)\)$/, '必须是 3 个非负整数 [t, h, w]（收到 $1）'],
  [/^must be a list of 0\/1 per layer \(1 = the layer uses RoPE\)$/, '必须是每层一个 0/1 的列表（1 = 该层使用 RoPE）'],
  [/^required for rope_type '(.+?)' \(and (.+?) is not set either\)$/, "在 rope_type 为 '$1' 时必须提供（$2 也未设置）"],
  [/^(?:is )?required for rope_type '(.+?)'$/, "在 rope_type 为 '$1' 时必须提供"],
  [/^unknown key for rope_type '(.+?)' \(did you mean '(.+?)'\?\)$/, "不是 rope_type '$1' 的键（是否想写 '$2'？）"],
  [/^has no entry for layer type '(.+?)' \(keys: (.+)\)$/, "缺少层类型 '$1' 的条目（现有的键：$2）"],
  [/^required when rope_parameters is keyed by layer type$/, '在 rope_parameters 按层类型分组时必须提供'],
  [/^required to lay out the (NoPE layers|local\/global layer pattern)$/, (m, w) => `在排出${w === 'NoPE layers' ? ' NoPE 层' : '局部/全局层的模式'}时必须提供`],
  [/^no layer uses RoPE$/, '没有任何层使用 RoPE'],
  [/^'(.+?)' uses (.+), not RoPE$/, "'$1' 使用的是 $2，不是 RoPE"],
  [/^true means ALiBi, not RoPE$/, '为 true 表示 ALiBi，不是 RoPE'],
  [/^required, an integer token id \(got (.+)\)$/, '必须提供，且为整数词元 id（收到 $1）'],
];
const VALUES = [[/ \(a string\)/g, '（字符串）'], [/ \(a boolean\)/g, '（布尔值）'], [/ ?learned absolute positions/g, '可学习的绝对位置']];

/** A config reader message "path: rule" in English and Chinese ("config: rule" is about the whole file). */
export function configErrorText(msg) {
  const m = /^([\w.[\]-]+): (.+)$/s.exec(msg);
  if (!m) return L(`config.json: ${msg}`, `读取 config.json 失败：${msg}`);
  const [, path, ruleEn] = m, whole = path === 'config';
  const en = whole ? `config.json: ${ruleEn}` : `config.json: ${msg}`;
  for (const [re, zh] of RULES) {
    if (!re.test(ruleEn)) continue;
    let rule = ruleEn.replace(re, zh);
    for (const [v, z] of VALUES) rule = rule.replace(v, z);
    return L(en, whole ? `config.json ${rule}。` : `config.json 中的 ${path} ${rule}。`);
  }
  return L(en, `config.json 中的 ${path} 取值不被接受（${ruleEn}）。`);
}

/** pe.ropeFromConfig, a PosencError turned into a FigureError on the `config` attribute. */
export function fromConfig(pe, config, options) {
  try {
    return pe.ropeFromConfig(config, options);
  } catch (e) {
    if (e?.name !== 'PosencError') throw e;
    throw new FigureError(configErrorText(e.message), 'config');
  }
}

/** The layer types that rotate, the default one first: [[name, rope]]. */
export function ropeTypes(r) {
  const all = Object.entries(r.layer_types).filter(([, v]) => v);
  return [...all.filter(([t]) => t === r.layer_type), ...all.filter(([t]) => t !== r.layer_type)];
}

/** Short name of a layer type for labels ('sliding_attention' → 'sliding'). */
export const shortType = (t) => t.replace(/_attention$/, '');
