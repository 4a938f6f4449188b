// xPos (cpp/src/xpos.cpp): RoPE with a per-pair exponential scale.
import { Core } from './core.js';
import { QK_SHAPE, forRuns, qkShape, tableOutputs } from './rope.js';
import type { Data, Out, QKShape } from './rope.js';
import { check } from './validate.js';
import type { Positions } from './validate.js';
import { MAX_ELEMENTS, array, bool, int, int32, num, numbers, optional, out, parse, positions } from './options.js';
import type { Schema } from './options.js';

const XPOS: Schema = { downscale: bool(false), scale_base: num({ gt: 0 }, 512), gamma: num({ min: 0 }, 0.4), rope_theta: num({ gt: 0 }, 10000) };
const XPOS_APPLY: Schema = { ...QK_SHAPE, ...XPOS, offset: int32(0) };
const XPOS_TABLES: Schema = { ...XPOS, rotary_dim: int(2, 8192), positions: positions(), centred: optional(array(2 ** 20)), out: out() };

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
  /** Where to write the tables. Default: new arrays. */
  out?: { cos: Out; sin: Out };
}

/** xPos (Sun et al. 2022, torchscale). */
export class XposApi extends Core {
  /**
   * xPos (torchscale `XPOS.forward(x, offset, downscale)`): RoPE at positions offset…offset+seq−1 (pairs in `layout`,
   * default `'half_split'` as everywhere; torchscale's `rotate_every_two` is `layout: 'interleaved'`) with pair i scaled by ζ_i^(±c/scale_base),
   * ζ_i = (2i + γ·d)/((1+γ)·d), γ = 0.4, scale_base 512, c = pos + ⌊−(seq+offset)/2⌋ (torchscale's centring);
   * + for queries, − for keys (`downscale: true`), so q·k depends only on the offset and decays with distance.
   * Accuracy: tables within 2 ulp of float64 ζ^e·cos; one float32 multiply-add per element.
   * Valid range: every scale ζ_i^(±c/scale_base) stays within [2^−64, 2^64], i.e. |c| ≤ 64·ln2·scale_base/ln(1/ζ_0):
   * seq + offset ≤ 36,260 with the defaults (proportional to scale_base; raise it for longer sequences); beyond that
   * a float32 scale would overflow, so it throws. The output is finite for finite |x| ≤ 2^64.
   */
  xposApply(x: Data, options: XposApplyOptions): Float32Array {
    const o = parse('xposApply', XPOS_APPLY, options);
    const s = qkShape(o);
    const st = this.heap.call();
    const px = st.input('x', numbers('x', x, MAX_ELEMENTS), 'f32', s.count);
    const r = st.output<Float32Array>('out', o.out, 'f32', s.count);
    forRuns(s, false, (offset, seq, heads) => {
      check(this.raw.xposApply(px + 4 * offset, r.address + 4 * offset, seq, heads, s.headDim, s.rotaryDim, o.offset, o.downscale,
        o.scale_base, o.gamma, o.rope_theta, s.layout));
    });
    return r.finish();
  }

  /**
   * xPos tables [n, rotary_dim/2] with the scale folded in: cos = ζ_i^(±c/scale_base)·cos(p·θ_i) (sin likewise), for
   * explicit positions p and centred positions c (default: torchscale's centring, as {@link Posenc.xposApply});
   * apply with {@link Posenc.ropeApplyTables} and layout `'interleaved'`. Valid range as xposApply: every |c| ≤
   * 64·ln2·scale_base/ln(1/ζ_0) (18,130 with the defaults), else it throws.
   */
  xposTables(options: XposTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = parse('xposTables', XPOS_TABLES, options);
    const n = typeof o.positions === 'number' ? o.positions : o.positions.length, st = this.heap.call();
    const pPos = typeof o.positions === 'number' ? 0 : st.input('positions', o.positions, 'f64', n);
    const pCen = st.optionalInput('centred', o.centred, 'f64', n), r = tableOutputs(st, o.out, n * (o.rotary_dim >> 1));
    check(this.raw.xposTables(o.rotary_dim, pPos, pCen, n, o.downscale, o.scale_base, o.gamma, o.rope_theta, r.cos.address, r.sin.address));
    return r.finish();
  }

  /** xPos's per-pair decay ζ_i = (2i/d + γ)/(1 + γ) for i < rotary_dim/2 (torchscale; γ = `gamma`, default 0.4). */
  xposZeta(options: { rotary_dim: number; gamma?: number }): Float64Array {
    const o = parse('xposZeta', { rotary_dim: int(2, 8192), gamma: num({ min: 0 }, 0.4) }, options);
    return check(this.raw.xposZeta(o.rotary_dim, o.gamma));
  }
}
