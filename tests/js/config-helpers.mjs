// Shared by the config tests: RoPE frequencies in closed form, relative comparison, the expected-error check.
import assert from 'node:assert/strict';

export const REL = 1e-12; // float64 formulas evaluated in a different order
/** θ_i = b^(−2i/d), i < d/2. */
export const theta = (b, d) => Array.from({ length: d / 2 }, (_, i) => b ** (-(2 * i) / d));
export function close(got, want, rel, msg) {
  assert.equal(got.length, want.length, `${msg}: length`);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= rel * Math.abs(want[i]), `${msg}[${i}]: ${got[i]} vs ${want[i]}`);
}
/** `pe.ropeFromConfig(cfg, opts)` throws a PosencError whose message matches `re`. */
export const badConfig = (pe, cfg, re, opts) =>
  assert.throws(() => pe.ropeFromConfig(cfg, opts), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
