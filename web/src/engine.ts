// The attention engine (cpp/src/engine.cpp): any scheme's attention with its terms kept apart, permutation tests,
// linear attention with RoPE.
import type { RawScheme } from './raw.js';
import type { RopeScalingParams } from './rope_config.js';
import { rawScaling } from './rope_config.js';
import { Core } from './core.js';
import { PosencError, check, seedOf, show } from './validate.js';
import { MAX_ELEMENTS, any, array, bool, f32, int, int32, num, numbers, oneOf, optional, parse, str, value } from './options.js';
import type { Schema, Spec } from './options.js';
import { ROPE_LAYOUTS } from './rope.js';
import type { Data, QKLayout, RopeLayout } from './rope.js';

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
  /** probs·V, [seq, heads, head_dim] (with qk_layout `'bhsd'`: [heads, seq, head_dim]). */
  output: Float32Array;
}

export function rawScheme(scheme: unknown, headDim: number, rotaryDimFor: (f: number) => number): RawScheme {
  parse('scheme', SCHEME, scheme, 'scheme.');
  const s = scheme as Record<string, unknown>;
  if (typeof s.type !== 'string') throw new PosencError(`scheme.type: must be a string (got ${show(s.type)})`);
  const rotary = s.rotary_dim ?? (s.partial_rotary_factor === undefined ? 0
    : rotaryDimFor(value('scheme.partial_rotary_factor', num({ gt: 0, max: 1 }), s.partial_rotary_factor)));
  let table: Float32Array | null = null, rows = 0;
  if (s.table !== undefined) {
    const t = parse('scheme.table', { rows: int(1, 2 ** 20), cols: int(1, 8192), data: array() }, s.table, 'scheme.table.');
    if (t.cols !== headDim) throw new PosencError(`scheme.table.cols: must equal head_dim = ${headDim} (got ${t.cols})`);
    rows = t.rows;
    table = f32(t.data);
  }
  const v = (key: string, spec: Spec) => value(`scheme.${key}`, spec, s[key]);
  return {
    type: s.type,
    base: v('base', num({ gt: 0 }, 10000)),
    learned_table: table,
    learned_rows: rows,
    max_relative_position: v('max_relative_position', int32(16)),
    num_buckets: v('num_buckets', int32(32)),
    max_distance: v('max_distance', int32(128)),
    position_buckets: v('position_buckets', int32(256)),
    max_relative_positions: v('max_relative_positions', int32(512)),
    rope: rawScaling({ ...s, rotary_dim: rotary }, 'scheme.'),
    layout: ROPE_LAYOUTS[v('layout', oneOf(['interleaved', 'half_split'], 'half_split')) as RopeLayout],
    scale_base: v('scale_base', num({ gt: 0 }, 512)),
    gamma: v('gamma', num({ min: 0 }, 0.4)),
  };
}

const TEXT_QKV: Schema = { text: str(), heads: int(1, 64, 1), head_dim: int(1, 1024), seed: optional(any()) };
const ATTENTION: Schema = { scheme: any(), text: optional(str()), q: optional(array()), k: optional(array()), v: optional(array()),
  seq: optional(any()), heads: int(1, 1024, 1), head_dim: int(1, 8192), causal: bool(false), seed: optional(any()),
  batch: int(1, 2 ** 20, 1), qk_layout: oneOf(['shd', 'bshd', 'bhsd'], 'shd') };

/** [a, b, d] → [b, a, d] (the engine's inputs and output for qk_layout 'bhsd'; engine sizes are small). */
function swapAxes(x: Float32Array, a: number, b: number, d: number): Float32Array {
  const y = new Float32Array(a * b * d);
  for (let i = 0; i < a; i++) for (let j = 0; j < b; j++) y.set(x.subarray((i * b + j) * d, (i * b + j + 1) * d), (j * a + i) * d);
  return y;
}
const PERMUTATION: Schema = { scheme: any(), text: str(), i: int(0, 4095), j: int(0, 4095), heads: int(1, 64, 1), head_dim: int(1, 1024),
  causal: bool(false), seed: optional(any()) };
const LINEAR: Schema = { q: array(), k: array(), v: array(), seq: int(1, 2 ** 20), head_dim: int(2, 8192), v_dim: int(1, 8192),
  causal: bool(false), rope_theta: num({ gt: 0 }, 10000), form: oneOf(['naive', 'numerator_only']) };
/** The keys of {@link SchemeOptions} (each checked below or by rope_config.ts's rawScaling). */
const SCHEME: Schema = Object.fromEntries(['type', 'base', 'table', 'max_relative_position', 'num_buckets', 'max_distance', 'position_buckets',
  'max_relative_positions', 'layout', 'partial_rotary_factor', 'scale_base', 'gamma', 'rope_type', 'rope_theta', 'rotary_dim', 'factor',
  'max_position_embeddings', 'original_max_position_embeddings', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim',
  'truncate', 'short_factor', 'long_factor', 'low_freq_factor', 'high_freq_factor'].map((k) => [k, optional(any())]));

/** The attention engine: every scheme with its terms kept apart. */
export class EngineApi extends Core {
  /**
   * Attention of any scheme with its terms kept apart (see {@link AttentionResult}; each scheme's formula is its
   * paper's, listed at {@link AttentionSchemeType}). Content vectors come from `text`
   * (seeded embeddings and projections per head, the generator of {@link Posenc.textQK}) or from `q`, `k`, `v`
   * ([seq, heads, head_dim]; with `qk_layout: 'bshd'` or `'bhsd'` and `batch: 1`, Hugging Face's [1, seq, heads,
   * head_dim] or [1, heads, seq, head_dim], and `output` in the same order; one sequence per call). Scheme parameters
   * that are not inputs (positional projections, relative tables, biases) are seeded from `seed` (default 0). Caps: seq ≤ 4096, heads·seq²·(terms + 2) ≤ 2^26.
   * Accuracy: float32 dot products (relative error ≤ head_dim·2^-24); softmax rows sum to 1 within 1e-6.
   */
  attention(options: {
    scheme: SchemeOptions; text?: string; q?: Data; k?: Data; v?: Data;
    seq?: number; heads?: number; head_dim: number; causal?: boolean; seed?: number; batch?: number; qk_layout?: QKLayout;
  }): AttentionResult {
    const o = parse('attention', ATTENTION, options);
    const heads = o.heads, d = o.head_dim, seed = seedOf(o.seed), hsd = o.qk_layout === 'bhsd';
    if (o.batch !== 1) throw new PosencError(`batch: the attention engine takes one sequence per call (got ${show(o.batch)}); call it per sequence`);
    let tokens: string[] | null = null, q, k, v, seq: number;
    if (o.text !== undefined) {
      for (const key of ['q', 'k', 'v', 'seq']) if (o[key] !== undefined) throw new PosencError(`${key}: not allowed together with text`);
      const t = check(this.raw.textQKV(o.text, heads, d, seed));
      ({ tokens, q, k, v } = t);
      seq = tokens.length;
    } else {
      seq = value('seq', int(1, 4096), o.seq);
      [q, k, v] = ['q', 'k', 'v'].map((key) => value(key, array(), o[key]));
      if (hsd && heads > 1) {
        const n = seq * heads * d;
        [q, k, v] = [q, k, v].map((x, i) => {
          const a = numbers('qkv'[i], x, MAX_ELEMENTS);
          if (a.length !== n) throw new PosencError(`${'qkv'[i]}: length must equal the shape's element count ${n} (got ${show(a.length)})`);
          return swapAxes(f32(a) as Float32Array, heads, seq, d);
        });
      }
    }
    const scheme = rawScheme(o.scheme, d, (f) => check(this.raw.rotaryDimFor(d, f)));
    const st = this.heap.call(), n = seq * heads * d;
    const r = check(this.raw.attention(st.input('q', q, 'f32', n), st.input('k', k, 'f32', n), st.input('v', v, 'f32', n), seq, heads, d,
      scheme, o.causal, seed));
    const output = hsd && heads > 1 ? swapAxes(r.output, seq, heads, d) : r.output;
    return { tokens, heads, seq, head_dim: d, terms: r.terms, term_names: r.termOrder, scores: r.scores, probs: r.probs, output };
  }

  /** q, k, v [tokens, heads, head_dim] of a text (head 0 of q and k equals {@link Posenc.textQK}). */
  textQKV(options: { text: string; heads?: number; head_dim: number; seed?: number }) {
    const o = parse('textQKV', TEXT_QKV, options);
    return check(this.raw.textQKV(o.text, o.heads, o.head_dim, seedOf(o.seed)));
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
    const o = parse('permutationChange', PERMUTATION, options);
    const d = o.head_dim;
    return check(this.raw.permutationChange(o.text, o.i, o.j, o.heads, d, rawScheme(o.scheme, d, (f) => check(this.raw.rotaryDimFor(d, f))),
      o.causal, seedOf(o.seed)));
  }

  /**
   * Linear attention with RoPE (RoFormer §3.3; Su, kexue.fm/archives/8265), φ = elu + 1 on q and k, half-split RoPE at
   * positions 0 … seq−1. `naive` divides by Σ_j (R_iφq_i)·(R_jφk_j), which can approach or cross 0;
   * `numerator_only` divides by Σ_j φ(q_i)·φ(k_j) > 0. Computed in O(seq·d·v_dim) with float64 state sums.
   */
  linearAttentionRope(options: { q: Data; k: Data; v: Data; seq: number; head_dim: number;
    v_dim: number; causal?: boolean; rope_theta?: number; form: 'naive' | 'numerator_only' }): { output: Float32Array; denominator: Float32Array } {
    const o = parse('linearAttentionRope', LINEAR, options);
    const st = this.heap.call(), n = o.seq * o.head_dim;
    return check(this.raw.linearAttentionRope(st.input('q', o.q, 'f32', n), st.input('k', o.k, 'f32', n), st.input('v', o.v, 'f32', o.seq * o.v_dim),
      o.seq, o.head_dim, o.v_dim, o.causal, o.rope_theta, o.form === 'naive' ? 0 : 1));
  }
}
