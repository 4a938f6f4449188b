// RoPE's long-range decay and frequency analytics (cpp/src/decay.cpp).
import type { RawModule } from './raw.js';
import { Core } from './core.js';
import { WasmBuffer } from './buffers.js';
import { ROPE_LAYOUTS, ropeInvFreqOf } from './rope.js';
import type { Data, Out, RopeLayout } from './rope.js';
import { PosencError, check, seedOf, show } from './validate.js';
import { MAX_ELEMENTS, any, array, f64, int, int32, num, numbers, oneOf, optional, out, parse, value } from './options.js';
import type { Parsed, Schema } from './options.js';

/** RoPE's long-range decay sweeps and frequency analytics. */
export class DecayApi extends Core {
  /**
   * ⟨R_m q, R_n k⟩ for q at m = q_position (default 0) and k at n = k_start … k_start + count − 1 (count ≤ 2^20):
   * RoPE's long-range decay (RoFormer, Su et al. 2021, §3.4.3). q, k: vectors of head_dim, or `'ones'`, or `'random'`
   * (seeded: the documented generator with key seed XOR 0x51 for q, seed XOR 0x4B for k). Frequencies:
   * `inv_freq` (any scaling, e.g. from {@link Posenc.ropeInvFreqScaled}) or rope_theta^(−2i/rotary_dim). Pairs:
   * `layout`, default `'half_split'` as everywhere (q = k = ones gives the same curve in both layouts).
   * Accuracy: |error| ≤ 1e-5·Σ_i|h_i| (h_i the pair products), no growth with distance. Valid range: every
   * |inv_freq_i| ≤ 1e298 (else it throws); finite while Σ_i|h_i| + Σ|q_c·k_c| ≤ 3.4e38.
   */
  ropeInnerProductSweep(options: { q: Data | 'ones' | 'random'; k: Data | 'ones' | 'random'; seed?: number;
    head_dim: number; rotary_dim?: number; layout?: RopeLayout; rope_theta?: number; inv_freq?: ArrayLike<number>;
    q_position?: number; k_start?: number; count: number; out?: Out }): Float32Array {
    const o = parse('ropeInnerProductSweep', SWEEP, options);
    const d = o.head_dim, rot = o.rotary_dim ?? d, seed = seedOf(o.seed);
    const vec = (name: string, v: unknown, tag: number) => v === 'ones' ? new Float32Array(d).fill(1)
      : v === 'random' ? seededVector(seed, tag, d) : typeof v === 'string'
        ? fail(`${name}: must be 'ones', 'random' or a vector of head_dim numbers (got ${show(v)})`) : numbers(name, v, 8192);
    const inv = invFreqOf(this.raw, o, rot);
    const st = this.heap.call();
    const pq = st.input('q', vec('q', o.q, 0x51), 'f32', d), pk = st.input('k', vec('k', o.k, 0x4b), 'f32', d);
    const pInv = st.input('inv_freq', inv, 'f64', inv.length);
    const r = st.output<Float32Array>('out', o.out, 'f32', o.count);
    check(this.raw.ropeInnerProductSweep(pq, pk, d, rot, ROPE_LAYOUTS[o.layout as RopeLayout], pInv, inv.length, o.q_position,
      o.k_start, o.count, r.address));
    return r.finish();
  }

  /**
   * Su's bound curve f(r) = (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{i<j} e^{i·r·θ_i}| for r = 0 … count − 1
   * (RoFormer §3.4.3, and Su, kexue.fm/archives/8265; d = rotary_dim). Accuracy: within 1e-5·(d/2) of float64.
   * Finite for every |inv_freq_i| ≤ 1e298 (else it throws).
   */
  ropeDecayBound(options: { rotary_dim?: number; rope_theta?: number; inv_freq?: ArrayLike<number>; count: number; out?: Out }): Float32Array {
    const o = parse('ropeDecayBound', BOUND, options);
    const inv = invFreqOf(this.raw, o, o.rotary_dim), st = this.heap.call();
    const pInv = st.input('inv_freq', inv, 'f64', inv.length), r = st.output<Float32Array>('out', o.out, 'f32', o.count);
    check(this.raw.ropeDecayBound(pInv, inv.length, o.count, r.address));
    return r.finish();
  }

  /**
   * Min/max envelope of a long curve for drawing at `width` pixels: pixel p covers values
   * [⌊p·n/width⌋, ⌊(p+1)·n/width⌋) (at least one). NaN values are skipped (a pixel of only NaN gives NaN).
   */
  envelope(values: Data, width: number): { min: Float32Array; max: Float32Array } {
    const v = numbers('values', values, MAX_ELEMENTS), w = value('width', int(1, 2 ** 16), width);
    return check(this.raw.envelope(this.heap.call().input('values', v, 'f32', v.length), v.length, w));
  }

  /**
   * Per-dimension analytics against a training length L (`original_max_position_embeddings`): wavelength
   * 2π/θ_i, rotations L·θ_i/(2π), and the first dimension whose wavelength exceeds L (inv_freq.length if none).
   * A frequency θ_i ≤ 0 (a channel that never rotates) has wavelength `Infinity` by definition; everything else is
   * finite for |θ_i| ≤ 1e298 (else it throws) and L·|θ_i| ≤ 1e308.
   */
  ropeFrequencyAnalysis(options: { inv_freq?: ArrayLike<number>; rotary_dim?: number; rope_theta?: number;
    original_max_position_embeddings: number }): { wavelength: Float64Array; rotations: Float64Array; first_incomplete: number } {
    const o = parse('ropeFrequencyAnalysis', ANALYSIS, options);
    return check(this.raw.ropeFrequencyAnalysis(f64(invFreqOf(this.raw, o, o.rotary_dim)), o.original_max_position_embeddings));
  }
}

/** Frequencies of a sweep: `inv_freq` if given (then rope_theta is not), else rope_theta^(−2i/rotary_dim). */
function invFreqOf(raw: RawModule, o: Parsed, rotaryDim: number): ArrayLike<number> {
  if (o.inv_freq === undefined) return ropeInvFreqOf(raw, rotaryDim, o.rope_theta ?? 10000);
  if (o.rope_theta !== undefined) throw new PosencError('rope_theta: not allowed together with inv_freq');
  return o.inv_freq instanceof WasmBuffer ? o.inv_freq.array : o.inv_freq;
}

function fail(message: string): never {
  throw new PosencError(message);
}

const FREQS: Schema = { rotary_dim: int(2, 8192, 128), rope_theta: optional(num({ gt: 0 })), inv_freq: optional(array(4096)) };
const SWEEP: Schema = {
  ...FREQS, rotary_dim: optional(int(2, 8192)), q: any(), k: any(), seed: optional(any()), head_dim: int(1, 8192),
  layout: oneOf(['interleaved', 'half_split'], 'half_split'), q_position: int32(0), k_start: int32(0), count: int(0, 2 ** 20), out: out(),
};
const BOUND: Schema = { ...FREQS, count: int(0, 2 ** 20), out: out() };
const ANALYSIS: Schema = { ...FREQS, original_max_position_embeddings: num({ gt: 0 }) };

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
