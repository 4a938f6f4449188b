// Types and option normalisation of the attention engine and the decay sweeps (methods live on Posenc in index.ts).
import type { RawScheme } from './raw.js';
import type { RopeScalingParams } from './rope_config.js';
import { rawScaling } from './rope_config.js';
import { PosencError, arrayOf, finiteOr, integer, object } from './validate.js';

/** Scheme names of the engine (see cpp/include/posenc/engine.hpp for what each computes). */
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
