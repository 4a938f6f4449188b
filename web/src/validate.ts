// Input validation shared by every typed function: each failure throws a PosencError whose message
// starts with the parameter's name and states the rule.
import type { Raw } from './raw.js';

/** Position ids: a count n (meaning 0 … n−1) or explicit ids (finite, |id| ≤ 2^31 − 1). */
export type Positions = number | ArrayLike<number>;

/** Error thrown for bad input. `param` names the offending parameter. */
export class PosencError extends Error {
  readonly param: string;
  constructor(message: string) {
    super(message);
    this.name = 'PosencError';
    this.param = message.split(':')[0];
  }
}


export function check<T>(r: Raw<T>): T {
  if (typeof r === 'string') throw new PosencError(r);
  return r;
}

export function integer(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new PosencError(`${name}: must be an integer (got ${String(v)})`);
  }
  if (Math.abs(v) > 2 ** 31 - 1) throw new PosencError(`${name}: must be an integer in [-2^31+1, 2^31-1] (got ${v})`);
  return v;
}

export function number(name: string, v: unknown): number {
  if (typeof v !== 'number') throw new PosencError(`${name}: must be a number (got ${typeof v})`);
  return v;
}

export function oneOf<K extends string>(name: string, v: unknown, table: Record<K, number>): number {
  if (typeof v !== 'string' || !Object.prototype.hasOwnProperty.call(table, v)) {
    throw new PosencError(`${name}: must be one of ${Object.keys(table).map((k) => `'${k}'`).join(', ')} (got ${String(v)})`);
  }
  return table[v as K];
}

export function arrayOf<T extends Float32Array | Float64Array>(name: string, v: unknown, ctor: { new (a: ArrayLike<number>): T }): T {
  if (v instanceof ctor) return v as T;
  if (v == null || typeof v !== 'object' || typeof (v as ArrayLike<number>).length !== 'number') {
    throw new PosencError(`${name}: must be a typed array or an array of numbers`);
  }
  return new ctor(v as ArrayLike<number>);
}

export function positionsArray(name: string, p: unknown): Float64Array {
  if (typeof p === 'number') {
    const n = integer(name, p);
    if (n < 0 || n > 2 ** 20) throw new PosencError(`${name}: a count must be an integer in [0, 1048576] (got ${n})`);
    return Float64Array.from({ length: n }, (_, i) => i);
  }
  return arrayOf(name, p, Float64Array);
}

export function object(name: string, v: unknown): Record<string, unknown> {
  if (v == null || typeof v !== 'object') throw new PosencError(`${name}: must be an options object`);
  return v as Record<string, unknown>;
}

export function writeOut(result: Float32Array, out: unknown): Float32Array {
  if (out === undefined) return result;
  if (!(out instanceof Float32Array)) throw new PosencError('out: must be a Float32Array');
  if (out.length !== result.length) {
    throw new PosencError(`out: length must equal the result's ${result.length} elements (got ${out.length})`);
  }
  out.set(result);
  return out;
}

/** Like writeOut for a view of wasm memory (valid only until the next call): copied into `out` or a fresh array. */
export function copyView(view: Float32Array, out: unknown): Float32Array {
  return out === undefined ? view.slice() : writeOut(view, out);
}


/** A finite number (NaN/±∞ rejected), or `fallback` when v is undefined or null. */
export function finiteOr(name: string, v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new PosencError(`${name}: must be a finite number (got ${typeof v === 'number' ? v : typeof v})`);
  }
  return v;
}

/** A boolean, or `fallback` when v is undefined or null. */
export function booleanOr(name: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new PosencError(`${name}: must be a boolean (got ${typeof v})`);
  return v;
}

/** A non-negative integer (≤ 2^40), or `fallback` when v is undefined or null. */
export function countOr(name: string, v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 40) {
    throw new PosencError(`${name}: must be an integer in [0, 2^40] (got ${String(v)})`);
  }
  return v;
}

/** An array (or typed array) of finite numbers, as Float64Array. */
export function numberList(name: string, v: unknown): Float64Array {
  const ok = Array.isArray(v) || v instanceof Float64Array || v instanceof Float32Array;
  if (!ok) throw new PosencError(`${name}: must be a list of numbers (got ${v === null ? 'null' : typeof v})`);
  const a = v as ArrayLike<unknown>;
  for (let i = 0; i < a.length; i++) {
    if (typeof a[i] !== 'number' || !Number.isFinite(a[i] as number)) {
      throw new PosencError(`${name}: every entry must be a finite number (index ${i} is ${String(a[i])})`);
    }
  }
  return Float64Array.from(a as ArrayLike<number>);
}

/** Bytes of a file: a Uint8Array, an ArrayBuffer, or any ArrayBufferView (e.g. a Node Buffer). */
export function bytes(name: string, v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new PosencError(`${name}: must be a Uint8Array or ArrayBuffer`);
}

/** Optional array: undefined/null stay null. */
export function optionalArray(name: string, v: unknown): Float32Array | null {
  return v == null ? null : arrayOf(name, v, Float32Array);
}


/** A seed of the documented generators: an integer in [0, 2^53 − 1], default 0. */
export function seedOf(v: unknown): number {
  const seed = v ?? 0;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new PosencError(`seed: must be an integer in [0, 2^53 - 1] (got ${String(seed)})`);
  }
  return seed;
}
