// The paper's sinusoidal absolute encoding (cpp/src/sinusoidal.cpp).
import { Core } from './core.js';
import type { Positions } from './validate.js';
import { check, integer, number, object, oneOf, positionsArray } from './validate.js';

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
}

export const SIN_LAYOUTS: Record<SinusoidalLayout, number> = { interleaved: 0, concatenated: 1 };

/** Sinusoidal absolute position encoding (Vaswani et al. 2017). */
export class SinusoidalApi extends Core {
  /**
   * Sinusoidal absolute position encoding, [positions, d] row-major:
   * PE(pos, 2i) = sin(pos·base^(−2i/d)), PE(pos, 2i+1) = cos(pos·base^(−2i/d)), in the chosen layout.
   * Accuracy: float64 angles rounded once; within 2 ulp of float64 for integer |pos| ≤ 2^20.
   */
  sinusoidal(options: SinusoidalOptions): Float32Array {
    const o = object('options', options);
    const pos = positionsArray('positions', o.positions);
    return check(this.raw.sinusoidal(pos, pos.length, integer('d', o.d), number('base', o.base ?? 10000),
      oneOf('layout', o.layout ?? 'interleaved', SIN_LAYOUTS)));
  }
}
