// Exact angles for the GPU kernels without GPU trigonometry.
//
// WGSL's cos/sin are far too coarse for posenc's accuracy contract (~1e-4 off even on [−π, π] on some adapters), and
// a float32 angle r·θ is ~5e-4 rad off at r = 8191. So the GPU never forms an angle: every kernel needs
// z_i·e^{i·r·θ_i} for integers r = start + t, t = b·B + s (0 ≤ s < B, B a power of two), which is the product of two
// factors prepared here in float64 and rounded once to float32:
//   blocks[b][i]  = z_i · e^{i(start + b·B)θ_i}      (block starts)
//   offsets[i][s] = e^{i·s·θ_i}                        (offsets inside a block)
// The kernel multiplies them in float32 (one complex product): each entry is within ~4·2^-24·|z_i| of the float64 value
// at any distance — no growth with r, unlike a recurrence on the GPU. On the CPU the factors cost O((count/B + B)·n)
// complex products (B ≈ √count), with trigonometry only for e^{i·start·θ}, e^{iθ} and e^{iBθ}; the float64 recurrences
// over ≤ 2^11 steps add < 1e-12.

/** Angle-addition factors (interleaved re, im float32 pairs). */
export interface Factors {
  /** Block length B (a power of two). */
  B: number;
  /** Block starts [nb][nf]. */
  blocks: Float32Array;
  /** Offsets [nf][B]: consecutive s are adjacent, so neighbouring GPU threads read neighbouring memory. */
  offsets: Float32Array;
}

/**
 * Factors of z_i·e^{i·(start + t)·θ_i}, t = 0 … count − 1, θ = invFreq. `zRe`/`zIm` give z_i (default 1); `start` is an
 * integer (|start| ≤ 2^32), its angle start·θ_i rounded once in float64 as the wasm path rounds its block starts.
 */
export function angleFactors(invFreq: Float64Array, start: number, count: number, zRe?: Float64Array, zIm?: Float64Array): Factors {
  const nf = invFreq.length;
  let B = 256;
  while (B < 2048 && B * B < count) B *= 2;
  const nb = Math.max(1, Math.ceil(count / B));
  const blocks = new Float32Array(2 * nb * nf), offsets = new Float32Array(2 * nf * B);
  for (let i = 0; i < nf; i++) {
    const th = invFreq[i];
    const wr = Math.cos(th), wi = Math.sin(th);
    let cr = 1, ci = 0;
    for (let s = 0; s < B; s++) {
      offsets[2 * (i * B + s)] = cr;
      offsets[2 * (i * B + s) + 1] = ci;
      if ((s + 1) % 64 === 0) {  // re-anchor every 64 steps: exact (s+1)·θ, since s+1 ≤ 2^11 and θ is a float64
        cr = Math.cos((s + 1) * th);
        ci = Math.sin((s + 1) * th);
      } else {
        const t = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = t;
      }
    }
    const Wr = Math.cos(B * th), Wi = Math.sin(B * th);  // B·θ is exact (B a power of two)
    const a0 = start * th, zr = zRe ? zRe[i] : 1, zi = zIm ? zIm[i] : 0;
    let br = zr * Math.cos(a0) - zi * Math.sin(a0), bi = zr * Math.sin(a0) + zi * Math.cos(a0);
    for (let b = 0; b < nb; b++) {
      blocks[2 * (b * nf + i)] = br;
      blocks[2 * (b * nf + i) + 1] = bi;
      const t = br * Wr - bi * Wi;
      bi = br * Wi + bi * Wr;
      br = t;
    }
  }
  return { B, blocks, offsets };
}

/**
 * WGSL: `angle(t, i)` = blocks[t / B][i] · offsets[i][t % B] as (re, im). The including shader declares
 * `blk`, `off` (array<vec2f>) and a uniform `u` with fields `nf` and `B`.
 */
export const ANGLE_WGSL = /* wgsl */ `
fn angle(t: u32, i: u32) -> vec2f {
  let z = blk[(t / u.B) * u.nf + i];
  let o = off[i * u.B + t % u.B];
  return vec2f(z.x * o.x - z.y * o.y, z.x * o.y + z.y * o.x);
}
`;
