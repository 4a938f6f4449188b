// RoPE's inner-product (long-range decay) sweep and Su's bound curve on the GPU: one thread per distance, a Kahan sum
// over frequencies.
import { ANGLE_WGSL, angleFactors } from './angles.js';
import type { Control, GpuContext } from './device.js';
import { GpuFailure } from './device.js';

const SWEEP_WGSL = /* wgsl */ `
struct U { count: u32, nf: u32, B: u32, t0: u32, pass_through: f32, pad0: u32, pad1: u32, pad2: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> blk: array<vec2f>;
@group(0) @binding(2) var<storage, read> off: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${ANGLE_WGSL}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= u.count) { return; }
  let t = u.t0 + g.x;
  var sum = 0.0;
  var c = 0.0;  // Kahan compensation
  for (var i = 0u; i < u.nf; i++) {
    let y = angle(t, i).x - c;
    let s = sum + y;
    c = (s - sum) - y;
    sum = s;
  }
  out[g.x] = sum + u.pass_through;
}
`;

const BOUND_WGSL = /* wgsl */ `
struct U { count: u32, nf: u32, B: u32, t0: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> blk: array<vec2f>;
@group(0) @binding(2) var<storage, read> off: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
${ANGLE_WGSL}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x >= u.count) { return; }
  let t = u.t0 + g.x;
  var s = vec2f(0.0);  // S_j = Σ_{i<j} e^{i·t·θ_i}
  var acc = 0.0;
  var c = 0.0;  // Kahan compensation of Σ_j |S_j|
  for (var i = 0u; i < u.nf; i++) {
    s += angle(t, i);
    let y = length(s) - c;
    let a = acc + y;
    c = (a - acc) - y;
    acc = a;
  }
  out[g.x] = acc / f32(u.nf);
}
`;

/** Resolved sweep inputs (the wasm method's options after validation and defaults). */
export interface SweepInputs {
  q: Float32Array;
  k: Float32Array;
  head_dim: number;
  rotary_dim: number;
  interleaved: boolean;
  inv_freq: Float64Array;
  q_position: number;
  k_start: number;
  count: number;
}

const CHUNK = 1 << 18;  // distances per chunk (progress and cancellation points; few read-backs per sweep)

/**
 * ⟨R_m q, R_n k⟩ for n − m = k_start − q_position + t, t < count, as the wasm `ropeInnerProductSweep`: the pair
 * products h_i = (q_a k_a + q_b k_b) + i(q_b k_a − q_a k_b) in float64, value = Re Σ_i conj(h_i)·e^{i r θ_i} + the
 * unrotated channels' dot product.
 */
export async function sweepGpu(ctx: GpuContext, o: SweepInputs, ctl: Control, out: Float32Array = new Float32Array(o.count)): Promise<Float32Array> {
  const half = o.rotary_dim / 2;
  const zr = new Float64Array(half), zi = new Float64Array(half);
  for (let i = 0; i < half; i++) {
    const a = o.interleaved ? 2 * i : i, b = o.interleaved ? 2 * i + 1 : i + half;
    zr[i] = o.q[a] * o.k[a] + o.q[b] * o.k[b];
    zi[i] = -(o.q[b] * o.k[a] - o.q[a] * o.k[b]);
  }
  let pass = 0;
  for (let c = o.rotary_dim; c < o.head_dim; c++) pass += o.q[c] * o.k[c];
  const f = angleFactors(o.inv_freq, o.k_start - o.q_position, o.count, zr, zi);
  if (f.blocks.length / 4 > ctx.maxFloats || f.offsets.length / 4 > ctx.maxFloats) {
    throw new GpuFailure('limits', 'the sweep factors exceed the adapter\'s buffer limits');
  }
  const chunk = Math.min(CHUNK, ctx.maxFloats);
  const pipeline = await ctx.pipeline(SWEEP_WGSL);
  let blk: GPUBuffer, off: GPUBuffer;
  await ctx.chunks(Math.ceil(o.count / chunk), (k, enc, keep) => {
    if (k === 0) {
      blk = keep(ctx.upload(f.blocks));
      off = keep(ctx.upload(f.offsets));
    }
    const t0 = k * chunk, n = Math.min(chunk, o.count - t0);
    const u = new Uint32Array(8);
    u.set([n, half, f.B, t0]);
    new Float32Array(u.buffer, 16, 1)[0] = pass;
    const dst = ctx.output(n);
    ctx.dispatch(enc, pipeline, [keep(ctx.upload(u, true)), blk, off, dst], Math.ceil(n / 256));
    return { out: dst, floats: n };
  }, (k, data) => out.set(data, k * chunk), ctl);
  return out;
}

/** Su's bound curve (1/nf)·Σ_j |Σ_{i<j} e^{i·r·θ_i}| for r = 0 … count − 1, as the wasm `ropeDecayBound`. */
export async function boundGpu(ctx: GpuContext, invFreq: Float64Array, count: number, ctl: Control): Promise<Float32Array> {
  const out = new Float32Array(count);
  const f = angleFactors(invFreq, 0, count);
  if (f.blocks.length / 4 > ctx.maxFloats || f.offsets.length / 4 > ctx.maxFloats) {
    throw new GpuFailure('limits', 'the bound\'s factors exceed the adapter\'s buffer limits');
  }
  const chunk = Math.min(CHUNK, ctx.maxFloats);
  const pipeline = await ctx.pipeline(BOUND_WGSL);
  let blk: GPUBuffer, off: GPUBuffer;
  await ctx.chunks(Math.ceil(count / chunk), (k, enc, keep) => {
    if (k === 0) {
      blk = keep(ctx.upload(f.blocks));
      off = keep(ctx.upload(f.offsets));
    }
    const t0 = k * chunk, n = Math.min(chunk, count - t0);
    const dst = ctx.output(n);
    ctx.dispatch(enc, pipeline, [keep(ctx.upload(Uint32Array.of(n, invFreq.length, f.B, t0), true)), blk, off, dst], Math.ceil(n / 256));
    return { out: dst, floats: n };
  }, (k, data) => out.set(data, k * chunk), ctl);
  return out;
}
