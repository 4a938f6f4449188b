// Input validation shared by every typed function: each failure throws a PosencError whose message
// starts with the parameter's name and states the rule.
import type { Raw } from './raw.js';

/** Position ids: a count n (meaning 0 … n−1) or explicit ids (finite, |id| ≤ 2^31 − 1). */
export type Positions = number | ArrayLike<number>;

/** Error thrown for bad input. `param` names the offending parameter. */
/** Longest PosencError message, in characters. */
const MAX_MESSAGE = 2000;

export class PosencError extends Error {
  readonly param: string;
  constructor(message: string) {
    // a message stays readable: an input echoed whole (a 2 MB string as a rope_type) is cut in its middle
    super(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 260)} … (${message.length - MAX_MESSAGE + 80} characters cut) … ${message.slice(-180)}` : message);
    this.name = 'PosencError';
    this.param = message.split(':')[0];
  }
}

/**
 * A value as shown in messages: short (≤ 80 characters) and by type — `'8' (a string)`, `NaN`, `2^40`,
 * `8n (a BigInt)`, `a Float64Array of length 3`; never a whole array or `[object Object]`.
 */
export function show(v: unknown): string {
  switch (typeof v) {
    case 'number':
      if (Number.isInteger(v) && Math.abs(v) >= 2 ** 20 && Number.isInteger(Math.log2(Math.abs(v)))) {
        return `${v < 0 ? '-' : ''}2^${Math.log2(Math.abs(v))}`;
      }
      return String(v);
    case 'string':
      return `'${v.length > 40 ? `${v.slice(0, 37)}...` : v}' (a string)`;
    case 'bigint': {
      const s = String(v);
      return `${s.length > 24 ? `${s.slice(0, 21)}...` : s}n (a BigInt)`;
    }
    case 'boolean':
      return `${v} (a boolean)`;
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (v === null) return 'null';
  const o = v as { length?: unknown; constructor?: { name?: unknown } };
  const name = typeof o.constructor?.name === 'string' && o.constructor.name !== 'Object' ? o.constructor.name : '';
  const article = (w: string) => (/^[AEIOU]/i.test(w) ? 'an' : 'a');
  const what = name === '' ? 'an object' : `${article(name)} ${name.slice(0, 30)}`;
  return typeof o.length === 'number' ? `${what} of length ${show(o.length)}` : what;
}

export function check<T>(r: Raw<T>): T {
  if (typeof r === 'string') throw new PosencError(r);
  return r;
}

/** A finite number (NaN/±∞ rejected), or `fallback` when v is undefined or null. */
export function finiteOr(name: string, v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) {
    throw new PosencError(`${name}: must be a finite number (got ${show(v)})`);
  }
  return v;
}

/** A boolean, or `fallback` when v is undefined or null. */
export function booleanOr(name: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw new PosencError(`${name}: must be a boolean (got ${show(v)})`);
  return v;
}

/** A non-negative integer (≤ 2^40), or `fallback` when v is undefined or null. */
export function countOr(name: string, v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 40) {
    throw new PosencError(`${name}: must be an integer in [0, 2^40] (got ${show(v)})`);
  }
  return v;
}

/** An array (or typed array) of finite numbers, as Float64Array. */
export function numberList(name: string, v: unknown): Float64Array {
  const ok = Array.isArray(v) || v instanceof Float64Array || v instanceof Float32Array;
  if (!ok) throw new PosencError(`${name}: must be a list of numbers (got ${show(v)})`);
  const a = v as ArrayLike<unknown>;
  if (a.length > 2 ** 20) throw new PosencError(`${name}: length must be at most 2^20 (got ${show(a.length)})`);
  for (let i = 0; i < a.length; i++) {
    if (typeof a[i] !== 'number' || !Number.isFinite(a[i] as number)) {
      throw new PosencError(`${name}: every entry must be a finite number (index ${i} is ${show(a[i])})`);
    }
  }
  return Float64Array.from(a as ArrayLike<number>);
}

/** Bytes of a file: a Uint8Array, an ArrayBuffer, or any ArrayBufferView (e.g. a Node Buffer). */
export function bytes(name: string, v: unknown): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v instanceof ArrayBuffer) return new Uint8Array(v);
  if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  throw new PosencError(`${name}: must be a Uint8Array or ArrayBuffer (got ${show(v)})`);
}


/** A seed of the documented generators: an integer in [0, 2^53 − 1], default 0. */
export function seedOf(v: unknown): number {
  const seed = v ?? 0;
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw new PosencError(`seed: must be an integer in [0, 2^53 - 1] (got ${show(seed)})`);
  }
  return seed;
}
