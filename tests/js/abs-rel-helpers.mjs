// Helpers of the absolute/relative JS tests: both wasm builds, seeded vectors, float64 references.
import init, { PosencError } from 'posenc';
import assert from 'node:assert/strict';

/** The SIMD and the scalar build, loaded as a user loads them. */
export const builds = [
  ['simd', await init()],
  ['scalar', await init({ simd: false })],
];

/** Spacing of float32 numbers at |x|. */
export function ulpAt(x) {
  const f = Math.abs(Math.fround(x));
  const buf = new Float32Array([f]);
  new Uint32Array(buf.buffer)[0] += 1;
  return buf[0] - f;
}

/** Seeded uniform floats in [-1, 1) (mulberry32). */
export function randomVec(n, seed) {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 2 ** 31 - 1;
  }
  return out;
}

/** float64 dot product of rows a[ia·d …] and b[ib·d …]. */
export function dot(a, ia, b, ib, d) {
  let s = 0;
  for (let c = 0; c < d; c++) s += a[ia * d + c] * b[ib * d + c];
  return s;
}

/** Asserts fn throws a PosencError whose message starts with prefix. */
export function throwsNamed(fn, prefix) {
  assert.throws(fn, (e) => e instanceof PosencError && e.message.startsWith(prefix), `expected "${prefix}…"`);
}
