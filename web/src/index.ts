/**
 * posenc — positional encodings for transformers, computed by a C++ core compiled to WebAssembly.
 *
 * ```js
 * import init from 'posenc';
 * const pe = await init();
 * const { cos, sin } = pe.ropeTables({ rotary_dim: 8, positions: 3 });
 * ```
 *
 * Conventions shared by every function:
 * - Option names follow Hugging Face configs where one exists (`rope_theta`, `head_dim`, `rotary_dim`, …).
 * - Results are fresh typed arrays owned by JavaScript (copied out of wasm memory): keep them, mutate them,
 *   no `.delete()`. Inputs are copied in; the caller's arrays are never modified unless passed as `out`.
 * - Buffers of Q/K are `[seq, heads, head_dim]` row-major; score matrices `[seq, seq]` row-major.
 * - Bad input throws a {@link PosencError} whose message starts with the parameter's name and states the
 *   rule, e.g. `rotary_dim: must be even (got 7)`. The module stays usable after an error.
 * - Size caps: head_dim, rotary_dim, d ≤ 8192; positions per call ≤ 2^20; |position| ≤ 2^31 − 1; heads ≤ 1024;
 *   one result ≤ 2^26 floats (256 MiB); attention sequences ≤ 8192 tokens.
 *
 * @packageDocumentation
 */
import type { RawModule } from './raw.js';
import {
  PosencError, arrayOf, booleanOr, bytes, check, finiteOr, integer, number, object, oneOf, optionalArray, positionsArray,
  writeOut, copyView,
} from './validate.js';
import { tableFromJsonText, tableFromJsonValue } from './table_json.js';
import { parseRopeConfig, rawScaling } from './rope_config.js';
import { rawScheme, seededVector } from './engine.js';
import type { AttentionResult, AttentionSchemeType, SchemeOptions } from './engine.js';
import type { RopeConfigInfo, RopeScalingParams, RopeType } from './rope_config.js';

export { PosencError };
export type { AttentionResult, AttentionSchemeType, SchemeOptions };
export type { RopeScalingParams, RopeType };

/**
 * Channel layout of RoPE's rotated pairs inside a head.
 * - `'interleaved'`: pair i = channels (2i, 2i+1) — RoFormer, GPT-J, Meta's LLaMA (`freqs_cis`).
 * - `'half_split'`: pair i = channels (i, i + rotary_dim/2) — GPT-NeoX, Hugging Face LLaMA (`rotate_half`).
 * Both rotate (a, b) ↦ (a·cos − b·sin, a·sin + b·cos); they agree up to that fixed channel permutation.
 */
export type RopeLayout = 'interleaved' | 'half_split';

/**
 * Channel layout of the sinusoidal table.
 * - `'interleaved'`: channel 2i = sin_i, 2i+1 = cos_i (the paper).
 * - `'concatenated'`: [sin_0 … sin_{h−1}, cos_0 … cos_{h−1}] (tensor2tensor/fairseq order, same frequencies).
 */
export type SinusoidalLayout = 'interleaved' | 'concatenated';

/** Position ids: a count n (meaning 0 … n−1) or explicit ids (finite, |id| ≤ 2^31 − 1). */
export type Positions = number | ArrayLike<number>;

/** Options of {@link Posenc.ropeInvFreq}. */
export interface RopeFrequencyOptions {
  /** Number of rotated channels: even, 2 … 8192. */
  rotary_dim: number;
  /** RoPE base θ (Hugging Face `rope_theta`). Default 10000. */
  rope_theta?: number;
}

/** Options of {@link Posenc.ropeTables}. */
export interface RopeTableOptions extends RopeFrequencyOptions {
  /** Positions whose angles are tabulated. */
  positions: Positions;
}

/** Shape of a Q or K buffer `[seq, heads, head_dim]`. */
export interface QKShape {
  /** Rows (tokens). */
  seq: number;
  /** Heads per row. Default 1. */
  heads?: number;
  /** Channels per head. */
  head_dim: number;
  /**
   * Rotated channels per head (even, ≤ head_dim). Default head_dim. With fewer, the first rotary_dim
   * channels rotate and the rest pass through unchanged (partial rotary).
   */
  rotary_dim?: number;
  /** Pair layout. Default `'half_split'` (Hugging Face). */
  layout?: RopeLayout;
  /**
   * Where to write the result (length seq·heads·head_dim). May be the input itself for in-place rotation.
   * Default: a new Float32Array.
   */
  out?: Float32Array;
}

/** Options of {@link Posenc.ropeApply}. */
export interface RopeApplyOptions extends QKShape {
  /** RoPE base θ. Default 10000. */
  rope_theta?: number;
  /** Position id of each row (length seq). Default 0 … seq−1. */
  positions?: ArrayLike<number>;
}

/** Options of {@link Posenc.ropeApplyTables}. */
export interface RopeApplyTablesOptions extends QKShape {
  /** Tables from {@link Posenc.ropeTables}: seq rows of rotary_dim/2 entries; row s is used for row s. */
  cos: Float32Array;
  sin: Float32Array;
}

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

/** RoPE settings inside attention. */
export interface AttentionRope {
  /** Default 10000. */
  rope_theta?: number;
  /** Default head_dim. */
  rotary_dim?: number;
  /** Default `'half_split'`. */
  layout?: RopeLayout;
}

/** Options of {@link Posenc.attentionScores}. */
export interface AttentionOptions {
  /** Queries `[seq, head_dim]`. */
  q: ArrayLike<number>;
  /** Keys `[seq, head_dim]`. */
  k: ArrayLike<number>;
  seq: number;
  head_dim: number;
  /** Rotate q and k by RoPE at positions 0 … seq−1 first. Default: no position encoding. */
  rope?: AttentionRope | null;
  /** Mask keys after the query (j > i): −∞ before, exactly 0 after the softmax. Default false. */
  causal?: boolean;
  /** Row softmax of the scaled scores. Default true; false returns Q·Kᵀ/√head_dim. */
  softmax?: boolean;
  /** Where to write the [seq, seq] result (a warm buffer reused across calls). Default: a new Float32Array. */
  out?: Float32Array;
}

/** Options of {@link Posenc.textQK}. */
export interface TextQKOptions {
  /**
   * A short text. With whitespace, tokens are the whitespace-separated words ("猫 抓 老鼠" → 3 tokens);
   * without, every character is a token ("猫抓老鼠" → 4 tokens). At most 8192 tokens.
   */
  text: string;
  /** Width of embeddings, q and k: 1 … 8192. */
  head_dim: number;
  /** Integer seed in [0, 2^53 − 1]. Default 0. */
  seed?: number;
}

/** Result of {@link Posenc.textQK}. */
export interface TextQK {
  tokens: string[];
  /** `[tokens.length, head_dim]` */
  q: Float32Array;
  /** `[tokens.length, head_dim]` */
  k: Float32Array;
}

/** Result of {@link Posenc.ropeInvFreqScaled}. */
export interface ScaledInvFreq {
  /** rotary_dim/2 inverse frequencies, float64. */
  inv_freq: Float64Array;
  /** Multiplies cos and sin (HF `attention_scaling`); 1 for default, linear, ntk, dynamic, llama3. */
  attention_scaling: number;
}

/** Options of {@link Posenc.ropeInvFreqScaled}: the scaling dict's fields with HF names, flattened. */
export interface RopeScalingOptions extends RopeScalingParams {
  /**
   * Current sequence length (default 0 = "at init"). `dynamic`: L in the formula (no effect while
   * L ≤ max_position_embeddings); `longrope`: long factors when seq_len > original_max_position_embeddings.
   */
  seq_len?: number;
}

/** Result of {@link Posenc.ropeFromConfig}: what was read from the config, and its frequencies. */
export interface RopeFromConfig extends ScaledInvFreq, RopeConfigInfo {}

/** ALiBi bias form: `'causal'` −m·(i−j) for j ≤ i and −∞ above the diagonal; `'symmetric'` −m·|i−j|. */
export type AlibiMode = 'causal' | 'symmetric';

/** Options of {@link Posenc.alibiBias}. */
export interface AlibiBiasOptions {
  /** Number of heads (slopes from {@link Posenc.alibiSlopes}); or give `slopes`. */
  num_heads?: number;
  /** Explicit per-head slopes (overrides num_heads). */
  slopes?: ArrayLike<number>;
  /** Query rows. */
  q_len: number;
  /** Key columns. Default q_len. Queries are the last q_len of k_len positions (KV cache). */
  k_len?: number;
  /** Default `'causal'`. */
  mode?: AlibiMode;
}

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
}

/** Options of {@link Posenc.mropeTables}. */
export interface MropeTableOptions {
  /** Rotated channels (Qwen2-VL: head_dim 128). */
  rotary_dim: number;
  /** Default 10000 (Qwen2-VL configs use 1000000). */
  rope_theta?: number;
  /** [t, h, w] frequency counts summing to rotary_dim/2. Qwen2-VL: [16, 24, 24]. */
  mrope_section: [number, number, number] | number[];
  /** Three position streams of equal length: [t, h, w]. */
  positions: [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
}

/** Options of {@link Posenc.axial2dTables}. */
export interface Axial2dTableOptions {
  /** Multiple of 4. */
  rotary_dim: number;
  /** Default 10000. */
  rope_theta?: number;
  /** Row coordinate of each patch; or give `grid`. */
  positions_h?: ArrayLike<number>;
  /** Column coordinate of each patch. */
  positions_w?: ArrayLike<number>;
  /** [grid_h, grid_w]: row-major patch grid (overrides positions_h/positions_w). */
  grid?: [number, number];
}

/** A learned absolute position table, [rows, cols] row-major: row p embeds position p. */
export interface PositionTable {
  rows: number;
  cols: number;
  data: Float32Array;
}

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

/** Options of {@link init}. */
export interface InitOptions {
  /** Force the SIMD (true) or scalar (false) build. Default: SIMD where the engine supports wasm SIMD. */
  simd?: boolean;
  /** The .wasm bytes, if you load them yourself (they must match the chosen build). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

const ROPE_LAYOUTS: Record<RopeLayout, number> = { interleaved: 0, half_split: 1 };
const SIN_LAYOUTS: Record<SinusoidalLayout, number> = { interleaved: 0, concatenated: 1 };
const ALIBI_MODES: Record<AlibiMode, number> = { causal: 0, symmetric: 1 };
const METRICS: Record<'cosine' | 'dot', number> = { cosine: 0, dot: 1 };

/** The posenc API, bound to one loaded WebAssembly instance. Obtain it with {@link init}. */
export class Posenc {
  /** @internal */
  constructor(private readonly raw: RawModule, private readonly simd: boolean) {}

  /**
   * Which build runs: `simd` is true for the wasm SIMD128 build; `arch` is xsimd's architecture name
   * (`'wasm'` or `'scalar'`), `lanes` the float32 lanes per vector (4 or 1).
   */
  buildInfo(): { simd: boolean; arch: string; lanes: number } {
    return { simd: this.simd, ...this.raw.buildInfo() };
  }

  /** Current size of the wasm linear memory in bytes (it grows on demand and never shrinks). */
  memoryBytes(): number {
    return this.raw.memoryBytes();
  }

  /**
   * RoPE inverse frequencies θ_i = rope_theta^(−2i/rotary_dim), i = 0 … rotary_dim/2 − 1, in float64.
   * @throws PosencError if rotary_dim is not an even integer in [2, 8192] or rope_theta is not finite and > 0.
   */
  ropeInvFreq(options: RopeFrequencyOptions): Float64Array {
    const o = object('options', options);
    return check(this.raw.ropeInvFreq(integer('rotary_dim', o.rotary_dim), number('rope_theta', o.rope_theta ?? 10000)));
  }

  /**
   * cos/sin tables of RoPE: `cos[p·h + i] = cos(pos_p · θ_i)`, `sin` likewise, h = rotary_dim/2, shape
   * [positions, rotary_dim/2] row-major.
   *
   * Accuracy: the angle and its cos/sin are computed in float64 and rounded once to float32 — every entry
   * is within 2 ulp of the float64 value for integer |pos| ≤ 2^20 (a float32 product pos·θ_i, as PyTorch
   * references compute it, is ~5e-4 rad off at pos = 8191).
   */
  ropeTables(options: RopeTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const inv = this.ropeInvFreq({ rotary_dim: o.rotary_dim as number, rope_theta: o.rope_theta as number | undefined });
    return check(this.raw.ropeTables(inv, positionsArray('positions', o.positions)));
  }

  /**
   * Rotates a Q or K buffer `x` of shape [seq, heads, head_dim] by RoPE at the given positions.
   * Channel pairs follow `layout`; channels from rotary_dim on pass through (partial rotary).
   * Accuracy: tables as in {@link Posenc.ropeTables}; one float32 multiply-add per element.
   * @returns `out` if given (in place when out === x), else a new Float32Array.
   */
  ropeApply(x: ArrayLike<number>, options: RopeApplyOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const seq = integer('seq', o.seq);
    const pos = o.positions === undefined ? null : positionsArray('positions', o.positions);
    const r = check(this.raw.ropeApplyPositions(xs, seq, integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim),
      integer('rotary_dim', o.rotary_dim ?? 0), oneOf('layout', o.layout ?? 'half_split', ROPE_LAYOUTS),
      number('rope_theta', o.rope_theta ?? 10000), pos));
    return copyView(r, o.out);
  }

  /**
   * Like {@link Posenc.ropeApply} with precomputed tables (from {@link Posenc.ropeTables}), row s of
   * `x` using table row s — the fast path when the same positions rotate many buffers.
   */
  ropeApplyTables(x: ArrayLike<number>, options: RopeApplyTablesOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const r = check(this.raw.ropeApply(xs, integer('seq', o.seq), integer('heads', o.heads ?? 1),
      integer('head_dim', o.head_dim), integer('rotary_dim', o.rotary_dim ?? 0),
      oneOf('layout', o.layout ?? 'half_split', ROPE_LAYOUTS), arrayOf('cos', o.cos, Float32Array),
      arrayOf('sin', o.sin, Float32Array)));
    return copyView(r, o.out);
  }

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

  /**
   * Attention scores of one head, [seq, seq] row-major: S = Q'·K'ᵀ/√head_dim, with Q', K' = RoPE(Q), RoPE(K)
   * at positions 0 … seq−1 when `rope` is set, optional causal mask, row softmax by default.
   * Accuracy: float32 dot products (relative error ≤ head_dim·2^-24 of Σ|q_c·k_c|); softmax rows sum to 1
   * within 1e-6.
   */
  attentionScores(options: AttentionOptions): Float32Array {
    const o = object('options', options);
    const seq = integer('seq', o.seq), d = integer('head_dim', o.head_dim);
    const rope = o.rope == null || o.rope === false ? null : object('rope', o.rope);
    return copyView(check(this.raw.attentionScores(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array), seq, d,
      rope !== null, number('rope.rope_theta', rope?.rope_theta ?? 10000), integer('rope.rotary_dim', rope?.rotary_dim ?? 0),
      oneOf('rope.layout', rope?.layout ?? 'half_split', ROPE_LAYOUTS), Boolean(o.causal), o.softmax !== false)), o.out);
  }

  /**
   * Tokens of a short text with seeded q and k — a documented generator (see cpp/include/posenc/attention.hpp)
   * so every engine reproduces the numbers: splitmix64 streams, FNV-1a token keys, float64 projections.
   * The same token gets the same q and k wherever it stands, so without position encoding, swapping two
   * tokens only permutes the rows and columns of the scores.
   */
  textQK(options: TextQKOptions): TextQK {
    const o = object('options', options);
    if (typeof o.text !== 'string') throw new PosencError('text: must be a string');
    const seed = o.seed ?? 0;
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
      throw new PosencError(`seed: must be an integer in [0, 2^53 - 1] (got ${String(seed)})`);
    }
    return check(this.raw.textQK(o.text, integer('head_dim', o.head_dim), seed));
  }
  // ---- rotary family: RoPE extras, context extension, ALiBi, xPos, M-RoPE, 2D axial -------------------------------

  /**
   * Rotated channels for a partial rotary factor: `int(head_dim · partial_rotary_factor)` (Python truncation, as HF
   * `partial_rotary_factor` and GPT-NeoX `rotary_pct`); the first rotary_dim channels rotate, the rest pass through.
   * @throws PosencError if the factor is not in (0, 1] or the result is odd or < 2 (HF would round an odd one up).
   */
  rotaryDim(options: { head_dim: number; partial_rotary_factor?: number; rotary_pct?: number }): number {
    const o = object('options', options);
    const name = o.partial_rotary_factor === undefined && o.rotary_pct !== undefined ? 'rotary_pct' : 'partial_rotary_factor';
    return check(this.raw.rotaryDimFor(integer('head_dim', o.head_dim), number(name, o[name] ?? 1)));
  }

  /**
   * Inverse frequencies and attention scaling of a context-extension scheme, with Hugging Face's names, defaults and
   * formulas (`modeling_rope_utils.py`), d = rotary_dim, b = rope_theta, θ_i = b^(−2i/d):
   * - `default`: θ_i. `linear`: θ_i/factor (position interpolation).
   * - `ntk` (posenc extension, not an HF rope_type): base b·factor^(d/(d−2)).
   * - `dynamic`: base b·((factor·L/L0) − (factor−1))^(d/(d−2)), L = max(seq_len, max_position_embeddings) = L0…
   * - `yarn`: ramp between θ_i/factor and θ_i over the dims find_correction_range(beta_fast = 32, beta_slow = 1, d, b,
   *   original_max_position_embeddings) (floor/ceil if `truncate`, default true); attention_scaling = attention_factor,
   *   else mscale/mscale_all_dim ratio of 0.1·m·ln(factor)+1 when both set, else 0.1·ln(factor)+1.
   *   factor omitted → max_position_embeddings/original_max_position_embeddings (HF v5).
   * - `longrope`: 1/(ext_i·b^(2i/d)), ext = long_factor if seq_len > original_max_position_embeddings else short_factor;
   *   attention_scaling = attention_factor, else sqrt(1 + ln(factor)/ln(original)) with factor default max/original.
   * - `llama3`: wavelength bands of original_max_position_embeddings/low_freq_factor (1) and /high_freq_factor (4).
   *
   * Differences from HF: formulas in float64 (HF: float32 tensors); factor < 1, wrong list lengths and inverted
   * band/beta parameters throw (HF warns). Feed the result to {@link Posenc.ropeTablesScaled}.
   */
  ropeInvFreqScaled(options: RopeScalingOptions): ScaledInvFreq {
    const o = object('options', options);
    const r = check(this.raw.ropeInvFreqScaled(rawScaling(o), finiteOr('seq_len', o.seq_len, 0)));
    return { inv_freq: r.invFreq, attention_scaling: r.attentionScaling };
  }

  /**
   * RoPE settings of a Hugging Face `config.json` (object or text): head_dim (or hidden_size/num_attention_heads),
   * partial_rotary_factor (or GPT-NeoX rotary_pct), rope_theta (or rotary_emb_base), max_position_embeddings and
   * `rope_scaling` / `rope_parameters` (`rope_type`, legacy `type`; Phi-3's `"su"` = longrope). Returns the inverse
   * frequencies and attention scaling computed in C++ plus what was read.
   * @throws PosencError naming the key (`config.rope_scaling.factor: required for rope_type 'linear'`) for missing
   * required keys, unknown keys (HF only warns), wrong types or an unknown rope_type.
   */
  ropeFromConfig(config: unknown, options: { seq_len?: number } = {}): RopeFromConfig {
    const info = parseRopeConfig(config);
    const rotary_dim = this.rotaryDim({ head_dim: info.head_dim, partial_rotary_factor: info.partial_rotary_factor });
    const params = { ...info.params, rotary_dim };
    const scaled = this.ropeInvFreqScaled({ ...params, seq_len: object('options', options).seq_len as number | undefined });
    return { ...info, rotary_dim, params, ...scaled };
  }

  /**
   * cos/sin tables [positions, inv_freq.length] multiplied by attention_scaling (HF `cos = emb.cos() · attention_scaling`),
   * for {@link Posenc.ropeApplyTables}. Accuracy: float64 s·cos(pos·inv_i) rounded once — within 2 ulp for |pos| ≤ 2^20.
   */
  ropeTablesScaled(options: { inv_freq: ArrayLike<number>; attention_scaling?: number; positions: Positions }): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    return check(this.raw.ropeTablesScaled(arrayOf('inv_freq', o.inv_freq, Float64Array), number('attention_scaling', o.attention_scaling ?? 1),
      positionsArray('positions', o.positions)));
  }

  /**
   * The complex form of RoPE (Meta LLaMA `precompute_freqs_cis`): [positions, rotary_dim/2] complex numbers
   * e^{j·pos·θ_i} as interleaved (re, im) float32 pairs (`torch.view_as_real` layout). With rotary_dim 8 and positions 3
   * it reproduces the seed's worked example (row 1: 0.5403+0.8415j, 0.9950+0.0998j, …).
   */
  ropeFreqsCis(options: RopeTableOptions): Float32Array {
    const o = object('options', options);
    const inv = this.ropeInvFreq({ rotary_dim: o.rotary_dim as number, rope_theta: o.rope_theta as number | undefined });
    return check(this.raw.ropeFreqsCis(inv, positionsArray('positions', o.positions)));
  }

  /**
   * ALiBi slopes (ofirpress/attention_with_linear_biases `get_slopes`, HF `build_alibi_tensor`): for n a power of two
   * m_k = 2^(−8k/n), k = 1…n; otherwise the slopes of the closest lower power of two n', then every other slope of
   * 2n' (indices 0, 2, 4, …) until n. float64.
   */
  alibiSlopes(num_heads: number): Float64Array {
    return check(this.raw.alibiSlopes(integer('num_heads', num_heads)));
  }

  /**
   * ALiBi bias [heads, q_len, k_len] float32 to add to the attention logits: −m_h·|pos_i − j| with query i at
   * position i + k_len − q_len; `'causal'` (default) also puts −∞ above the diagonal. BLOOM/fairseq add +m_h·j
   * instead — the same softmax (it shifts each causal row by a constant).
   */
  alibiBias(options: AlibiBiasOptions): Float32Array {
    const o = object('options', options);
    const slopes = o.slopes != null ? arrayOf('slopes', o.slopes, Float64Array) : this.alibiSlopes(o.num_heads as number);
    const q = integer('q_len', o.q_len);
    return check(this.raw.alibiBias(slopes, q, integer('k_len', o.k_len ?? q), oneOf('mode', o.mode ?? 'causal', ALIBI_MODES)));
  }

  /**
   * xPos (torchscale `XPOS.forward(x, offset, downscale)`): RoPE at positions offset…offset+seq−1 (interleaved pairs
   * by default, torchscale's `rotate_every_two`) with pair i scaled by ζ_i^(±c/scale_base),
   * ζ_i = (2i + γ·d)/((1+γ)·d), γ = 0.4, scale_base 512, c = pos + ⌊−(seq+offset)/2⌋ (torchscale's centring);
   * + for queries, − for keys (`downscale: true`), so q·k depends only on the offset and decays with distance.
   * Accuracy: tables float64 ζ^e·cos rounded once (2 ulp); one float32 multiply-add per element.
   * Valid range: every scale ζ_i^(±c/scale_base) stays within [2^−64, 2^64], i.e. |c| ≤ 64·ln2·scale_base/ln(1/ζ_0):
   * seq + offset ≤ 36,260 with the defaults (proportional to scale_base; raise it for longer sequences); beyond that
   * a float32 scale would overflow, so it throws. The output is finite for finite |x| ≤ 2^64.
   */
  xposApply(x: ArrayLike<number>, options: XposApplyOptions): Float32Array {
    const o = object('options', options);
    const xs = arrayOf('x', x, Float32Array);
    const r = check(this.raw.xposApply(xs, integer('seq', o.seq), integer('heads', o.heads ?? 1), integer('head_dim', o.head_dim),
      integer('rotary_dim', o.rotary_dim ?? 0), integer('offset', o.offset ?? 0), booleanOr('downscale', o.downscale, false),
      number('scale_base', o.scale_base ?? 512), number('gamma', o.gamma ?? 0.4), number('rope_theta', o.rope_theta ?? 10000),
      oneOf('layout', o.layout ?? 'interleaved', ROPE_LAYOUTS)));
    return writeOut(r, o.out);
  }

  /**
   * xPos tables [n, rotary_dim/2] with the scale folded in: cos = ζ_i^(±c/scale_base)·cos(p·θ_i) (sin likewise), for
   * explicit positions p and centred positions c (default: torchscale's centring, as {@link Posenc.xposApply});
   * apply with {@link Posenc.ropeApplyTables} and layout `'interleaved'`. Valid range as xposApply: every |c| ≤
   * 64·ln2·scale_base/ln(1/ζ_0) (18,130 with the defaults), else it throws.
   */
  xposTables(options: XposTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const centred = o.centred == null ? null : arrayOf('centred', o.centred, Float64Array);
    return check(this.raw.xposTables(integer('rotary_dim', o.rotary_dim), positionsArray('positions', o.positions), centred,
      booleanOr('downscale', o.downscale, false), number('scale_base', o.scale_base ?? 512), number('gamma', o.gamma ?? 0.4),
      number('rope_theta', o.rope_theta ?? 10000)));
  }

  /** xPos's per-pair decay ζ_i = (2i/d + γ)/(1 + γ) for i < rotary_dim/2 (torchscale; γ = `gamma`, default 0.4). */
  xposZeta(options: { rotary_dim: number; gamma?: number }): Float64Array {
    const o = object('options', options);
    return check(this.raw.xposZeta(integer('rotary_dim', o.rotary_dim), number('gamma', o.gamma ?? 0.4)));
  }

  /**
   * Qwen2-VL multimodal RoPE tables [n, rotary_dim/2] (HF `apply_multimodal_rotary_pos_emb`): frequency i takes its
   * angle from the t stream for i < s_t, h for i < s_t + s_h, else w. Apply with layout `'half_split'` (the reference
   * uses `rotate_half`). Text tokens (t = h = w) get plain RoPE.
   */
  mropeTables(options: MropeTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const sec = o.mrope_section as unknown;
    if (!Array.isArray(sec) || sec.length !== 3) throw new PosencError(`mrope_section: must be a list of 3 integers (got ${JSON.stringify(sec)})`);
    const pos = o.positions as unknown;
    if (!Array.isArray(pos) || pos.length !== 3) throw new PosencError('positions: must be [t, h, w], three position streams');
    const inv = this.ropeInvFreq({ rotary_dim: o.rotary_dim as number, rope_theta: o.rope_theta as number | undefined });
    return check(this.raw.mropeTables(inv, integer('mrope_section[0]', sec[0]), integer('mrope_section[1]', sec[1]),
      integer('mrope_section[2]', sec[2]), arrayOf('positions_t', pos[0], Float64Array), arrayOf('positions_h', pos[1], Float64Array),
      arrayOf('positions_w', pos[2], Float64Array)));
  }

  /**
   * 2D axial RoPE tables for image patches [n, rotary_dim/2] (Qwen2-VL vision tower): row = [h·φ_0…h·φ_{q−1},
   * w·φ_0…w·φ_{q−1}], φ_k = rope_theta^(−2k/(rotary_dim/2)), q = rotary_dim/4. Apply with `'half_split'`.
   * Scores depend only on the (row, column) offsets.
   */
  axial2dTables(options: Axial2dTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    let h: Float64Array, w: Float64Array;
    if (o.grid != null) {
      const g = o.grid as unknown;
      if (!Array.isArray(g) || g.length !== 2) throw new PosencError('grid: must be [grid_h, grid_w]');
      const r = check(this.raw.axial2dGrid(integer('grid[0]', g[0]), integer('grid[1]', g[1])));
      h = r.positions_h;
      w = r.positions_w;
    } else {
      h = arrayOf('positions_h', o.positions_h, Float64Array);
      w = arrayOf('positions_w', o.positions_w, Float64Array);
    }
    return check(this.raw.axial2dTables(integer('rotary_dim', o.rotary_dim), number('rope_theta', o.rope_theta ?? 10000), h, w));
  }

  // ------------------------------------------------------------------------------------ absolute

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
    const o = object('options', options);
    const pos = positionsArray('positions', o.positions);
    return check(this.raw.sinusoidT2T(pos, pos.length, integer('d', o.d), number('min_timescale', o.min_timescale ?? 1),
      number('max_timescale', o.max_timescale ?? 10000)));
  }

  /**
   * The frequencies ω_i of {@link Posenc.sinusoidT2T} (⌊d/2⌋ values, float64): min_timescale ·
   * (max_timescale/min_timescale)^(−i/max(h−1, 1)), h = ⌊d/2⌋, formed in log space (finite for every valid pair).
   * Throws when the largest frequency max(min_timescale, min_timescale²/max_timescale) exceeds 1e298.
   */
  t2tInvTimescales(options: { d: number; min_timescale?: number; max_timescale?: number }): Float64Array {
    const o = object('options', options);
    return check(this.raw.t2tInvTimescales(integer('d', o.d), number('min_timescale', o.min_timescale ?? 1),
      number('max_timescale', o.max_timescale ?? 10000)));
  }

  /**
   * The paper's sinusoid generated recursively, p_{k+1} = R·p_k from p_0 = PE(0), for k = 0 … n−1: R is
   * block-diagonal with one rotation by ω_i = base^(−2i/d) per (sin_i, cos_i) pair. Runs in float64, rounded once:
   * equal to {@link Posenc.sinusoidal} within 1 ulp + 1e-11 for k < 4096 (tested). Even d only. Valid range: any
   * finite base > 0 whose largest frequency base^(−(d−2)/d) is ≤ 1e298 (bases below 1; else it throws).
   */
  sinusoidRecursive(options: RecursiveSinusoidOptions & { positions: number }): Float32Array {
    const o = object('options', options);
    const n = integer('positions', o.positions);
    return check(this.raw.sinusoidRecursive(n, integer('d', o.d), number('base', o.base ?? 10000),
      oneOf('layout', o.layout ?? 'interleaved', SIN_LAYOUTS)));
  }

  /** The d×d float64 matrix R (row-major) of {@link Posenc.sinusoidRecursive}: p_{k+1} = R·p_k. */
  sinusoidRotationMatrix(options: RecursiveSinusoidOptions): Float64Array {
    const o = object('options', options);
    return check(this.raw.sinusoidRotationMatrix(integer('d', o.d), number('base', o.base ?? 10000),
      oneOf('layout', o.layout ?? 'interleaved', SIN_LAYOUTS)));
  }

  /**
   * Multiplicative absolute PE: x ⊙ p elementwise (same lengths), one correctly rounded float32 product each.
   * Finite while |x_i·p_i| ≤ 3.4e38 (float32's range; always for p from a sinusoid, |p| ≤ 1).
   */
  multiplicativePE(x: ArrayLike<number>, p: ArrayLike<number>): Float32Array {
    return check(this.raw.multiplicativePE(arrayOf('x', x, Float32Array), arrayOf('p', p, Float32Array)));
  }

  // ------------------------------------------------------------------------------- learned tables

  /**
   * Parses a 2-D `.npy` (NumPy format 1–3, dtype `<f4` or `<f8`, C order) into a table; float64 is rounded to
   * float32; a float64 value beyond the float32 range (|x| > 3.4028234663852886e38) throws instead of becoming ±∞.
   * The header is read as the Python dict literal it is (a repeated key keeps its last value, as numpy; keys other
   * than descr, fortran_order, shape are refused). Caps: header ≤ 65,536 bytes, rows ≤ 2^20, cols ≤ 8192,
   * rows·cols ≤ 2^26. Malformed input throws `npy: …` (big-endian, Fortran order, other dtypes, not 2-D, truncated).
   */
  tableFromNpy(data: Uint8Array | ArrayBuffer): PositionTable {
    return check(this.raw.tableFromNpy(bytes('npy', data)));
  }

  /**
   * Reads the 2-D tensor `name` (F32, F64, F16 or BF16) of a `.safetensors` file, e.g. GPT-2's `wpe.weight`.
   * Without a name the file must hold exactly one tensor. The header (≤ 100 MB) must list each tensor once, with
   * data_offsets inside the data that tile it one after another (overlaps and unused bytes are refused, as the
   * safetensors library refuses them); F64 values beyond float32 throw. Errors start with `safetensors:` or `name:`.
   */
  tableFromSafetensors(data: Uint8Array | ArrayBuffer, options: { name?: string } = {}): PositionTable {
    const o = object('options', options);
    const name = o.name ?? '';
    if (typeof name !== 'string') throw new PosencError('name: must be a string');
    return check(this.raw.tableFromSafetensors(bytes('safetensors', data), name));
  }

  /** The tensors a `.safetensors` header describes (name, dtype, shape), in file order. */
  safetensorsTensors(data: Uint8Array | ArrayBuffer): { name: string; dtype: string; shape: number[] }[] {
    return check(this.raw.safetensorsList(bytes('safetensors', data)));
  }

  /**
   * A table from JSON text (or an already parsed value): a 2-D array [positions][dim] of finite numbers. Text is read
   * in one pass without recursion (any nesting depth is refused at once). Caps as `.npy`: rows ≤ 2^20, cols ≤ 8192,
   * rows·cols ≤ 2^26; a value beyond the float32 range (|x| > 3.4028234663852886e38, e.g. 1e39) is refused, not
   * turned into ±∞. Values are rounded once to float32.
   */
  tableFromJSON(json: string | unknown): PositionTable {
    return typeof json === 'string' ? tableFromJsonText(json) : tableFromJsonValue(json);
  }

  /**
   * Rows of `table` at integer positions, [positions, cols]. A position < 0 or ≥ rows throws unless
   * `clamp: true` clamps it to [0, rows − 1] (HF models raise an index error there).
   */
  tableLookup(table: PositionTable, options: { positions: Positions; clamp?: boolean }): Float32Array {
    const t = this.tableArgs(table);
    const o = object('options', options);
    return check(this.raw.tableLookup(t.data, t.rows, t.cols, positionsArray('positions', o.positions), booleanOr('clamp', o.clamp, false)));
  }

  /**
   * Similarity matrix [rows, rows] of a table's rows: `'cosine'` (default; a zero row gives 0) or `'dot'`.
   * Float32 SIMD dot products (relative error ≤ cols·2^-24 of Σ|a_c·b_c|). Cosine scales rows to unit length first
   * (float64 norms): finite for every finite table, |error| ≤ (cols + 2)·2^-24. Dot is finite while
   * Σ|a_c·b_c| ≤ 3.4e38 (e.g. |values| ≤ 1e17 at cols 8192).
   */
  tableSimilarity(table: PositionTable, options: { metric?: 'cosine' | 'dot' } = {}): Float32Array {
    const t = this.tableArgs(table);
    const o = object('options', options);
    return check(this.raw.tableSimilarity(t.data, t.rows, t.cols, oneOf('metric', o.metric ?? 'cosine', METRICS)));
  }

  private tableArgs(table: PositionTable): PositionTable {
    const t = object('table', table);
    return { rows: integer('table.rows', t.rows), cols: integer('table.cols', t.cols), data: arrayOf('table.data', t.data, Float32Array) };
  }

  // ------------------------------------------------------------------------------------- relative

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

  // ------------------------------------------------------------------------------------ engine and sweeps

  /**
   * Attention of any scheme with its terms kept apart (see {@link AttentionResult} and
   * cpp/include/posenc/engine.hpp for the exact formula per scheme). Content vectors come from `text`
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
    const scheme = rawScheme(o.scheme, d, (f) => this.rotaryDim({ head_dim: d, partial_rotary_factor: f }));
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
      rawScheme(o.scheme, d, (f) => this.rotaryDim({ head_dim: d, partial_rotary_factor: f })), booleanOr('causal', o.causal, false),
      seedOf(o.seed)));
  }

  /**
   * Linear attention with RoPE (002_5ffd3aa96caf6015.txt eq. 28/29), φ = elu + 1 on q and k, half-split RoPE at
   * positions 0 … seq−1. `naive` (28) divides by Σ_j (R_iφq_i)·(R_jφk_j), which can approach or cross 0;
   * `numerator_only` (29) divides by Σ_j φ(q_i)·φ(k_j) > 0. Computed in O(seq·d·v_dim) with float64 state sums.
   */
  linearAttentionRope(options: { q: ArrayLike<number>; k: ArrayLike<number>; v: ArrayLike<number>; seq: number; head_dim: number;
    v_dim: number; causal?: boolean; rope_theta?: number; form: 'naive' | 'numerator_only' }): { output: Float32Array; denominator: Float32Array } {
    const o = object('options', options);
    const form = oneOf('form', o.form, { naive: 0, numerator_only: 1 });
    return check(this.raw.linearAttentionRope(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array),
      arrayOf('v', o.v, Float32Array), integer('seq', o.seq), integer('head_dim', o.head_dim), integer('v_dim', o.v_dim),
      booleanOr('causal', o.causal, false), number('rope_theta', o.rope_theta ?? 10000), form));
  }

  private invFreqOf(o: Record<string, unknown>, rotaryDim: number): Float64Array {
    return o.inv_freq !== undefined ? arrayOf('inv_freq', o.inv_freq, Float64Array)
      : this.ropeInvFreq({ rotary_dim: rotaryDim, rope_theta: o.rope_theta as number | undefined });
  }

  /**
   * ⟨R_m q, R_n k⟩ for q at m = q_position (default 0) and k at n = k_start … k_start + count − 1 (count ≤ 2^20):
   * RoPE's long-range decay (003_f569490286a703c1.txt). q, k: vectors of head_dim, or `'ones'`, or `'random'`
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
      oneOf('layout', o.layout ?? 'interleaved', ROPE_LAYOUTS), this.invFreqOf(o, rot), integer('q_position', o.q_position ?? 0),
      integer('k_start', o.k_start ?? 0), integer('count', o.count)));
  }

  /**
   * Su's bound curve f(r) = (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{i<j} e^{i·r·θ_i}| for r = 0 … count − 1
   * (002_5ffd3aa96caf6015.txt eq. 26; d = rotary_dim). Accuracy: within 1e-5·(d/2) of float64. Finite for every
   * |inv_freq_i| ≤ 1e298 (else it throws).
   */
  ropeDecayBound(options: { rotary_dim?: number; rope_theta?: number; inv_freq?: Float64Array; count: number }): Float32Array {
    const o = object('options', options);
    return check(this.raw.ropeDecayBound(this.invFreqOf(o, integer('rotary_dim', o.rotary_dim ?? 128)), integer('count', o.count)));
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
    return check(this.raw.ropeFrequencyAnalysis(this.invFreqOf(o, integer('rotary_dim', o.rotary_dim ?? 128)),
      number('original_max_position_embeddings', o.original_max_position_embeddings)));
  }
}

function seedOf(v: unknown): number {
  const seed = v ?? 0;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new PosencError(`seed: must be an integer in [0, 2^53 - 1] (got ${String(seed)})`);
  }
  return seed;
}

// A 35-byte module using v128 instructions: WebAssembly.validate accepts it only where wasm SIMD works.
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

/** True when this engine supports WebAssembly SIMD128. */
export function simdSupported(): boolean {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

async function readWasm(url: URL): Promise<Uint8Array | ArrayBuffer> {
  if (typeof process !== 'undefined' && process?.versions?.node && url.protocol === 'file:') {
    const fs = await import(/* webpackIgnore: true */ /* @vite-ignore */ 'node:fs/promises');
    return fs.readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`posenc: could not load ${url.href} (HTTP ${res.status})`);
  return res.arrayBuffer();
}

/**
 * Loads the WebAssembly module (the SIMD build where supported, else the scalar build) and returns the API.
 * Works in Node ≥ 18 (ESM) and browsers; bundlers see the `new URL('…wasm', import.meta.url)` assets.
 */
export async function init(options: InitOptions = {}): Promise<Posenc> {
  const simd = options.simd ?? simdSupported();
  if (simd && !simdSupported()) throw new PosencError('simd: this engine does not support WebAssembly SIMD');
  const wasmUrl = simd ? new URL('./posenc-simd.wasm', import.meta.url) : new URL('./posenc-scalar.wasm', import.meta.url);
  const factory = simd ? (await import('./posenc-simd.mjs')).default : (await import('./posenc-scalar.mjs')).default;
  const wasmBinary = options.wasmBinary ?? (await readWasm(wasmUrl));
  return new Posenc(await factory({ wasmBinary }), simd);
}

export default init;
