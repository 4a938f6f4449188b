// The paper's sinusoidal absolute encoding (cpp/src/sinusoidal.cpp).
import { Core } from './core.js';
import { check } from './validate.js';
import type { Positions } from './validate.js';
import { int, num, oneOf, out, parse, positions } from './options.js';
import type { Out } from './rope.js';

/**
 * Channel layout of the sinusoidal table.
 * - `'interleaved'`: channel 2i = sin_i, 2i+1 = cos_i (the paper).
 * - `'concatenated'`: [sin_0 … sin_{h−1}, cos_0 … cos_{h−1}] (tensor2tensor/fairseq order, same frequencies).
 */
export type SinusoidalLayout = 'interleaved' | 'concatenated';

/** Options of {@link Posenc.sinusoidal}. */
export interface SinusoidalOptions {
  /** Positions: a count n (0 … n−1) or explicit ids. */
  positions: Positions;
  /** Channels per position: 1 … 8192. Odd d: the last channel is the sine of frequency (d−1)/2. */
  d: number;
  /** Base of the frequencies base^(−2i/d). Default 10000. */
  base?: number;
  /** Default `'interleaved'`. */
  layout?: SinusoidalLayout;
  /** Where to write the [positions, d] table. Default: a new Float32Array. */
  out?: Out;
}

const SINUSOIDAL = { positions: positions(), d: int(1, 8192), base: num({ gt: 0 }, 10000),
  layout: oneOf(['interleaved', 'concatenated'], 'interleaved'), out: out() };

export const SIN_LAYOUTS: Record<SinusoidalLayout, number> = { interleaved: 0, concatenated: 1 };

/** Sinusoidal absolute position encoding (Vaswani et al. 2017). */
export class SinusoidalApi extends Core {
  /**
   * Sinusoidal absolute position encoding, [positions, d] row-major:
   * PE(pos, 2i) = sin(pos·base^(−2i/d)), PE(pos, 2i+1) = cos(pos·base^(−2i/d)), in the chosen layout.
   * Accuracy: float64 angles rounded once; within 2 ulp of float64 for integer |pos| ≤ 2^20.
   */
  sinusoidal(options: SinusoidalOptions): Float32Array {
    const o = parse('sinusoidal', SINUSOIDAL, options);
    const st = this.heap.call();
    const n = typeof o.positions === 'number' ? o.positions : o.positions.length;
    const pPos = typeof o.positions === 'number' ? 0 : st.input('positions', o.positions, 'f64', n);
    const r = st.output<Float32Array>('out', o.out, 'f32', n * o.d);
    check(this.raw.sinusoidal(pPos, n, o.d, o.base, SIN_LAYOUTS[o.layout as SinusoidalLayout], r.address));
    return r.finish();
  }
}
