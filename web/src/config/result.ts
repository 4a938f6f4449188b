// The result types of `pe.ropeFromConfig` (config/rope_from_config.ts computes them; config/engines.ts rewrites them
// per engine). Their own file so that neither of those imports the other's code.
import type { RopeScalingParams, RopeType } from '../rope_config.js';
import type { ScaledInvFreq } from '../rope_config.js';
import type { ConfigLayout } from './read.js';

/** The engines whose reading of a config posenc models (transformers is the reference). */
export type Engine = 'transformers' | 'vllm' | 'llama.cpp' | 'mlx';

/** The context length a result assumed, and where that number comes from. */
export interface EngineContext {
  /** Tokens; null where the engine sets none and none was given (transformers at initialisation). */
  length: number | null;
  /** Which option or default gave it, with the engine's code. */
  source: string;
}

/**
 * One RoPE of a config (one layer type's): its frequencies as {@link Posenc.ropeInvFreqScaled} gives them (attention_scaling,
 * effective_base, factor, yarn_correction_range, llama3_bands, longrope_factors), and where they came from.
 */
export interface ConfigRope extends ScaledInvFreq {
  rope_type: RopeType;
  /** Key path its parameters came from, e.g. `rope_parameters.full_attention` or `text_config.rope_scaling`. */
  source: string;
  /** The attention head's size (MLA: qk_rope_head_dim; Gemma 4 global layers: global_head_dim). */
  head_dim: number;
  /** Rotated channels: int(head_dim · partial_rotary_factor), GPT-J `rotary_dim`, proportional: head_dim. */
  rotary_dim: number;
  partial_rotary_factor: number;
  rope_theta: number;
  /** HunYuan's dynamic NTK `alpha` (present only then): a fixed base rope_theta·alpha^(d/(d−2)), the effective_base. */
  ntk_alpha?: number;
  max_position_embeddings: number | null;
  original_max_position_embeddings: number | null;
  /** rotary_dim/2 inverse frequencies, float64 (exact; HF's float32 ones are up to ~6 ulp off for llama3/longrope). */
  inv_freq: Float64Array;
  /** Channel pairing of the model's q/k. */
  layout: ConfigLayout;
  /** The flat parameters given to the C++ core ({@link Posenc.ropeInvFreqScaled} takes the same). */
  params: RopeScalingParams;
}

/** Result of {@link Posenc.ropeFromConfig}: the default RoPE at top level, plus every layer type and the schedule. */
export interface RopeFromConfig extends ConfigRope {
  /** The layer type whose RoPE is at top level. */
  layer_type: string;
  /** RoPE per HF layer type (`full_attention`, `sliding_attention`, `chunked_attention`, …); false: no RoPE. */
  layer_types: Record<string, ConfigRope | false>;
  /** Per decoder layer: its type and whether it rotates (false: NoPE); null when the config defines no schedule. */
  layers: { type: string; rope: boolean }[] | null;
  model_type: string | null;
  /** The sequence length the result is for (dynamic's base, LongRoPE's set); null = at init. */
  seq_len: number | null;
  /** Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): the rotary part is what the frequencies describe. */
  mla: {
    qk_rope_head_dim: number; qk_nope_head_dim: number; qk_head_dim: number; v_head_dim: number | null; rope_interleave: boolean;
    /** DeepSeek-V3.2's indexer: the pairing of its own rotary q/k (null: no indexer in the config). */
    indexer_layout?: ConfigLayout | null;
    /** The softmax scale qk_head_dim^(−1/2) · get_mscale(factor, mscale_all_dim)² (DeepSeek's yarn correction). */
    softmax_scale: number;
    /** get_mscale(factor, mscale_all_dim)², 1 without yarn mscale_all_dim. */
    softmax_scale_factor: number;
  } | null;
  /**
   * Query scaling by position p: Llama 4 (`attn_temperature_tuning`, form 'llama4') scales its NoPE layers' queries by
   * 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋); Ministral 3 / Devstral 2 (`rope_parameters.llama_4_scaling_beta`,
   * form 'ministral3') every layer's by 1 + attn_scale·ln(1 + ⌊p/floor_scale⌋), floor_scale = original_max_position_embeddings.
   * scale_at_seq_len: the factor at the last position, p = seq_len − 1.
   */
  attn_temperature: { floor_scale: number; attn_scale: number; form: 'llama4' | 'ministral3'; scale_at_seq_len: number | null } | null;
  /** M-RoPE (Qwen2-VL / 2.5-VL / 3-VL): [t, h, w] frequency counts; interleaved for Qwen3-VL. */
  mrope_section: [number, number, number] | null;
  mrope_interleaved: boolean | null;
  /**
   * The vision tower's 2-D axial RoPE: Pixtral (`vision_config` head_dim, rope_theta, image_size/patch_size) or the
   * Qwen-VL vision transformer (head_dim = embed_dim or hidden_size / num_heads, theta 10000); give it to
   * {@link Posenc.axial2dTables} as `{ rotary_dim, rope_theta, variant }`. Null for other configs.
   */
  vision_rope: { variant: 'pixtral' | 'qwen2_vl'; rotary_dim: number; rope_theta: number; max_patches_per_side: number | null } | null;
  /**
   * Qwen2.5-1M's `dual_chunk_attention_config` as vLLM reads it (DualChunkRotaryEmbedding): chunk_len = chunk_size − local_size;
   * positions are remapped so no query–key distance exceeds chunk_size ({@link Posenc.dualChunkDistances}). transformers
   * ignores the key (plain RoPE at every distance). Null when absent.
   */
  dual_chunk: { chunk_size: number; local_size: number; original_max_position_embeddings: number | null; chunk_len: number; source: string } | null;
  /** Keys ignored, defaults HF fills in, and how dynamic NTK's cache behaves. */
  warnings: string[];
  /** Whose reading of the config this is: present when options.engine was given (absent: transformers'). */
  engine?: Engine;
  /** With options.engine: where that engine's reading differs from transformers', with the engine's code it comes from. */
  engine_notes?: string[];
  /** With options.engine: the context length the reading assumed and where that number comes from (option or engine default). */
  context?: EngineContext;
}

