// Learned absolute tables (cpp/src/learned.cpp): .npy, .safetensors and JSON readers, lookup, similarity.
import { Core } from './core.js';
import type { Out } from './rope.js';
import type { Positions } from './validate.js';
import { bytes, check } from './validate.js';
import { tableFromJsonText, tableFromJsonValue } from './table_json.js';
import { array, bool, int, oneOf, out, parse, positions, str } from './options.js';

/** A learned absolute position table, [rows, cols] row-major: row p embeds position p. */
export interface PositionTable {
  rows: number;
  cols: number;
  data: Float32Array;
}

export const METRICS: Record<'cosine' | 'dot', number> = { cosine: 0, dot: 1 };

/** Learned absolute position tables. */
export class LearnedApi extends Core {
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
    const o = parse('tableFromSafetensors', { name: str('') }, options);
    return check(this.raw.tableFromSafetensors(bytes('safetensors', data), o.name));
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
  tableLookup(table: PositionTable, options: { positions: Positions; clamp?: boolean; out?: Out }): Float32Array {
    const t = tableArgs(table);
    const o = parse('tableLookup', { positions: positions(), clamp: bool(false), out: out() }, options);
    const n = typeof o.positions === 'number' ? o.positions : o.positions.length;
    const pos = typeof o.positions === 'number' ? Float64Array.from({ length: n }, (_, i) => i) : o.positions;
    const st = this.heap.call();
    const pt = st.input('table.data', t.data, 'f32', t.rows * t.cols), pp = st.input('positions', pos, 'f64', n);
    const r = st.output<Float32Array>('out', o.out, 'f32', n * t.cols);
    check(this.raw.tableLookup(pt, t.rows, t.cols, pp, n, o.clamp, r.address));
    return r.finish();
  }

  /**
   * Similarity matrix [rows, rows] of a table's rows: `'cosine'` (default; a zero row gives 0) or `'dot'`.
   * Float32 SIMD dot products (relative error ≤ cols·2^-24 of Σ|a_c·b_c|). Cosine scales rows to unit length first
   * (float64 norms): finite for every finite table, |error| ≤ (cols + 2)·2^-24. Dot is finite while
   * Σ|a_c·b_c| ≤ 3.4e38 (e.g. |values| ≤ 1e17 at cols 8192).
   */
  tableSimilarity(table: PositionTable, options: { metric?: 'cosine' | 'dot'; out?: Out } = {}): Float32Array {
    const t = tableArgs(table);
    const o = parse('tableSimilarity', { metric: oneOf(['cosine', 'dot'], 'cosine'), out: out() }, options);
    const st = this.heap.call();
    const pt = st.input('table.data', t.data, 'f32', t.rows * t.cols), r = st.output<Float32Array>('out', o.out, 'f32', t.rows * t.rows);
    check(this.raw.tableSimilarity(pt, t.rows, t.cols, METRICS[o.metric as 'cosine' | 'dot'], r.address));
    return r.finish();
  }
}

/** A table argument: rows and cols within the caps, data checked against rows·cols when staged. */
function tableArgs(table: PositionTable): { rows: number; cols: number; data: unknown } {
  return parse('table', { rows: int(1, 2 ** 20), cols: int(1, 8192), data: array() }, table, 'table.') as { rows: number; cols: number; data: unknown };
}
