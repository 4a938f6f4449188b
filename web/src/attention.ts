// Single-head attention scores with optional RoPE, and seeded q/k of a text (cpp/src/attention.cpp).
import { Core } from './core.js';
import { ROPE_LAYOUTS } from './rope.js';
import type { RopeLayout } from './rope.js';
import { PosencError, arrayOf, check, copyView, integer, number, object, oneOf, seedOf } from './validate.js';

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

/** Attention scores of one head and the seeded text generator. */
export class AttentionApi extends Core {
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
   * Tokens of a short text with seeded q and k — a documented generator, so every engine reproduces the
   * numbers: splitmix64 streams (Steele, Lea & Flood 2014), FNV-1a token keys, float64 projections.
   * The same token gets the same q and k wherever it stands, so without position encoding, swapping two
   * tokens only permutes the rows and columns of the scores.
   */
  textQK(options: TextQKOptions): TextQK {
    const o = object('options', options);
    if (typeof o.text !== 'string') throw new PosencError('text: must be a string');
    return check(this.raw.textQK(o.text, integer('head_dim', o.head_dim), seedOf(o.seed)));
  }
}
