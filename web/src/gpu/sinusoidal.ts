// The sinusoidal table on the GPU: the angle-table kernel of rope.ts with the paper's or tensor2tensor's channel order.
import type { Control, GpuContext } from './device.js';
import { TableLayout, angleTable } from './rope.js';

/** [n, d] sinusoidal table of positions 0 … n − 1: sin/cos(p·base^(−2i/d)), i < ⌈d/2⌉, as the wasm `sinusoidal`. */
export async function sinusoidalGpu(ctx: GpuContext, n: number, d: number, base: number, concatenated: boolean, ctl: Control,
  out = new Float32Array(n * d)): Promise<Float32Array> {
  const omega = Float64Array.from({ length: Math.ceil(d / 2) }, (_, i) => Math.pow(base, (-2 * i) / d));
  const layout = concatenated ? TableLayout.SinConcatenated : TableLayout.SinInterleaved;
  await angleTable(ctx, omega, 1, n, layout, d, (p0, _rows, data) => out.set(data, p0 * d), ctl);
  return out;
}
