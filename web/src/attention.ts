// Single-head attention scores with optional RoPE, and seeded q/k of a text (cpp/src/attention.cpp).
import { Core } from './core.js';
import { ROPE_LAYOUTS, qkShape, scaledRope, stageTables } from './rope.js';
import type { Data, Out, QKLayout, RopeLayout, ScaledRope } from './rope.js';
import { check, seedOf } from './validate.js';
import { MAX_ELEMENTS, any, array, bool, int, num, numbers, oneOf, optional, out, parse, str, value } from './options.js';
import type { Schema } from './options.js';

/** RoPE settings inside attention (angles from rope_theta; fused into the score kernel). */
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
  /** Queries, shape and order as {@link QKShape} (`[seq, head_dim]` for one head). */
  q: Data;
  /** Keys, same shape as q. */
  k: Data;
  /** Tokens per sequence: 1 … 8192. */
  seq: number;
  head_dim: number;
  /** Default 1. */
  heads?: number;
  /** Default 1. */
  batch?: number;
  /** Memory order of q and k. Default `'shd'`. */
  qk_layout?: QKLayout;
  /**
   * Rotate q and k by RoPE at positions 0 … seq−1 first: settings ({@link AttentionRope}), or a scaled RoPE (the
   * result of {@link Posenc.ropeFromConfig}, optionally with `layout`). Default: no position encoding.
   */
  rope?: AttentionRope | (ScaledRope & { layout?: RopeLayout }) | null;
  /** Mask keys after the query (j > i): −∞ before, exactly 0 after the softmax. Default false. */
  causal?: boolean;
  /** Row softmax of the scaled scores. Default true; false returns Q·Kᵀ/√head_dim. */
  softmax?: boolean;
  /** Where to write the [batch, heads, seq, seq] result (a warm buffer reused across calls). Default: a new Float32Array. */
  out?: Out;
}

const ATTENTION: Schema = {
  q: array(), k: array(), seq: int(1, 8192), head_dim: int(1, 8192), heads: int(1, 1024, 1), batch: int(1, 2 ** 20, 1),
  qk_layout: oneOf(['shd', 'bshd', 'bhsd'], 'shd'), rope: optional(any()), causal: bool(false), softmax: bool(true), out: out(),
};
const ROPE_SETTINGS: Schema = { rope_theta: num({ gt: 0 }, 10000), rotary_dim: optional(int(2, 8192)), layout: oneOf(['interleaved', 'half_split'], 'half_split') };
const TEXT_QK: Schema = { text: str(), head_dim: int(1, 8192), seed: optional(any()) };

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
   * Attention scores [batch, heads, seq, seq] row-major (one head: [seq, seq]): S = Q'·K'ᵀ/√head_dim per head, with
   * Q', K' = RoPE(Q), RoPE(K) at positions 0 … seq−1 when `rope` is set (settings, or any scaled RoPE in one call),
   * optional causal mask, row softmax by default. NaN in q or k makes the scores (and softmax rows) it touches NaN.
   * Accuracy: float32 dot products (relative error ≤ head_dim·2^-24 of Σ|q_c·k_c|); softmax rows sum to 1
   * within 1e-6.
   */
  attentionScores(options: AttentionOptions): Float32Array {
    const o = parse('attentionScores', ATTENTION, options);
    const s = qkShape({ ...o, rotary_dim: undefined, layout: 'half_split' }, 'q');
    const q = numbers('q', o.q, MAX_ELEMENTS), k = numbers('k', o.k, MAX_ELEMENTS);
    const runs = s.batch * s.heads, S = s.seq, D = s.headDim;
    const st = this.heap.call();
    let pq = st.input('q', q, 'f32', s.count), pk = st.input('k', k, 'f32', s.count);
    const res = st.output<Float32Array>('out', o.out, 'f32', runs * S * S);
    if (s.heads > 1 && s.qkLayout !== 'bhsd') {
      const tq = st.scratch('q', 'f32', s.count), tk = st.scratch('k', 'f32', s.count);
      this.raw.headsFirst(pq, tq, s.batch, S, s.heads, D);
      this.raw.headsFirst(pk, tk, s.batch, S, s.heads, D);
      [pq, pk] = [tq, tk];
    }
    let fused = { on: false, theta: 10000, rotary: 0, layout: 1 };
    if (o.rope != null && o.rope !== false) {
      const r = o.rope as Record<string, unknown>;
      if (typeof r === 'object' && 'inv_freq' in r) {
        const { layout, ...rope } = r;
        const t = stageTables(this.raw, this.heap, st, { rope }, { ...s, heads: 1 });
        const lay = ROPE_LAYOUTS[value('rope.layout', ROPE_SETTINGS.layout, layout) as RopeLayout];
        const rot = 2 * (scaledRope(rope).inv_freq.length);
        const rq = st.scratch('q', 'f32', s.count), rk = st.scratch('k', 'f32', s.count);
        for (let i = 0; i < runs; i++) {
          check(this.raw.ropeApply(pq + 4 * i * S * D, rq + 4 * i * S * D, S, 1, D, rot, lay, t.cos, t.sin));
          check(this.raw.ropeApply(pk + 4 * i * S * D, rk + 4 * i * S * D, S, 1, D, rot, lay, t.cos, t.sin));
        }
        [pq, pk] = [rq, rk];
      } else {
        const p = parse('attentionScores', ROPE_SETTINGS, r, 'rope.');
        fused = { on: true, theta: p.rope_theta, rotary: p.rotary_dim ?? 0, layout: ROPE_LAYOUTS[p.layout as RopeLayout] };
      }
    }
    for (let i = 0; i < runs; i++) {
      check(this.raw.attentionScores(pq + 4 * i * S * D, pk + 4 * i * S * D, res.address + 4 * i * S * S, S, D, fused.on,
        fused.theta, fused.rotary, fused.layout, o.causal, o.softmax));
    }
    return res.finish();
  }

  /**
   * Tokens of a short text with seeded q and k — a documented generator, so every engine reproduces the
   * numbers: splitmix64 streams (Steele, Lea & Flood 2014), FNV-1a token keys, float64 projections.
   * The same token gets the same q and k wherever it stands, so without position encoding, swapping two
   * tokens only permutes the rows and columns of the scores.
   */
  textQK(options: TextQKOptions): TextQK {
    const o = parse('textQK', TEXT_QK, options);
    return check(this.raw.textQK(o.text, o.head_dim, seedOf(o.seed)));
  }
}
