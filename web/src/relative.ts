// Relative position encodings (cpp/src/relative.cpp): Shaw, Transformer-XL, T5, DeBERTa, TUPE.
import { Core } from './core.js';
import { arrayOf, booleanOr, check, integer, object, optionalArray } from './validate.js';

/** Options of {@link Posenc.shawScores}. */
export interface ShawScoresOptions {
  /** Queries `[q_len, d]`. */
  q: ArrayLike<number>;
  /** Keys `[k_len, d]`; omit for the position term q_i·a_ij alone. */
  k?: ArrayLike<number> | null;
  /** Relative key embeddings a_K `[2·max_relative_position + 1, d]`; row K is distance 0. */
  table_k: ArrayLike<number>;
  q_len: number;
  /** Default q_len. Queries sit at the last q_len key positions (tensor2tensor). */
  k_len?: number;
  d: number;
  /** Clipping distance K ≥ 0. */
  max_relative_position: number;
}

/** Options of {@link Posenc.shawValues}. */
export interface ShawValuesOptions {
  /** Attention weights `[q_len, k_len]`. */
  weights: ArrayLike<number>;
  /** Values `[k_len, d]`; omit for the position term Σ_j w_ij a^V_ij alone. */
  v?: ArrayLike<number> | null;
  /** Relative value embeddings a_V `[2·max_relative_position + 1, d]`. */
  table_v: ArrayLike<number>;
  q_len: number;
  /** Default q_len. */
  k_len?: number;
  d: number;
  max_relative_position: number;
}

/** Options of {@link Posenc.xlScores}. */
export interface XLScoresOptions {
  /** Queries of the current segment `[qlen, d]`. */
  q: ArrayLike<number>;
  /** Keys `[klen, d]`: klen − qlen memory rows, then the segment. */
  k: ArrayLike<number>;
  /** Projected position embeddings W_R·R `[klen, d]`, row m for distance klen−1−m (see {@link Posenc.xlPositionEmbedding}). */
  r: ArrayLike<number>;
  /** Global content bias u (`r_w_bias`) `[d]`. Default zeros. */
  u?: ArrayLike<number>;
  /** Global position bias v (`r_r_bias`) `[d]`. Default zeros. */
  v?: ArrayLike<number>;
  qlen: number;
  /** Default qlen (no memory). */
  klen?: number;
  d: number;
  /** Mask keys in the future (j > i + klen − qlen) with −∞ in `score`. Default true. */
  causal?: boolean;
}

/** Result of {@link Posenc.xlScores}: each `[qlen, klen]`. */
export interface XLScores {
  /** content–content q_i·k_j */
  a: Float32Array;
  /** content–position q_i·r_{i−j} (via rel_shift) */
  b: Float32Array;
  /** global content bias u·k_j */
  c: Float32Array;
  /** global position bias v·r_{i−j} (via rel_shift) */
  d: Float32Array;
  /** (q + u)·k_j, as the reference computes a + c */
  ac: Float32Array;
  /** rel_shift((q + v)·rᵀ), as the reference computes b + d */
  bd: Float32Array;
  /** (ac + bd)/√d, −∞ in the future when causal */
  score: Float32Array;
}

/** T5 bucketing settings (names as the arguments of HF `_relative_position_bucket`). */
export interface T5BucketOptions {
  /** Encoder self-attention: true; decoder: false. Default true. */
  bidirectional?: boolean;
  /** Default 32 (HF `relative_attention_num_buckets`). ≥ 2, and ≥ 4 when bidirectional. */
  num_buckets?: number;
  /** Default 128 (HF `relative_attention_max_distance`). Must exceed the exact range (num_buckets/4 bidirectional, /2 causal). */
  max_distance?: number;
}

/** Options of {@link Posenc.t5Buckets}. */
export interface T5MatrixOptions extends T5BucketOptions {
  q_len: number;
  /** Default q_len. */
  k_len?: number;
  /** Position of query 0 (a decoding step after cached keys). Default 0. */
  query_offset?: number;
}

/** Options of {@link Posenc.t5Bias}. */
export interface T5BiasOptions extends T5MatrixOptions {
  /** `relative_attention_bias.weight`, `[num_buckets, num_heads]` row-major. */
  table: ArrayLike<number>;
  num_heads: number;
}

/** Options of {@link Posenc.debertaRelativePositions}. */
export interface DebertaPositionOptions {
  q_len: number;
  /** Default q_len. */
  k_len?: number;
  /** HF `position_buckets` (v2 log buckets when > 0 together with max_relative_positions > 0). Default −1. */
  position_buckets?: number;
  /** HF `max_relative_positions`. Default −1. */
  max_relative_positions?: number;
}

/** Options of {@link Posenc.debertaScores}. */
export interface DebertaScoresOptions {
  /** Queries `[seq, d]` of one head. */
  q: ArrayLike<number>;
  /** Keys `[seq, d]`. */
  k: ArrayLike<number>;
  /** Projected relative embeddings for c2p `[2·span, d]` (span = position_buckets > 0 ? position_buckets : max_relative_positions). Omit to drop c2p. */
  pos_key?: ArrayLike<number> | null;
  /** Projected relative embeddings for p2c `[2·span, d]`. Omit to drop p2c. */
  pos_query?: ArrayLike<number> | null;
  seq: number;
  d: number;
  /** Default −1 (no buckets). */
  position_buckets?: number;
  /** Required (≥ 1) when position_buckets ≤ 0. Default −1. */
  max_relative_positions?: number;
}

/** Result of {@link Posenc.debertaScores}: `[seq, seq]` terms, each already divided by `scale`. */
export interface DebertaScores {
  c2c: Float32Array;
  c2p: Float32Array | null;
  p2c: Float32Array | null;
  score: Float32Array;
  /** √(d · (1 + number of position terms)) — √(3d) with both c2p and p2c. */
  scale: number;
}

/** Options of {@link Posenc.tupePositionScores}. */
export interface TupeOptions {
  /** Absolute position embeddings `[n, d_model]` (TUPE LayerNorms them first: pass normalised rows). */
  p: ArrayLike<number>;
  /** U_q `[d_model, heads·head_dim]` (x·U convention). */
  u_q: ArrayLike<number>;
  /** U_k `[d_model, heads·head_dim]`. */
  u_k: ArrayLike<number>;
  n: number;
  d_model: number;
  /** Default 1. */
  heads?: number;
  head_dim: number;
}

/** Relative position encodings: Shaw, Transformer-XL, T5, DeBERTa, TUPE. */
export class RelativeApi extends Core {
  /**
   * Shaw et al. relative index matrix [q_len, k_len] (Int32): clip(j − i, −K, K) + K with key − query order, as
   * tensor2tensor `_generate_relative_positions_matrix` (queries at the last q_len of k_len positions).
   * HF BERT's `relative_key` uses the opposite sign (i − j) and offset max_position_embeddings − 1.
   */
  shawRelativeIndex(options: { q_len: number; k_len?: number; max_relative_position: number }): Int32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.shawIndex(q, integer('k_len', o.k_len ?? q), integer('max_relative_position', o.max_relative_position)));
  }

  /**
   * Shaw scores [q_len, k_len] = (q_i·k_j + q_i·a_K[clip(j − i, −K, K) + K]) / √d (t2t scales q by d^-0.5);
   * without `k` only the position term q_i·a_ij/√d. Accuracy: float32 dot products.
   */
  shawScores(options: ShawScoresOptions): Float32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.shawScores(arrayOf('q', o.q, Float32Array), optionalArray('k', o.k), arrayOf('table_k', o.table_k, Float32Array),
      q, integer('k_len', o.k_len ?? q), integer('d', o.d), integer('max_relative_position', o.max_relative_position)));
  }

  /** Shaw output [q_len, d] = Σ_j w_ij (v_j + a_V[clip(j − i, −K, K) + K]), float64 accumulation. */
  shawValues(options: ShawValuesOptions): Float32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.shawValues(arrayOf('weights', o.weights, Float32Array), optionalArray('v', o.v),
      arrayOf('table_v', o.table_v, Float32Array), q, integer('k_len', o.k_len ?? q), integer('d', o.d),
      integer('max_relative_position', o.max_relative_position)));
  }

  /**
   * Transformer-XL position embedding R, [klen, d]: row m = [sin((klen−1−m)·ω) | cos((klen−1−m)·ω)],
   * ω_i = 10000^(−2i/d) — distances in descending order klen−1 … 0, as `pos_seq = arange(klen−1, −1, −1)`. Even d.
   */
  xlPositionEmbedding(options: { klen: number; d: number }): Float32Array {
    const o = object('options', options);
    return check(this.raw.xlPositionEmbedding(integer('klen', o.klen), integer('d', o.d)));
  }

  /**
   * Transformer-XL `_rel_shift` of a [qlen, klen] matrix: prepend a zero column, view as [klen+1, qlen], drop the
   * first row, view as [qlen, klen]. Entry (i, j), j ≤ i + klen − qlen, becomes x[i][j + qlen − 1 − i]; the
   * future entries hold leftovers that the causal mask hides.
   */
  relShift(x: ArrayLike<number>, options: { qlen: number; klen?: number }): Float32Array {
    const o = object('options', options);
    const q = integer('qlen', o.qlen);
    return check(this.raw.relShift(arrayOf('x', x, Float32Array), q, integer('klen', o.klen ?? q)));
  }

  /**
   * Transformer-XL / XLNet relative attention of one head, the four terms and the score:
   * (q_i·k_j + q_i·r_{i−j} + u·k_j + v·r_{i−j}) / √d with distance i + klen − qlen − j ≥ 0 (query − key), computed as
   * the reference: AC = (q+u)·kᵀ, BD = rel_shift((q+v)·rᵀ). XLNet's bidirectional variant (distances klen … −qlen)
   * is not covered. Accuracy: float32 dot products.
   */
  xlScores(options: XLScoresOptions): XLScores {
    const o = object('options', options);
    const q = integer('qlen', o.qlen), d = integer('d', o.d);
    const zeros = new Float32Array(Math.max(0, d));
    return check(this.raw.xlScores(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array), arrayOf('r', o.r, Float32Array),
      o.u == null ? zeros : arrayOf('u', o.u, Float32Array), o.v == null ? zeros : arrayOf('v', o.v, Float32Array),
      q, integer('klen', o.klen ?? q), d, booleanOr('causal', o.causal, true)));
  }

  /**
   * T5 bucket of relative_position = key − query (HF `_relative_position_bucket`, EXACT integers: evaluated in
   * float32 like the reference). Bidirectional: n/2 buckets per sign, keys after the query get +num_buckets/2;
   * causal: keys after the query → bucket 0. Within a half of n buckets, distances < n/2 are exact, larger ones
   * n/2 + ⌊log(dist/(n/2))/log(max_distance/(n/2))·(n/2)⌋, capped at n − 1. Defaults 32 buckets, max_distance 128:
   * i − j = 0 … 30 → 0 1 2 3 4 5 6 7 8 8 8 8 9 9 9 9 10 … 10 (16–22) 11 … (23–).
   */
  t5RelativePositionBucket(relative_position: number, options: T5BucketOptions = {}): number {
    const o = object('options', options);
    return check(this.raw.t5Bucket(integer('relative_position', relative_position), booleanOr('bidirectional', o.bidirectional, true),
      integer('num_buckets', o.num_buckets ?? 32), integer('max_distance', o.max_distance ?? 128)));
  }

  /** T5 bucket matrix [q_len, k_len] (Int32) for relative_position = j − (query_offset + i). */
  t5Buckets(options: T5MatrixOptions): Int32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.t5Buckets(q, integer('k_len', o.k_len ?? q), booleanOr('bidirectional', o.bidirectional, true),
      integer('num_buckets', o.num_buckets ?? 32), integer('max_distance', o.max_distance ?? 128), integer('query_offset', o.query_offset ?? 0)));
  }

  /**
   * T5 position bias [num_heads, q_len, k_len]: bias[h][i][j] = table[bucket(j − i)][h] from the
   * `relative_attention_bias` weight [num_buckets, num_heads] (HF `compute_bias` after its permute).
   */
  t5Bias(options: T5BiasOptions): Float32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.t5Bias(arrayOf('table', o.table, Float32Array), integer('num_buckets', o.num_buckets ?? 32),
      integer('num_heads', o.num_heads), q, integer('k_len', o.k_len ?? q), booleanOr('bidirectional', o.bidirectional, true),
      integer('max_distance', o.max_distance ?? 128), integer('query_offset', o.query_offset ?? 0)));
  }

  /**
   * DeBERTa relative positions [q_len, k_len] (Int32): δ = i − j (query − key, HF `build_relative_position`), log
   * bucketed (v2 `make_log_bucket_position`, float32 like the reference) when position_buckets > 0 and
   * max_relative_positions > 0: |δ| ≤ position_buckets/2 stays, else sign(δ)·(⌈log(|δ|/mid)/log((max−1)/mid)·(mid−1)⌉ + mid).
   */
  debertaRelativePositions(options: DebertaPositionOptions): Int32Array {
    const o = object('options', options);
    const q = integer('q_len', o.q_len);
    return check(this.raw.debertaRelativePositions(q, integer('k_len', o.k_len ?? q), integer('position_buckets', o.position_buckets ?? -1),
      integer('max_relative_positions', o.max_relative_positions ?? -1)));
  }

  /**
   * DeBERTa v2 disentangled attention of one head (self-attention, `[seq, seq]`), each term divided by
   * √(d·(1 + number of position terms)): c2c = q_i·k_j, c2p = q_i·pos_key[c], p2c = k_j·pos_query[c] with
   * c = clamp(δ(i, j) + span, 0, 2·span − 1). Accuracy: float32 dot products.
   */
  debertaScores(options: DebertaScoresOptions): DebertaScores {
    const o = object('options', options);
    return check(this.raw.debertaScores(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array), optionalArray('pos_key', o.pos_key),
      optionalArray('pos_query', o.pos_query), integer('seq', o.seq), integer('d', o.d), integer('position_buckets', o.position_buckets ?? -1),
      integer('max_relative_positions', o.max_relative_positions ?? -1)));
  }

  /**
   * TUPE's untied absolute positional term [heads, n, n]: (p U_q)_h (p U_k)_hᵀ / √(2·head_dim). Projections in
   * float64 (no biases; TUPE's Linear layers have them, add them to p·U yourself), float32 dot products.
   * TUPE's [CLS] untying is not included.
   */
  tupePositionScores(options: TupeOptions): Float32Array {
    const o = object('options', options);
    return check(this.raw.tupeScores(arrayOf('p', o.p, Float32Array), arrayOf('u_q', o.u_q, Float32Array), arrayOf('u_k', o.u_k, Float32Array),
      integer('n', o.n), integer('d_model', o.d_model), integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim)));
  }
}
