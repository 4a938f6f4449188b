// The one validation layer of the JS boundary: every method declares its options once (name, type, range,
// default) as a schema; `parse` checks an options object against it before anything is copied or allocated.
// Rules and words are those of the C++ core's checks (cpp/include/posenc/error.hpp), so a rule reads the same
// whichever layer enforces it.
import { PosencError, show } from './validate.js';
import { WasmBuffer } from './buffers.js';

/** What one option accepts. `def` undefined and `optional` unset: the option is required. */
export type Spec =
  | { kind: 'int'; min: number; max: number; def?: number; optional?: boolean }
  | { kind: 'number'; min?: number; max?: number; gt?: number; def?: number; optional?: boolean }
  | { kind: 'bool'; def?: boolean; optional?: boolean }
  | { kind: 'enum'; values: readonly string[]; def?: string; optional?: boolean }
  | { kind: 'string'; def?: string; optional?: boolean }
  | { kind: 'array'; max: number; def?: undefined; optional?: boolean }
  | { kind: 'positions'; def?: undefined; optional?: boolean }
  | { kind: 'any'; def?: unknown; optional?: boolean };

export type Schema = Record<string, Spec>;

/** Largest array any method reads or writes (floats), and positions per call. */
export const MAX_ELEMENTS = 2 ** 28;
export const MAX_POSITIONS = 2 ** 20;

export const int = (min: number, max: number, def?: number): Spec => ({ kind: 'int', min, max, def });
export const num = (range: { min?: number; max?: number; gt?: number }, def?: number): Spec => ({ kind: 'number', ...range, def });
export const bool = (def?: boolean): Spec => ({ kind: 'bool', def });
export const oneOf = (values: readonly string[], def?: string): Spec => ({ kind: 'enum', values, def });
export const str = (def?: string): Spec => ({ kind: 'string', def });
export const array = (max = MAX_ELEMENTS): Spec => ({ kind: 'array', max });
export const positions = (): Spec => ({ kind: 'positions' });
export const any = (): Spec => ({ kind: 'any' });
/** The same spec, but may be left out (then undefined). */
export const optional = (s: Spec): Spec => ({ ...s, optional: true });
/** `out`: where to write a result (checked against the result's dtype and length when staged). */
export const out = (): Spec => ({ kind: 'any', optional: true });

/** Parsed options: every declared key, defaults filled. */
export type Parsed = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Checks `options` of `method` against `schema`: a plain object (a prototype-less one too) whose keys are all
 * declared; each value of the declared type and range. `path` prefixes parameter names of nested objects.
 */
export function parse(method: string, schema: Schema, options: unknown, path = ''): Parsed {
  if (options === undefined && path === '' && Object.values(schema).every((s) => s.def !== undefined || s.optional)) options = {};
  const where = path === '' ? 'options' : path.slice(0, -1);
  if (!isPlainObject(options)) throw new PosencError(`${where}: must be an options object (got ${show(options)})`);
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!Object.prototype.hasOwnProperty.call(schema, key)) {
      const hint = suggest(key, Object.keys(schema));
      throw new PosencError(`${path === '' ? method : where}: unknown option '${short(key)}'${hint ? ` (did you mean '${hint}'?)` : ''}`);
    }
  }
  const r: Parsed = {};
  for (const [key, spec] of Object.entries(schema)) r[key] = value(path + key, spec, o[key]);
  return r;
}

/** One value against its spec (undefined/null: the default, or an error if required). */
export function value(name: string, spec: Spec, v: unknown): any { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (v === undefined || v === null) {
    if (spec.def !== undefined) return spec.def;
    if (spec.optional) return undefined;
    throw new PosencError(`${name}: required`);
  }
  switch (spec.kind) {
    case 'int':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < spec.min || v > spec.max) {
        throw new PosencError(`${name}: must be an integer in [${show(spec.min)}, ${show(spec.max)}] (got ${show(v)})`);
      }
      return v;
    case 'number': {
      const ok = typeof v === 'number' && Number.isFinite(v) && (spec.min === undefined || v >= spec.min)
        && (spec.max === undefined || v <= spec.max) && (spec.gt === undefined || v > spec.gt);
      if (!ok) throw new PosencError(`${name}: must be a finite number${rangeWords(spec)} (got ${show(v)})`);
      return v;
    }
    case 'bool':
      if (typeof v !== 'boolean') throw new PosencError(`${name}: must be a boolean (got ${show(v)})`);
      return v;
    case 'enum':
      if (typeof v !== 'string' || !spec.values.includes(v)) {
        throw new PosencError(`${name}: must be one of ${spec.values.map((k) => `'${k}'`).join(', ')} (got ${show(v)})`);
      }
      return v;
    case 'string':
      if (typeof v !== 'string') throw new PosencError(`${name}: must be a string (got ${show(v)})`);
      return v;
    case 'array':
      return numbers(name, v, spec.max);
    case 'positions':
      if (typeof v === 'number') {
        if (!Number.isInteger(v) || v < 0 || v > MAX_POSITIONS) {
          throw new PosencError(`${name}: a count must be an integer in [0, 2^20] (got ${show(v)})`);
        }
        return v;
      }
      return numbers(name, v, MAX_POSITIONS);
    case 'any':
      return v;
  }
}

/**
 * An array argument: a wasm buffer (pe.alloc), a typed array of numbers, an Array or an array-like of
 * numbers, with at most `max` elements. Checked before anything is copied: the length first, then the element
 * type (BigInt arrays and non-numbers refused). NaN elements are data: they propagate as IEEE arithmetic does.
 */
export function numbers(name: string, v: unknown, max: number): ArrayLike<number> | WasmBuffer {
  if (v instanceof WasmBuffer) return v;
  if (v instanceof BigInt64Array || v instanceof BigUint64Array) {
    throw new PosencError(`${name}: must hold numbers (got ${show(v)})`);
  }
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    if ((v as unknown as ArrayLike<number>).length > max) throw tooLong(name, (v as unknown as ArrayLike<number>).length, max);
    return v as unknown as ArrayLike<number>;
  }
  if (v === null || typeof v !== 'object' || typeof (v as { length?: unknown }).length !== 'number') {
    throw new PosencError(`${name}: must be a typed array or an array of numbers (got ${show(v)})`);
  }
  const a = v as ArrayLike<unknown>;
  if (!Number.isInteger(a.length) || a.length < 0) throw new PosencError(`${name}: length must be an integer >= 0 (got ${show(a.length)})`);
  if (a.length > max) throw tooLong(name, a.length, max);
  for (let i = 0; i < a.length; i++) {
    if (typeof a[i] !== 'number') throw new PosencError(`${name}[${i}]: must be a number (got ${show(a[i])})`);
  }
  return a as ArrayLike<number>;
}

function tooLong(name: string, length: number, max: number): PosencError {
  return new PosencError(`${name}: length must be at most ${show(max)} (got ${show(length)})`);
}

function isPlainObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof WasmBuffer) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || proto === Object.prototype;
}

function rangeWords(s: { min?: number; max?: number; gt?: number }): string {
  const lo = s.gt !== undefined ? `(${show(s.gt)}` : s.min !== undefined ? `[${show(s.min)}` : undefined;
  const hi = s.max !== undefined ? `${show(s.max)}]` : undefined;
  if (lo !== undefined && hi !== undefined) return ` in ${lo}, ${hi}`;
  if (lo !== undefined) return ` ${s.gt !== undefined ? '>' : '>='} ${lo.slice(1)}`;
  return hi !== undefined ? ` <= ${hi.slice(0, -1)}` : '';
}

function short(key: string): string {
  return key.length > 40 ? `${key.slice(0, 37)}...` : key;
}

// Names other libraries and papers use for an option of ours.
const ALIASES: Record<string, string[]> = {
  rope_theta: ['base', 'rope_base', 'theta', 'rotary_emb_base', 'rotary_base'],
  rotary_dim: ['rot_dim', 'rotary_ndims', 'dim'],
  head_dim: ['dim', 'd_head', 'head_size'],
  num_heads: ['heads', 'n_heads', 'num_attention_heads'],
  heads: ['num_heads', 'n_heads'],
  seq: ['seq_len', 'length', 'n'],
  positions: ['position_ids', 'pos'],
};

/**
 * The declared key closest to `key`: an alias, else the least edit distance (a key that contains the other's letters
 * in order wins a tie), if at most half the longer name; or undefined.
 */
export function suggest(key: string, keys: readonly string[]): string | undefined {
  for (const k of keys) if (ALIASES[k]?.includes(key)) return k;
  let best: string | undefined, bestD = Infinity;
  for (const k of keys) {
    const d = distance(key.toLowerCase(), k) - (subsequence(key, k) || subsequence(k, key) ? 0.5 : 0);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best !== undefined && bestD <= Math.max(2, 0.5 * Math.max(key.length, best.length)) ? best : undefined;
}

function subsequence(a: string, b: string): boolean {
  let i = 0;
  for (const c of b) if (c === a[i]) i++;
  return i === a.length;
}

function distance(a: string, b: string): number {
  if (a.length > 64) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/** A checked array argument as a Float32Array for the copying bindings (a wasm buffer's view; undefined stays null). */
export function f32(v: ArrayLike<number> | WasmBuffer | undefined): Float32Array | null {
  if (v === undefined) return null;
  if (v instanceof WasmBuffer) return v.array instanceof Float32Array ? v.array : Float32Array.from(v.array);
  return v instanceof Float32Array ? v : Float32Array.from(v);
}

/** The same as a Float64Array. */
export function f64(v: ArrayLike<number> | WasmBuffer): Float64Array {
  if (v instanceof WasmBuffer) return Float64Array.from(v.array);
  return v instanceof Float64Array ? v : Float64Array.from(v);
}

/** Integers that the C++ core range-checks itself (int32, as it takes them). */
export const int32 = (def?: number): Spec => int(-(2 ** 31) + 1, 2 ** 31 - 1, def);
