// Value checks shared by the config readers (read.ts, vision_rope.ts, dual_chunk.ts, axes.ts): each names the key's
// path in its PosencError.
import { PosencError, show } from '../validate.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function posInt(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new PosencError(`${path}: must be a positive integer (got ${show(v)})`);
  return v;
}
export function finite(path: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new PosencError(`${path}: must be a finite number (got ${show(v)})`);
  return v;
}
/** f(v), or null where the key is absent (undefined or null). */
export const opt = <T>(v: unknown, f: (v: unknown) => T): T | null => (v === undefined || v === null ? null : f(v));
