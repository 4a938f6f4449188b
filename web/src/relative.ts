// Relative position encodings (cpp/src/relative.cpp): Shaw, Transformer-XL, T5, DeBERTa, TUPE.
import { Core } from './core.js';
import { PosencError, check } from './validate.js';
import { MAX_ELEMENTS, array, bool, int, int32, numbers, optional, out, parse, value } from './options.js';
import type { Schema } from './options.js';
import type { Data, Out } from './rope.js';
import type { WasmBuffer } from './buffers.js';

/** Options of {@link Posenc.shawScores}. */
export interface ShawScoresOptions {
  /** Queries `[q_len, d]`. */
  q: Data;
  /** Keys `[k_len, d]`; omit for the position term q_i·a_ij alone. */
  k?: ArrayLike<number> | null;
  /** Relative key embeddings a_K `[2·max_relative_position + 1, d]`; row K is distance 0. */
  table_k: Data;
  q_len: number;
  /** Default q_len. Queries sit at the last q_len key positions (tensor2tensor). */
  k_len?: number;
  d: number;
  /** Clipping distance K ≥ 0. */
  max_relative_position: number;
  /** Where to write the result. Default: a new array. */
  out?: Out;
}

/** Options of {@link Posenc.shawValues}. */
export interface ShawValuesOptions {
  /** Attention weights `[q_len, k_len]`. */
  weights: Data;
  /** Values `[k_len, d]`; omit for the position term Σ_j w_ij a^V_ij alone. */
  v?: ArrayLike<number> | null;
  /** Relative value embeddings a_V `[2·max_relative_position + 1, d]`. */
  table_v: Data;
  q_len: number;
  /** Default q_len. */
  k_len?: number;
  d: number;
  max_relative_position: number;
  /** Where to write the result. Default: a new array. */
  out?: Out;
}

/** Options of {@link Posenc.xlScores}. */
export interface XLScoresOptions {
  /** Queries of the current segment `[qlen, d]`. */
  q: Data;
  /** Keys `[klen, d]`: klen − qlen memory rows, then the segment. */
  k: Data;
  /** Projected position embeddings W_R·R `[klen, d]`, row m for distance klen−1−m (see {@link Posenc.xlPositionEmbedding}). */
  r: Data;
  /** Global content bias u (`r_w_bias`) `[d]`. Default zeros. */
  u?: Data;
  /** Global position bias v (`r_r_bias`) `[d]`. Default zeros. */
  v?: Data;
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
  /** Where to write the [q_len, k_len] matrix (t5Buckets only). Default: a new Int32Array. */
  out?: Int32Array | WasmBuffer<Int32Array>;
}

/** Options of {@link Posenc.t5Bias}. */
export interface T5BiasOptions extends Omit<T5MatrixOptions, 'out'> {
  /** Where to write the [num_heads, q_len, k_len] bias. Default: a new Float32Array. */
  out?: Out;
  /** `relative_attention_bias.weight`, `[num_buckets, num_heads]` row-major. */
  table: Data;
  num_heads: number;
}

/** Options of {@link Posenc.debertaRelativePositions}. */
export interface DebertaPositionOptions {
  q_len: number;
  /** Default q_len. */
  k_len?: number;
  /** HF `position_buckets`: v2 log buckets when > 0 (then max_relative_positions is required). Default −1. */
  position_buckets?: number;
  /** HF `max_relative_positions` (≥ 1; required with position_buckets > 0). Default −1. */
  max_relative_positions?: number;
  /** Where to write the result. Default: a new array. */
  out?: Int32Array | WasmBuffer<Int32Array>;
}

/** Options of {@link Posenc.debertaScores}. */
export interface DebertaScoresOptions {
  /** Queries `[seq, d]` of one head. */
  q: Data;
  /** Keys `[seq, d]`. */
  k: Data;
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
  p: Data;
  /** U_q `[d_model, heads·head_dim]` (x·U convention). */
  u_q: Data;
  /** U_k `[d_model, heads·head_dim]`. */
  u_k: Data;
  n: number;
  d_model: number;
  /** Default 1. */
  heads?: number;
  head_dim: number;
  /** Where to write the result. Default: a new array. */
  out?: Out;
}

const T5_BUCKET: Schema = { bidirectional: bool(true), num_buckets: int(2, 2 ** 20, 32), max_distance: int32(128) };
const T5_MATRIX: Schema = { ...T5_BUCKET, q_len: int(1, 8192), k_len: optional(int(1, 8192)), query_offset: int(0, 2 ** 20, 0) };
const SHAW_RELATIVE_INDEX: Schema = { q_len: int(1, 8192), k_len: optional(int(1, 8192)), max_relative_position: int(0, 2 ** 20), out: out() };
const SHAW_SCORES: Schema = { q: array(), k: optional(array()), table_k: array(), q_len: int(1, 8192), k_len: optional(int(1, 8192)), d: int(1, 8192), max_relative_position: int(0, 2 ** 20), out: out() };
const SHAW_VALUES: Schema = { weights: array(), v: optional(array()), table_v: array(), q_len: int(1, 8192), k_len: optional(int(1, 8192)), d: int(1, 8192), max_relative_position: int(0, 2 ** 20), out: out() };
const XL_POSITION_EMBEDDING: Schema = { klen: int(1, 2 ** 20), d: int(2, 8192), out: out() };
const XL_SCORES: Schema = { q: array(), k: array(), r: array(), u: optional(array()), v: optional(array()), qlen: int(1, 8192), klen: optional(int(1, 8192)), d: int(1, 8192), causal: bool(true) };
const T5_BIAS: Schema = { ...T5_MATRIX, table: array(), num_heads: int(1, 1024), out: out() };
const DEBERTA_RELATIVE_POSITIONS: Schema = { q_len: int(1, 8192), k_len: optional(int(1, 8192)), position_buckets: int32(-1), max_relative_positions: int32(-1), out: out() };
const DEBERTA_SCORES: Schema = { q: array(), k: array(), pos_key: optional(array()), pos_query: optional(array()), seq: int(1, 8192), d: int(1, 8192), position_buckets: int32(-1), max_relative_positions: int32(-1) };
const TUPE_POSITION_SCORES: Schema = { p: array(), u_q: array(), u_k: array(), n: int(1, 8192), d_model: int(1, 8192), heads: int(1, 1024, 1), head_dim: int(1, 8192), out: out() };
const REL_SHIFT: Schema = { qlen: int(1, 8192), klen: optional(int(1, 8192)), zero_triu: bool(false), out: out() };
const DEBERTA_LOG_BUCKET: Schema = { position_buckets: int(2, 2 ** 20), max_relative_positions: int(1, 2 ** 30) };

/** Relative position encodings: Shaw, Transformer-XL, T5, DeBERTa, TUPE. */
export class RelativeApi extends Core {
  /**
   * Shaw et al. relative index matrix [q_len, k_len] (Int32): clip(j − i, −K, K) + K with key − query order, as
   * tensor2tensor `_generate_relative_positions_matrix` (queries at the last q_len of k_len positions).
   * HF BERT's `relative_key` uses the opposite sign (i − j) and offset max_position_embeddings − 1.
   */
  shawRelativeIndex(options: { q_len: number; k_len?: number; max_relative_position: number; out?: Int32Array | WasmBuffer<Int32Array> }): Int32Array {
    const o = parse('shawRelativeIndex', SHAW_RELATIVE_INDEX, options);
    const k = o.k_len ?? o.q_len, r = this.heap.call().output<Int32Array>('out', o.out, 'i32', o.q_len * k);
    check(this.raw.shawIndex(o.q_len, k, o.max_relative_position, r.address));
    return r.finish();
  }

  /**
   * Shaw scores [q_len, k_len] = (q_i·k_j + q_i·a_K[clip(j − i, −K, K) + K]) / √d (t2t scales q by d^-0.5);
   * without `k` only the position term q_i·a_ij/√d. Accuracy: float32 dot products.
   */
  shawScores(options: ShawScoresOptions): Float32Array {
    const o = parse('shawScores', SHAW_SCORES, options);
    const k = o.k_len ?? o.q_len, st = this.heap.call(), rel = (2 * o.max_relative_position + 1) * o.d;
    const pq = st.input('q', o.q, 'f32', o.q_len * o.d), pk = st.optionalInput('k', o.k, 'f32', k * o.d);
    const pt = st.input('table_k', o.table_k, 'f32', rel), r = st.output<Float32Array>('out', o.out, 'f32', o.q_len * k);
    check(this.raw.shawScores(pq, pk, pt, o.q_len, k, o.d, o.max_relative_position, r.address));
    return r.finish();
  }

  /** Shaw output [q_len, d] = Σ_j w_ij (v_j + a_V[clip(j − i, −K, K) + K]), float64 accumulation. */
  shawValues(options: ShawValuesOptions): Float32Array {
    const o = parse('shawValues', SHAW_VALUES, options);
    const k = o.k_len ?? o.q_len, st = this.heap.call(), rel = (2 * o.max_relative_position + 1) * o.d;
    const pw = st.input('weights', o.weights, 'f32', o.q_len * k), pv = st.optionalInput('v', o.v, 'f32', k * o.d);
    const pt = st.input('table_v', o.table_v, 'f32', rel), r = st.output<Float32Array>('out', o.out, 'f32', o.q_len * o.d);
    check(this.raw.shawValues(pw, pv, pt, o.q_len, k, o.d, o.max_relative_position, r.address));
    return r.finish();
  }

  /**
   * Transformer-XL position embedding R, [klen, d]: row m = [sin((klen−1−m)·ω) | cos((klen−1−m)·ω)],
   * ω_i = 10000^(−2i/d) — distances in descending order klen−1 … 0, as `pos_seq = arange(klen−1, −1, −1)`. Even d.
   */
  xlPositionEmbedding(options: { klen: number; d: number; out?: Out }): Float32Array {
    const o = parse('xlPositionEmbedding', XL_POSITION_EMBEDDING, options);
    const r = this.heap.call().output<Float32Array>('out', o.out, 'f32', o.klen * o.d);
    check(this.raw.xlPositionEmbedding(o.klen, o.d, r.address));
    return r.finish();
  }

  /**
   * Transformer-XL `_rel_shift` of a [qlen, klen] matrix: prepend a zero column, view as [klen+1, qlen], drop the
   * first row, view as [qlen, klen]. Entry (i, j), j ≤ i + klen − qlen, becomes x[i][j + qlen − 1 − i]; the
   * future entries hold leftovers that the causal mask hides — or, with `zero_triu: true` (the reference's
   * `zero_triu=True`, multiplying by tril(ones(qlen, klen), klen − qlen)), exactly 0. Exact (a permutation).
   */
  relShift(x: Data, options: { qlen: number; klen?: number; zero_triu?: boolean; out?: Out }): Float32Array {
    const o = parse('relShift', REL_SHIFT, options);
    const k = o.klen ?? o.qlen, st = this.heap.call();
    const px = st.input('x', numbers('x', x, MAX_ELEMENTS), 'f32', o.qlen * k), r = st.output<Float32Array>('out', o.out, 'f32', o.qlen * k);
    check(this.raw.relShift(px, o.qlen, k, o.zero_triu, r.address));
    return r.finish();
  }

  /**
   * Transformer-XL / XLNet relative attention of one head, the four terms and the score:
   * (q_i·k_j + q_i·r_{i−j} + u·k_j + v·r_{i−j}) / √d with distance i + klen − qlen − j ≥ 0 (query − key), computed as
   * the reference: AC = (q+u)·kᵀ, BD = rel_shift((q+v)·rᵀ). XLNet's bidirectional variant (distances klen … −qlen)
   * is not covered. Accuracy: float32 dot products.
   */
  xlScores(options: XLScoresOptions): XLScores {
    const o = parse('xlScores', XL_SCORES, options);
    const k = value('klen', int(o.qlen, 8192), o.klen ?? o.qlen), zeros = new Float32Array(o.d), st = this.heap.call();
    const pq = st.input('q', o.q, 'f32', o.qlen * o.d), pk = st.input('k', o.k, 'f32', k * o.d), pr = st.input('r', o.r, 'f32', k * o.d);
    const pu = st.input('u', o.u ?? zeros, 'f32', o.d), pv = st.input('v', o.v ?? zeros, 'f32', o.d);
    return check(this.raw.xlScores(pq, pk, pr, pu, pv, o.qlen, k, o.d, o.causal));
  }

  /**
   * T5 bucket of relative_position = key − query (HF `_relative_position_bucket`, EXACT integers: evaluated in
   * float32 like the reference). Bidirectional: n/2 buckets per sign, keys after the query get +num_buckets/2;
   * causal: keys after the query → bucket 0. Within a half of n buckets, distances < n/2 are exact, larger ones
   * n/2 + ⌊log(dist/(n/2))/log(max_distance/(n/2))·(n/2)⌋, capped at n − 1. Defaults 32 buckets, max_distance 128:
   * i − j = 0 … 30 → 0 1 2 3 4 5 6 7 8 8 8 8 9 9 9 9 10 … 10 (16–22) 11 … (23–).
   */
  t5RelativePositionBucket(relative_position: number, options: T5BucketOptions = {}): number {
    const o = parse('t5RelativePositionBucket', T5_BUCKET, options);
    return check(this.raw.t5Bucket(value('relative_position', int32(), relative_position), o.bidirectional, o.num_buckets, o.max_distance));
  }

  /** T5 bucket matrix [q_len, k_len] (Int32) for relative_position = j − (query_offset + i). */
  t5Buckets(options: T5MatrixOptions): Int32Array {
    const o = parse('t5Buckets', { ...T5_MATRIX, out: out() }, options);
    const r = this.heap.call().output<Int32Array>('out', o.out, 'i32', o.q_len * (o.k_len ?? o.q_len));
    check(this.raw.t5Buckets(o.q_len, o.k_len ?? o.q_len, o.bidirectional, o.num_buckets, o.max_distance, o.query_offset, r.address));
    return r.finish();
  }

  /**
   * T5 position bias [num_heads, q_len, k_len]: bias[h][i][j] = table[bucket(j − i)][h] from the
   * `relative_attention_bias` weight [num_buckets, num_heads] (HF `compute_bias` after its permute).
   */
  t5Bias(options: T5BiasOptions): Float32Array {
    const o = parse('t5Bias', T5_BIAS, options);
    const k = o.k_len ?? o.q_len, st = this.heap.call();
    const pt = st.input('table', o.table, 'f32', o.num_buckets * o.num_heads), r = st.output<Float32Array>('out', o.out, 'f32', o.num_heads * o.q_len * k);
    check(this.raw.t5Bias(pt, o.num_buckets, o.num_heads, o.q_len, k, o.bidirectional, o.max_distance, o.query_offset, r.address));
    return r.finish();
  }

  /**
   * DeBERTa relative positions [q_len, k_len] (Int32): δ = i − j (query − key, HF `build_relative_position`), log
   * bucketed (v2 `make_log_bucket_position`, see {@link Posenc.debertaLogBucket}) when position_buckets > 0, which
   * requires max_relative_positions ≥ 1 (HF substitutes max_position_embeddings for a config value < 1: pass that
   * value; there is no silent fallback to plain δ). position_buckets ≤ 0: plain δ.
   */
  debertaRelativePositions(options: DebertaPositionOptions): Int32Array {
    const o = parse('debertaRelativePositions', DEBERTA_RELATIVE_POSITIONS, options);
    const k = o.k_len ?? o.q_len, r = this.heap.call().output<Int32Array>('out', o.out, 'i32', o.q_len * k);
    check(this.raw.debertaRelativePositions(o.q_len, k, o.position_buckets, o.max_relative_positions, r.address));
    return r.finish();
  }

  /**
   * DeBERTa v2 log bucket of one relative position δ = i − j (HF `make_log_bucket_position`), mid = position_buckets/2:
   * |δ| < mid stays δ; otherwise sign(δ)·(⌈log(|δ|/mid) / log((max_relative_positions − 1)/mid) · (mid − 1)⌉ + mid),
   * evaluated in float32 like the reference, so the integers match HF's CPU evaluation (e.g. 256 buckets, 512
   * positions: 511 → 255). Requires max_relative_positions − 1 > position_buckets/2.
   */
  debertaLogBucket(relative_position: number, options: { position_buckets: number; max_relative_positions: number }): number {
    const o = parse('debertaLogBucket', DEBERTA_LOG_BUCKET, options);
    return check(this.raw.debertaLogBucket(value('relative_position', int32(), relative_position), o.position_buckets, o.max_relative_positions));
  }

  /**
   * DeBERTa v2 disentangled attention of one head (self-attention, `[seq, seq]`), each term divided by
   * √(d·(1 + number of position terms)): c2c = q_i·k_j, c2p = q_i·pos_key[c], p2c = k_j·pos_query[c] with
   * c = clamp(δ(i, j) + span, 0, 2·span − 1). Accuracy: float32 dot products.
   */
  debertaScores(options: DebertaScoresOptions): DebertaScores {
    const o = parse('debertaScores', DEBERTA_SCORES, options);
    const span = o.position_buckets > 0 ? o.position_buckets : o.max_relative_positions;
    if (span < 1) throw new PosencError(`max_relative_positions: must be >= 1 when position_buckets <= 0 (got ${o.max_relative_positions})`);
    const st = this.heap.call(), n = o.seq * o.d, rel = 2 * Math.min(span, 2 ** 20) * o.d;
    const pq = st.input('q', o.q, 'f32', n), pk = st.input('k', o.k, 'f32', n);
    const pKey = st.optionalInput('pos_key', o.pos_key, 'f32', rel), pQuery = st.optionalInput('pos_query', o.pos_query, 'f32', rel);
    return check(this.raw.debertaScores(pq, pk, pKey, pQuery, o.seq, o.d, o.position_buckets, o.max_relative_positions));
  }

  /**
   * TUPE's untied absolute positional term [heads, n, n]: (p U_q)_h (p U_k)_hᵀ / √(2·head_dim). Projections in
   * float64 (no biases; TUPE's Linear layers have them, add them to p·U yourself), float32 dot products.
   * TUPE's [CLS] untying is not included.
   */
  tupePositionScores(options: TupeOptions): Float32Array {
    const o = parse('tupePositionScores', TUPE_POSITION_SCORES, options);
    const st = this.heap.call(), proj = o.d_model * o.heads * o.head_dim;
    const pp = st.input('p', o.p, 'f32', o.n * o.d_model), pq = st.input('u_q', o.u_q, 'f32', proj), pk = st.input('u_k', o.u_k, 'f32', proj);
    const r = st.output<Float32Array>('out', o.out, 'f32', o.heads * o.n * o.n);
    check(this.raw.tupeScores(pp, pq, pk, o.n, o.d_model, o.heads, o.head_dim, r.address));
    return r.finish();
  }
}
