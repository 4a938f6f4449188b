// RoPE (cpp/src/rope.cpp): inverse frequencies, cos/sin tables, rotation of Q/K buffers.
import type { RawModule } from './raw.js';
import { Core } from './core.js';
import type { Positions } from './validate.js';
import { arrayOf, check, copyView, integer, number, object, oneOf, positionsArray } from './validate.js';

/**
 * Channel layout of RoPE's rotated pairs inside a head.
 * - `'interleaved'`: pair i = channels (2i, 2i+1) — RoFormer, GPT-J, Meta's LLaMA (`freqs_cis`).
 * - `'half_split'`: pair i = channels (i, i + rotary_dim/2) — GPT-NeoX, Hugging Face LLaMA (`rotate_half`).
 * Both rotate (a, b) ↦ (a·cos − b·sin, a·sin + b·cos); they agree up to that fixed channel permutation.
 */
export type RopeLayout = 'interleaved' | 'half_split';

/** Options of {@link Posenc.ropeInvFreq}. */
export interface RopeFrequencyOptions {
  /** Number of rotated channels: even, 2 … 8192. */
  rotary_dim: number;
  /** RoPE base θ (Hugging Face `rope_theta`). Default 10000. */
  rope_theta?: number;
}

/** Options of {@link Posenc.ropeTables}. */
export interface RopeTableOptions extends RopeFrequencyOptions {
  /** Positions whose angles are tabulated. */
  positions: Positions;
}

/** Shape of a Q or K buffer `[seq, heads, head_dim]`. */
export interface QKShape {
  /** Rows (tokens). */
  seq: number;
  /** Heads per row. Default 1. */
  heads?: number;
  /** Channels per head. */
  head_dim: number;
  /**
   * Rotated channels per head (even, ≤ head_dim). Default head_dim. With fewer, the first rotary_dim
   * channels rotate and the rest pass through unchanged (partial rotary).
   */
  rotary_dim?: number;
  /** Pair layout. Default `'half_split'` (Hugging Face). */
  layout?: RopeLayout;
  /**
   * Where to write the result (length seq·heads·head_dim). May be the input itself for in-place rotation.
   * Default: a new Float32Array.
   */
  out?: Float32Array;
}

/** Options of {@link Posenc.ropeApply}. */
export interface RopeApplyOptions extends QKShape {
  /** RoPE base θ. Default 10000. */
  rope_theta?: number;
  /** Position id of each row (length seq). Default 0 … seq−1. */
  positions?: ArrayLike<number>;
}

/** Options of {@link Posenc.ropeApplyTables}. */
export interface RopeApplyTablesOptions extends QKShape {
  /** Tables from {@link Posenc.ropeTables}: seq rows of rotary_dim/2 entries; row s is used for row s. */
  cos: Float32Array;
  sin: Float32Array;
}

/** θ_i of {@link Posenc.ropeInvFreq}, for the families that take rotary_dim and rope_theta. */
export function ropeInvFreqOf(raw: RawModule, rotaryDim: unknown, ropeTheta: unknown): Float64Array {
  return check(raw.ropeInvFreq(integer('rotary_dim', rotaryDim), number('rope_theta', ropeTheta ?? 10000)));
}

export const ROPE_LAYOUTS: Record<RopeLayout, number> = { interleaved: 0, half_split: 1 };

/** RoPE (Su et al. 2021, RoFormer): frequencies, tables and rotation. */
export class RopeApi extends Core {
  /**
   * RoPE inverse frequencies θ_i = rope_theta^(−2i/rotary_dim), i = 0 … rotary_dim/2 − 1, in float64.
   * @throws PosencError if rotary_dim is not an even integer in [2, 8192] or rope_theta is not finite and > 0.
   */
  ropeInvFreq(options: RopeFrequencyOptions): Float64Array {
    const o = object('options', options);
    return ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta);
  }

  /**
   * cos/sin tables of RoPE: `cos[p·h + i] = cos(pos_p · θ_i)`, `sin` likewise, h = rotary_dim/2, shape
   * [positions, rotary_dim/2] row-major.
   *
   * Accuracy: the angle and its cos/sin are computed in float64 and rounded once to float32 — every entry
   * is within 2 ulp of the float64 value for integer |pos| ≤ 2^20 (a float32 product pos·θ_i, as PyTorch
   * references compute it, is ~5e-4 rad off at pos = 8191).
   */
  ropeTables(options: RopeTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const inv = ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta);
    return check(this.raw.ropeTables(inv, positionsArray('positions', o.positions)));
  }

  /**
   * Rotates a Q or K buffer `x` of shape [seq, heads, head_dim] by RoPE at the given positions.
   * Channel pairs follow `layout`; channels from rotary_dim on pass through (partial rotary).
   * Accuracy: tables as in {@link Posenc.ropeTables}; one float32 multiply-add per element.
   * @returns `out` if given (in place when out === x), else a new Float32Array.
   */
  ropeApply(x: ArrayLike<number>, options: RopeApplyOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const seq = integer('seq', o.seq);
    const pos = o.positions === undefined ? null : positionsArray('positions', o.positions);
    const r = check(this.raw.ropeApplyPositions(xs, seq, integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim),
      integer('rotary_dim', o.rotary_dim ?? 0), oneOf('layout', o.layout ?? 'half_split', ROPE_LAYOUTS),
      number('rope_theta', o.rope_theta ?? 10000), pos));
    return copyView(r, o.out);
  }

  /**
   * Like {@link Posenc.ropeApply} with precomputed tables (from {@link Posenc.ropeTables}), row s of
   * `x` using table row s — the fast path when the same positions rotate many buffers.
   */
  ropeApplyTables(x: ArrayLike<number>, options: RopeApplyTablesOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const r = check(this.raw.ropeApply(xs, integer('seq', o.seq), integer('heads', o.heads ?? 1),
      integer('head_dim', o.head_dim), integer('rotary_dim', o.rotary_dim ?? 0),
      oneOf('layout', o.layout ?? 'half_split', ROPE_LAYOUTS), arrayOf('cos', o.cos, Float32Array),
      arrayOf('sin', o.sin, Float32Array)));
    return copyView(r, o.out);
  }
}
