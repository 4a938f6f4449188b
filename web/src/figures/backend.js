// @ts-check
// The compute backend of figures that run long sweeps through pe.gpu: their `backend` parameter, and the badge text.
// A figure passes `backend` and ctx.signal to every pe.gpu call and returns the `backend` its results report; the
// element shows the badge from that (never from the request: a forced 'webgpu' without a device computes with wasm).
import { L } from './params.js';

/** The `backend` parameter: 'auto' lets pe.gpu decide by the crossover it measured on this machine's adapter. */
/** @type {import('./params.js').ParamSpec} */
export const backendParam = {
  type: 'enum', values: ['auto', 'webgpu', 'wasm'], default: 'auto',
  label: L('Backend (auto: WebGPU where measured faster)', '计算后端（auto：实测更快时用 WebGPU）'),
};

/** The options every pe.gpu call of a figure adds: the requested backend and the run's cancellation. */
export const gpuCall = (/** @type {{ backend: 'auto' | 'webgpu' | 'wasm' }} */ p, /** @type {{ signal?: AbortSignal }} */ ctx) => ({ backend: p.backend, signal: ctx.signal });

/** The backend of a figure computed by several pe.gpu calls: 'webgpu', 'wasm', or 'mixed'. */
/** @param {Array<{ backend: string }>} results @returns {string} */
export function backendOf(results) {
  const seen = new Set(results.map((r) => r.backend));
  return seen.size === 1 ? [...seen][0] : 'mixed';
}

export const BADGE = {
  webgpu: L('computed by WebGPU', '由 WebGPU 计算'),
  wasm: L('computed by wasm', '由 wasm 计算'),
  mixed: L('computed by WebGPU and wasm', '由 WebGPU 与 wasm 计算'),
};
