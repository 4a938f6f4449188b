// RoPE (cpp/src/rope.cpp): inverse frequencies, cos/sin tables, rotation of Q/K buffers in every Q/K layout.
import type { RawModule } from './raw.js';
import { Core } from './core.js';
import { WasmBuffer } from './buffers.js';
import type { Heap, Output, Staging } from './buffers.js';
import { PosencError, check, show } from './validate.js';
import type { Positions } from './validate.js';
import { MAX_ELEMENTS, array, bool, int, num, numbers, oneOf, optional, out, parse, positions, value } from './options.js';
import type { Parsed, Schema } from './options.js';

/**
 * Channel layout of RoPE's rotated pairs inside a head. The default is `'half_split'` in every function.
 * - `'interleaved'`: pair i = channels (2i, 2i+1) — RoFormer, GPT-J, Meta's LLaMA (`freqs_cis`).
 * - `'half_split'`: pair i = channels (i, i + rotary_dim/2) — GPT-NeoX, Hugging Face LLaMA (`rotate_half`).
 * Both rotate (a, b) ↦ (a·cos − b·sin, a·sin + b·cos); they agree up to that fixed channel permutation.
 */
export type RopeLayout = 'interleaved' | 'half_split';

/**
 * Memory order of a Q or K buffer (row-major):
 * - `'shd'`: [seq, heads, head_dim] (one sequence);
 * - `'bshd'`: [batch, seq, heads, head_dim] (flash-attention, most kernels);
 * - `'bhsd'`: [batch, heads, seq, head_dim] (Hugging Face after `transpose(1, 2)`).
 */
export type QKLayout = 'shd' | 'bshd' | 'bhsd';

/** An array argument: a plain array or typed array of numbers (copied in), or a wasm buffer (used in place). */
export type Data = ArrayLike<number> | WasmBuffer<Float32Array>;
/** Where to write a float32 result: a Float32Array of exactly the result's length, or a wasm buffer. */
export type Out = Float32Array | WasmBuffer<Float32Array>;

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
  /**
   * false (default): tables [positions, rotary_dim/2]. true: Hugging Face's shape [positions, rotary_dim], each
   * row twice (`emb = torch.cat((freqs, freqs), dim=-1)`).
   */
  duplicate?: boolean;
  /** Where to write the tables (each of the result's length). Default: new arrays. */
  out?: { cos: Out; sin: Out };
}

/** A RoPE with any scaling: the result of {@link Posenc.ropeFromConfig} or {@link Posenc.ropeInvFreqScaled}. */
export interface ScaledRope {
  /** rotary_dim/2 inverse frequencies. */
  inv_freq: ArrayLike<number>;
  /** Multiplies cos and sin (HF `attention_scaling`). Default 1. */
  attention_scaling?: number;
}

/** Shape of a Q or K buffer: `[seq, heads, head_dim]`, or with `batch` in the order `qk_layout` names. */
export interface QKShape {
  /** Rows (tokens) per sequence. */
  seq: number;
  /** Heads per row. Default 1. */
  heads?: number;
  /** Channels per head. */
  head_dim: number;
  /** Sequences. Default 1 (more need qk_layout `'bshd'` or `'bhsd'`). */
  batch?: number;
  /** Memory order. Default `'shd'`. */
  qk_layout?: QKLayout;
  /**
   * Rotated channels per head (even, ≤ head_dim). Default head_dim (or 2·inv_freq.length with `rope`). With fewer,
   * the first rotary_dim channels rotate and the rest pass through unchanged (partial rotary).
   */
  rotary_dim?: number;
  /** Pair layout. Default `'half_split'` (Hugging Face). */
  layout?: RopeLayout;
  /**
   * Where to write the result (same length as x): a Float32Array, or a wasm buffer (no copy). May be x itself for
   * in-place rotation. Default: a new Float32Array.
   */
  out?: Out;
}

/** Options of {@link Posenc.ropeApply}. */
export interface RopeApplyOptions extends QKShape {
  /** RoPE base θ. Default 10000. Not with `rope`, `cos`/`sin`. */
  rope_theta?: number;
  /** Scaled RoPE in one call: inv_freq and attention_scaling of {@link Posenc.ropeFromConfig}. */
  rope?: ScaledRope;
  /** Position id of each row: seq entries (shared by the batch) or batch·seq. Default 0 … seq−1. */
  positions?: ArrayLike<number>;
  /**
   * Precomputed tables instead of frequencies: seq rows (or batch·seq) of rotary_dim/2 entries (from
   * {@link Posenc.ropeTables}), or of rotary_dim with `duplicate: true` (Hugging Face's cos/sin).
   */
  cos?: Data;
  sin?: Data;
  /** cos/sin are Hugging Face-shaped, [rows, rotary_dim] (each half repeated). Default false. */
  duplicate?: boolean;
}

/** Options of {@link Posenc.ropeApplyTables}. */
export interface RopeApplyTablesOptions extends QKShape {
  /** Tables from {@link Posenc.ropeTables}: seq rows of rotary_dim/2 entries; row s is used for row s. */
  cos: Data;
  sin: Data;
  /** cos/sin are Hugging Face-shaped, [seq, rotary_dim]. Default false. */
  duplicate?: boolean;
}

export const ROPE_LAYOUTS: Record<RopeLayout, number> = { interleaved: 0, half_split: 1 };

/** The options of a Q/K shape, shared by every method taking Q/K. */
export const QK_SHAPE: Schema = {
  seq: int(0, 2 ** 20),
  heads: int(1, 1024, 1),
  head_dim: int(1, 8192),
  batch: int(1, 2 ** 20, 1),
  qk_layout: oneOf(['shd', 'bshd', 'bhsd'], 'shd'),
  rotary_dim: optional(int(2, 8192)),
  layout: oneOf(['interleaved', 'half_split'], 'half_split'),
  out: out(),
};

const FREQ: Schema = { rotary_dim: int(2, 8192), rope_theta: num({ gt: 0 }, 10000) };
const TABLES: Schema = { ...FREQ, positions: positions(), duplicate: bool(false), out: out() };
const APPLY: Schema = {
  ...QK_SHAPE, rope_theta: optional(num({ gt: 0 })), rope: optional({ kind: 'any' }), positions: optional(array(2 ** 20)),
  cos: optional(array()), sin: optional(array()), duplicate: bool(false),
};
const APPLY_TABLES: Schema = { ...QK_SHAPE, cos: array(), sin: array(), duplicate: bool(false) };
/** attention_scaling multiplies cos and sin (float32 tables) and its square every score: |s| ≤ 1e15 keeps both finite. */
export const ATTENTION_SCALING = num({ min: -1e15, max: 1e15 }, 1);
const SCALED_ROPE: Schema = { inv_freq: array(4096), attention_scaling: ATTENTION_SCALING };

/** A checked Q/K shape: elements in all, and the contiguous runs the kernels take. */
export interface QK {
  batch: number; seq: number; heads: number; headDim: number; rotaryDim: number; layout: number; qkLayout: QKLayout;
  count: number;
}

/** The checked shape of `o` (parsed with {@link QK_SHAPE}). */
export function qkShape(o: Parsed, name = 'x'): QK {
  if (o.qk_layout === 'shd' && o.batch !== 1) throw new PosencError(`batch: must be 1 with qk_layout 'shd' (got ${show(o.batch)})`);
  const count = o.batch * o.seq * o.heads * o.head_dim;
  if (count > MAX_ELEMENTS) throw new PosencError(`${name}: ${show(count)} elements exceed the cap of 2^28`);
  const rotaryDim = o.rotary_dim ?? o.head_dim;
  if (rotaryDim > o.head_dim) throw new PosencError(`rotary_dim: must be <= head_dim = ${o.head_dim} (got ${rotaryDim})`);
  return { batch: o.batch, seq: o.seq, heads: o.heads, headDim: o.head_dim, rotaryDim, layout: ROPE_LAYOUTS[o.layout as RopeLayout],
    qkLayout: o.qk_layout, count };
}

/**
 * Runs `f(offset, seq, heads, tableRow)` over the contiguous [seq, heads, head_dim] runs of a Q/K buffer:
 * one for 'shd', one per sequence for 'bshd', one per (sequence, head) for 'bhsd'. `perBatchTables`: the tables
 * have batch·seq rows (row b·seq + s for sequence b).
 */
export function forRuns(s: QK, perBatchTables: boolean, f: (offset: number, seq: number, heads: number, tableRow: number) => void): void {
  const run = s.seq * s.heads * s.headDim;
  for (let b = 0; b < s.batch; b++) {
    const row = perBatchTables ? b * s.seq : 0;
    if (s.qkLayout === 'bhsd') for (let h = 0; h < s.heads; h++) f((b * s.heads + h) * s.seq * s.headDim, s.seq, 1, row);
    else f(b * run, s.seq, s.heads, row);
  }
}

/** θ_i of {@link Posenc.ropeInvFreq}, for the families that take rotary_dim and rope_theta. */
export function ropeInvFreqOf(raw: RawModule, rotaryDim: number, ropeTheta: number): Float64Array {
  return check(raw.ropeInvFreq(rotaryDim, ropeTheta));
}

/**
 * RoPE tables of a Q/K shape staged into scratch: from given cos/sin (compacted from Hugging Face's shape when
 * `duplicate`), else computed from `rope` (inv_freq, attention_scaling) or rope_theta at the positions.
 * Returns the addresses and whether the tables have a row per (sequence, row).
 */
export function stageTables(raw: RawModule, heap: Heap, st: Staging, o: Parsed, s: QK): { cos: number; sin: number; perBatch: boolean } {
  const half = s.rotaryDim / 2;
  if (o.cos !== undefined || o.sin !== undefined) {
    for (const k of ['rope_theta', 'rope', 'positions']) if (o[k] !== undefined) throw new PosencError(`${k}: not allowed together with cos/sin`);
    const c = value('cos', array(), o.cos), sn = value('sin', array(), o.sin);
    const rows = tableRows('cos', c.length, o.duplicate ? 2 * half : half, s);
    if (!o.duplicate) return { cos: st.input('cos', c, 'f32', rows * half), sin: st.input('sin', sn, 'f32', rows * half), perBatch: rows !== s.seq };
    return { cos: compact(heap, st, 'cos', c, rows, half), sin: compact(heap, st, 'sin', sn, rows, half), perBatch: rows !== s.seq };
  }
  let inv: ArrayLike<number>, scale = 1;
  if (o.rope !== undefined) {
    if (o.rope_theta !== undefined) throw new PosencError('rope_theta: not allowed together with rope');
    const r = scaledRope(o.rope);
    inv = r.inv_freq;
    scale = r.attention_scaling;
    if (o.rotary_dim !== undefined && o.rotary_dim !== 2 * inv.length) {
      throw new PosencError(`rotary_dim: must equal 2·rope.inv_freq.length = ${2 * inv.length} (got ${o.rotary_dim})`);
    }
    if (2 * inv.length > s.headDim) throw new PosencError(`rope.inv_freq: length must be at most head_dim/2 = ${s.headDim / 2} (got ${inv.length})`);
    s.rotaryDim = 2 * inv.length;
  } else {
    inv = ropeInvFreqOf(raw, s.rotaryDim, o.rope_theta ?? 10000);
  }
  const rows = o.positions === undefined ? s.seq : tableRows('positions', o.positions.length, 1, s);
  const pInv = st.input('rope.inv_freq', inv, 'f64', inv.length);
  const pPos = o.positions === undefined ? 0 : st.input('positions', o.positions, 'f64', rows);
  const n = rows * inv.length;
  const c = st.scratch('cos', 'f32', n), sn = st.scratch('sin', 'f32', n);
  check(raw.ropeTables(pInv, inv.length, scale, pPos, rows, false, c, sn));
  return { cos: c, sin: sn, perBatch: rows !== s.seq };
}

/** The `rope` option: inv_freq and attention_scaling of a scaled RoPE (other keys of those results are ignored). */
export function scaledRope(v: unknown): { inv_freq: ArrayLike<number>; attention_scaling: number } {
  if (v === null || typeof v !== 'object' || !('inv_freq' in v)) {
    throw new PosencError(`rope: must be the result of ropeFromConfig or ropeInvFreqScaled ({ inv_freq, attention_scaling }) (got ${show(v)})`);
  }
  const r = v as Record<string, unknown>;
  const inv = value('rope.inv_freq', SCALED_ROPE.inv_freq, r.inv_freq);
  return { inv_freq: inv instanceof WasmBuffer ? inv.array : inv, attention_scaling: value('rope.attention_scaling', SCALED_ROPE.attention_scaling, r.attention_scaling) };
}

function tableRows(name: string, length: number, perRow: number, s: QK): number {
  const rows = length / perRow;
  if (rows === s.seq || (rows === s.batch * s.seq && s.batch > 1)) return rows;
  const per = perRow === 1 ? '' : `·${perRow}`;
  const many = s.batch > 1 ? ` or batch·seq${per} = ${s.batch * s.seq * perRow}` : '';
  throw new PosencError(`${name}: length must equal seq${per} = ${s.seq * perRow}${many} (got ${show(length)})`);
}

/** Hugging Face-shaped table rows [c, c] → [c] into scratch. */
function compact(heap: Heap, st: Staging, name: string, t: ArrayLike<number> | WasmBuffer, rows: number, half: number): number {
  const src = t instanceof WasmBuffer ? t.array : t;
  if (src.length !== rows * 2 * half) throw new PosencError(`${name}: length must equal ${rows * 2 * half}, like cos (got ${show(src.length)})`);
  const address = st.scratch(name, 'f32', rows * half);
  const dst = heap.view('f32', address, rows * half);
  for (let r = 0; r < rows; r++) for (let i = 0; i < half; i++) dst[r * half + i] = src[r * 2 * half + i];
  return address;
}

/** RoPE (Su et al. 2021, RoFormer): frequencies, tables and rotation. */
export class RopeApi extends Core {
  /**
   * RoPE inverse frequencies θ_i = rope_theta^(−2i/rotary_dim), i = 0 … rotary_dim/2 − 1, in float64.
   * @throws PosencError if rotary_dim is not an even integer in [2, 8192] or rope_theta is not finite and > 0.
   */
  ropeInvFreq(options: RopeFrequencyOptions): Float64Array {
    const o = parse('ropeInvFreq', FREQ, options);
    return ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta);
  }

  /**
   * cos/sin tables of RoPE: `cos[p·h + i] = cos(pos_p · θ_i)`, `sin` likewise, h = rotary_dim/2, shape
   * [positions, rotary_dim/2] row-major ([positions, rotary_dim] with `duplicate: true`).
   *
   * Accuracy: the angle and its cos/sin are computed in float64 and rounded once to float32 — every entry
   * is within 2 ulp of the float64 value for integer |pos| ≤ 2^20 (a float32 product pos·θ_i, as PyTorch
   * references compute it, is ~5e-4 rad off at pos = 8191).
   */
  ropeTables(options: RopeTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = parse('ropeTables', TABLES, options);
    return tables(this.raw, this.heap, ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta), 1, o);
  }

  /**
   * Rotates a Q or K buffer `x` (shape and memory order from `seq`, `heads`, `head_dim`, `batch`, `qk_layout`) by
   * RoPE at the given positions: frequencies from rope_theta, or a scaled `rope` (any Hugging Face rope_type, one
   * call), or precomputed `cos`/`sin`. Channel pairs follow `layout` (default `'half_split'`); channels from
   * rotary_dim on pass through (partial rotary). NaN in x stays in its pair.
   * Accuracy: tables as in {@link Posenc.ropeTables}; one float32 multiply-add per element.
   * @returns `out` if given (in place when out === x; a wasm buffer's `.array`), else a new Float32Array.
   */
  ropeApply(x: Data, options: RopeApplyOptions): Float32Array {
    return rotate(this.raw, this.heap, x, parse('ropeApply', APPLY, options));
  }

  /**
   * {@link Posenc.ropeApply} with precomputed tables (from {@link Posenc.ropeTables}), row s of `x` using table
   * row s — the fast path when the same positions rotate many buffers.
   */
  ropeApplyTables(x: Data, options: RopeApplyTablesOptions): Float32Array {
    return rotate(this.raw, this.heap, x, parse('ropeApplyTables', APPLY_TABLES, options));
  }
}

/** RoPE of x (any Q/K layout) into `out` or a new array, with the tables `o` asks for. */
function rotate(raw: RawModule, heap: Heap, x: unknown, o: Parsed): Float32Array {
  const s = qkShape(o);
  const xv = numbers('x', x, MAX_ELEMENTS);
  const st = heap.call();
  const px = st.input('x', xv, 'f32', s.count);
  const res = st.output<Float32Array>('out', o.out, 'f32', s.count);
  const t = stageTables(raw, heap, st, o, s);
  const half = s.rotaryDim / 2;
  forRuns(s, t.perBatch, (offset, seq, heads, row) => {
    check(raw.ropeApply(px + 4 * offset, res.address + 4 * offset, seq, heads, s.headDim, s.rotaryDim, s.layout,
      t.cos + 4 * row * half, t.sin + 4 * row * half));
  });
  return res.finish();
}

/** Tables of `inv` scaled by `scale` at `o.positions` (a count or ids), `o.duplicate`, into `o.out` or new arrays. */
export function tables(raw: RawModule, heap: Heap, inv: ArrayLike<number>, scale: number, o: Parsed): { cos: Float32Array; sin: Float32Array } {
  const st = heap.call();
  const n = typeof o.positions === 'number' ? o.positions : o.positions.length;
  const pPos = typeof o.positions === 'number' ? 0 : st.input('positions', o.positions, 'f64', n);
  const pInv = st.input('inv_freq', inv, 'f64', inv.length);
  const size = n * inv.length * (o.duplicate ? 2 : 1);
  const t = tableOutputs(st, o.out, size);
  check(raw.ropeTables(pInv, inv.length, scale, pPos, n, o.duplicate, t.cos.address, t.sin.address));
  return t.finish();
}

/** Where a pair of tables of `size` floats each goes: `out` ({ cos, sin }) or new arrays. */
export function tableOutputs(st: Staging, out: unknown, size: number): { cos: Output<Float32Array>; sin: Output<Float32Array>;
  finish(): { cos: Float32Array; sin: Float32Array } } {
  const o = tableOuts(out);
  const cos = st.output<Float32Array>('out.cos', o.cos, 'f32', size), sin = st.output<Float32Array>('out.sin', o.sin, 'f32', size);
  return { cos, sin, finish: () => ({ cos: cos.finish(), sin: sin.finish() }) };
}

/** `out` of a pair of tables: `{ cos, sin }` or absent. */
export function tableOuts(v: unknown): { cos: unknown; sin: unknown } {
  if (v === undefined) return { cos: undefined, sin: undefined };
  const o = parse('out', { cos: { kind: 'any' }, sin: { kind: 'any' } }, v, 'out.');
  return { cos: o.cos, sin: o.sin };
}
