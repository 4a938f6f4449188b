// Absolute encodings through the package: t2t sinusoid, recursive sinusoid, multiplicative PE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, ulpAt, randomVec, throwsNamed } from './helpers.mjs';

const TABLE_ULPS = 2;          // float64 angle, rounded once
const RECURSION_ABS = 1e-11;   // float64 recursion drift on top of the float32 rounding

for (const [name, pe] of builds) {
  test(`${name}: t2t sinusoid = [sin | cos] with ω_i = 10000^(−i/(h−1))`, () => {
    for (const d of [16, 9]) {
      const h = Math.floor(d / 2);
      const t = pe.sinusoidT2T({ positions: 30, d });
      assert.equal(t.length, 30 * d);
      for (let p = 0; p < 30; p++) {
        for (let i = 0; i < h; i++) {
          const w = 10000 ** (-i / (h - 1));
          assert.ok(Math.abs(t[p * d + i] - Math.sin(p * w)) <= TABLE_ULPS * ulpAt(Math.sin(p * w)));
          assert.ok(Math.abs(t[p * d + h + i] - Math.cos(p * w)) <= TABLE_ULPS * ulpAt(Math.cos(p * w)));
        }
        if (d % 2) assert.equal(t[p * d + d - 1], 0);
      }
    }
    const custom = pe.sinusoidT2T({ positions: [2.5], d: 4, min_timescale: 1, max_timescale: 100 });
    assert.ok(Math.abs(custom[1] - Math.sin(2.5 / 100)) <= TABLE_ULPS * ulpAt(Math.sin(0.025)));
  });

  test(`${name}: recursive p_{k+1} = R·p_k equals the closed-form sinusoid`, () => {
    for (const layout of ['interleaved', 'concatenated']) {
      const d = 16, n = 2000;
      const rec = pe.sinusoidRecursive({ positions: n, d, layout });
      const closed = pe.sinusoidal({ positions: n, d, layout });
      for (let k = 0; k < n; k++) {
        for (let i = 0; i < d / 2; i++) {
          const w = 10000 ** (-2 * i / d);
          const sc = layout === 'interleaved' ? 2 * i : i, cc = layout === 'interleaved' ? 2 * i + 1 : d / 2 + i;
          assert.ok(Math.abs(rec[k * d + sc] - Math.sin(k * w)) <= ulpAt(Math.sin(k * w)) + RECURSION_ABS);
          assert.ok(Math.abs(rec[k * d + cc] - Math.cos(k * w)) <= ulpAt(Math.cos(k * w)) + RECURSION_ABS);
        }
      }
      const R = pe.sinusoidRotationMatrix({ d, layout });
      for (let r = 0; r < d; r++) {
        let acc = 0;
        for (let c = 0; c < d; c++) acc += R[r * d + c] * closed[7 * d + c];
        assert.ok(Math.abs(acc - closed[8 * d + r]) <= 1e-6);
      }
    }
  });

  test(`${name}: multiplicative PE is x ⊙ p`, () => {
    const x = randomVec(37, 1), p = randomVec(37, 2);
    const y = pe.multiplicativePE(x, p);
    for (let i = 0; i < 37; i++) assert.equal(y[i], Math.fround(x[i] * p[i]));
  });

  test(`${name}: absolute entry points reject bad input and stay usable`, () => {
    throwsNamed(assert, () => pe.sinusoidT2T({ positions: 3, d: 0 }), 'd: must be an integer in [1, 8192] (got 0)');
    throwsNamed(assert, () => pe.sinusoidT2T({ positions: 3, d: 4, max_timescale: -1 }), 'max_timescale: must be a finite number > 0');
    throwsNamed(assert, () => pe.sinusoidRecursive({ positions: 3, d: 5 }), 'd: must be even (got 5)');
    throwsNamed(assert, () => pe.sinusoidRotationMatrix({ d: 4, layout: 'x' }), 'layout: must be one of');
    throwsNamed(assert, () => pe.multiplicativePE([1, 2], [1]), 'p: length must equal');
    assert.equal(pe.sinusoidT2T({ positions: 1, d: 2 })[1], 1);
  });
}

for (const [name, pe] of builds) {
  test(`${name}: t2tInvTimescales are the frequencies of sinusoidT2T`, () => {
    const d = 16, h = d / 2, w = pe.t2tInvTimescales({ d });
    assert.equal(w.length, h);
    for (let i = 0; i < h; i++) assert.ok(Math.abs(w[i] - 10000 ** (-i / (h - 1))) <= 1e-15 * Math.max(1, w[i]));
    const row = pe.sinusoidT2T({ positions: [3], d });  // [sin(3ω_0) … | cos(3ω_0) …]
    for (let i = 0; i < h; i++) assert.ok(Math.abs(row[i] - Math.sin(3 * w[i])) <= 2 * ulpAt(Math.sin(3 * w[i])));
    throwsNamed(assert, () => pe.t2tInvTimescales({ d: 0 }), 'd:');
  });
}
