// Arrays in wasm memory: the user's buffers (pe.alloc) and the scratch that plain typed arrays are staged into.
// The bindings take addresses (cpp/bindings/common.hpp); every address handed to them comes from here, with the
// length the method's shape asks for already checked.
import type { RawModule } from './raw.js';
import { PosencError, show } from './validate.js';

/** Element types of wasm buffers. */
export type BufferArray = Float32Array | Int32Array;
type Dtype = 'f32' | 'f64' | 'i32';
const CTORS = { f32: Float32Array, f64: Float64Array, i32: Int32Array } as const;
const NAMES = { f32: 'float32', f64: 'float64', i32: 'int32' } as const;

/** Results larger than this need `out` (up to 2^28 elements then). */
export const MAX_FRESH_RESULT = 2 ** 26;

/**
 * An array living in the module's wasm memory (from {@link Posenc.alloc}). Passed as an input or as `out`, no
 * copy is made: the kernels read and write it in place.
 *
 * `array` is a typed-array view of it. Wasm memory can grow during any call, which detaches earlier views:
 * read `array` again after a call rather than keeping an old view (the getter re-creates it when needed).
 * Free it with `free()` (or `using buf = pe.alloc(…)`); a freed buffer is refused by every method.
 */
export class WasmBuffer<T extends BufferArray = BufferArray> {
  #heap: Heap | null;
  #view: T | null = null;
  /** @internal */
  readonly address: number;
  /** Number of elements. */
  readonly length: number;
  /** Element type. */
  readonly dtype: 'float32' | 'int32';

  /** @internal */
  constructor(heap: Heap, dtype: 'f32' | 'i32', address: number, length: number) {
    this.#heap = heap;
    this.dtype = NAMES[dtype] as 'float32' | 'int32';
    this.address = address;
    this.length = length;
  }

  /** A view of the buffer's elements, valid until wasm memory next grows (then read `array` again). */
  get array(): T {
    const heap = this.live('buffer');
    const memory = heap.raw.HEAPU8.buffer;
    if (this.#view === null || this.#view.buffer !== memory) {
      const ctor = this.dtype === 'float32' ? Float32Array : Int32Array;
      this.#view = new ctor(memory, this.address, this.length) as T;
    }
    return this.#view;
  }

  /** True once freed. */
  get freed(): boolean {
    return this.#heap === null;
  }

  /** Returns the memory to the module. Idempotent; the buffer is unusable afterwards. */
  free(): void {
    if (this.#heap !== null) this.#heap.raw.release(this.address);
    this.#heap = null;
    this.#view = null;
  }

  /** `using buf = pe.alloc(…)` frees it at the end of the block. */
  [Symbol.dispose](): void {
    this.free();
  }

  /** @internal The heap, checked: not freed, and of this module instance. */
  private live(name: string, heap?: Heap): Heap {
    if (this.#heap === null) throw new PosencError(`${name}: the wasm buffer was freed`);
    if (heap !== undefined && heap !== this.#heap) throw new PosencError(`${name}: the wasm buffer belongs to another posenc instance`);
    return this.#heap;
  }

  /** @internal The address, after checking the buffer is live, of `heap`, of `dtype` and `length` elements. */
  addressFor(name: string, heap: Heap, dtype: Dtype, length: number): number {
    this.live(name, heap);
    if (this.dtype !== NAMES[dtype]) throw new PosencError(`${name}: must hold ${NAMES[dtype]} (got a wasm buffer of ${this.dtype})`);
    if (this.length !== length) throw new PosencError(`${name}: length must equal the shape's element count ${length} (got ${this.length})`);
    return this.address;
  }
}

// Symbol.dispose exists in Node ≥ 20 and recent browsers; elsewhere `using` is unavailable anyway.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** The module's memory: allocation of user buffers, and scratch slots reused across calls. */
export class Heap {
  readonly #slots: { address: number; bytes: number }[] = [];

  constructor(readonly raw: RawModule) {}

  alloc(name: string, dtype: 'f32' | 'i32', length: number): WasmBuffer {
    const address = this.raw.reserve(Math.max(length, 1) * 4);
    if (address === 0) throw new PosencError(`${name}: out of wasm memory (${show(length)} elements requested)`);
    return new WasmBuffer(this, dtype, address, length);
  }

  /** Scratch slot `i` with at least `bytes` bytes (grown, never zero-filled; kept for the next call). */
  slot(name: string, i: number, bytes: number): number {
    const s = (this.#slots[i] ??= { address: 0, bytes: 0 });
    if (s.bytes < bytes) {
      if (s.address !== 0) this.raw.release(s.address);
      s.address = 0;
      s.bytes = 0;
      const want = Math.max(bytes, 64);
      const address = this.raw.reserve(want);
      if (address === 0) throw new PosencError(`${name}: out of wasm memory (${show(bytes)} bytes needed)`);
      s.address = address;
      s.bytes = want;
    }
    return s.address;
  }

  /** A typed-array view of `length` elements at `address` (current memory). */
  view(dtype: Dtype, address: number, length: number): Float32Array | Float64Array | Int32Array {
    return new CTORS[dtype](this.raw.HEAPU8.buffer, address, length);
  }

  /** Starts staging the arrays of one call. */
  call(): Staging {
    return new Staging(this);
  }
}

/** A result being computed: where the kernel writes, and how it reaches the caller. */
export interface Output<T> {
  address: number;
  /** The result: `out` itself (a plain array, filled now; or the wasm buffer's view), or a fresh array. */
  finish(): T;
}

/** Inputs and outputs of one call, each in its own scratch slot unless it is already a wasm buffer. */
export class Staging {
  #next = 0;
  readonly #staged = new Map<unknown, number>();

  constructor(private readonly heap: Heap) {}

  /** Address of input `v` (already checked: a wasm buffer or an array-like of numbers) of `length` elements. */
  input(name: string, v: unknown, dtype: Dtype, length: number): number {
    if (v instanceof WasmBuffer) {
      if (dtype === 'f64') return this.copy(name, v.array, dtype, length);
      return v.addressFor(name, this.heap, dtype, length);
    }
    return this.copy(name, v as ArrayLike<number>, dtype, length);
  }

  /** Address of an optional input, 0 when absent. */
  optionalInput(name: string, v: unknown, dtype: Dtype, length: number): number {
    return v === undefined ? 0 : this.input(name, v, dtype, length);
  }

  private copy(name: string, a: ArrayLike<number>, dtype: Dtype, length: number): number {
    if (a.length !== length) throw new PosencError(`${name}: length must equal the shape's element count ${length} (got ${show(a.length)})`);
    const address = this.heap.slot(name, this.#next++, length * CTORS[dtype].BYTES_PER_ELEMENT);
    this.heap.view(dtype, address, length).set(a);
    this.#staged.set(a, address);
    return address;
  }

  /** A scratch array of `length` elements (≤ 2^28) for an intermediate result. */
  scratch(name: string, dtype: Dtype, length: number): number {
    if (length > 2 ** 28) throw new PosencError(`${name}: result of ${show(length)} elements exceeds the cap of 2^28`);
    return this.heap.slot(name, this.#next++, length * CTORS[dtype].BYTES_PER_ELEMENT);
  }

  /**
   * Where to write a result of `length` elements: `out` (a wasm buffer, written in place; or a plain typed array of
   * exactly this dtype and length, filled from scratch) or, without `out`, a fresh array (≤ 2^26 elements).
   * When `out` is also a staged input (in-place use), its scratch is reused.
   */
  output<T extends Float32Array | Float64Array | Int32Array>(name: string, out: unknown, dtype: Dtype, length: number): Output<T> {
    const heap = this.heap;
    if (out instanceof WasmBuffer) {
      const address = out.addressFor(name, heap, dtype, length);
      return { address, finish: () => out.array as unknown as T };
    }
    if (out !== undefined) {
      plainOut(name, out, dtype, length);
    } else if (length > MAX_FRESH_RESULT && length <= 2 ** 28) {
      throw new PosencError(`${name}: result of ${show(length)} elements exceeds the cap of 2^26 for a new array (pass \`out\`: up to 2^28)`);
    }
    if (length > 2 ** 28) throw new PosencError(`${name}: result of ${show(length)} elements exceeds the cap of 2^28`);
    const address = this.#staged.get(out) ?? heap.slot(name, this.#next++, length * CTORS[dtype].BYTES_PER_ELEMENT);
    return {
      address,
      finish: () => {
        const v = heap.view(dtype, address, length);
        if (out === undefined) return v.slice() as T;
        (out as T).set(v);
        return out as T;
      },
    };
  }
}

/** Checks a plain `out`: a typed array of exactly this dtype and length. */
function plainOut(name: string, out: unknown, dtype: Dtype, length: number): void {
  const ctor = CTORS[dtype];
  if (!(out instanceof ctor)) throw new PosencError(`${name}: must be ${dtype === 'i32' ? 'an' : 'a'} ${ctor.name} or a wasm buffer of ${NAMES[dtype]} (got ${show(out)})`);
  if (out.length !== length) throw new PosencError(`${name}: length must equal the result's ${length} elements (got ${out.length})`);
}

/**
 * A result of a copying binding written into `out` (a plain typed array or a wasm buffer of its dtype and length),
 * or returned as it is without `out`.
 */
export function intoOut<T extends Float32Array | Int32Array>(heap: Heap, name: string, result: T, out: unknown): T {
  if (out === undefined) return result;
  const dtype = result instanceof Int32Array ? 'i32' : 'f32';
  if (out instanceof WasmBuffer) {
    out.addressFor(name, heap, dtype, result.length);
    (out.array as T).set(result);
    return out.array as T;
  }
  plainOut(name, out, dtype, result.length);
  (out as T).set(result);
  return out as T;
}

/** intoOut for a pair of tables and `out: { cos, sin }`. */
export function tablesInto(heap: Heap, r: { cos: Float32Array; sin: Float32Array }, out: { cos: unknown; sin: unknown }): { cos: Float32Array; sin: Float32Array } {
  return { cos: intoOut(heap, 'out.cos', r.cos, out.cos), sin: intoOut(heap, 'out.sin', r.sin, out.sin) };
}
