// Attention scores QKᵀ/√d on the GPU: RoPE on q and k (exact angles, see angles.ts), 64×64 output tiles from
// workgroup-shared 64×16 slices of Q and K (each thread 4×4 scores), causal mask, row softmax.
import { ANGLE_WGSL, angleFactors } from './angles.js';
import type { Control, GpuContext } from './device.js';
import { GpuFailure } from './device.js';

const ROPE_WGSL = /* wgsl */ `
struct U { seq: u32, d: u32, rot: u32, interleaved: u32, nf: u32, B: u32, pad0: u32, pad1: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> blk: array<vec2f>;
@group(0) @binding(2) var<storage, read> off: array<vec2f>;
@group(0) @binding(3) var<storage, read> q: array<f32>;
@group(0) @binding(4) var<storage, read> k: array<f32>;
@group(0) @binding(5) var<storage, read_write> rq: array<f32>;
@group(0) @binding(6) var<storage, read_write> rk: array<f32>;
${ANGLE_WGSL}
// One thread per (row, channel): rotated pair (a, b) ↦ (a·cos − b·sin, a·sin + b·cos); channels ≥ rot pass through.
@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) g: vec3u) {
  let c = g.x;
  let r = g.y;
  if (c >= u.d || r >= u.seq) { return; }
  let x = r * u.d;
  if (c >= u.rot) {
    rq[x + c] = q[x + c];
    rk[x + c] = k[x + c];
    return;
  }
  let half = u.rot / 2u;
  var i = c % half;
  var a = i;
  var b = i + half;
  if (u.interleaved == 1u) {
    i = c / 2u;
    a = 2u * i;
    b = a + 1u;
  }
  let cs = angle(r, i);
  if (c == b) {
    rq[x + c] = q[x + a] * cs.y + q[x + b] * cs.x;
    rk[x + c] = k[x + a] * cs.y + k[x + b] * cs.x;
  } else {
    rq[x + c] = q[x + a] * cs.x - q[x + b] * cs.y;
    rk[x + c] = k[x + a] * cs.x - k[x + b] * cs.y;
  }
}
`;

const SCORES_WGSL = /* wgsl */ `
struct U { seq: u32, d: u32, r0: u32, rows: u32, causal: u32, scale: f32, ninf_bits: u32, pad0: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
const T = 64u;   // tile side (scores)
const KT = 16u;  // channels per shared slice
var<workgroup> qs: array<f32, 1024>;  // [T][KT]
var<workgroup> ks: array<f32, 1024>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let i0 = u.r0 + wg.y * T;
  let j0 = wg.x * T;
  let li = l.y * 4u;
  let lj = l.x * 4u;
  let ninf = bitcast<f32>(u.ninf_bits);  // −∞ (a constant −∞ is not a valid WGSL value)
  let masked = u.causal == 1u && j0 > i0 + T - 1u;  // the whole tile is above the diagonal (uniform per workgroup)
  var acc: array<f32, 16>;
  if (!masked) {
    let tid = l.y * 16u + l.x;
    for (var c0 = 0u; c0 < u.d; c0 += KT) {
      for (var e = tid; e < T * KT; e += 256u) {
        let row = e / KT;
        let c = c0 + e % KT;
        var qv = 0.0;
        var kv = 0.0;
        if (c < u.d && i0 + row < u.seq) { qv = q[(i0 + row) * u.d + c]; }
        if (c < u.d && j0 + row < u.seq) { kv = k[(j0 + row) * u.d + c]; }
        qs[e] = qv;
        ks[e] = kv;
      }
      workgroupBarrier();
      for (var cc = 0u; cc < KT; cc++) {
        var kb: array<f32, 4>;
        for (var b = 0u; b < 4u; b++) { kb[b] = ks[(lj + b) * KT + cc]; }
        for (var a = 0u; a < 4u; a++) {
          let qa = qs[(li + a) * KT + cc];
          for (var b = 0u; b < 4u; b++) { acc[a * 4u + b] += qa * kb[b]; }
        }
      }
      workgroupBarrier();
    }
  }
  for (var a = 0u; a < 4u; a++) {
    let i = i0 + li + a;
    if (i >= u.r0 + u.rows) { continue; }
    for (var b = 0u; b < 4u; b++) {
      let j = j0 + lj + b;
      if (j >= u.seq) { continue; }
      var v = acc[a * 4u + b] * u.scale;
      if (u.causal == 1u && j > i) { v = ninf; }
      out[(i - u.r0) * u.seq + j] = v;
    }
  }
}
`;

const SOFTMAX_WGSL = /* wgsl */ `
struct U { seq: u32, r0: u32, causal: u32, pad0: u32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> s: array<f32>;
var<workgroup> red: array<f32, 256>;
// One workgroup per row: max, exp and sum, scale; masked entries (j > i when causal) become exactly 0.
@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) l: vec3u) {
  let row = wg.x;
  let x = row * u.seq;
  var n = u.seq;
  if (u.causal == 1u) { n = min(u.r0 + row + 1u, u.seq); }
  var m = s[x];  // n ≥ 1: column 0 is never masked
  for (var j = l.x; j < n; j += 256u) { m = max(m, s[x + j]); }
  red[l.x] = m;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (l.x < w) { red[l.x] = max(red[l.x], red[l.x + w]); }
    workgroupBarrier();
  }
  m = red[0];
  workgroupBarrier();
  var sum = 0.0;
  for (var j = l.x; j < n; j += 256u) {
    let e = exp(s[x + j] - m);
    s[x + j] = e;
    sum += e;
  }
  red[l.x] = sum;
  workgroupBarrier();
  for (var w = 128u; w > 0u; w >>= 1u) {
    if (l.x < w) { red[l.x] += red[l.x + w]; }
    workgroupBarrier();
  }
  let inv = 1.0 / red[0];
  for (var j = l.x; j < n; j += 256u) { s[x + j] *= inv; }
  for (var j = n + l.x; j < u.seq; j += 256u) { s[x + j] = 0.0; }
}
`;

/** Resolved inputs of attentionScores (the wasm method's options after validation and defaults). */
export interface ScoresInputs {
  q: Float32Array;
  k: Float32Array;
  seq: number;
  head_dim: number;
  /** RoPE frequencies (rotary_dim/2 of them), or null for no position encoding. */
  rope: { inv_freq: Float64Array; rotary_dim: number; interleaved: boolean } | null;
  causal: boolean;
  softmax: boolean;
}

/** [seq, seq] scores (or probabilities) into `out`, computed in row chunks of at most 1024 rows. */
export async function scoresGpu(ctx: GpuContext, o: ScoresInputs, ctl: Control, out: Float32Array = new Float32Array(o.seq * o.seq)): Promise<Float32Array> {
  const { seq, head_dim: d } = o;
  let rowsPerChunk = Math.min(1024, Math.floor(ctx.maxFloats / seq));
  rowsPerChunk -= rowsPerChunk % 64;
  if (rowsPerChunk < 64 || seq * d > ctx.maxFloats) throw new GpuFailure('limits', 'the score rows exceed the adapter\'s buffer limits');
  const f = o.rope && angleFactors(o.rope.inv_freq, 0, seq);
  const [scores, softmax, rope] = await Promise.all([ctx.pipeline(SCORES_WGSL), ctx.pipeline(SOFTMAX_WGSL), ctx.pipeline(ROPE_WGSL)]);
  const scale = 1 / Math.sqrt(d);
  let q: GPUBuffer, k: GPUBuffer;
  await ctx.chunks(Math.ceil(seq / rowsPerChunk), (c, enc, keep) => {
    if (c === 0) {
      q = keep(ctx.upload(o.q));
      k = keep(ctx.upload(o.k));
      if (o.rope && f) {
        const rq = keep(ctx.output(seq * d)), rk = keep(ctx.output(seq * d));
        const u = keep(ctx.upload(new Uint32Array([seq, d, o.rope.rotary_dim, o.rope.interleaved ? 1 : 0, o.rope.rotary_dim / 2, f.B, 0, 0]), true));
        ctx.dispatch(enc, rope, [u, keep(ctx.upload(f.blocks)), keep(ctx.upload(f.offsets)), q, k, rq, rk], Math.ceil(d / 64), Math.ceil(seq / 4));
        q = rq;
        k = rk;
      }
    }
    const r0 = c * rowsPerChunk, rows = Math.min(rowsPerChunk, seq - r0);
    const dst = ctx.output(rows * seq);
    const u = new Uint32Array([seq, d, r0, rows, o.causal ? 1 : 0, 0, 0xff800000, 0]);
    new Float32Array(u.buffer, 20, 1)[0] = scale;
    ctx.dispatch(enc, scores, [keep(ctx.upload(u, true)), q, k, dst], Math.ceil(seq / 64), Math.ceil(rows / 64));
    if (o.softmax) ctx.dispatch(enc, softmax, [keep(ctx.upload(new Uint32Array([seq, r0, o.causal ? 1 : 0, 0]), true)), dst], rows);
    return { out: dst, floats: rows * seq };
  }, (c, data) => out.set(data, c * rowsPerChunk * seq), ctl);
  return out;
}
