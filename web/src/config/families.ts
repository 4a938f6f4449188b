// What model families add to the config reader (config/read.ts): the values HF's config classes use for keys a
// config.json omits, the families that pair channels interleaved, HunYuan's NTK `alpha`, and the rope_type names other
// engines document that posenc does not compute (a clear error instead of a guess).
import { PosencError } from '../validate.js';

type Obj = Record<string, unknown>;

/**
 * Position defaults of HF config classes (transformers v5) whose published config.json may omit them: Gemma 3's
 * multimodal checkpoints list only what differs from `Gemma3TextConfig`; `default_theta` is the class's base when
 * rope_theta is missing (PreTrainedConfig's is 10000): Ernie4_5Config 500000 (head_dim 128), Olmo3Config 500000,
 * PhimoeConfig 1e6 (huggingface/transformers models/{ernie4_5,olmo3,phimoe}/configuration_*.py).
 */
export const HF_DEFAULTS: Record<string, Obj> = {
  gemma3_text: { num_attention_heads: 8, head_dim: 256, rope_theta: 1_000_000, rope_local_base_freq: 10_000, sliding_window_pattern: 6,
    max_position_embeddings: 131_072 },
  ernie4_5: { rope_theta: 500_000, head_dim: 128, max_position_embeddings: 131_072 },
  ernie4_5_moe: { rope_theta: 500_000, head_dim: 128, max_position_embeddings: 131_072 },
  olmo3: { rope_theta: 500_000 },
  phimoe: { rope_theta: 1_000_000 },
  // Llama4TextConfig: attn_temperature_tuning=True, floor_scale=8192, attn_scale=0.1 (transformers
  // models/llama4/configuration_llama4.py): a config.json without the keys still scales its NoPE layers' queries
  llama4_text: { attn_temperature_tuning: true, floor_scale: 8192, attn_scale: 0.1 },
  llama4: { attn_temperature_tuning: true, floor_scale: 8192, attn_scale: 0.1 },
};

/**
 * Families whose q/k pairs are (2i, 2i + 1): GPT-J and CodeGen (`rotate_every_two`), Cohere, GLM / Ernie 4.5
 * (GLM's `rotate_half` takes x[..., 0::2], x[..., 1::2]; Ernie 4.5 imports it and repeat_interleaves cos/sin —
 * huggingface/transformers models/ernie4_5/modular_ernie4_5.py), and Llama 4 (`apply_rotary_emb` views q/k as
 * complex numbers of consecutive channels, `torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))` —
 * transformers models/llama4/modeling_llama4.py; vLLM permutes the checkpoint's q/k rows to run the same pairs with
 * its NeoX kernel, llama.cpp's converter writes them unpermuted for its NORM kernel, mlx-lm uses traditional=True).
 */
export const INTERLEAVED = new Set(['gptj', 'codegen', 'cohere', 'cohere2', 'glm', 'glm4', 'ernie4_5', 'ernie4_5_moe', 'llama4', 'llama4_text']);

/**
 * rope_type names of vLLM's get_rope (vllm/model_executor/layers/rotary_embedding/__init__.py) and model code that
 * posenc does not compute, with what they are; reading one is a PosencError naming it, not a silent default.
 */
const UNSUPPORTED: Record<string, string> = {
  xdrope: "vLLM's XD-RoPE for HunYuan-VL (xdrope_section: the rotary dims split over 4 position axes)",
  mllama4: "vLLM's Llama 4 vision-encoder 2-D RoPE (for 2-D RoPE see vision_rope / axial2dTables)",
  openpangu: "vLLM's openPangu interleaved M-RoPE",
  deepseek_llama_scaling: "vLLM's DeepSeek YaRN frequencies without the YaRN magnitude (apply_yarn_scaling: false)",
};
/** vLLM-internal names of HF rope types (vLLM rewrites DeepSeek's 'yarn' into these): read as HF reads the original. */
export const ALIASES: Record<string, string> = { deepseek_yarn: 'yarn' };

/**
 * Throws for a documented rope_type posenc does not compute (and for vLLM's mixed NTK, `ntk` with `mixed_b`); returns the
 * HF name for a vLLM-internal alias. `path`: the key path of the type key, `d`: its dict.
 */
export function checkRopeType(path: string, v: unknown, d: Obj): unknown {
  if (typeof v !== 'string') return v;
  if (v === 'ntk' && d.mixed_b != null) throw new PosencError(`${path.replace(/\.[a-z_]+$/, '')}.mixed_b: vLLM's mixed NTK (ntk with mixed_b) is not supported by posenc`);
  if (Object.prototype.hasOwnProperty.call(UNSUPPORTED, v)) throw new PosencError(`${path}: rope_type '${v}' (${UNSUPPORTED[v]}) is not supported by posenc`);
  return ALIASES[v] ?? v;
}

/**
 * HunYuan's dynamic NTK with `alpha` (HunYuan's DynamicNTKAlphaRotaryEmbedding; vllm-project/vllm@a42938c2
 * dynamic_ntk_alpha_rope.py): a static base θ·alpha^(d/(d−2)) at every length. Returns the dict to read as 'default' with
 * that base (set where the rotary dimension d is known), or null when the dict is not one.
 */
export function ntkAlpha(d: Obj, path: string): { alpha: number; dict: Obj } | null {
  const type = d.rope_type ?? d.type;
  if (type !== 'dynamic' || d.alpha === undefined || d.alpha === null) return null;
  const alpha = d.alpha;
  if (typeof alpha !== 'number' || !Number.isFinite(alpha) || alpha < 1 || alpha > 1e12) {
    throw new PosencError(`${path}.alpha: must be a finite number in [1, 1e12] (got ${String(alpha)})`);
  }
  const { alpha: _a, factor: _f, rope_type: _r, type: _t, ...rest } = d;
  return { alpha, dict: { ...rest, rope_type: 'default' } };
}

/**
 * Configs whose positions posenc does not model, refused by the key that says so: DeepSeek-V4's compressed-attention
 * layers rotate with a second base (`compress_rope_theta` on the layers with compress_ratios > 1; vLLM
 * build_deepseek_v4_rope), which one RoPE per layer type cannot express.
 */
export function checkFamily(text: Obj, tp: string): void {
  for (const k of ['compress_rope_theta', 'compress_ratios']) {
    if (text[k] !== undefined && text[k] !== null) {
      throw new PosencError(`${tp}${k}: DeepSeek-V4's compressed-attention RoPE (a second base on the compressed layers) is not supported by posenc`);
    }
  }
}

/** transformers' M-RoPE position layouts beyond text/image/video (Qwen-Omni-style audio, indexed images). */
const MROPE_LAYOUTS = new Set(['indexed_images', 'audio_chunked', 'audio_merged']);

/**
 * Shipped YaRN variants and layouts, read by name (`d` one scaling dict at `path`):
 * - TeleChat3's `telechat3-yarn`: YaRN's frequencies with the magnitude 1 + 0.07·ln(factor) (times attn_factor) instead of
 *   0.1·ln (vllm-project/vllm@d5a17e05 vllm/model_executor/layers/rotary_embedding/telechat3_scaling_rope.py,
 *   get_mscale); read as 'yarn' with that attention_factor (mlx-lm reads the name as plain YaRN, ml-explore/mlx-lm@d78bf58e
 *   rope_utils.py initialize_rope).
 * - Grok's `extra_method` (vllm-project/vllm@e443db5a grok1_scaling_rope.py: 'yarn_log' interpolates log-frequencies,
 *   'theta_scale' rescales the base): refused by key — the dict's key set is not documented outside vLLM's model code.
 * - M-RoPE layouts 'indexed_images', 'audio_chunked', 'audio_merged': refused by key (their position ids are built in
 *   transformers' processors, not from the config).
 */
export function readVariant(d: Obj, path: string): Obj {
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === 'string' && MROPE_LAYOUTS.has(v)) {
      throw new PosencError(`${path}.${k}: M-RoPE layout '${v}' (transformers' audio / indexed-image position ids) is not supported by posenc`);
    }
  }
  if (d.extra_method !== undefined) {
    throw new PosencError(`${path}.extra_method: Grok's YaRN variant (extra_method '${String(d.extra_method).slice(0, 40)}': log-frequency ` +
      'interpolation or a rescaled base, vLLM grok1_scaling_rope.py) is not supported by posenc');
  }
  if ((d.rope_type ?? d.type) !== 'telechat3-yarn') return d;
  const factor = d.factor;
  if (typeof factor !== 'number' || !Number.isFinite(factor)) throw new PosencError(`${path}.factor: required for rope_type 'telechat3-yarn', a finite number`);
  const attn = typeof d.attn_factor === 'number' ? d.attn_factor : 1;
  const { type: _t, attn_factor: _a, ...rest } = d;
  return { ...rest, rope_type: 'yarn', attention_factor: (factor <= 1 ? 1 : 0.07 * Math.log(factor) + 1) * attn };
}
