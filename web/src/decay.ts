// RoPE's long-range decay and frequency analytics (cpp/src/decay.cpp).
import type { RawModule } from './raw.js';
import { Core } from './core.js';
import { ROPE_LAYOUTS, ropeInvFreqOf } from './rope.js';
import type { RopeLayout } from './rope.js';
import { arrayOf, check, integer, number, object, oneOf, seedOf } from './validate.js';

/** RoPE's long-range decay sweeps and frequency analytics. */
export class DecayApi extends Core {
  /**
   * ⟨R_m q, R_n k⟩ for q at m = q_position (default 0) and k at n = k_start … k_start + count − 1 (count ≤ 2^20):
   * RoPE's long-range decay (RoFormer, Su et al. 2021, §3.4.3). q, k: vectors of head_dim, or `'ones'`, or `'random'`
   * (seeded: the documented generator with key seed XOR 0x51 for q, seed XOR 0x4B for k). Frequencies:
   * `inv_freq` (any scaling, e.g. from {@link Posenc.ropeInvFreqScaled}) or rope_theta^(−2i/rotary_dim).
   * Accuracy: |error| ≤ 1e-5·Σ_i|h_i| (h_i the pair products), no growth with distance. Valid range: every
   * |inv_freq_i| ≤ 1e298 (else it throws); finite while Σ_i|h_i| + Σ|q_c·k_c| ≤ 3.4e38.
   */
  ropeInnerProductSweep(options: { q: ArrayLike<number> | 'ones' | 'random'; k: ArrayLike<number> | 'ones' | 'random'; seed?: number;
    head_dim: number; rotary_dim?: number; layout?: RopeLayout; rope_theta?: number; inv_freq?: Float64Array;
    q_position?: number; k_start?: number; count: number }): Float32Array {
    const o = object('options', options);
    const d = integer('head_dim', o.head_dim), rot = integer('rotary_dim', o.rotary_dim ?? d), seed = seedOf(o.seed);
    const vec = (name: string, v: unknown, tag: number) => v === 'ones' ? new Float32Array(d).fill(1)
      : v === 'random' ? seededVector(seed, tag, d) : arrayOf(name, v, Float32Array);
    return check(this.raw.ropeInnerProductSweep(vec('q', o.q, 0x51), vec('k', o.k, 0x4b), d, rot,
      oneOf('layout', o.layout ?? 'interleaved', ROPE_LAYOUTS), invFreqOf(this.raw, o, rot), integer('q_position', o.q_position ?? 0),
      integer('k_start', o.k_start ?? 0), integer('count', o.count)));
  }

  /**
   * Su's bound curve f(r) = (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{i<j} e^{i·r·θ_i}| for r = 0 … count − 1
   * (RoFormer §3.4.3, and Su, kexue.fm/archives/8265; d = rotary_dim). Accuracy: within 1e-5·(d/2) of float64.
   * Finite for every |inv_freq_i| ≤ 1e298 (else it throws).
   */
  ropeDecayBound(options: { rotary_dim?: number; rope_theta?: number; inv_freq?: Float64Array; count: number }): Float32Array {
    const o = object('options', options);
    return check(this.raw.ropeDecayBound(invFreqOf(this.raw, o, integer('rotary_dim', o.rotary_dim ?? 128)), integer('count', o.count)));
  }

  /**
   * Min/max envelope of a long curve for drawing at `width` pixels: pixel p covers values
   * [⌊p·n/width⌋, ⌊(p+1)·n/width⌋) (at least one). NaN values are skipped (a pixel of only NaN gives NaN).
   */
  envelope(values: ArrayLike<number>, width: number): { min: Float32Array; max: Float32Array } {
    return check(this.raw.envelope(arrayOf('values', values, Float32Array), integer('width', width)));
  }

  /**
   * Per-dimension analytics against a training length L (`original_max_position_embeddings`): wavelength
   * 2π/θ_i, rotations L·θ_i/(2π), and the first dimension whose wavelength exceeds L (inv_freq.length if none).
   * A frequency θ_i ≤ 0 (a channel that never rotates) has wavelength `Infinity` by definition; everything else is
   * finite for |θ_i| ≤ 1e298 (else it throws) and L·|θ_i| ≤ 1e308.
   */
  ropeFrequencyAnalysis(options: { inv_freq?: Float64Array; rotary_dim?: number; rope_theta?: number;
    original_max_position_embeddings: number }): { wavelength: Float64Array; rotations: Float64Array; first_incomplete: number } {
    const o = object('options', options);
    return check(this.raw.ropeFrequencyAnalysis(invFreqOf(this.raw, o, integer('rotary_dim', o.rotary_dim ?? 128)),
      number('original_max_position_embeddings', o.original_max_position_embeddings)));
  }
}

function invFreqOf(raw: RawModule, o: Record<string, unknown>, rotaryDim: number): Float64Array {
  return o.inv_freq !== undefined ? arrayOf('inv_freq', o.inv_freq, Float64Array) : ropeInvFreqOf(raw, rotaryDim, o.rope_theta);
}

/**
 * Seeded vectors for the decay sweeps: uniform in [−1, 1) from the documented generator
 * (splitmix64 stream with key seed XOR tag; value = (z >> 40)·2^-23 − 1).
 */
export function seededVector(seed: number, tag: number, n: number): Float32Array {
  const M = (1n << 64n) - 1n;
  let z = (BigInt(seed) ^ BigInt(tag)) & M;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    z = (z + 0x9E3779B97F4A7C15n) & M;
    let r = z;
    r = ((r ^ (r >> 30n)) * 0xBF58476D1CE4E5B9n) & M;
    r = ((r ^ (r >> 27n)) * 0x94D049BB133111EBn) & M;
    r ^= r >> 31n;
    out[i] = Number(r >> 40n) * 2 ** -23 - 1;
  }
  return out;
}
