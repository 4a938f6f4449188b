// The WebGPU device of the GPU backend: acquisition, cached pipelines, uploads, and the chunked
// compute → read-back loop every kernel uses (cancellation, progress, error scopes, device loss).
// Any failure here is a GpuFailure (or a WebGPU exception): the caller then computes with wasm.

import type { Control, WebGpuEntry } from './types.js';

export type { Control };

// WebGPU's usage flags, by value (the spec fixes them; Node's `webgpu` package has no globals unless installed).
export const MAP_READ = 0x1, COPY_SRC = 0x4, COPY_DST = 0x8, UNIFORM = 0x40, STORAGE = 0x80;

/** A reason to give the work to the wasm path. `kind` keys the one-time notice. */
export class GpuFailure extends Error {
  constructor(readonly kind: 'lost' | 'out-of-memory' | 'limits' | 'unavailable' | 'error', message: string) {
    super(message);
    this.name = 'GpuFailure';
  }
}

/** One chunk's commands: the encoder gets its dispatches; `out` holds `floats` results to read back. */
export interface Chunk {
  out: GPUBuffer;
  floats: number;
}

export class GpuContext {
  /** Why the device was lost (null while it works). */
  lost: string | null = null;
  private readonly pipelines = new Map<string, Promise<GPUComputePipeline>>();

  constructor(readonly device: GPUDevice, readonly adapterName: string) {
    device.lost.then((info) => { this.lost = info.message || String(info.reason); });
  }

  /** Largest storage buffer (in floats) one binding may hold. */
  get maxFloats(): number {
    const l = this.device.limits;
    return Math.floor(Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize) / 4);
  }

  /** The compiled kernel of `code` (cached); a compile error rejects (no console output), making the call fall back. */
  pipeline(code: string): Promise<GPUComputePipeline> {
    let p = this.pipelines.get(code);
    if (!p) {
      p = this.device.createComputePipelineAsync({ layout: 'auto', compute: { module: this.device.createShaderModule({ code }), entryPoint: 'main' } });
      p.catch(() => this.pipelines.delete(code));
      this.pipelines.set(code, p);
    }
    return p;
  }

  /** A buffer holding `data` (uploaded at creation), usable as storage (or uniform when `uniform`). */
  upload(data: Float32Array | Uint32Array | ArrayBuffer, uniform = false): GPUBuffer {
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const size = Math.max(16, Math.ceil(bytes.byteLength / 16) * 16);
    const b = this.device.createBuffer({ size, usage: (uniform ? UNIFORM : STORAGE) | COPY_DST, mappedAtCreation: true });
    new Uint8Array(b.getMappedRange()).set(bytes);
    b.unmap();
    return b;
  }

  output(floats: number): GPUBuffer {
    return this.device.createBuffer({ size: Math.max(16, floats * 4), usage: STORAGE | COPY_SRC });
  }

  /** A bind group of `pipeline` with buffers at bindings 0, 1, 2, … */
  bind(pipeline: GPUComputePipeline, buffers: GPUBuffer[]): GPUBindGroup {
    return this.device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })) });
  }

  dispatch(enc: GPUCommandEncoder, pipeline: GPUComputePipeline, buffers: GPUBuffer[], x: number, y = 1): void {
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, this.bind(pipeline, buffers));
    pass.dispatchWorkgroups(x, y);
    pass.end();
  }

  /**
   * Runs `n` chunks: `encode(k, encoder, keep)` records chunk k's dispatches and returns its output; the results
   * are read back (two chunks in flight) and handed to `sink(k, floats)` in order. Each chunk's output is destroyed
   * once read; buffers passed to `keep` at the end. Cancellation and device loss are checked between chunks; WebGPU validation and
   * out-of-memory errors of each chunk are caught by error scopes pushed and popped in the same synchronous block.
   */
  async chunks(n: number, encode: (k: number, enc: GPUCommandEncoder, keep: (b: GPUBuffer) => GPUBuffer) => Chunk,
    sink: (k: number, data: Float32Array) => void, ctl: Control): Promise<void> {
    const dev = this.device, owned: GPUBuffer[] = [];
    const keep = (b: GPUBuffer) => (owned.push(b), b);
    const inflight: Promise<void>[] = [];
    try {
      for (let k = 0; k < n; k++) {
        ctl.signal?.throwIfAborted();
        if (this.lost !== null) throw new GpuFailure('lost', `WebGPU device lost (${this.lost})`);
        dev.pushErrorScope('out-of-memory');
        dev.pushErrorScope('validation');
        const enc = dev.createCommandEncoder();
        const chunk = encode(k, enc, keep);
        keep(chunk.out);
        const staging = keep(dev.createBuffer({ size: Math.max(16, chunk.floats * 4), usage: MAP_READ | COPY_DST }));
        enc.copyBufferToBuffer(chunk.out, 0, staging, 0, chunk.floats * 4);
        dev.queue.submit([enc.finish()]);
        const validation = dev.popErrorScope(), oom = dev.popErrorScope();
        const done = (async () => {
          const [v, o] = await Promise.all([validation, oom]);
          if (o) throw new GpuFailure('out-of-memory', `WebGPU out of memory (${o.message})`);
          if (v) throw new GpuFailure('error', `WebGPU validation error (${v.message})`);
          try {
            await staging.mapAsync(1);
          } catch (e) {
            throw new GpuFailure(this.lost !== null ? 'lost' : 'error', `WebGPU read-back failed (${this.lost ?? String(e)})`);
          }
          sink(k, new Float32Array(staging.getMappedRange(), 0, chunk.floats));
          staging.unmap();
          staging.destroy();
          chunk.out.destroy();  // destroying twice (again in `finally`) is allowed
        })();
        done.catch(() => {});  // awaited below; this only keeps an early failure from being reported as unhandled
        inflight.push(done);
        if (inflight.length >= 2) {
          await inflight.shift();
          ctl.progress?.((k + 1 - inflight.length) / n);
        }
      }
      while (inflight.length) {
        await inflight.shift();
        ctl.progress?.(1 - inflight.length / n);
      }
    } finally {
      await Promise.allSettled(inflight);
      for (const b of owned) b.destroy();
    }
  }
}

/** Asks `gpu` (navigator.gpu or Node's `webgpu` package) for an adapter and a device with the adapter's buffer limits. */
export async function openDevice(gpu: WebGpuEntry): Promise<GpuContext | null> {
  const adapter = await (gpu as GPU).requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return null;
  const l = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxBufferSize: l.maxBufferSize,
      maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    },
  });
  const info = adapter.info;
  const name = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unknown adapter';
  return new GpuContext(device, name);
}
