// A learned 2-D position table resized to another patch grid, as SigLIP 2 (NaFlex) does for every image:
// huggingface/transformers@0184d2087e15afbd83ffa3cef25044a4f6c05047 src/transformers/models/siglip2/modeling_siglip2.py
// (Siglip2VisionEmbeddings.resize_positional_embeddings: F.interpolate(mode='bilinear', align_corners=False,
// antialias=True) of the (side, side, embed_dim) table to (height, width)), with PyTorch's antialiased weights:
// pytorch/pytorch@bb7240c35c73bef34525036c7ebd0dc48750654e aten/src/ATen/native/cpu/UpSampleKernel.cpp
// (_compute_indices_min_size_weights_aa, the bilinear aa_filter). Separable: one set of weights per axis.
import { PosencError } from './validate.js';

/** Largest side of either grid, and largest output (entries). */
export const MAX_SIDE = 4096, MAX_OUT = 2 ** 26;

/** The weights one output index takes from the input along one axis: first input index and the normalised weights. */
export interface AxisWeights { first: number[]; weights: number[][] }

/**
 * PyTorch's antialiased linear weights for resizing `n_in` samples to `n_out` (align_corners false): scale = n_in / n_out,
 * support = scale ≥ 1 ? scale : 1, centre c = scale·(i + ½), taps j from ⌊c − support + ½⌋ (≥ 0) to ⌊c + support + ½⌋ (≤ n_in)
 * (truncation toward zero, as the int64 casts), weight max(0, 1 − |(j − c + ½)·invscale|) with invscale = 1/scale when
 * downsampling, 1 when upsampling; normalised to sum 1. Upsampling this is plain bilinear with the edges clamped;
 * downsampling a triangle filter as wide as the scale (e.g. 2 → 1: [1, 3, 3, 1]/8 inside).
 */
export function axisWeights(n_in: number, n_out: number): AxisWeights {
  const scale = n_in / n_out, support = scale >= 1 ? scale : 1, inv = scale >= 1 ? 1 / scale : 1;
  const first: number[] = [], weights: number[][] = [];
  for (let i = 0; i < n_out; i++) {
    const c = scale * (i + 0.5);
    const lo = Math.max(Math.trunc(c - support + 0.5), 0), hi = Math.min(Math.trunc(c + support + 0.5), n_in);
    const w: number[] = [];
    let total = 0;
    for (let j = lo; j < hi; j++) { const x = Math.abs((j - c + 0.5) * inv), v = x < 1 ? 1 - x : 0; w.push(v); total += v; }
    first.push(lo);
    weights.push(total !== 0 ? w.map((v) => v / total) : w);
  }
  return { first, weights };
}

/**
 * table [rows, cols, dim] (row-major, channels last, SigLIP 2's (side, side, embed_dim)) → [height, width, dim], float64.
 * Both passes are separable, so the order is free up to rounding: the axis that keeps the intermediate smaller goes
 * first (never larger than the larger of the table and the output, both capped at MAX_OUT).
 */
export function resizeGridOf(table: ArrayLike<number>, rows: number, cols: number, dim: number, height: number, width: number): Float64Array {
  if (rows * cols * dim > MAX_OUT) throw new PosencError(`table: rows · cols · dim must be at most ${MAX_OUT} (got ${rows}·${cols}·${dim})`);
  if (table.length !== rows * cols * dim) throw new PosencError(`table: must hold rows · cols · dim = ${rows}·${cols}·${dim} = ${rows * cols * dim} numbers (got ${table.length})`);
  if (height * width * dim > MAX_OUT) throw new PosencError(`height: height · width · dim must be at most ${MAX_OUT} (got ${height}·${width}·${dim})`);
  for (let i = 0; i < table.length; i++) if (!Number.isFinite(table[i])) throw new PosencError(`table[${i}]: must be finite (got ${table[i]})`);
  const H = axisWeights(rows, height), W = axisWeights(cols, width);
  if (rows * width <= height * cols) return alongRows(alongCols(table, rows, cols, dim, W, width), rows, width, dim, H, height);
  return alongCols(alongRows(table, rows, cols, dim, H, height), height, cols, dim, W, width);
}

/** [rows, cols, dim] → [rows, width, dim] with the column weights W. */
function alongCols(t: ArrayLike<number>, rows: number, cols: number, dim: number, W: AxisWeights, width: number): Float64Array {
  const out = new Float64Array(rows * width * dim);
  for (let r = 0; r < rows; r++) {
    for (let x = 0; x < width; x++) {
      const w = W.weights[x], j0 = W.first[x], o = (r * width + x) * dim;
      for (let k = 0; k < w.length; k++) { const s = (r * cols + j0 + k) * dim; for (let d = 0; d < dim; d++) out[o + d] += w[k] * t[s + d]; }
    }
  }
  return out;
}

/** [rows, cols, dim] → [height, cols, dim] with the row weights H. */
function alongRows(t: ArrayLike<number>, rows: number, cols: number, dim: number, H: AxisWeights, height: number): Float64Array {
  const out = new Float64Array(height * cols * dim);
  for (let y = 0; y < height; y++) {
    const w = H.weights[y], i0 = H.first[y];
    for (let x = 0; x < cols; x++) {
      const o = (y * cols + x) * dim;
      for (let k = 0; k < w.length; k++) { const s = ((i0 + k) * cols + x) * dim; for (let d = 0; d < dim; d++) out[o + d] += w[k] * t[s + d]; }
    }
  }
  return out;
}
