// Reading the RoPE settings of a Hugging Face model `config.json` (parsed here; computed in C++). Mirrors
// transformers' `RotaryEmbeddingConfigMixin.standardize_rope_params` / `validate_rope` and `_check_received_keys`,
// with one deliberate difference: unknown keys are an error here (HF logs a warning).
import type { RawRopeScaling } from './raw.js';
import { PosencError, booleanOr, countOr, finiteOr, numberList } from './validate.js';

/** HF `rope_type` names accepted by posenc (`'ntk'` is a posenc extension; `'su'` is Phi-3's legacy name of `'longrope'`). */
export type RopeType = 'default' | 'linear' | 'ntk' | 'dynamic' | 'yarn' | 'longrope' | 'llama3';

/** Required and optional keys of the scaling dict per rope_type (HF v5 validation functions). */
const KEYS: Record<RopeType, { required: string[]; optional: string[] }> = {
  default: { required: [], optional: [] },
  linear: { required: ['factor'], optional: [] },
  ntk: { required: ['factor'], optional: [] },
  dynamic: { required: ['factor'], optional: ['original_max_position_embeddings'] },
  yarn: {
    required: ['factor'],
    optional: ['original_max_position_embeddings', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'truncate'],
  },
  longrope: { required: ['short_factor', 'long_factor'], optional: ['factor', 'attention_factor', 'original_max_position_embeddings'] },
  llama3: { required: ['factor', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor'], optional: [] },
};
const ALWAYS = ['rope_type', 'type', 'rope_theta', 'partial_rotary_factor'];

export function ropeTypeOf(name: string, v: unknown): RopeType {
  if (typeof v !== 'string') throw new PosencError(`${name}: must be a string (got ${typeof v})`);
  if (v === 'su') return 'longrope';
  if (!Object.prototype.hasOwnProperty.call(KEYS, v)) {
    throw new PosencError(`${name}: must be one of ${Object.keys(KEYS).map((k) => `'${k}'`).join(', ')} (got '${v}')`);
  }
  return v as RopeType;
}

/** The flat scaling options of {@link Posenc.ropeInvFreqScaled}, HF names. */
export interface RopeScalingParams {
  rope_type?: RopeType | 'su';
  rope_theta?: number;
  rotary_dim: number;
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

/** Fills the raw struct (NaN = unset) from flat options; `prefix` names fields in errors. */
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

/** What {@link parseRopeConfig} reads out of a config.json. */
export interface RopeConfigInfo {
  rope_type: RopeType;
  head_dim: number;
  rotary_dim: number;
  partial_rotary_factor: number;
  rope_theta: number;
  max_position_embeddings: number | null;
  /** The flat parameters handed to the C++ core. */
  params: RopeScalingParams;
}

function positiveInt(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new PosencError(`${name}: must be a positive integer (got ${v === undefined ? 'undefined' : JSON.stringify(v)})`);
  }
  return v;
}

/**
 * Reads the RoPE settings of a config.json (object or JSON text), following transformers:
 * - head_dim: `head_dim` if set, else hidden_size // num_attention_heads;
 * - the scaling dict: `rope_scaling` (legacy), else `rope_parameters` (v5); rope_type from `rope_type`, else legacy `type`,
 *   else 'default';
 * - rope_theta: the dict's `rope_theta`, else top-level `rope_theta`, else GPT-NeoX `rotary_emb_base`, else 10000;
 * - partial_rotary_factor: the dict's, else top-level `partial_rotary_factor`, else GPT-NeoX `rotary_pct`, else 1;
 * - original_max_position_embeddings: longrope prefers the top-level field (Phi-3), then the dict's; yarn uses the
 *   dict's; both fall back to max_position_embeddings.
 * Errors name the key: missing required keys, unknown keys, wrong types.
 */
export function parseRopeConfig(config: unknown): RopeConfigInfo {
  let c: unknown = config;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c);
    } catch (e) {
      throw new PosencError(`config: not valid JSON (${(e as Error).message})`);
    }
  }
  if (c === null || typeof c !== 'object' || Array.isArray(c)) throw new PosencError('config: must be an object (a parsed config.json)');
  const cfg = c as Record<string, unknown>;
  let dictName = 'rope_scaling';
  let dict: unknown = cfg.rope_scaling;
  if (dict == null) {
    dictName = 'rope_parameters';
    dict = cfg.rope_parameters;
  }
  if (dict != null && (typeof dict !== 'object' || Array.isArray(dict))) {
    throw new PosencError(`config.${dictName}: must be an object or null (got ${Array.isArray(dict) ? 'array' : typeof dict})`);
  }
  const d = (dict ?? {}) as Record<string, unknown>;
  const key = (k: string) => `config.${dictName}.${k}`;

  const rawType = d.rope_type ?? d.type ?? 'default';
  const rope_type = ropeTypeOf(key(d.rope_type !== undefined ? 'rope_type' : 'type'), rawType);
  const spec = KEYS[rope_type];
  for (const k of spec.required) {
    if (d[k] === undefined || d[k] === null) throw new PosencError(`${key(k)}: required for rope_type '${rope_type}'`);
  }
  for (const k of Object.keys(d)) {
    if (!ALWAYS.includes(k) && !spec.required.includes(k) && !spec.optional.includes(k)) {
      throw new PosencError(`${key(k)}: unknown key for rope_type '${rope_type}' (allowed: ${[...spec.required, ...spec.optional].join(', ') || 'none'})`);
    }
  }

  let head_dim: number;
  if (cfg.head_dim != null) {
    head_dim = positiveInt('config.head_dim', cfg.head_dim);
  } else {
    const hidden = positiveInt('config.hidden_size', cfg.hidden_size);
    const heads = positiveInt('config.num_attention_heads', cfg.num_attention_heads);
    head_dim = Math.floor(hidden / heads);
  }
  const rope_theta = finiteOr(key('rope_theta'), d.rope_theta, NaN);
  const theta = Number.isNaN(rope_theta)
    ? finiteOr('config.rope_theta', cfg.rope_theta, finiteOr('config.rotary_emb_base', cfg.rotary_emb_base, 10000))
    : rope_theta;
  let prf = finiteOr(key('partial_rotary_factor'), d.partial_rotary_factor, NaN);
  if (Number.isNaN(prf)) prf = finiteOr('config.partial_rotary_factor', cfg.partial_rotary_factor, finiteOr('config.rotary_pct', cfg.rotary_pct, 1));
  const maxPos = cfg.max_position_embeddings == null ? null : positiveInt('config.max_position_embeddings', cfg.max_position_embeddings);

  const params: Record<string, unknown> = { ...d, rope_type, rope_theta: theta };
  delete params.type;
  delete params.partial_rotary_factor;
  for (const k of Object.keys(params)) {
    const v = params[k];
    const isList = k === 'short_factor' || k === 'long_factor';
    if (k === 'rope_type') continue;
    if (k === 'truncate' ? typeof v !== 'boolean' : isList ? !Array.isArray(v) : typeof v !== 'number') {
      throw new PosencError(`${key(k)}: must be ${k === 'truncate' ? 'a boolean' : isList ? 'a list of numbers' : 'a number'} (got ${v === null ? 'null' : typeof v})`);
    }
  }
  if (maxPos !== null) params.max_position_embeddings = maxPos;
  if (rope_type === 'longrope' && cfg.original_max_position_embeddings != null) {
    params.original_max_position_embeddings = positiveInt('config.original_max_position_embeddings', cfg.original_max_position_embeddings);
  }
  if ((rope_type === 'yarn' || rope_type === 'longrope') && params.original_max_position_embeddings == null) {
    if (maxPos === null) throw new PosencError(`config.max_position_embeddings: required for rope_type '${rope_type}'`);
    params.original_max_position_embeddings = maxPos;
  }
  if (rope_type === 'dynamic' && maxPos === null) throw new PosencError("config.max_position_embeddings: required for rope_type 'dynamic'");
  return {
    rope_type,
    head_dim,
    rotary_dim: 0, // filled by the caller (computed in C++: int(head_dim · partial_rotary_factor))
    partial_rotary_factor: prf,
    rope_theta: theta,
    max_position_embeddings: maxPos,
    params: params as unknown as RopeScalingParams,
  };
}
