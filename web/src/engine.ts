// The attention engine (cpp/src/engine.cpp): any scheme's attention with its terms kept apart, permutation tests,
// linear attention with RoPE.
import type { RawScheme } from './raw.js';
import type { RopeScalingParams } from './rope_config.js';
import { rawScaling } from './rope_config.js';
import { Core } from './core.js';
import { PosencError, arrayOf, booleanOr, check, finiteOr, integer, number, object, oneOf, seedOf } from './validate.js';

/**
 * Scheme names of the engine, each as its paper defines it: sinusoidal (Vaswani et al. 2017), learned (BERT, GPT-2),
 * multiplicative (x ⊙ p, in Su Jianlin's 2021 survey of position encodings), shaw (Shaw et al. 2018),
 * transformer_xl (Dai et al. 2019), t5 (Raffel et al. 2020), deberta (He et al. 2021), tupe (Ke et al. 2021),
 * rope (Su et al. 2021), alibi (Press et al. 2022), xpos (Sun et al. 2023).
 */
export type AttentionSchemeType = 'none' | 'sinusoidal' | 'learned' | 'multiplicative' | 'shaw' | 'transformer_xl' | 't5'
  | 'deberta' | 'tupe' | 'rope' | 'alibi' | 'xpos';

/**
 * A scheme and its parameters (Hugging Face names where they exist). Unset fields take the defaults shown.
 * For `rope`/`xpos` the RoPE fields of {@link RopeScalingParams} apply (rope_type, factor, …; rotary_dim
 * defaults to head_dim, or int(head_dim·partial_rotary_factor)).
 */
export interface SchemeOptions extends Partial<RopeScalingParams> {
  type: AttentionSchemeType;
  /** Sinusoid base (sinusoidal, multiplicative, tupe). Default 10000. */
  base?: number;
  /** learned: a [rows ≥ seq, head_dim] table (row-major). Default: a seeded table. */
  table?: { rows: number; cols: number; data: Float32Array };
  /** shaw: clip distance K. Default 16. */
  max_relative_position?: number;
  /** t5: default 32 and 128 (bidirectional unless causal). */
  num_buckets?: number;
  max_distance?: number;
  /** deberta: default 256 and 512. */
  position_buckets?: number;
  max_relative_positions?: number;
  /** rope: default 'half_split'. */
  layout?: 'interleaved' | 'half_split';
  /** Fraction of head_dim that rotates (rope/xpos), when rotary_dim is not given. */
  partial_rotary_factor?: number;
  /** xpos: default 512 and 0.4. */
  scale_base?: number;
  gamma?: number;
}

/** Result of {@link Posenc.attention}. Matrices are [heads, seq, seq] row-major. */
export interface AttentionResult {
  tokens: string[] | null;
  heads: number;
  seq: number;
  head_dim: number;
  /**
   * The scheme's terms, already scaled, whose sum is `scores`: content_content, content_position,
   * position_content, position_position, bias (only those the scheme has; Transformer-XL's (a)–(d) map to them
   * in order; DeBERTa's c2c, c2p, p2c likewise). −∞ where masked.
   */
  terms: Record<string, Float32Array>;
  /** Term names in order. */
  term_names: string[];
  scores: Float32Array;
  /** Row softmax of scores (exactly 0 where masked). */
  probs: Float32Array;
  /** probs·V, [seq, heads, head_dim]. */
  output: Float32Array;
}

export function rawScheme(scheme: unknown, headDim: number, rotaryDimFor: (f: number) => number): RawScheme {
  const s = object('scheme', scheme);
  if (typeof s.type !== 'string') throw new PosencError('scheme.type: must be a string');
  const rotary = s.rotary_dim ?? (s.partial_rotary_factor === undefined ? 0 : rotaryDimFor(finiteOr('scheme.partial_rotary_factor', s.partial_rotary_factor, 1)));
  let table: Float32Array | null = null, rows = 0;
  if (s.table !== undefined) {
    const t = object('scheme.table', s.table);
    rows = integer('scheme.table.rows', t.rows);
    if (t.cols !== headDim) throw new PosencError(`scheme.table.cols: must equal head_dim = ${headDim} (got ${String(t.cols)})`);
    table = arrayOf('scheme.table.data', t.data, Float32Array);
  }
  const layout = s.layout ?? 'half_split';
  if (layout !== 'interleaved' && layout !== 'half_split') {
    throw new PosencError(`scheme.layout: must be one of 'interleaved', 'half_split' (got ${String(layout)})`);
  }
  return {
    type: s.type,
    base: finiteOr('scheme.base', s.base, 10000),
    learned_table: table,
    learned_rows: rows,
    max_relative_position: integer('scheme.max_relative_position', s.max_relative_position ?? 16),
    num_buckets: integer('scheme.num_buckets', s.num_buckets ?? 32),
    max_distance: integer('scheme.max_distance', s.max_distance ?? 128),
    position_buckets: integer('scheme.position_buckets', s.position_buckets ?? 256),
    max_relative_positions: integer('scheme.max_relative_positions', s.max_relative_positions ?? 512),
    rope: rawScaling({ ...s, rotary_dim: rotary }, 'scheme.'),
    layout: layout === 'interleaved' ? 0 : 1,
    scale_base: finiteOr('scheme.scale_base', s.scale_base, 512),
    gamma: finiteOr('scheme.gamma', s.gamma, 0.4),
  };
}

/** The attention engine: every scheme with its terms kept apart. */
export class EngineApi extends Core {
  /**
   * Attention of any scheme with its terms kept apart (see {@link AttentionResult}; each scheme's formula is its
   * paper's, listed at {@link AttentionSchemeType}). Content vectors come from `text`
   * (seeded embeddings and projections per head, the generator of {@link Posenc.textQK}) or from `q`, `k`, `v`
   * ([seq, heads, head_dim]). Scheme parameters that are not inputs (positional projections, relative tables,
   * biases) are seeded from `seed` (default 0). Caps: seq ≤ 4096, heads·seq²·(terms + 2) ≤ 2^26.
   * Accuracy: float32 dot products (relative error ≤ head_dim·2^-24); softmax rows sum to 1 within 1e-6.
   */
  attention(options: {
    scheme: SchemeOptions; text?: string; q?: ArrayLike<number>; k?: ArrayLike<number>; v?: ArrayLike<number>;
    seq?: number; heads?: number; head_dim: number; causal?: boolean; seed?: number;
  }): AttentionResult {
    const o = object('options', options);
    const heads = integer('heads', o.heads ?? 1), d = integer('head_dim', o.head_dim), seed = seedOf(o.seed);
    let tokens: string[] | null = null, q, k, v, seq: number;
    if (o.text !== undefined) {
      if (typeof o.text !== 'string') throw new PosencError('text: must be a string');
      const t = check(this.raw.textQKV(o.text, heads, d, seed));
      ({ tokens, q, k, v } = t);
      seq = tokens.length;
    } else {
      seq = integer('seq', o.seq);
      q = arrayOf('q', o.q, Float32Array);
      k = arrayOf('k', o.k, Float32Array);
      v = arrayOf('v', o.v, Float32Array);
    }
    const scheme = rawScheme(o.scheme, d, (f) => check(this.raw.rotaryDimFor(d, f)));
    const r = check(this.raw.attention(q, k, v, seq, heads, d, scheme, booleanOr('causal', o.causal, false), seed));
    return { tokens, heads, seq, head_dim: d, terms: r.terms, term_names: r.termOrder, scores: r.scores, probs: r.probs, output: r.output };
  }

  /** q, k, v [tokens, heads, head_dim] of a text (head 0 of q and k equals {@link Posenc.textQK}). */
  textQKV(options: { text: string; heads?: number; head_dim: number; seed?: number }) {
    const o = object('options', options);
    if (typeof o.text !== 'string') throw new PosencError('text: must be a string');
    return check(this.raw.textQKV(o.text, integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim), seedOf(o.seed)));
  }

  /**
   * How much a scheme's raw scores change beyond a pure permutation when tokens i and j of `text` swap:
   * max |S'[a][b] − S[π(a)][π(b)]| over all heads. Exactly 0 for `none`; > 0 where position matters
   * (note: a swap that is a reflection of the whole sequence leaves symmetric biases like ALiBi's unchanged).
   * With `causal: true` only the pairs visible in both orders are compared (the mask belongs to positions, so a swap
   * moves it); the result is always finite.
   */
  permutationChange(options: { scheme: SchemeOptions; text: string; i: number; j: number; heads?: number; head_dim: number;
    causal?: boolean; seed?: number }): number {
    const o = object('options', options);
    if (typeof o.text !== 'string') throw new PosencError('text: must be a string');
    const d = integer('head_dim', o.head_dim);
    return check(this.raw.permutationChange(o.text, integer('i', o.i), integer('j', o.j), integer('heads', o.heads ?? 1), d,
      rawScheme(o.scheme, d, (f) => check(this.raw.rotaryDimFor(d, f))), booleanOr('causal', o.causal, false),
      seedOf(o.seed)));
  }

  /**
   * Linear attention with RoPE (RoFormer §3.3; Su, kexue.fm/archives/8265), φ = elu + 1 on q and k, half-split RoPE at
   * positions 0 … seq−1. `naive` divides by Σ_j (R_iφq_i)·(R_jφk_j), which can approach or cross 0;
   * `numerator_only` divides by Σ_j φ(q_i)·φ(k_j) > 0. Computed in O(seq·d·v_dim) with float64 state sums.
   */
  linearAttentionRope(options: { q: ArrayLike<number>; k: ArrayLike<number>; v: ArrayLike<number>; seq: number; head_dim: number;
    v_dim: number; causal?: boolean; rope_theta?: number; form: 'naive' | 'numerator_only' }): { output: Float32Array; denominator: Float32Array } {
    const o = object('options', options);
    const form = oneOf('form', o.form, { naive: 0, numerator_only: 1 });
    return check(this.raw.linearAttentionRope(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array),
      arrayOf('v', o.v, Float32Array), integer('seq', o.seq), integer('head_dim', o.head_dim), integer('v_dim', o.v_dim),
      booleanOr('causal', o.causal, false), number('rope_theta', o.rope_theta ?? 10000), form));
  }
}
