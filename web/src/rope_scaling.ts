// RoPE extras (cpp/src/rope_scaling.cpp): partial rotary, context extension (HF rope_scaling), the complex form.
// Reading config.json lives in config/ (read.ts: the keys; rope_from_config.ts: the result); the methods here delegate.
import { Core } from './core.js';
import { ropeFromConfigOf } from './config/rope_from_config.js';
import type { ConfigRope, RopeFromConfig } from './config/rope_from_config.js';
import type { Llama3Bands, YarnCorrectionRange } from './raw.js';
import { rawScaling } from './rope_config.js';
import type { RopeScalingParams, ScaledInvFreq } from './rope_config.js';
export type { ScaledInvFreq } from './rope_config.js';
import { WasmBuffer, intoOut } from './buffers.js';
import { ATTENTION_SCALING, ropeInvFreqOf, tables } from './rope.js';
import type { Out, RopeFrequencyOptions } from './rope.js';
import { PosencError, check } from './validate.js';
import type { Positions } from './validate.js';
import { any, array, bool, f64, int, num, optional, out, parse, positions } from './options.js';
import type { Schema } from './options.js';

export type { ConfigRope, Llama3Bands, RopeFromConfig, YarnCorrectionRange };
export type { Engine, EngineContext } from './config/engines.js';

/** Options of {@link Posenc.ropeFromConfig}. */
export interface RopeFromConfigOptions {
  /** Current sequence length (dynamic NTK's base, LongRoPE's factor set, the query scale); default: at init. */
  seq_len?: number;
  /**
   * Whose reading of the config (default 'transformers', the reference). 'vllm': YaRN's attention factor is
   * 1 + 0.1·ln(factor) for non-MLA models (attention_factor / mscale / mscale_all_dim unread); dynamic NTK static at
   * the base (unscaled at every length); LongRoPE factors by `max_model_len`. 'llama.cpp' (a converted GGUF): dynamic NTK
   * dropped (no GGUF form); LongRoPE factors by the allocated context `n_ctx`; llama3 through F32 `rope_freqs`
   * divisors; sliding-window layer types inherit the full-attention layers' scaling (except Gemma 3). Each difference
   * found is stated in `engine_notes` with the engine's code at a commit.
   */
  engine?: 'transformers' | 'vllm' | 'llama.cpp' | 'mlx';
  /**
   * llama.cpp: the context allocated per sequence (`-c`), padded to a multiple of 256. Default (and 0): what llama-cli
   * and llama-server use, `-c 0` = the trained context n_ctx_train (the GGUF's context_length, the config's
   * max_position_embeddings); they lower it to fit free device memory (not below 4096). The library's own
   * `llama_context_default_params` has 512: pass `n_ctx: 512`.
   */
  n_ctx?: number;
  /** vLLM: `--max-model-len`; default the model's max_position_embeddings. */
  max_model_len?: number;
}

/** Options of {@link Posenc.ropeInvFreqScaled}: the scaling dict's fields with HF names, flattened. */
export interface RopeScalingOptions extends RopeScalingParams {
  /**
   * Current sequence length (default 0 = "at init"). `dynamic`: L in the formula (no effect while
   * L ≤ max_position_embeddings); `longrope`: long factors when seq_len > original_max_position_embeddings.
   */
  seq_len?: number;
}

const ROTARY_DIM: Schema = { head_dim: int(1, 8192), partial_rotary_factor: optional(num({ gt: 0, max: 1 })), rotary_pct: optional(num({ gt: 0, max: 1 })) };
/** Options of the scaling dict (types checked by rope_config.ts's rawScaling, rotary_dim and seq_len here): keys known. */
const scaling = (keys: string[]): Schema => Object.fromEntries(keys.map((k) => [k, k === 'rotary_dim' ? int(2, 8192)
  : k === 'seq_len' ? num({ min: 0 }, 0) : optional(any())]));
const SCALING = scaling(['rope_type', 'rope_theta', 'rotary_dim', 'partial_rotary_factor', 'factor', 'max_position_embeddings',
  'original_max_position_embeddings', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'truncate',
  'short_factor', 'long_factor', 'low_freq_factor', 'high_freq_factor', 'seq_len']);
const YARN_RANGE = scaling(['rotary_dim', 'rope_theta', 'original_max_position_embeddings', 'max_position_embeddings', 'beta_fast',
  'beta_slow', 'truncate']);
const LLAMA3_BANDS = scaling(['rotary_dim', 'rope_theta', 'original_max_position_embeddings', 'low_freq_factor', 'high_freq_factor']);
const DYNAMIC_BASE = scaling(['rotary_dim', 'rope_theta', 'factor', 'max_position_embeddings', 'seq_len']);
const TABLES_SCALED: Schema = { inv_freq: array(4096), attention_scaling: ATTENTION_SCALING, positions: positions(), duplicate: bool(false), out: out() };
const FREQS_CIS: Schema = { rotary_dim: int(2, 8192), rope_theta: num({ gt: 0 }, 10000), positions: positions(), out: out() };

/** The options object as rawScaling reads it, after its keys and rotary_dim/seq_len are checked. */
function scalingOf(method: string, schema: Schema, options: unknown): Record<string, unknown> {
  const o = parse(method, schema, options);
  return { ...(options as Record<string, unknown>), rotary_dim: o.rotary_dim, seq_len: o.seq_len };
}

/** RoPE context extension and the complex form. */
export class RopeScalingApi extends Core {
  /**
   * Rotated channels for a partial rotary factor: `int(head_dim · partial_rotary_factor)` (Python truncation, as HF
   * `partial_rotary_factor` and GPT-NeoX `rotary_pct`); the first rotary_dim channels rotate, the rest pass through.
   * @throws PosencError if the factor is not in (0, 1] or the result is odd or < 2 (HF would round an odd one up).
   */
  rotaryDim(options: { head_dim: number; partial_rotary_factor?: number; rotary_pct?: number }): number {
    const o = parse('rotaryDim', ROTARY_DIM, options);
    if (o.partial_rotary_factor !== undefined && o.rotary_pct !== undefined) {
      throw new PosencError('rotary_pct: not allowed together with partial_rotary_factor (the same factor, GPT-NeoX name)');
    }
    return check(this.raw.rotaryDimFor(o.head_dim, o.partial_rotary_factor ?? o.rotary_pct ?? 1));
  }

  /**
   * Inverse frequencies and attention scaling of a context-extension scheme, with Hugging Face's names, defaults and
   * formulas (`modeling_rope_utils.py`), d = rotary_dim, b = rope_theta, θ_i = b^(−2i/d):
   * - `default`: θ_i. `linear`: θ_i/factor (position interpolation).
   * - `ntk` (posenc extension, not an HF rope_type): base b·factor^(d/(d−2)).
   * - `dynamic`: base b·((factor·L/L0) − (factor−1))^(d/(d−2)), L = max(seq_len, max_position_embeddings) = L0…
   * - `yarn`: ramp between θ_i/factor and θ_i over the dims find_correction_range(beta_fast = 32, beta_slow = 1, d, b,
   *   original_max_position_embeddings) (floor/ceil if `truncate`, default true); attention_scaling = attention_factor,
   *   else mscale/mscale_all_dim ratio of 0.1·m·ln(factor)+1 when both set, else 0.1·ln(factor)+1.
   *   factor omitted → max_position_embeddings/original_max_position_embeddings (HF v5).
   * - `longrope`: 1/(ext_i·b^(2i/d)), ext = long_factor if seq_len > original_max_position_embeddings else short_factor;
   *   attention_scaling = attention_factor, else sqrt(1 + ln(factor)/ln(original)) with factor default max/original.
   * - `llama3`: wavelength bands of original_max_position_embeddings (required)/low_freq_factor (1) and /high_freq_factor
   *   (4); equal factors (Llama 4) make a step: longer than the edge θ_i/factor, else θ_i.
   * - `proportional` (Gemma 4 global layers): rotary_dim = the whole head; the first ⌊partial_rotary_factor·rotary_dim/2⌋
   *   frequencies are b^(−2i/rotary_dim)/factor (factor default 1), the rest 0.
   * The result also says what applied: effective_base, factor, yarn_correction_range, llama3_bands, longrope_factors.
   *
   * Accuracy: exact in float64 (HF computes float32 tensors, up to ~6 float32 ulp off for llama3 and longrope).
   * Differences from HF: factor < 1, wrong list lengths and inverted band/beta parameters throw (HF warns). Feed the
   * result to {@link Posenc.ropeTablesScaled}.
   */
  ropeInvFreqScaled(options: RopeScalingOptions): ScaledInvFreq {
    const o = scalingOf('ropeInvFreqScaled', SCALING, options);
    const r = check(this.raw.ropeInvFreqScaled(rawScaling(o), o.seq_len as number));
    return {
      inv_freq: r.invFreq, attention_scaling: r.attentionScaling, effective_base: r.effectiveBase, factor: r.factor,
      yarn_correction_range: r.yarn, llama3_bands: r.bands, longrope_factors: r.longropeFactors,
    };
  }

  /**
   * YaRN's correction range (HF `find_correction_range`): the frequency (pair) indices between which the inverse
   * frequencies ramp from θ_i (extrapolation, index ≤ low) to θ_i/factor (interpolation, index ≥ high).
   * low_raw = d·ln(L/(2π·beta_fast))/(2·ln b), high_raw the same with beta_slow — the pair whose wavelength is L/β,
   * L = original_max_position_embeddings (else max_position_embeddings), d = rotary_dim, b = rope_theta; with
   * `truncate` (default true) low/high are floor/ceil, then clamped to [0, d − 1].
   * Options: rotary_dim, rope_theta (10000), original_max_position_embeddings, beta_fast (32), beta_slow (1), truncate.
   * Exact in float64.
   */
  yarnCorrectionRange(options: Pick<RopeScalingParams, 'rotary_dim' | 'rope_theta' | 'original_max_position_embeddings' |
    'max_position_embeddings' | 'beta_fast' | 'beta_slow' | 'truncate'>): YarnCorrectionRange {
    const o = scalingOf('yarnCorrectionRange', YARN_RANGE, options);
    return check(this.raw.yarnCorrectionRange(rawScaling({ ...o, rope_type: 'yarn' })));
  }

  /**
   * Llama 3's bands (HF `_compute_llama3_parameters`): wavelengths shorter than high_freq_wavelen =
   * L/high_freq_factor are kept, longer than low_freq_wavelen = L/low_freq_factor divided by factor, those between
   * smoothed; L = original_max_position_embeddings (required). The edges also as fractional pair indices
   * d·ln(λ/2π)/(2·ln b), and the number of pairs in each band. Equal factors (Llama 4) give a step: n_smoothed = 0.
   * Options: rotary_dim, rope_theta (10000), original_max_position_embeddings, low_freq_factor (1), high_freq_factor (4).
   * @throws PosencError `original_max_position_embeddings: is required for rope_type 'llama3'` when it is missing.
   */
  llama3Bands(options: Pick<RopeScalingParams, 'rotary_dim' | 'rope_theta' | 'original_max_position_embeddings' |
    'low_freq_factor' | 'high_freq_factor'>): Llama3Bands {
    const o = scalingOf('llama3Bands', LLAMA3_BANDS, options);
    return check(this.raw.llama3Bands(rawScaling({ ...o, rope_type: 'llama3' })));
  }

  /**
   * Dynamic NTK's effective base at a sequence length (HF `_compute_dynamic_ntk_parameters`):
   * b·((factor·L/L0) − (factor − 1))^(d/(d−2)), L = max(seq_len, L0), L0 = max_position_embeddings — rope_theta itself
   * up to L0. HF recomputes the frequencies from L = max position + 1 whenever it exceeds the longest seen so far
   * (restoring the original once a sequence is back within L0); keys already in the KV cache keep the angles of the base
   * they were rotated with, so past L0 cached and new keys use different bases during generation.
   * Options: rotary_dim, rope_theta (10000), factor, max_position_embeddings, seq_len (0).
   */
  dynamicNtkBase(options: Pick<RopeScalingParams, 'rotary_dim' | 'rope_theta' | 'factor' | 'max_position_embeddings'> & { seq_len?: number }): number {
    const o = scalingOf('dynamicNtkBase', DYNAMIC_BASE, options);
    return check(this.raw.dynamicNtkBase(rawScaling({ ...o, rope_type: 'dynamic' }), o.seq_len as number));
  }

  /**
   * What a Hugging Face `config.json` (object or JSON text) says about positions, for any of today's formats:
   * legacy `rope_theta` + `rope_scaling` (`type` = old `rope_type`; Phi-3 `su` = longrope, Qwen2-VL `mrope` = default),
   * v5 `rope_parameters` (flat, or keyed by layer type), and a multimodal model's `text_config`.
   *
   * Top level: the RoPE the model's rotary embedding uses by default — `full_attention` layers', or where those have
   * none (Llama 4, whose full-attention layers are NoPE; Cohere2) the first type that rotates — with rope_type,
   * head_dim, rotary_dim, rope_theta, `inv_freq` (rotary_dim/2), attention_scaling and what applies at `seq_len`:
   * effective_base (dynamic), yarn_correction_range, llama3_bands, longrope_factors, factor. Also:
   * - `layer_types`: the same fields per HF layer type (`false` for a type whose layers use no RoPE); `layers`: per
   *   decoder layer `{ type, rope }` from `layer_types`, Gemma's `sliding_window_pattern` (Gemma 2: every 2nd layer
   *   global, Gemma 3: every 6th; local layers use `rope_local_base_freq` unscaled), ModernBERT
   *   (`global_attn_every_n_layers`, `global_rope_theta` / `local_rope_theta`), Llama 4 / SmolLM3 `no_rope_layers`
   *   (1 = RoPE; empty → every `no_rope_layer_interval`-th (4) layer NoPE), Qwen3-Next/3.5 `linear_attention`; null
   *   when the config has no schedule.
   * - `mla` (DeepSeek-V2/V3, Kimi K2: `qk_rope_head_dim` is the rotary head, `rope_interleave`), with the softmax
   *   scale qk_head_dim^(−1/2)·get_mscale(factor, mscale_all_dim)²; `attn_temperature` (Llama 4, Ministral 3's
   *   `llama_4_scaling_beta`: queries scaled by position); `mrope_section` /
   *   `mrope_interleaved` (Qwen2-VL / 2.5-VL / 3-VL); `layout` (interleaved for GPT-J, Cohere, MLA checkpoints).
   * - `warnings`: ignored keys, defaults HF fills in, dynamic NTK's cache behaviour.
   *
   * Accuracy: inv_freq exact in float64. Hugging Face computes it in float32 (torch's default dtype), up to ~6 float32
   * ulp off for llama3 and longrope (~1e-7 relative elsewhere).
   * @throws PosencError naming the key path and the rule (`rope_parameters.full_attention.factor: must be a finite number
   * >= 1 (got 0.5)`, `rope_scaling.factr: unknown key for rope_type 'linear' (did you mean 'factor'?)`) for text that is
   * not JSON, a non-object, wrong types, impossible values, missing required keys, a typo of a scaling-dict key
   * (also other tools' names: `rope_freq_base` → rope_theta), an unknown rope_type (the message lists the known ones),
   * and model types without RoPE (GPT-2, BERT, T5, BLOOM, …). Keys that do not affect positions are ignored; a top-level
   * key one or two edits from a position key is reported in `warnings`.
   */
  ropeFromConfig(config: unknown, options: RopeFromConfigOptions = {}): RopeFromConfig {
    return ropeFromConfigOf(this.raw, config, options);
  }

  /**
   * cos/sin tables [positions, inv_freq.length] multiplied by attention_scaling (HF `cos = emb.cos() · attention_scaling`),
   * for {@link Posenc.ropeApplyTables}. Accuracy: float64 s·cos(pos·inv_i) rounded once — within 2 ulp for |pos| ≤ 2^20.
   */
  ropeTablesScaled(options: { inv_freq: ArrayLike<number>; attention_scaling?: number; positions: Positions; duplicate?: boolean;
    out?: { cos: Out; sin: Out } }): { cos: Float32Array; sin: Float32Array } {
    const o = parse('ropeTablesScaled', TABLES_SCALED, options);
    return tables(this.raw, this.heap, o.inv_freq instanceof WasmBuffer ? o.inv_freq.array : o.inv_freq, o.attention_scaling, o);
  }

  /**
   * The complex form of RoPE (Meta LLaMA `precompute_freqs_cis`): [positions, rotary_dim/2] complex numbers
   * e^{j·pos·θ_i} as interleaved (re, im) float32 pairs (`torch.view_as_real` layout). With rotary_dim 8 and positions 3
   * it reproduces the seed's worked example (row 1: 0.5403+0.8415j, 0.9950+0.0998j, …).
   */
  ropeFreqsCis(options: RopeFrequencyOptions & { positions: Positions; out?: Out }): Float32Array {
    const o = parse('ropeFreqsCis', FREQS_CIS, options);
    const pos = typeof o.positions === 'number' ? Float64Array.from({ length: o.positions }, (_, i) => i) : f64(o.positions);
    return intoOut(this.heap, 'out', check(this.raw.ropeFreqsCis(ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta), pos)), o.out);
  }
}
