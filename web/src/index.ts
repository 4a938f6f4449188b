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
import { PosencError, arrayOf, check, integer, number, object, oneOf, positionsArray, writeOut } from './validate.js';

export { PosencError };

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

/** Options of {@link init}. */
export interface InitOptions {
  /** Force the SIMD (true) or scalar (false) build. Default: SIMD where the engine supports wasm SIMD. */
  simd?: boolean;
  /** The .wasm bytes, if you load them yourself (they must match the chosen build). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

const ROPE_LAYOUTS: Record<RopeLayout, number> = { interleaved: 0, half_split: 1 };
const SIN_LAYOUTS: Record<SinusoidalLayout, number> = { interleaved: 0, concatenated: 1 };

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
    return writeOut(r, o.out);
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
    return writeOut(r, o.out);
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
    return check(this.raw.attentionScores(arrayOf('q', o.q, Float32Array), arrayOf('k', o.k, Float32Array), seq, d,
      rope !== null, number('rope.rope_theta', rope?.rope_theta ?? 10000), integer('rope.rotary_dim', rope?.rotary_dim ?? 0),
      oneOf('rope.layout', rope?.layout ?? 'half_split', ROPE_LAYOUTS), Boolean(o.causal), o.softmax !== false));
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
