// Shared helpers for the JS tests: both builds, float32 ulp distance, direct reference computations.
import init from 'posenc';

/** The SIMD and the scalar build, each loaded the way a user loads it. */
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

export function dot(a, ao, b, bo, n) {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[ao + i] * b[bo + i];
  return s;
}

/** float64 dot product of rows a[ia·d …] and b[ib·d …]. */
export function dotRows(a, ia, b, ib, d) {
  return dot(a, ia * d, b, ib * d, d);
}

/** Asserts that f throws a PosencError whose message starts with prefix. */
export function throwsNamed(assert, f, prefix) {
  assert.throws(f, (e) => e.name === 'PosencError' && e.message.startsWith(prefix),
    `expected a PosencError starting with "${prefix}"`);
}
