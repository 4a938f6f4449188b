// Other absolute encodings (cpp/src/absolute.cpp): tensor2tensor's sinusoid, the recursive form, multiplicative PE.
import { Core } from './core.js';
import { SIN_LAYOUTS } from './sinusoidal.js';
import type { SinusoidalLayout } from './sinusoidal.js';
import type { Positions } from './validate.js';
import { check } from './validate.js';
import { MAX_ELEMENTS, int, num, numbers, oneOf, out, parse, positions } from './options.js';
import type { Schema } from './options.js';
import type { Data, Out } from './rope.js';

const TIMESCALES: Schema = { d: int(1, 8192), min_timescale: num({ gt: 0 }, 1), max_timescale: num({ gt: 0 }, 10000) };
const T2T: Schema = { ...TIMESCALES, positions: positions(), out: out() };
const RECURSIVE: Schema = { d: int(2, 8192), base: num({ gt: 0 }, 10000), layout: oneOf(['interleaved', 'concatenated'], 'interleaved') };

/** Options of {@link Posenc.sinusoidT2T}. */
export interface SinusoidT2TOptions {
  /** Positions: a count n (0 … n−1) or explicit ids. */
  positions: Positions;
  /** Channels: 1 … 8192. Odd d ends with one zero channel (t2t's padding). */
  d: number;
  /** t2t `min_timescale`. Default 1. */
  min_timescale?: number;
  /** t2t `max_timescale`. Default 10000. */
  max_timescale?: number;
  /** Where to write the [positions, d] table. Default: a new Float32Array. */
  out?: Out;
}

/** Options of {@link Posenc.sinusoidRecursive} and {@link Posenc.sinusoidRotationMatrix}. */
export interface RecursiveSinusoidOptions {
  /** Channels: even, 2 … 8192. */
  d: number;
  /** Base of ω_i = base^(−2i/d). Default 10000. */
  base?: number;
  /** Default `'interleaved'`. */
  layout?: SinusoidalLayout;
}

/** tensor2tensor sinusoid, the recursive sinusoid and multiplicative PE. */
export class AbsoluteApi extends Core {
  /**
   * tensor2tensor `get_timing_signal_1d` / fairseq `SinusoidalPositionalEmbedding`, [positions, d] row-major:
   * row(pos) = [sin(pos·ω_0) … sin(pos·ω_{h−1}), cos(pos·ω_0) … cos(pos·ω_{h−1})] (+ a zero channel for odd d),
   * h = ⌊d/2⌋, ω_i = min_timescale · (max_timescale/min_timescale)^(−i/max(h−1, 1)) — with the defaults
   * 10000^(−i/(h−1)), NOT the paper's 10000^(−2i/d) (see {@link Posenc.sinusoidal}).
   * Differences from the references: float64 angles rounded once (they use float32, ~pos·2^-24 rad off);
   * fairseq has no max(h−1, 1) guard and numbers positions from padding_idx + 1 (pass those positions).
   * Accuracy: within 2 ulp of float64 for integer |pos| ≤ 2^20.
   * Valid range: finite timescales > 0 whose largest frequency max(min_timescale, min_timescale²/max_timescale) is
   * ≤ 1e298 (else it throws); ω is formed in log space, so every such pair (e.g. min_timescale 5e-324) gives finite
   * rows for every |pos| ≤ 2^31 − 1 (frequencies below ~1e-308 round to 0: sin 0, cos 1).
   */
  sinusoidT2T(options: SinusoidT2TOptions): Float32Array {
    const o = parse('sinusoidT2T', T2T, options);
    const n = typeof o.positions === 'number' ? o.positions : o.positions.length;
    const st = this.heap.call(), pPos = typeof o.positions === 'number' ? 0 : st.input('positions', o.positions, 'f64', n);
    const r = st.output<Float32Array>('out', o.out, 'f32', n * o.d);
    check(this.raw.sinusoidT2T(pPos, n, o.d, o.min_timescale, o.max_timescale, r.address));
    return r.finish();
  }

  /**
   * The frequencies ω_i of {@link Posenc.sinusoidT2T} (⌊d/2⌋ values, float64): min_timescale ·
   * (max_timescale/min_timescale)^(−i/max(h−1, 1)), h = ⌊d/2⌋, formed in log space (finite for every valid pair).
   * Throws when the largest frequency max(min_timescale, min_timescale²/max_timescale) exceeds 1e298.
   */
  t2tInvTimescales(options: { d: number; min_timescale?: number; max_timescale?: number }): Float64Array {
    const o = parse('t2tInvTimescales', TIMESCALES, options);
    return check(this.raw.t2tInvTimescales(o.d, o.min_timescale, o.max_timescale));
  }

  /**
   * The paper's sinusoid generated recursively, p_{k+1} = R·p_k from p_0 = PE(0), for k = 0 … n−1: R is
   * block-diagonal with one rotation by ω_i = base^(−2i/d) per (sin_i, cos_i) pair. Runs in float64, rounded once:
   * equal to {@link Posenc.sinusoidal} within 1 ulp + 1e-11 for k < 4096 (tested). Even d only. Valid range: any
   * finite base > 0 whose largest frequency base^(−(d−2)/d) is ≤ 1e298 (bases below 1; else it throws).
   */
  sinusoidRecursive(options: RecursiveSinusoidOptions & { positions: number; out?: Out }): Float32Array {
    const o = parse('sinusoidRecursive', { ...RECURSIVE, positions: int(0, 2 ** 20), out: out() }, options);
    const r = this.heap.call().output<Float32Array>('out', o.out, 'f32', o.positions * o.d);
    check(this.raw.sinusoidRecursive(o.positions, o.d, o.base, SIN_LAYOUTS[o.layout as SinusoidalLayout], r.address));
    return r.finish();
  }

  /** The d×d float64 matrix R (row-major) of {@link Posenc.sinusoidRecursive}: p_{k+1} = R·p_k. */
  sinusoidRotationMatrix(options: RecursiveSinusoidOptions): Float64Array {
    const o = parse('sinusoidRotationMatrix', RECURSIVE, options);
    return check(this.raw.sinusoidRotationMatrix(o.d, o.base, SIN_LAYOUTS[o.layout as SinusoidalLayout]));
  }

  /**
   * Multiplicative absolute PE: x ⊙ p elementwise (same lengths), one correctly rounded float32 product each.
   * Finite while |x_i·p_i| ≤ 3.4e38 (float32's range; always for p from a sinusoid, |p| ≤ 1).
   */
  multiplicativePE(x: Data, p: Data, options: { out?: Out } = {}): Float32Array {
    const o = parse('multiplicativePE', { out: out() }, options);
    const xs = numbers('x', x, MAX_ELEMENTS), n = xs.length, st = this.heap.call();
    const px = st.input('x', xs, 'f32', n), pp = st.input('p', numbers('p', p, MAX_ELEMENTS), 'f32', n);
    const r = st.output<Float32Array>('out', o.out, 'f32', n);
    check(this.raw.multiplicativePE(px, pp, n, r.address));
    return r.finish();
  }
}
