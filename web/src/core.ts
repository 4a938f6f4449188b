// What every family's methods share: the loaded wasm module and its memory. Each family (rope.ts, alibi.ts, …) is a
// class of methods extending Core; posenc.ts composes them into one Posenc, index.ts re-exports.
import type { RawModule } from './raw.js';
import { Heap, WasmBuffer } from './buffers.js';
import { PosencError, show } from './validate.js';
import { MAX_ELEMENTS } from './options.js';

/** The posenc API, bound to one loaded WebAssembly instance: the methods every family shares. */
export class Core {
  /** @internal */
  protected readonly heap: Heap;

  /** @internal */
  constructor(protected readonly raw: RawModule, protected readonly simd: boolean) {
    this.heap = new Heap(raw);
  }

  /**
   * Which build runs: `simd` is true for the wasm SIMD128 build; `arch` is xsimd's architecture name
   * (`'wasm'` or `'scalar'`), `lanes` the float32 lanes per vector (4 or 1); `threads` the threads that large
   * table and attention-score calls are split over (1, except with `init({ threads: true })`).
   */
  buildInfo(): { simd: boolean; arch: string; lanes: number; threads: number } {
    return { simd: this.simd, ...this.raw.buildInfo() };
  }

  /** Current size of the wasm linear memory in bytes (it grows on demand and never shrinks). */
  memoryBytes(): number {
    return this.raw.memoryBytes();
  }

  /**
   * A buffer of `length` elements (≤ 2^28) in this module's wasm memory, not initialised. Every method that takes
   * an array takes such a buffer without copying it, and writes a result into one passed as `out` in place —
   * the fast path for repeated calls (a plain typed array is copied in and out once per call instead).
   * `.array` is its typed-array view (read it again after any call: memory growth re-creates it); `.free()`
   * returns the memory (or `using buf = pe.alloc(…)`). A buffer works only with the instance that made it.
   * @throws PosencError if type is not Float32Array or Int32Array, length is not an integer in [0, 2^28], or the
   * memory cannot grow (the wasm memory is at most 2 GiB).
   */
  alloc(type: Float32ArrayConstructor, length: number): WasmBuffer<Float32Array>;
  alloc(type: Int32ArrayConstructor, length: number): WasmBuffer<Int32Array>;
  alloc(type: Float32ArrayConstructor | Int32ArrayConstructor, length: number): WasmBuffer {
    if (type !== Float32Array && type !== Int32Array) throw new PosencError(`type: must be Float32Array or Int32Array (got ${show(type)})`);
    if (typeof length !== 'number' || !Number.isInteger(length) || length < 0 || length > MAX_ELEMENTS) {
      throw new PosencError(`length: must be an integer in [0, 2^28] (got ${show(length)})`);
    }
    return this.heap.alloc('length', type === Float32Array ? 'f32' : 'i32', length);
  }
}
