// RoPE extras (cpp/src/rope_scaling.cpp): partial rotary, context extension (HF rope_scaling), the complex form.
// Parsing of config.json lives in rope_config.ts; the methods here delegate to it.
import { Core } from './core.js';
import { parseRopeConfig, rawScaling } from './rope_config.js';
import type { RopeConfigInfo, RopeScalingParams } from './rope_config.js';
import { WasmBuffer, intoOut } from './buffers.js';
import { ropeInvFreqOf, tables } from './rope.js';
import type { Out, RopeFrequencyOptions } from './rope.js';
import { PosencError, check } from './validate.js';
import type { Positions } from './validate.js';
import { any, array, bool, f64, int, num, optional, out, parse, positions } from './options.js';
import type { Schema } from './options.js';

const ROTARY_DIM: Schema = { head_dim: int(1, 8192), partial_rotary_factor: optional(num({ gt: 0, max: 1 })), rotary_pct: optional(num({ gt: 0, max: 1 })) };
/** The keys of {@link RopeScalingParams} (checked by rope_config.ts's rawScaling, rotary_dim here) and seq_len. */
const SCALING: Schema = Object.fromEntries([
  'rope_type', 'rope_theta', 'rotary_dim', 'factor', 'max_position_embeddings', 'original_max_position_embeddings', 'attention_factor',
  'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'truncate', 'short_factor', 'long_factor', 'low_freq_factor', 'high_freq_factor',
].map((k) => [k, optional(any())]).concat([['rotary_dim', int(2, 8192)], ['seq_len', num({ min: 0 }, 0)]]));
const TABLES_SCALED: Schema = { inv_freq: array(4096), attention_scaling: num({}, 1), positions: positions(), duplicate: bool(false), out: out() };
const FREQS_CIS: Schema = { rotary_dim: int(2, 8192), rope_theta: num({ gt: 0 }, 10000), positions: positions(), out: out() };

/** Result of {@link Posenc.ropeInvFreqScaled}. */
export interface ScaledInvFreq {
  /** rotary_dim/2 inverse frequencies, float64. */
  inv_freq: Float64Array;
  /** Multiplies cos and sin (HF `attention_scaling`); 1 for default, linear, ntk, dynamic, llama3. */
  attention_scaling: number;
}

/** Options of {@link Posenc.ropeInvFreqScaled}: the scaling dict's fields with HF names, flattened. */
export interface RopeScalingOptions extends RopeScalingParams {
  /**
   * Current sequence length (default 0 = "at init"). `dynamic`: L in the formula (no effect while
   * L ≤ max_position_embeddings); `longrope`: long factors when seq_len > original_max_position_embeddings.
   */
  seq_len?: number;
}

/** Result of {@link Posenc.ropeFromConfig}: what was read from the config, and its frequencies. */
export interface RopeFromConfig extends ScaledInvFreq, RopeConfigInfo {}

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
   * - `llama3`: wavelength bands of original_max_position_embeddings/low_freq_factor (1) and /high_freq_factor (4).
   *
   * Differences from HF: formulas in float64 (HF: float32 tensors); factor < 1, wrong list lengths and inverted
   * band/beta parameters throw (HF warns). Feed the result to {@link Posenc.ropeTablesScaled}.
   */
  ropeInvFreqScaled(options: RopeScalingOptions): ScaledInvFreq {
    const o = parse('ropeInvFreqScaled', SCALING, options);
    const r = check(this.raw.ropeInvFreqScaled(rawScaling(options as unknown as Record<string, unknown>), o.seq_len));
    return { inv_freq: r.invFreq, attention_scaling: r.attentionScaling };
  }

  /**
   * RoPE settings of a Hugging Face `config.json` (object or text): head_dim (or hidden_size/num_attention_heads),
   * partial_rotary_factor (or GPT-NeoX rotary_pct), rope_theta (or rotary_emb_base), max_position_embeddings and
   * `rope_scaling` / `rope_parameters` (`rope_type`, legacy `type`; Phi-3's `"su"` = longrope). Returns the inverse
   * frequencies and attention scaling computed in C++ plus what was read.
   * @throws PosencError naming the key (`config.rope_scaling.factor: required for rope_type 'linear'`) for missing
   * required keys, unknown keys (HF only warns), wrong types or an unknown rope_type.
   */
  ropeFromConfig(config: unknown, options: { seq_len?: number } = {}): RopeFromConfig {
    const info = parseRopeConfig(config);
    const rotary_dim = this.rotaryDim({ head_dim: info.head_dim, partial_rotary_factor: info.partial_rotary_factor });
    const params = { ...info.params, rotary_dim };
    const scaled = this.ropeInvFreqScaled({ ...params, seq_len: parse('ropeFromConfig', { seq_len: SCALING.seq_len }, options).seq_len });
    return { ...info, rotary_dim, params, ...scaled };
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
