// Research position schemes without a released model (cpp/src/research.cpp): KERPLE, Sandwich, FIRE, CoPE,
// stick-breaking attention and PaTH, as curves against the distance r = i − j ≥ 0 (query i, key j in the past).
import { Core } from './core.js';
import { PosencError, check } from './validate.js';
import { array, int, num, numbers, oneOf, optional, parse } from './options.js';
import type { Schema } from './options.js';
import { WasmBuffer } from './buffers.js';

/** KERPLE's two kernels: `'power'` −r1·r^r2, `'log'` −r1·log(1 + r2·r). */
export type KerpleKernel = 'power' | 'log';

/** Options of {@link Posenc.kerpleBias}. */
export interface KerpleBiasOptions {
  kernel: KerpleKernel;
  /** Scale r1 in (0, 1e6] (the reference's bias_a for power, bias_p for log; clamped there to ≥ 0.01). */
  r1: number;
  /** Exponent (power, in (0, 2]) or rate (log, in (0, 1e6]) r2. */
  r2: number;
  /** Distances r = 0 … count − 1 (count ≤ 2^20). */
  count: number;
}

/** Options of {@link Posenc.sandwichBias}. */
export interface SandwichBiasOptions {
  /** Size d of the sinusoid (NeMo's `hidden_size`, per head); even, in [2, 8192]. */
  head_dim: number;
  /** Heads H, 1 … 1024. */
  num_heads: number;
  /** Head h, 1 … num_heads: the bias is divided by h·8/num_heads (the head's "compression", as ALiBi's slopes). */
  head: number;
  /** Distances r = i − j = 0 … count − 1 (count ≤ 2^20). */
  count: number;
}

/** Options of {@link Posenc.fireDistance}. */
export interface FireDistanceOptions {
  /** The log transform's c, in (0, 1e6] (default 0.1, the published initialisation). */
  c?: number;
  /** The threshold L of the normaliser, in [0, 2^31] (default 512, the published initialisation). */
  L?: number;
  /** The query's position i ≥ 0. */
  query_position: number;
  /** Distances r = 0 … count − 1, count ≤ query_position + 1. */
  count: number;
}

const MAX_N = 2 ** 20;
/** Largest KERPLE r1, r2 and FIRE c (learned values are O(1)); with r ≤ 2^20 every curve stays finite. */
const MAX_SCALE = 1e6;
const KERPLE: Schema = { kernel: oneOf(['power', 'log']), r1: num({ gt: 0, max: MAX_SCALE }), r2: num({ gt: 0, max: MAX_SCALE }), count: int(1, MAX_N) };
const SANDWICH: Schema = { head_dim: int(2, 8192), num_heads: int(1, 1024), head: int(1, 1024), count: int(1, MAX_N) };
const FIRE: Schema = { c: num({ gt: 0, max: MAX_SCALE }, 0.1), L: num({ min: 0, max: 2 ** 31 }, 512), query_position: int(0, MAX_N - 1), count: int(1, MAX_N) };
const COPE: Schema = { gate_logits: array(2 ** 22), npos: optional(int(1, MAX_N + 1)) };
const STICK: Schema = { logits: array(2 ** 22) };
const PATH: Schema = { q: array(2 ** 22), k: array(2 ** 22), w: array(2 ** 22), beta: array(2 ** 22), head_dim: int(1, 8192) };

/** An array option as float64 values (a wasm buffer's view copied), its length checked against `max`. */
function f64s(name: string, v: unknown, max: number): ArrayLike<number> {
  const a = numbers(name, v, max);
  const arr = a instanceof WasmBuffer ? a.array : a;
  if (arr.length === 0) throw new PosencError(`${name}: must hold at least one number`);
  return arr;
}

/** Research schemes: bias, position and weight curves of KERPLE, Sandwich, FIRE, CoPE, stick-breaking and PaTH. */
export class ResearchApi extends Core {
  /**
   * KERPLE (Chi et al. 2022, arXiv 2205.09921) logit bias at r = 0 … count − 1: `'power'` −r1·r^r2 (r2 ∈ (0, 2]),
   * `'log'` −r1·log(1 + r2·r), as chijames/KERPLE@73f1ee2d (`ParallelKerplePower`, `ParallelKerpleLog`). Index r is the
   * distance i − j ≥ 0 of a key j in the query i's past. float64: within 1e-12 (relative) of the
   * reference's formula evaluated in float64 (the references run float32).
   * Caps: r1, r2 ≤ 1e6, count ≤ 2^20.
   * @throws PosencError naming `kernel`, `r1`, `r2` or `count` and the rule it breaks.
   */
  kerpleBias(options: KerpleBiasOptions): Float64Array {
    const o = parse('kerpleBias', KERPLE, options);
    if (o.kernel === 'power' && o.r2 > 2) throw new PosencError(`r2: must be in (0, 2] for the power kernel (got ${o.r2})`);
    return check(this.raw.kerpleBias(o.kernel === 'power' ? 0 : 1, o.r1, o.r2, o.count));
  }

  /**
   * Sandwich (Chi et al. 2023, arXiv 2212.10356) bias of head h at r = 0 … count − 1, as NVIDIA/NeMo@000b931e
   * computes it: (Σ_{k=1}^{d/2} cos(r/10000^(2k/d)) − d/2)/(h·8/num_heads), r = i − j ≥ 0. 0 at r = 0, ≤ 0 everywhere.
   * float64: within 1e-12 (relative) of the
   * reference's formula evaluated in float64 (the references run float32). Caps: count ≤ 2^20, count·head_dim/2 ≤ 2^28.
   * @throws PosencError naming `head_dim` (even, 2 … 8192), `num_heads` (1 … 1024), `head` (1 … num_heads) or `count`.
   */
  sandwichBias(options: SandwichBiasOptions): Float64Array {
    const o = parse('sandwichBias', SANDWICH, options);
    if (o.head_dim % 2) throw new PosencError(`head_dim: must be even (got ${o.head_dim})`);
    if (o.head > o.num_heads) throw new PosencError(`head: must be an integer in [1, num_heads = ${o.num_heads}] (got ${o.head})`);
    return check(this.raw.sandwichBias(o.head_dim, o.num_heads, o.head, o.count));
  }

  /**
   * FIRE (Li et al. 2023, arXiv 2310.04418): the MLP's input for a query at i and r = 0 … count − 1, the progressively
   * interpolated distance ψ(r)/(ψ(max(i, L)) + 1e-6), ψ(t) = log(|c·t| + 1). Defaults c = 0.1, L = 512 (the
   * initialisation of mcleish7/arithmetic@55af9d5e). The bias itself is a learned MLP of this value. In [0, 1), index r =
   * i − j. float64: within 1e-12 (relative) of the
   * reference's formula evaluated in float64 (the references run float32). Caps: c ≤ 1e6, L ≤ 2^31, query_position < 2^20.
   * @throws PosencError naming `c`, `L`, `query_position` or `count` (at most query_position + 1).
   */
  fireDistance(options: FireDistanceOptions): Float64Array {
    const o = parse('fireDistance', FIRE, options);
    if (o.count > o.query_position + 1) {
      throw new PosencError(`count: must be at most query_position + 1 = ${o.query_position + 1} (keys at or before the query; got ${o.count})`);
    }
    return check(this.raw.fireDistance(o.c, o.L, o.query_position, o.count));
  }

  /**
   * CoPE (Golovneva et al. 2024, arXiv 2405.18719): contextual positions p_j = min(Σ_{t=j}^{n−1} σ(z_t), npos − 1) of
   * the query at position n − 1 over keys j = 0 … n − 1, from its gate logits z (already divided by √d as the
   * reference does; facebookresearch/RAM@eff93c70). npos defaults to n + 1 (block size + 1). Indexed by key j (the
   * distance is n − 1 − j). float64, within 1e-12 (relative) of the flip-cumsum-flip in float64. Caps: n ≤ 2^20.
   * @throws PosencError for an empty or too long `gate_logits`, a non-finite logit, or `npos` outside [1, 2^20 + 1].
   */
  copePositions(options: { gate_logits: ArrayLike<number>; npos?: number }): Float64Array {
    const o = parse('copePositions', COPE, options);
    const z = f64s('gate_logits', o.gate_logits, MAX_N);
    const st = this.heap.call();
    return check(this.raw.copePositions(st.input('gate_logits', z, 'f64', z.length), z.length, o.npos ?? z.length + 1));
  }

  /**
   * Stick-breaking attention (Tan et al. 2024, arXiv 2410.17980): the weights A_j = σ(z_j)·Π_{j<t<n}(1 − σ(z_t)) of a
   * query at position n over keys j = 0 … n − 1 (attend_current = false), from its logits z (q·k/√d), in log space as
   * shawntan/stickbreaking-attention@ea69b8dd sb_ref.py. 1 − ΣA goes to the query's own value. Indexed by key j (the
   * distance is n − j). float64 in [0, 1], within 1e-12 absolute of the product written out. Caps: n ≤ 2^20.
   * @throws PosencError for an empty or too long `logits`, or a non-finite logit.
   */
  stickBreakingWeights(options: { logits: ArrayLike<number> }): Float64Array {
    const o = parse('stickBreakingWeights', STICK, options);
    const z = f64s('logits', o.logits, MAX_N);
    return check(this.raw.stickBreakingWeights(this.heap.call().input('logits', z, 'f64', z.length), z.length));
  }

  /**
   * PaTH (Yang et al. 2025, arXiv 2505.16381): logits s_j = qᵀ H_{n−1} ⋯ H_{j+1} k_j of the query q at position n − 1
   * against keys k [n, head_dim] (row-major), H_t = I − β_t w_t w_tᵀ with unit rows w [n, head_dim] and β [n] in [0, 2]
   * (fla-org/flash-linear-attention@27289fcb `naive_path_attn`, whose tests pass L2-normalised w); s_{n−1} = q·k_{n−1}.
   * n is beta's length; indexed by key j (the distance is n − 1 − j). float64, within 1e-12 of qᵀM k_j with
   * the matrices written out, relative to |q|·|k_j|. Caps: n·head_dim ≤ 2^22, head_dim ≤ 8192.
   * @throws PosencError for lengths other than q: head_dim, k and w: n·head_dim; non-finite q or k; β outside [0, 2]; a row
   * of w not of unit length (within 1e-6); a score that overflows float64 (named `q`).
   */
  pathScores(options: { q: ArrayLike<number>; k: ArrayLike<number>; w: ArrayLike<number>; beta: ArrayLike<number>; head_dim: number }): Float64Array {
    const o = parse('pathScores', PATH, options);
    const d = o.head_dim, beta = f64s('beta', o.beta, MAX_N), n = beta.length;
    if (n * d > 2 ** 22) throw new PosencError(`beta: n·head_dim must be at most 2^22 (got ${n}·${d})`);
    const q = f64s('q', o.q, 8192), k = f64s('k', o.k, 2 ** 22), w = f64s('w', o.w, 2 ** 22);
    const st = this.heap.call();
    return check(this.raw.pathScores(st.input('q', q, 'f64', d), st.input('k', k, 'f64', n * d), st.input('w', w, 'f64', n * d),
      st.input('beta', beta, 'f64', n), n, d));
  }
}
