// RoPE cos/sin tables on the GPU, and the angle-table kernel they share with the sinusoidal table.
import { ANGLE_WGSL, angleFactors } from './angles.js';
import type { Control, GpuContext } from './device.js';
import { GpuFailure } from './device.js';

/** Where the angle-table kernel writes cos/sin of (position p, frequency i). */
export const enum TableLayout {
  /** RoPE: cos [n, nf] then sin [n, nf]. */
  RopeCosSin = 0,
  /** Sinusoidal, paper order: channel 2i = sin_i, 2i+1 = cos_i (when 2i+1 < d). */
  SinInterleaved = 1,
  /** Sinusoidal, tensor2tensor order: sin_0 … sin_{nf−1}, then cos_0 … cos_{d−nf−1}. */
  SinConcatenated = 2,
}

const TABLE_WGSL = /* wgsl */ `
struct U { rows: u32, nf: u32, B: u32, mode: u32, d: u32, p0: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> blk: array<vec2f>;
@group(0) @binding(2) var<storage, read> off: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${ANGLE_WGSL}
@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let i = g.x;
  let r = g.y;
  if (i >= u.nf || r >= u.rows) { return; }
  let cs = angle(u.p0 + r, i);
  if (u.mode == 0u) {
    out[r * u.nf + i] = cs.x;
    out[(u.rows + r) * u.nf + i] = cs.y;
  } else if (u.mode == 1u) {
    out[r * u.d + 2u * i] = cs.y;
    if (2u * i + 1u < u.d) { out[r * u.d + 2u * i + 1u] = cs.x; }
  } else {
    out[r * u.d + i] = cs.y;
    if (u.nf + i < u.d) { out[r * u.d + u.nf + i] = cs.x; }
  }
}
`;

/**
 * scale·(cos, sin)(p·θ_i) for positions p = 0 … n − 1 and θ = invFreq, in `layout`; the row width is nf (RoPE) or d.
 * `sink(p0, rows, data)` receives consecutive row ranges as they arrive.
 */
export async function angleTable(ctx: GpuContext, invFreq: Float64Array, scale: number, n: number, layout: TableLayout, d: number,
  sink: (p0: number, rows: number, data: Float32Array) => void, ctl: Control): Promise<void> {
  const nf = invFreq.length;
  const rowFloats = layout === TableLayout.RopeCosSin ? 2 * nf : d;
  const rowsPerChunk = Math.min(Math.floor(ctx.maxFloats / rowFloats), 65535 * 4, Math.max(64, Math.floor(2 ** 22 / rowFloats)));
  if (rowsPerChunk < 1) throw new GpuFailure('limits', `a table row of ${rowFloats} floats exceeds the adapter's buffer limits`);
  const f = angleFactors(invFreq, 0, n, new Float64Array(nf).fill(scale));
  const pipeline = await ctx.pipeline(TABLE_WGSL);
  let blk: GPUBuffer, off: GPUBuffer;
  const chunks = Math.ceil(n / rowsPerChunk);
  await ctx.chunks(chunks, (k, enc, keep) => {
    if (k === 0) {
      blk = keep(ctx.upload(f.blocks));
      off = keep(ctx.upload(f.offsets));
    }
    const p0 = k * rowsPerChunk, rows = Math.min(rowsPerChunk, n - p0);
    const out = ctx.output(rows * rowFloats);
    const uni = keep(ctx.upload(new Uint32Array([rows, nf, f.B, layout, d, p0, 0, 0]), true));
    ctx.dispatch(enc, pipeline, [uni, blk, off, out], Math.ceil(nf / 64), Math.ceil(rows / 4));
    return { out, floats: rows * rowFloats };
  }, (k, data) => sink(k * rowsPerChunk, data.length / rowFloats, data), ctl);
}

/** RoPE tables [n, nf] (cos, sin) of positions 0 … n − 1, multiplied by `scale`. */
export async function ropeTablesGpu(ctx: GpuContext, invFreq: Float64Array, scale: number, n: number, ctl: Control):
  Promise<{ cos: Float32Array; sin: Float32Array }> {
  const nf = invFreq.length;
  const cos = new Float32Array(n * nf), sin = new Float32Array(n * nf);
  await angleTable(ctx, invFreq, scale, n, TableLayout.RopeCosSin, 0, (p0, rows, data) => {
    cos.set(data.subarray(0, rows * nf), p0 * nf);
    sin.set(data.subarray(rows * nf), p0 * nf);
  }, ctl);
  return { cos, sin };
}
