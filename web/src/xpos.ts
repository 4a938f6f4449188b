// xPos (cpp/src/xpos.cpp): RoPE with a per-pair exponential scale.
import { Core } from './core.js';
import { ROPE_LAYOUTS } from './rope.js';
import type { QKShape } from './rope.js';
import type { Positions } from './validate.js';
import { arrayOf, booleanOr, check, integer, number, object, oneOf, positionsArray, writeOut } from './validate.js';

/** Options of {@link Posenc.xposApply}. */
export interface XposApplyOptions extends QKShape {
  /** torchscale `offset` (tokens already in the cache). Default 0. */
  offset?: number;
  /** false for queries (scale ζ^(c/scale_base)), true for keys (ζ^(−c/scale_base)). Default false. */
  downscale?: boolean;
  /** Default 512. */
  scale_base?: number;
  /** Default 0.4. */
  gamma?: number;
  /** Default 10000. */
  rope_theta?: number;
}

/** Options of {@link Posenc.xposTables}. */
export interface XposTableOptions {
  rotary_dim: number;
  positions: Positions;
  /**
   * Centred positions for the scale exponent (same length). Default: torchscale's centring of `positions`,
   * c = p + ⌊−(last + 1)/2⌋ with `last` the largest position — what {@link Posenc.xposApply} uses for
   * positions offset…offset+seq−1. Queries and keys must share the centring (same positions, or the same
   * explicit `centred`) for q·k to depend only on m − n.
   */
  centred?: ArrayLike<number>;
  downscale?: boolean;
  scale_base?: number;
  gamma?: number;
  rope_theta?: number;
}

/** xPos (Sun et al. 2022, torchscale). */
export class XposApi extends Core {
  /**
   * xPos (torchscale `XPOS.forward(x, offset, downscale)`): RoPE at positions offset…offset+seq−1 (interleaved pairs
   * by default, torchscale's `rotate_every_two`) with pair i scaled by ζ_i^(±c/scale_base),
   * ζ_i = (2i + γ·d)/((1+γ)·d), γ = 0.4, scale_base 512, c = pos + ⌊−(seq+offset)/2⌋ (torchscale's centring);
   * + for queries, − for keys (`downscale: true`), so q·k depends only on the offset and decays with distance.
   * Accuracy: tables float64 ζ^e·cos rounded once (2 ulp); one float32 multiply-add per element.
   * Valid range: every scale ζ_i^(±c/scale_base) stays within [2^−64, 2^64], i.e. |c| ≤ 64·ln2·scale_base/ln(1/ζ_0):
   * seq + offset ≤ 36,260 with the defaults (proportional to scale_base; raise it for longer sequences); beyond that
   * a float32 scale would overflow, so it throws. The output is finite for finite |x| ≤ 2^64.
   */
  xposApply(x: ArrayLike<number>, options: XposApplyOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const r = check(this.raw.xposApply(xs, integer('seq', o.seq), integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim),
      integer('rotary_dim', o.rotary_dim ?? 0), integer('offset', o.offset ?? 0), booleanOr('downscale', o.downscale, false),
      number('scale_base', o.scale_base ?? 512), number('gamma', o.gamma ?? 0.4), number('rope_theta', o.rope_theta ?? 10000),
      oneOf('layout', o.layout ?? 'interleaved', ROPE_LAYOUTS)));
    return writeOut(r, o.out);
  }

  /**
   * xPos tables [n, rotary_dim/2] with the scale folded in: cos = ζ_i^(±c/scale_base)·cos(p·θ_i) (sin likewise), for
   * explicit positions p and centred positions c (default: torchscale's centring, as {@link Posenc.xposApply});
   * apply with {@link Posenc.ropeApplyTables} and layout `'interleaved'`. Valid range as xposApply: every |c| ≤
   * 64·ln2·scale_base/ln(1/ζ_0) (18,130 with the defaults), else it throws.
   */
  xposTables(options: XposTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const centred = o.centred == null ? null : arrayOf('centred', o.centred, Float64Array);
    return check(this.raw.xposTables(integer('rotary_dim', o.rotary_dim), positionsArray('positions', o.positions), centred,
      booleanOr('downscale', o.downscale, false), number('scale_base', o.scale_base ?? 512), number('gamma', o.gamma ?? 0.4),
      number('rope_theta', o.rope_theta ?? 10000)));
  }

  /** xPos's per-pair decay ζ_i = (2i/d + γ)/(1 + γ) for i < rotary_dim/2 (torchscale; γ = `gamma`, default 0.4). */
  xposZeta(options: { rotary_dim: number; gamma?: number }): Float64Array {
    const o = object('options', options);
    return check(this.raw.xposZeta(integer('rotary_dim', o.rotary_dim), number('gamma', o.gamma ?? 0.4)));
  }
}
