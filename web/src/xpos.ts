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
  /** Centred positions for the scale exponent (same length). Default: the positions themselves. */
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

  /** xPos tables (scale folded into cos/sin) for explicit positions and centred positions; see {@link Posenc.xposApply}. */
  xposTables(options: XposTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const centred = o.centred == null ? null : arrayOf('centred', o.centred, Float64Array);
    return check(this.raw.xposTables(integer('rotary_dim', o.rotary_dim), positionsArray('positions', o.positions), centred,
      booleanOr('downscale', o.downscale, false), number('scale_base', o.scale_base ?? 512), number('gamma', o.gamma ?? 0.4),
      number('rope_theta', o.rope_theta ?? 10000)));
  }
}
