// Writes tests/fixtures/gguf/*.gguf: the header (and the small rope tensors) that llama.cpp's converter,
// convert_hf_to_gguf.py, writes for six real configs of tests/fixtures/configs. No weights: each file holds the
// RoPE-relevant key–values and tensors only. The mapping below is the converter's, ported by hand from ggml-org/llama.cpp
// (convert_hf_to_gguf.py at a458664fc83b6513baea7adafcb0ef0626b006f8; key names gguf-py/gguf/constants.py); the bytes are
// written by tests/js/gguf-writer.mjs and every fixture is read back by @huggingface/gguf in tests/js/gguf-fixtures.test.mjs.
// convertConfig(config) is the same port for every config fixture whose architecture it maps (the llama.cpp differential
// test, tests/engines/llamacpp.test.mjs, turns each into a header-only .gguf); it returns null for the others.
//   node scripts/gguf-fixtures.mjs      (deterministic: re-running rewrites identical files)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { T, ggufFile, f32Bytes } from '../tests/js/gguf-writer.mjs';

const root = new URL('../', import.meta.url);
const cfg = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/configs/${name}.json`, root), 'utf8'));

/** TextModel.set_gguf_parameters: the keys every text model gets. */
function base(arch, c, extra = []) {
  const kv = [['general.architecture', T.str, arch], [`${arch}.context_length`, T.u32, c.max_position_embeddings],
    [`${arch}.embedding_length`, T.u32, c.hidden_size], [`${arch}.block_count`, T.u32, c.num_hidden_layers],
    [`${arch}.attention.head_count`, T.u32, c.num_attention_heads], [`${arch}.attention.head_count_kv`, T.u32, c.num_key_value_heads ?? c.num_attention_heads]];
  const theta = c.rope_theta ?? c.rope_parameters?.rope_theta;   // v5 configs: rope_parameters (TextModel.rope_parameters)
  if (theta !== undefined) kv.push([`${arch}.rope.freq_base`, T.f32, theta]);
  if (c.head_dim !== undefined) kv.push([`${arch}.attention.key_length`, T.u32, c.head_dim], [`${arch}.attention.value_length`, T.u32, c.head_dim]);
  return [...kv, ...extra];
}

/**
 * LlamaModel.generate_extra_tensors for rope_type llama3: the per-pair divisors of the base frequencies (1 for high
 * frequencies, factor for low, the smooth blend between). The converter loops over torch float32 0-d tensors, so every
 * operation rounds to float32, and torch's `scalar / t` is `t.reciprocal() * scalar`: mirrored here with Math.fround
 * (checked against torch 2.11 running the converter's loop, and against scripts/gguf-fixtures-gguf-py.py).
 */
function llama3Factors(c) {
  const f = Math.fround, r = c.rope_scaling, dim = c.head_dim ?? c.hidden_size / c.num_attention_heads, b = c.rope_theta;
  const factor = r.factor ?? 8, lo = r.low_freq_factor ?? 1, hi = r.high_freq_factor ?? 4;
  const old = c.original_max_position_embeddings ?? 8192;   // the converter reads the top-level hparam (default 8192)
  const loWave = old / lo, hiWave = old / hi;
  return Array.from({ length: dim / 2 }, (_, i) => {
    const freq = f(1 / f(f(b) ** f(f(2 * i) / dim)));
    const wave = f(f(1 / freq) * f(2 * Math.PI));
    if (wave < hiWave) return 1;
    if (wave > loWave) return factor;
    const smooth = f(f(f(f(1 / wave) * f(old)) - f(lo)) / f(hi - lo));
    return f(1 / f(f(f(1 - smooth) / f(factor)) + smooth));
  });
}

const FIXTURES = {
  // LlamaModel: rope dimension = head size; llama3 scaling only as the rope_freqs tensor (no scaling keys)
  'Llama-3.1-8B': (c) => ({
    kv: base('llama', c, [['llama.rope.dimension_count', T.u32, c.hidden_size / c.num_attention_heads]]),
    tensors: [{ name: 'rope_freqs.weight', dims: [c.hidden_size / c.num_attention_heads / 2], type: 0, data: f32Bytes(llama3Factors(c)) }],
  }),
  // Phi3MiniModel: rope dims = n_embd / n_head, original context, attn_factor = sqrt(1 + ln(scale) / ln(orig)),
  // LongRoPE factors as rope_factors_long / rope_factors_short (F32)
  'Phi-3-mini-128k-instruct': (c) => {
    const orig = c.original_max_position_embeddings, scale = c.max_position_embeddings / orig;
    const attn = scale <= 1 ? 1 : Math.sqrt(1 + Math.log(scale) / Math.log(orig));
    const n = c.hidden_size / c.num_attention_heads / 2;
    return {
      kv: base('phi3', c, [['phi3.rope.dimension_count', T.u32, 2 * n], ['phi3.rope.scaling.attn_factor', T.f32, attn],
        ['phi3.rope.scaling.original_context_length', T.u32, orig]]),
      tensors: [{ name: 'rope_factors_long.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.long_factor) },
        { name: 'rope_factors_short.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.short_factor) }],
    };
  },
  // DeepseekV2Model: MLA lengths (key_length = kv_lora_rank + qk_rope_head_dim for the absorbed form), rope dims =
  // qk_rope_head_dim, YaRN keys from the scaling dict, yarn_log_multiplier = 0.1 · mscale_all_dim
  'DeepSeek-V3': (c) => {
    const r = c.rope_scaling;
    return {
      kv: base('deepseek2', c, [['deepseek2.attention.key_length', T.u32, c.kv_lora_rank + c.qk_rope_head_dim],
        ['deepseek2.attention.value_length', T.u32, c.kv_lora_rank], ['deepseek2.attention.key_length_mla', T.u32, c.qk_nope_head_dim + c.qk_rope_head_dim],
        ['deepseek2.attention.value_length_mla', T.u32, c.v_head_dim], ['deepseek2.rope.dimension_count', T.u32, c.qk_rope_head_dim],
        ['deepseek2.rope.scaling.type', T.str, 'yarn'], ['deepseek2.rope.scaling.factor', T.f32, r.factor],
        ['deepseek2.rope.scaling.original_context_length', T.u32, r.original_max_position_embeddings],
        ['deepseek2.rope.scaling.yarn_log_multiplier', T.f32, 0.1 * r.mscale_all_dim]]),
    };
  },
  // Gemma3Model: the text config's keys with Gemma3TextConfig's defaults (head_dim 256, 8 heads, rope_theta 1e6,
  // context 131072), linear scaling of the global layers, sliding_window; the local base 10000 is llama.cpp's (in code)
  'gemma-3-4b-it': (raw) => {
    const c = { num_attention_heads: 8, num_key_value_heads: 4, head_dim: 256, rope_theta: 1e6, max_position_embeddings: 131072, ...raw.text_config };
    return {
      kv: base('gemma3', c, [['gemma3.attention.sliding_window', T.u32, c.sliding_window], ['gemma3.rope.scaling.type', T.str, 'linear'],
        ['gemma3.rope.scaling.factor', T.f32, c.rope_scaling.factor]]),
    };
  },
  // Qwen2VLModel (Qwen2.5-VL): rope.dimension_sections = mrope_section padded to 4
  'Qwen2.5-VL-7B-Instruct': (c) => ({
    kv: base('qwen2vl', c, [['qwen2vl.rope.dimension_sections', T.arr, [T.i32, [...c.rope_scaling.mrope_section, 0]]]]),
  }),
  // Qwen3Model: plain RoPE, head_dim as key_length
  'Qwen3-8B': (c) => ({ kv: base('qwen3', c) }),
};

/** Replaces (or adds) key k's entry in a kv list. */
function setKv(kv, k, type, value) {
  const at = kv.findIndex((e) => e[0] === k);
  if (at >= 0) kv[at] = [k, type, value]; else kv.push([k, type, value]);
  return kv;
}
const swaPattern = (c) => [T.arr, [T.bool, c.layer_types.map((t) => t === 'sliding_attention')]];
/** The experts' keys (TextModel.set_gguf_parameters: num_local_experts / num_experts, num_experts_per_tok). */
const experts = (arch, c) => {
  const n = c.num_local_experts ?? c.num_experts, used = c.num_experts_per_tok;
  return n ? [[`${arch}.expert_count`, T.u32, n], [`${arch}.expert_used_count`, T.u32, used]] : [];
};
/**
 * TextModel.set_gguf_parameters' YaRN keys (conversion/base.py at ggml-org/llama.cpp 0024aa74): type, factor,
 * original_max_position_embeddings, then extrapolation_factor, attention_factor (or attn_factor), beta_fast, beta_slow when set.
 */
function yarnKeys(arch, r) {
  const kv = [[`${arch}.rope.scaling.type`, T.str, 'yarn'], [`${arch}.rope.scaling.factor`, T.f32, r.factor],
    [`${arch}.rope.scaling.original_context_length`, T.u32, r.original_max_position_embeddings]];
  if (r.extrapolation_factor != null) kv.push([`${arch}.rope.scaling.yarn_ext_factor`, T.f32, r.extrapolation_factor]);
  const af = r.attention_factor ?? r.attn_factor;
  if (af != null) kv.push([`${arch}.rope.scaling.yarn_attn_factor`, T.f32, af]);
  if (r.beta_fast != null) kv.push([`${arch}.rope.scaling.yarn_beta_fast`, T.f32, r.beta_fast]);
  if (r.beta_slow != null) kv.push([`${arch}.rope.scaling.yarn_beta_slow`, T.f32, r.beta_slow]);
  return kv;
}
/** LlamaModel for every llama config (Llama 3.2 as 3.1): the rope_freqs tensor when rope_type is llama3. */
function llamaModel(c) {
  const dim = c.head_dim ?? c.hidden_size / c.num_attention_heads;
  const r = c.rope_scaling ?? {};
  return {
    kv: base('llama', c, [['llama.rope.dimension_count', T.u32, dim]]),
    tensors: (r.rope_type ?? r.type) === 'llama3' ? [{ name: 'rope_freqs.weight', dims: [dim / 2], type: 0, data: f32Bytes(llama3Factors(c)) }] : [],
  };
}

/** Config model_type → the converter class's mapping (convert_hf_to_gguf.py at a458664, by the class named). */
const BY_TYPE = {
  llama: llamaModel,
  phi3: FIXTURES['Phi-3-mini-128k-instruct'],
  deepseek_v3: FIXTURES['DeepSeek-V3'],
  gemma3: FIXTURES['gemma-3-4b-it'],
  qwen2_5_vl: FIXTURES['Qwen2.5-VL-7B-Instruct'],
  qwen3: FIXTURES['Qwen3-8B'],
  // Qwen2Model: TextModel's keys (no head_dim in Qwen2 configs: key_length = n_embd / n_head in the loader)
  qwen2: (c) => ({ kv: base('qwen2', c) }),
  // Qwen3MoeModel: TextModel's keys and the experts'
  qwen3_moe: (c) => ({ kv: base('qwen3moe', c, [...experts('qwen3moe', c), ['qwen3moe.expert_feed_forward_length', T.u32, c.moe_intermediate_size]]) }),
  // GptOssModel: sliding_window, YaRN (factor, original_max_position_embeddings default 4096); the loader sets the
  // alternating pattern in code (period 2)
  gpt_oss: (c) => ({
    kv: base('gpt-oss', c, [...experts('gpt-oss', c), ['gpt-oss.attention.sliding_window', T.u32, c.sliding_window],
      ['gpt-oss.rope.scaling.type', T.str, 'yarn'], ['gpt-oss.rope.scaling.factor', T.f32, c.rope_scaling.factor],
      ['gpt-oss.rope.scaling.original_context_length', T.u32, c.rope_scaling.original_max_position_embeddings ?? 4096]]),
  }),
  // Exaone4Model: sliding_window, the per-layer pattern from layer_types (bool array), Llama 3 scaling as rope_freqs
  exaone4: (c) => ({
    kv: base('exaone4', c, [['exaone4.rope.dimension_count', T.u32, c.head_dim], ['exaone4.attention.sliding_window', T.u32, c.sliding_window],
      ['exaone4.attention.sliding_window_pattern', ...swaPattern(c)]]),
    tensors: [{ name: 'rope_freqs.weight', dims: [c.head_dim / 2], type: 0, data: f32Bytes(llama3Factors(c)) }],
  }),
  // Olmo2Model (Olmo 3): sliding_window and the per-layer pattern (bool array), YaRN from rope_scaling (TextModel)
  olmo3: (c) => ({ kv: base('olmo2', c, [['olmo2.attention.sliding_window', T.u32, c.sliding_window],
    ['olmo2.attention.sliding_window_pattern', ...swaPattern(c)], ...yarnKeys('olmo2', c.rope_scaling)]) }),
  // Mistral3Model.Ministral3Model (LlamaModel): head_dim rope dims, TextModel's YaRN keys, then yarn_log_multiplier =
  // mscale_all_dim (as is) and attention.temperature_scale = llama_4_scaling_beta
  mistral3: (raw) => {
    const c = raw.text_config, rp = c.rope_parameters;
    return {
      kv: base('mistral3', c, [['mistral3.rope.dimension_count', T.u32, c.head_dim], ...yarnKeys('mistral3', rp),
        ['mistral3.rope.scaling.yarn_log_multiplier', T.f32, rp.mscale_all_dim], ['mistral3.attention.temperature_scale', T.f32, rp.llama_4_scaling_beta]]),
    };
  },
  // Qwen3_5TextModel (Qwen3NextModel's keys): full_attention_interval, M-RoPE sections padded to 4, rope dims =
  // head_dim · partial_rotary_factor, the linear-attention (SSM) sizes
  qwen3_5: (raw) => {
    const c = raw.text_config, rp = c.rope_parameters, a = 'qwen35';
    return {
      kv: base(a, c, [[`${a}.full_attention_interval`, T.u32, c.full_attention_interval],
        [`${a}.rope.dimension_count`, T.u32, Math.trunc(c.head_dim * rp.partial_rotary_factor)],
        [`${a}.rope.dimension_sections`, T.arr, [T.i32, [...rp.mrope_section, 0]]],
        [`${a}.ssm.conv_kernel`, T.u32, c.linear_conv_kernel_dim], [`${a}.ssm.state_size`, T.u32, c.linear_key_head_dim],
        [`${a}.ssm.group_count`, T.u32, c.linear_num_key_heads], [`${a}.ssm.time_step_rank`, T.u32, c.linear_num_value_heads],
        [`${a}.ssm.inner_size`, T.u32, c.linear_value_head_dim * c.linear_num_value_heads]]),
    };
  },
  // LFM2Model (the VL checkpoint's text_config): head_count_kv per layer, 0 for the short-convolution layers
  lfm2_vl: (raw) => {
    const c = raw.text_config;
    return {
      kv: setKv(base('lfm2', c, [['lfm2.shortconv.l_cache', T.u32, c.conv_L_cache]]), 'lfm2.attention.head_count_kv', T.arr,
        [T.u32, c.layer_types.map((t) => (t === 'full_attention' ? c.num_key_value_heads : 0))]),
    };
  },
  // Phi2Model (phi, phi-1): rope dims = int(partial_rotary_factor · n_embd) // n_head, with transformers' PhiConfig
  // default 0.5 when the config has none (the converter reads the config through AutoConfig; a legacy rotary_dim key is
  // not read); no freq_base key (10000 both sides), context from n_positions / max_position_embeddings
  phi: (c) => {
    const kv = base('phi2', c, [['phi2.rope.dimension_count', T.u32, Math.trunc(Math.trunc((c.partial_rotary_factor ?? 0.5) * c.hidden_size) / c.num_attention_heads)]]);
    return { kv: kv.filter(([k]) => k !== 'phi2.rope.freq_base') };
  },
  // GPT2Model: block_count n_layer, context n_ctx, embedding n_embd, head_count n_head (learned positions, no RoPE keys)
  gpt2: (c) => ({ kv: [['general.architecture', T.str, 'gpt2'], ['gpt2.block_count', T.u32, c.n_layer], ['gpt2.context_length', T.u32, c.n_ctx],
    ['gpt2.embedding_length', T.u32, c.n_embd], ['gpt2.attention.head_count', T.u32, c.n_head]] }),
  // MiniCPM3Model: the MLA lengths (key_length = qk_nope + qk_rope, rope dims = qk_rope_head_dim, q/kv LoRA ranks), no
  // base (rope_theta absent: 10000 both sides) and no scaling keys; LongRoPE's factors as rope_factors_long/short (F32)
  minicpm3: (c) => {
    const n = c.qk_rope_head_dim / 2;
    return {
      kv: base('minicpm3', c, [['minicpm3.attention.q_lora_rank', T.u32, c.q_lora_rank], ['minicpm3.attention.kv_lora_rank', T.u32, c.kv_lora_rank],
        ['minicpm3.attention.key_length', T.u32, c.qk_nope_head_dim + c.qk_rope_head_dim], ['minicpm3.rope.dimension_count', T.u32, c.qk_rope_head_dim]]),
      tensors: [{ name: 'rope_factors_long.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.long_factor) },
        { name: 'rope_factors_short.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.short_factor) }],
    };
  },
  // ModernBertModel: sliding_window = local_attention, freq_base = global_rope_theta, freq_base_swa =
  // local_rope_theta, sliding_window_pattern = global_attn_every_n_layers
  modernbert: (c) => ({
    kv: base('modern-bert', { ...c, rope_theta: c.global_rope_theta }, [['modern-bert.attention.sliding_window', T.u32, c.local_attention],
      ['modern-bert.rope.freq_base_swa', T.f32, c.local_rope_theta], ['modern-bert.attention.sliding_window_pattern', T.u32, c.global_attn_every_n_layers]]),
  }),
};

/** The header-only .gguf the converter port writes for a config (bytes), or null when the port has no mapping for it. */
export function convertConfig(config) {
  const make = BY_TYPE[config.model_type];
  if (!make) return null;
  const f = make(config);
  return ggufFile({ kv: [...f.kv, ['general.name', T.str, config._name_or_path ?? config.model_type]], tensors: f.tensors ?? [] });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = new URL('tests/fixtures/gguf/', root);
  mkdirSync(out, { recursive: true });
  for (const [name, make] of Object.entries(FIXTURES)) {
    const f = make(cfg(name));
    writeFileSync(new URL(`${name}.gguf`, out), ggufFile({ kv: [...f.kv, ['general.name', T.str, name]], tensors: f.tensors ?? [] }));
  }
  console.log(`[gguf-fixtures] wrote ${Object.keys(FIXTURES).length} files to tests/fixtures/gguf/`);
}
