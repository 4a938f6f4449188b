// The scaling dict of a Hugging Face config (`rope_scaling` / `rope_parameters`): rope_type names, the keys each
// rope_type reads (transformers' `RotaryEmbeddingConfigMixin._validate_*_rope_parameters`), and the flat struct the
// C++ core computes from. The config reader itself is in config/read.ts.
import type { Llama3Bands, RawRopeScaling, YarnCorrectionRange } from './raw.js';
import { PosencError, booleanOr, countOr, finiteOr, numberList } from './validate.js';

/**
 * HF `rope_type` names accepted by posenc. `'ntk'` (static NTK-aware base) is a posenc extension; legacy names
 * are read as HF reads them: `'su'` (Phi-3) = `'longrope'`, `'mrope'` (Qwen2-VL) = `'default'`.
 */
export type RopeType = 'default' | 'linear' | 'ntk' | 'dynamic' | 'yarn' | 'longrope' | 'llama3' | 'proportional';

/** Required and optional keys of the scaling dict per rope_type (HF v5 validation functions). */
export const KEYS: Record<RopeType, { required: string[]; optional: string[] }> = {
  default: { required: [], optional: [] },
  linear: { required: ['factor'], optional: [] },
  ntk: { required: ['factor'], optional: [] },
  dynamic: { required: ['factor'], optional: [] },
  yarn: {
    required: [],
    optional: ['factor', 'original_max_position_embeddings', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'truncate'],
  },
  longrope: { required: ['short_factor', 'long_factor'], optional: ['factor', 'attention_factor', 'original_max_position_embeddings'] },
  llama3: { required: ['factor', 'low_freq_factor', 'high_freq_factor'], optional: ['original_max_position_embeddings'] },
  proportional: { required: [], optional: ['factor'] },
};
/** Keys every rope_type accepts: the type itself, the base, the rotary share, and M-RoPE's axis split. */
export const ALWAYS = ['rope_type', 'type', 'rope_theta', 'partial_rotary_factor', 'mrope_section', 'mrope_interleaved'];

export function ropeTypeOf(name: string, v: unknown): RopeType {
  if (typeof v !== 'string') throw new PosencError(`${name}: must be a string (got ${typeof v})`);
  if (v === 'su') return 'longrope';
  if (v === 'mrope') return 'default';
  if (!Object.prototype.hasOwnProperty.call(KEYS, v)) {
    throw new PosencError(`${name}: must be one of ${Object.keys(KEYS).map((k) => `'${k}'`).join(', ')} (got '${v.length > 40 ? `${v.slice(0, 37)}...` : v}')`);
  }
  return v as RopeType;
}

/** The flat scaling options of {@link Posenc.ropeInvFreqScaled}, HF names. */
export interface RopeScalingParams {
  rope_type?: RopeType | 'su' | 'mrope';
  rope_theta?: number;
  /** Rotated channels (even). `proportional`: the whole head_dim. */
  rotary_dim: number;
  /** `proportional` only: the share of the head whose frequencies are non-zero (default 1). */
  partial_rotary_factor?: number;
  factor?: number;
  max_position_embeddings?: number;
  original_max_position_embeddings?: number;
  attention_factor?: number;
  beta_fast?: number;
  beta_slow?: number;
  mscale?: number;
  mscale_all_dim?: number;
  truncate?: boolean;
  short_factor?: ArrayLike<number>;
  long_factor?: ArrayLike<number>;
  low_freq_factor?: number;
  high_freq_factor?: number;
}

/** Fills the raw struct (NaN / 0 = unset) from flat options; `prefix` names fields in errors. */
export function rawScaling(o: Record<string, unknown>, prefix = ''): RawRopeScaling {
  const n = (k: string) => prefix + k;
  const rotary = o.rotary_dim;
  if (typeof rotary !== 'number' || !Number.isInteger(rotary)) {
    throw new PosencError(`${n('rotary_dim')}: must be an integer (got ${String(rotary)})`);
  }
  return {
    rope_type: ropeTypeOf(n('rope_type'), o.rope_type ?? 'default'),
    rope_theta: finiteOr(n('rope_theta'), o.rope_theta, 10000),
    rotary_dim: rotary,
    partial_rotary_factor: finiteOr(n('partial_rotary_factor'), o.partial_rotary_factor, 1),
    factor: finiteOr(n('factor'), o.factor, NaN),
    max_position_embeddings: countOr(n('max_position_embeddings'), o.max_position_embeddings, 0),
    original_max_position_embeddings: countOr(n('original_max_position_embeddings'), o.original_max_position_embeddings, 0),
    attention_factor: finiteOr(n('attention_factor'), o.attention_factor, NaN),
    // HF: `get("beta_fast") or 32` — a missing (or falsy) value means the default
    beta_fast: finiteOr(n('beta_fast'), o.beta_fast, 32) || 32,
    beta_slow: finiteOr(n('beta_slow'), o.beta_slow, 1) || 1,
    mscale: finiteOr(n('mscale'), o.mscale, 0),
    mscale_all_dim: finiteOr(n('mscale_all_dim'), o.mscale_all_dim, 0),
    truncate: booleanOr(n('truncate'), o.truncate, true),
    short_factor: o.short_factor == null ? new Float64Array(0) : numberList(n('short_factor'), o.short_factor),
    long_factor: o.long_factor == null ? new Float64Array(0) : numberList(n('long_factor'), o.long_factor),
    low_freq_factor: finiteOr(n('low_freq_factor'), o.low_freq_factor, 1),
    high_freq_factor: finiteOr(n('high_freq_factor'), o.high_freq_factor, 4),
  };
}

/** Result of {@link Posenc.ropeInvFreqScaled} (here, with the scaling parameters, so the config readers need not import the API). */
export interface ScaledInvFreq {
  /** rotary_dim/2 inverse frequencies, float64. */
  inv_freq: Float64Array;
  /** Multiplies cos and sin (HF `attention_scaling`); 1 for default, linear, ntk, dynamic, llama3, proportional. */
  attention_scaling: number;
  /** The base the frequencies come from: rope_theta, or the NTK-scaled base (ntk, dynamic at seq_len). */
  effective_base: number;
  /** The factor in use (yarn/longrope: max_position_embeddings / original when unset); null for default. */
  factor: number | null;
  /** yarn: the ramp's pair indices (see {@link Posenc.yarnCorrectionRange}); else null. */
  yarn_correction_range: YarnCorrectionRange | null;
  /** llama3: the band edges (see {@link Posenc.llama3Bands}); else null. */
  llama3_bands: Llama3Bands | null;
  /** longrope: the factor list used at seq_len; else null. */
  longrope_factors: 'short' | 'long' | null;
}
