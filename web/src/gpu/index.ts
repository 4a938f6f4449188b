// The WebGPU backend: asynchronous twins of the large wasm computations, with the wasm path as fallback.
import type { AttentionApi, AttentionOptions, AttentionRope } from '../attention.js';
import type { DecayApi } from '../decay.js';
import type { RopeApi, RopeLayout, RopeTableOptions } from '../rope.js';
import type { RopeScalingApi } from '../rope_scaling.js';
import type { SinusoidalApi, SinusoidalOptions } from '../sinusoidal.js';
import { PosencError, show } from '../validate.js';
import { seededVector } from '../decay.js';
import { scoresGpu } from './attention.js';
import { boundGpu, sweepGpu } from './decay.js';
import type { Control, WebGpuEntry } from './types.js';
import { GpuContext, GpuFailure, openDevice } from './device.js';
import { ropeTablesGpu } from './rope.js';
import { sinusoidalGpu } from './sinusoidal.js';

/**
 * The wasm methods the GPU twins fall back to and validate with: a {@link Posenc} has them all (typed by the API
 * families, so this module does not import the Posenc class that holds it).
 */
type GpuWasm = Pick<RopeApi & RopeScalingApi & SinusoidalApi & AttentionApi & DecayApi,
  'ropeInnerProductSweep' | 'ropeDecayBound' | 'ropeInvFreq' | 'ropeTables' | 'ropeTablesScaled' | 'sinusoidal' | 'attentionScores'>;

export type { Control, WebGpuEntry };

/**
 * Where the GPU functions compute: `'auto'` — on the GPU when one is available and the call is at least as large as the
 * crossover measured on this adapter (see {@link PosencGpu.calibration}), else wasm; `'require'` — always on the GPU
 * (initialisation fails without an adapter); `'off'` — always wasm.
 */
export type GpuMode = 'auto' | 'off' | 'require';

/** A result of the GPU twins: the same `values` as the wasm method, and which backend computed them. */
export interface GpuResult<T> {
  values: T;
  backend: 'webgpu' | 'wasm';
  /**
   * Why a call meant for the GPU was computed with wasm (device lost, out of memory, over the adapter's limits, a
   * WebGPU error). Each kind of event is reported once, on the first result after it.
   */
  notice?: string;
}

/** Options of {@link createGpu}. */
export interface GpuInitOptions {
  /** Default `'auto'`. */
  gpu?: GpuMode;
  /**
   * The WebGPU entry point (`navigator.gpu` in browsers, the default; in Node e.g. `create([])` of the npm package
   * `webgpu`). Without one, every call computes with wasm.
   */
  webgpu?: WebGpuEntry | null;
}

/** The workloads the auto policy measures separately. */
export type GpuWorkload = 'sweep' | 'bound' | 'tables' | 'sinusoidal' | 'scores';

/**
 * Per-call options of every GPU function: cancellation, progress, and `backend` — this call's backend:
 * `'auto'` (default: the policy of `init({ gpu })`), `'webgpu'` (the GPU whatever the size, as `gpu: 'require'`; without
 * a device the call computes with wasm and says so once in `notice`) or `'wasm'` (never the GPU). The result's
 * `backend` says which one computed.
 */
export interface GpuCall extends Control {
  backend?: 'auto' | 'webgpu' | 'wasm';
}

/**
 * The auto policy's measurement for one workload: times of the GPU at two probe sizes and of wasm at the larger, in
 * multiply-adds ("work": sweep and bound count·rotary_dim/2, tables positions·rotary_dim/2, sinusoidal positions·⌈d/2⌉,
 * scores seq²·head_dim); the GPU runs a call of at least `crossover` work (Infinity: never faster here).
 */
export interface Calibration {
  gpu_ms: [number, number];
  wasm_ms: number;
  work: [number, number];
  crossover: number;
}

type SweepVector = ArrayLike<number> | 'ones' | 'random';
/** Options of {@link PosencGpu.ropeInnerProductSweep}: those of the wasm method, plus {@link GpuCall}'s. */
export interface SweepOptions extends GpuCall {
  q: SweepVector; k: SweepVector; seed?: number; head_dim: number; rotary_dim?: number; layout?: RopeLayout;
  rope_theta?: number; inv_freq?: Float64Array; q_position?: number; k_start?: number; count: number;
}

const MAX_COUNT = 2 ** 20, MAX_FLOATS = 2 ** 26;
/** Distances per step of the wasm fallback of a sweep (a multiple of the wasm kernel's 128-distance blocks: the values
 * equal one whole call's); progress is reported and cancellation checked between steps. */
const WASM_STEP = 2 ** 15;
const isCount = (n: unknown, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max;

/**
 * Asynchronous GPU twins of posenc's large computations. Each takes the wasm method's options (validated by the same
 * checks, with the same errors), plus `signal` (AbortSignal) and `progress` (fraction done, after each chunk), and
 * resolves to `{ values, backend }` with `values` in the wasm method's layout.
 *
 * Accuracy (no GPU trigonometry is used: angles come from float64 angle-addition factors, see each method):
 * tables within 1e-6 absolute of float64 (the wasm path: 2 float32 ulp); sweeps within 2.5e-7·(Σ_i|h_i| + |value|), in
 * practice far less (q = k = ones, head_dim 256: 3.9e-6 at 2^20 distances; the wasm path: 1e-5·Σ_i|h_i|); scores as
 * float32 dot products.
 */
export class PosencGpu {
  private ctx: Promise<GpuContext | null>;
  private readonly noticed = new Set<string>();
  private readonly calibrations = new Map<GpuWorkload, Promise<Calibration>>();

  /** @internal */
  constructor(private readonly pe: GpuWasm, readonly mode: GpuMode, private readonly webgpu: WebGpuEntry | null, first: GpuContext | null) {
    this.ctx = Promise.resolve(first);
    this.available = first !== null;
    this.adapter = first?.adapterName ?? null;
  }

  /** True when a WebGPU device was obtained (mode not `'off'`). */
  available: boolean;
  /** The adapter's vendor/architecture/description, e.g. `'google swiftshader'`, or null. */
  adapter: string | null;

  /** The auto policy's measurement for a workload (made once: on its first `'auto'` call, or by this call); null without a device. */
  async calibration(workload: GpuWorkload): Promise<Calibration | null> {
    return this.available ? this.calibrate(workload) : null;
  }

  /**
   * {@link Posenc.ropeInnerProductSweep} on the GPU, result `[count]`. Accuracy: per frequency the factors
   * conj(h_i)·e^{i(start + b·B)θ_i} and e^{i·s·θ_i} are float64 rounded once to float32 and multiplied in float32, the
   * frequencies summed with Kahan summation: |error| ≤ 2.5e-7·(Σ_i|h_i| + |value|) at any distance ≤ 2^31, Σ_i|h_i|
   * counting the pair products and the unrotated channels' dot product (4 float32 roundings per term, 3 for the sum).
   * Measured against float64 at 2^20 distances: 3.9e-6 for q = k = ones, head_dim 256 (Σ|h_i| = 256).
   */
  async ropeInnerProductSweep(options: SweepOptions): Promise<GpuResult<Float32Array>> {
    const { signal, progress, backend, ...o } = options;
    // wasm in steps of WASM_STEP distances: cancellable and with progress like the GPU path, values as one call's
    const wasm = async (ctl: Control) => {
      if (!isCount(o.count, MAX_COUNT) || (o.k_start !== undefined && typeof o.k_start !== 'number')) return this.pe.ropeInnerProductSweep(o);  // its error (or count 0)
      const out = new Float32Array(o.count), k0 = o.k_start ?? 0;
      for (let t = 0; t < o.count; t += WASM_STEP) {
        const n = Math.min(WASM_STEP, o.count - t);
        this.pe.ropeInnerProductSweep({ ...o, k_start: k0 + t, count: n, out: out.subarray(t, t + n) });
        if (t + n < o.count) {
          ctl.progress?.((t + n) / o.count);
          await new Promise((r) => setTimeout(r, 0));  // lets a cancellation (a message, a timer) in
          ctl.signal?.throwIfAborted();
        }
      }
      return out;
    };
    const kEnd = (o.k_start ?? 0) + o.count;
    if (!isCount(o.count, MAX_COUNT) || typeof kEnd !== 'number' || Math.abs(kEnd) > 2 ** 31 - 1) return this.wasm(wasm, { signal, progress, backend });
    this.pe.ropeInnerProductSweep({ ...o, count: 0, out: undefined });  // the wasm method's validation, on a zero-length twin
    const d = o.head_dim, rot = o.rotary_dim ?? d, seed = o.seed ?? 0;
    const vec = (v: SweepVector, tag: number) => v === 'ones' ? new Float32Array(d).fill(1) : v === 'random' ? seededVector(seed, tag, d) : Float32Array.from(v);
    const inputs = {
      q: vec(o.q, 0x51), k: vec(o.k, 0x4b), head_dim: d, rotary_dim: rot, interleaved: (o.layout ?? 'half_split') === 'interleaved',
      inv_freq: o.inv_freq !== undefined ? Float64Array.from(o.inv_freq) : this.pe.ropeInvFreq({ rotary_dim: rot, rope_theta: o.rope_theta }),
      q_position: o.q_position ?? 0, k_start: o.k_start ?? 0, count: o.count,
    };
    return this.run('sweep', o.count * (rot / 2), (ctx, ctl) => sweepGpu(ctx, inputs, ctl), wasm, { signal, progress, backend });
  }

  /**
   * {@link Posenc.ropeDecayBound} on the GPU: Su's bound curve (1/(d/2))·Σ_j |S_j(r)|, S_j(r) = Σ_{i<j} e^{i·r·θ_i}, for
   * r = 0 … count − 1, result `[count]`. Accuracy: the wasm method's, within 1e-5·(d/2) of float64 (each e^{i·r·θ_i}
   * within 3e-7 as in the sweep, the partial sums and the Kahan-summed |S_j| in float32).
   */
  async ropeDecayBound(options: { rotary_dim?: number; rope_theta?: number; inv_freq?: ArrayLike<number>; count: number } & GpuCall):
    Promise<GpuResult<Float32Array>> {
    const { signal, progress, backend, ...o } = options;
    const wasm = () => this.pe.ropeDecayBound(o);
    if (!isCount(o.count, MAX_COUNT)) return this.wasm(wasm, { signal, progress, backend });
    this.pe.ropeDecayBound({ ...o, count: 0 });  // validation twin
    const inv = o.inv_freq !== undefined ? Float64Array.from(o.inv_freq) : this.pe.ropeInvFreq({ rotary_dim: o.rotary_dim as number, rope_theta: o.rope_theta });
    return this.run('bound', o.count * inv.length, (ctx, ctl) => boundGpu(ctx, inv, o.count, ctl), wasm, { signal, progress, backend });
  }

  /**
   * {@link Posenc.ropeTables} on the GPU for a count of positions (explicit position ids compute with wasm).
   * Accuracy: within 1e-6 absolute of float64 (factors rounded once, one float32 complex product).
   */
  async ropeTables(options: RopeTableOptions & GpuCall): Promise<GpuResult<{ cos: Float32Array; sin: Float32Array }>> {
    const { signal, progress, backend, ...o } = options;
    const wasm = () => this.pe.ropeTables(o);
    if (!isCount(o.positions, MAX_COUNT) || !isCount(o.positions * o.rotary_dim / 2, MAX_FLOATS)) return this.wasm(wasm, { signal, progress, backend });
    this.pe.ropeTables({ ...o, positions: 0, out: undefined });  // validation twin
    const inv = this.pe.ropeInvFreq({ rotary_dim: o.rotary_dim, rope_theta: o.rope_theta });
    const n = o.positions;
    return this.run('tables', n * inv.length, (ctx, ctl) => ropeTablesGpu(ctx, inv, 1, n, ctl), wasm, { signal, progress, backend });
  }

  /**
   * {@link Posenc.ropeTablesScaled} on the GPU for a count of positions (explicit ids compute with wasm).
   * Accuracy: within 1e-6·max(1, attention_scaling) absolute of float64.
   */
  async ropeTablesScaled(options: { inv_freq: ArrayLike<number>; attention_scaling?: number; positions: number | ArrayLike<number> } & GpuCall):
    Promise<GpuResult<{ cos: Float32Array; sin: Float32Array }>> {
    const { signal, progress, backend, ...o } = options;
    const wasm = () => this.pe.ropeTablesScaled(o);
    const nf = (o.inv_freq as ArrayLike<number> | undefined)?.length ?? 0;
    if (!isCount(o.positions, MAX_COUNT) || !isCount(o.positions * nf, MAX_FLOATS)) return this.wasm(wasm, { signal, progress, backend });
    this.pe.ropeTablesScaled({ ...o, positions: 0 });  // validation twin
    const inv = Float64Array.from(o.inv_freq), n = o.positions;
    return this.run('tables', n * nf, (ctx, ctl) => ropeTablesGpu(ctx, inv, o.attention_scaling ?? 1, n, ctl), wasm, { signal, progress, backend });
  }

  /**
   * {@link Posenc.sinusoidal} on the GPU for a count of positions (explicit ids compute with wasm), `[positions, d]`.
   * Accuracy: within 1e-6 absolute of float64.
   */
  async sinusoidal(options: SinusoidalOptions & GpuCall): Promise<GpuResult<Float32Array>> {
    const { signal, progress, backend, ...o } = options;
    const wasm = () => this.pe.sinusoidal(o);
    if (!isCount(o.positions, MAX_COUNT) || !isCount(o.positions * o.d, MAX_FLOATS)) return this.wasm(wasm, { signal, progress, backend });
    this.pe.sinusoidal({ ...o, positions: 0, out: undefined });  // validation twin
    const n = o.positions, d = o.d, base = o.base ?? 10000, concatenated = o.layout === 'concatenated';
    return this.run('sinusoidal', n * Math.ceil(d / 2), (ctx, ctl) => sinusoidalGpu(ctx, n, d, base, concatenated, ctl), wasm, { signal, progress, backend });
  }

  /**
   * {@link Posenc.attentionScores} on the GPU, `[seq, seq]` (into `out` when given). Accuracy: float32 dot products
   * (|error| ≤ head_dim·2^-24·Σ_c|q_c·k_c|, other summation order than wasm), RoPE angles within 1e-6; softmax rows sum
   * to 1 within 1e-6, masked entries exactly 0.
   */
  async attentionScores(options: AttentionOptions & GpuCall): Promise<GpuResult<Float32Array>> {
    const { signal, progress, backend, ...o } = options;
    const wasm = () => this.pe.attentionScores(o);
    const seq = o.seq, d = o.head_dim;
    // one head of plain arrays with RoPE settings (not wasm buffers, batches or a scaled `rope`): else wasm does it
    const plain = (v: unknown): v is ArrayLike<number> => Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
    const fits = isCount(seq, 8192) && isCount(d, 8192) && plain(o.q) && plain(o.k) && o.q.length === seq * d && o.k.length === seq * d &&
      (o.heads ?? 1) === 1 && (o.batch ?? 1) === 1 && !(o.rope != null && typeof o.rope === 'object' && 'inv_freq' in o.rope) &&
      (o.out === undefined || (o.out instanceof Float32Array && o.out.length === seq * seq));
    if (!fits || !plain(o.q) || !plain(o.k)) return this.wasm(wasm, { signal, progress, backend });
    // the wasm method's validation, on a one-row twin
    this.pe.attentionScores({ ...o, seq: 1, q: Array.prototype.slice.call(o.q, 0, d), k: Array.prototype.slice.call(o.k, 0, d), out: undefined });
    const rope = o.rope == null || (o.rope as unknown) === false ? null : o.rope as AttentionRope;
    const rot = rope?.rotary_dim || d;
    const inputs = {
      q: Float32Array.from(o.q), k: Float32Array.from(o.k), seq, head_dim: d, causal: Boolean(o.causal), softmax: o.softmax !== false,
      rope: rope && { inv_freq: this.pe.ropeInvFreq({ rotary_dim: rot, rope_theta: rope.rope_theta }), rotary_dim: rot,
        interleaved: rope.layout === 'interleaved' },
    };
    return this.run('scores', seq * seq * d, (ctx, ctl) => scoresGpu(ctx, inputs, ctl, o.out as Float32Array | undefined), wasm, { signal, progress, backend });
  }

  // ------------------------------------------------------------------------------------------------------ policy

  private async run<T>(workload: GpuWorkload, work: number, gpu: (ctx: GpuContext, ctl: Control) => Promise<T>,
    wasm: (ctl: Control) => T | Promise<T>, ctl: GpuCall): Promise<GpuResult<T>> {
    const backend = backendOf(ctl);
    ctl.signal?.throwIfAborted();
    const mode = backend === 'webgpu' ? 'require' : backend === 'wasm' ? 'off' : this.mode;
    let notice: string | undefined;
    const ctx = mode === 'off' ? null : await this.device();
    if (ctx && (mode === 'require' || work >= (await this.calibrate(workload)).crossover)) {
      try {
        return { values: await gpu(ctx, ctl), backend: 'webgpu' };
      } catch (e) {
        if (ctl.signal?.aborted || e instanceof PosencError) throw e;
        notice = this.notice(e);
      }
    } else if (!ctx && mode === 'require') {
      notice = this.notice(new GpuFailure('unavailable', 'WebGPU was asked for, but no adapter/device is available'));
    }
    const r = await this.wasm(wasm, ctl);
    return notice ? { ...r, notice } : r;
  }

  private async wasm<T>(wasm: (ctl: Control) => T | Promise<T>, ctl: GpuCall): Promise<GpuResult<T>> {
    backendOf(ctl);
    ctl.signal?.throwIfAborted();
    const values = await wasm(ctl);
    ctl.progress?.(1);
    return { values, backend: 'wasm' };
  }

  /** The device, re-acquired once per call after a loss (a destroyed or reset device). */
  private async device(): Promise<GpuContext | null> {
    let ctx = await this.ctx;
    if (ctx?.lost != null && this.webgpu) {
      this.ctx = openDevice(this.webgpu).catch(() => null);
      ctx = await this.ctx;
      this.available = ctx !== null;
    }
    return ctx;
  }

  private notice(e: unknown): string | undefined {
    const kind = e instanceof GpuFailure ? e.kind : 'error';
    const text = `${e instanceof GpuFailure ? e.message : `WebGPU error (${String(e)})`}; computed with wasm instead`;
    if (this.noticed.has(kind)) return undefined;
    this.noticed.add(kind);
    return text;
  }

  /** Measures the crossover of one workload on this adapter (once): GPU at two sizes, wasm at the larger. */
  private calibrate(workload: GpuWorkload): Promise<Calibration> {
    let c = this.calibrations.get(workload);
    if (!c) {
      c = this.measure(workload);
      this.calibrations.set(workload, c);
    }
    return c;
  }

  private async measure(workload: GpuWorkload): Promise<Calibration> {
    const ctx = await this.device();
    const probes = PROBES[workload];
    const time = async (f: () => unknown) => {
      let best = Infinity;
      for (let r = 0; r < 2; r++) {
        const t = performance.now();
        await f();
        best = Math.min(best, performance.now() - t);
      }
      return best;
    };
    const none = { work: [0, 0] as [number, number], gpu_ms: [Infinity, Infinity] as [number, number], wasm_ms: 0, crossover: Infinity };
    if (!ctx) return none;
    try {
      await probes.gpu(ctx, 0);  // compiles the pipelines
      const g0 = await time(() => probes.gpu(ctx, 0)), g1 = await time(() => probes.gpu(ctx, 1));
      const w1 = await time(() => probes.wasm(this.pe, 1));
      const [n0, n1] = probes.work;
      const perGpu = Math.max(0, (g1 - g0) / (n1 - n0)), fixed = Math.max(0, g0 - perGpu * n0), perWasm = w1 / n1;
      const crossover = perGpu < perWasm ? Math.ceil(fixed / (perWasm - perGpu)) : Infinity;
      return { work: probes.work, gpu_ms: [g0, g1], wasm_ms: w1, crossover };
    } catch {
      return none;
    }
  }
}

function backendOf(ctl: GpuCall): 'auto' | 'webgpu' | 'wasm' {
  const b = ctl.backend ?? 'auto';
  if (b !== 'auto' && b !== 'webgpu' && b !== 'wasm') throw new PosencError(`backend: must be one of 'auto', 'webgpu', 'wasm' (got ${show(b)})`);
  return b;
}

const probeVec = (n: number) => seededVector(7, 0x51, n);
/** Probe calls per workload: two sizes (work in multiply-adds), fixed random inputs. */
const PROBES: Record<GpuWorkload, { work: [number, number]; gpu: (ctx: GpuContext, size: 0 | 1) => Promise<unknown>; wasm: (pe: GpuWasm, size: 1) => unknown }> = {
  sweep: {
    work: [2 ** 14 * 64, 2 ** 16 * 64],
    gpu: (ctx, s) => sweepGpu(ctx, { q: probeVec(128), k: probeVec(128), head_dim: 128, rotary_dim: 128, interleaved: false,
      inv_freq: Float64Array.from({ length: 64 }, (_, i) => 10000 ** (-i / 64)), q_position: 0, k_start: 0, count: s ? 2 ** 16 : 2 ** 14 }, {}),
    wasm: (pe) => pe.ropeInnerProductSweep({ q: 'random', k: 'random', head_dim: 128, layout: 'half_split', count: 2 ** 16 }),
  },
  bound: {
    work: [2 ** 14 * 64, 2 ** 16 * 64],
    gpu: (ctx, s) => boundGpu(ctx, Float64Array.from({ length: 64 }, (_, i) => 10000 ** (-i / 64)), s ? 2 ** 16 : 2 ** 14, {}),
    wasm: (pe) => pe.ropeDecayBound({ rotary_dim: 128, count: 2 ** 16 }),
  },
  tables: {
    work: [2 ** 12 * 64, 2 ** 14 * 64],
    gpu: (ctx, s) => ropeTablesGpu(ctx, Float64Array.from({ length: 64 }, (_, i) => 10000 ** (-i / 64)), 1, s ? 2 ** 14 : 2 ** 12, {}),
    wasm: (pe) => pe.ropeTables({ rotary_dim: 128, positions: 2 ** 14 }),
  },
  sinusoidal: {
    work: [2 ** 12 * 64, 2 ** 14 * 64],
    gpu: (ctx, s) => sinusoidalGpu(ctx, s ? 2 ** 14 : 2 ** 12, 128, 10000, false, {}),
    wasm: (pe) => pe.sinusoidal({ positions: 2 ** 14, d: 128 }),
  },
  scores: {
    work: [256 * 256 * 64, 512 * 512 * 64],
    gpu: (ctx, s) => {
      const n = s ? 512 : 256;
      return scoresGpu(ctx, { q: probeVec(n * 64), k: probeVec(n * 64), seq: n, head_dim: 64, causal: true, softmax: true,
        rope: { inv_freq: Float64Array.from({ length: 32 }, (_, i) => 10000 ** (-i / 32)), rotary_dim: 64, interleaved: false } }, {});
    },
    wasm: (pe) => pe.attentionScores({ q: probeVec(512 * 64), k: probeVec(512 * 64), seq: 512, head_dim: 64, causal: true, rope: {} }),
  },
};

/**
 * The GPU backend bound to a loaded wasm API `pe`. Resolves with `available: false` (every call computing with wasm)
 * when there is no WebGPU, no adapter or no device — unless `gpu: 'require'`, which then rejects with a PosencError.
 */
export async function createGpu(pe: GpuWasm, options: GpuInitOptions = {}): Promise<PosencGpu> {
  const mode = options.gpu ?? 'auto';
  if (mode !== 'auto' && mode !== 'off' && mode !== 'require') {
    throw new PosencError(`gpu: must be one of 'auto', 'off', 'require' (got ${String(mode)})`);
  }
  const webgpu = options.webgpu !== undefined ? options.webgpu
    : (globalThis as { navigator?: { gpu?: WebGpuEntry } }).navigator?.gpu ?? null;
  const ctx = mode === 'off' || !webgpu ? null : await openDevice(webgpu).catch(() => null);
  if (mode === 'require' && !ctx) throw new PosencError('gpu: WebGPU was required, but no adapter/device is available');
  return new PosencGpu(pe, mode, webgpu, ctx);
}
