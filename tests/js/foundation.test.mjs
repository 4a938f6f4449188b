// The foundation's values through the package, imported as a user imports it, on both wasm builds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PosencError, simdSupported } from 'posenc';
import { builds, ulpAt, randomVec, dot, throwsNamed } from './helpers.mjs';

const PUBLISHED_4_DECIMALS = 5e-5; // the seed prints freqs_cis with 4 decimals
const TABLE_ULPS = 2;              // contract: within 2 float32 ulp of float64
const IDENTITY_REL = 2e-5;         // RoPE identity, relative to |q||k|
const ROW_SUM = 1e-6;              // softmax rows
const SCORE_REL = 1e-5;            // float32 dot vs float64, relative to Σ|q_c k_c|

test('this Node supports wasm SIMD, so init() picks the SIMD build', () => {
  assert.equal(simdSupported(), true);
  assert.equal(builds[0][1].buildInfo().arch, 'wasm');
  assert.equal(builds[0][1].buildInfo().lanes, 4);
  assert.equal(builds[1][1].buildInfo().arch, 'scalar');
});

for (const [name, pe] of builds) {
  test(`${name}: RoPE tables reproduce the seed's freqs_cis example (d = 8, seq 3)`, () => {
    const re = [[1, 1, 1, 1], [0.5403, 0.9950, 0.9999, 1.0000], [-0.4161, 0.9801, 0.9998, 1.0000]].flat();
    const im = [[0, 0, 0, 0], [0.8415, 0.0998, 0.0100, 0.0010], [0.9093, 0.1987, 0.0200, 0.0020]].flat();
    const { cos, sin } = pe.ropeTables({ rotary_dim: 8, positions: 3 });
    assert.ok(cos instanceof Float32Array && cos.length === 12);
    for (let i = 0; i < 12; i++) {
      assert.ok(Math.abs(cos[i] - re[i]) <= PUBLISHED_4_DECIMALS, `cos[${i}]`);
      assert.ok(Math.abs(sin[i] - im[i]) <= PUBLISHED_4_DECIMALS, `sin[${i}]`);
    }
    assert.deepEqual(Array.from(pe.ropeInvFreq({ rotary_dim: 8 })), [0, 1, 2, 3].map((i) => 10000 ** (-2 * i / 8)));
  });

  test(`${name}: tables are within 2 ulp of float64 up to position 2^20`, () => {
    const positions = [0, 1, 8191, 65535, 2 ** 20];
    for (let i = 0; i < 200; i++) positions.push(Math.floor(((i * 2654435761) % 2 ** 32) / 2 ** 32 * 2 ** 20));
    const inv = pe.ropeInvFreq({ rotary_dim: 128, rope_theta: 500000 });
    const { cos, sin } = pe.ropeTables({ rotary_dim: 128, rope_theta: 500000, positions });
    let worst = 0;
    positions.forEach((p, r) => {
      for (let i = 0; i < 64; i++) {
        const a = p * inv[i];
        worst = Math.max(worst, Math.abs(cos[r * 64 + i] - Math.cos(a)) / ulpAt(Math.cos(a)),
          Math.abs(sin[r * 64 + i] - Math.sin(a)) / ulpAt(Math.sin(a)));
      }
    });
    assert.ok(worst <= TABLE_ULPS, `worst ${worst} ulp`);
  });

  test(`${name}: relative-position identity (R_m q)·(R_n k) = q·(R_{n−m} k)`, () => {
    const d = 64;
    for (const layout of ['interleaved', 'half_split']) {
      for (let t = 0; t < 20; t++) {
        const q = randomVec(d, 10 + t), k = randomVec(d, 50 + t);
        const m = (t * 7919) % 100001, n = (t * 104729) % 100001;
        const qm = pe.ropeApply(q, { seq: 1, head_dim: d, layout, positions: [m] });
        const kn = pe.ropeApply(k, { seq: 1, head_dim: d, layout, positions: [n] });
        const knm = pe.ropeApply(k, { seq: 1, head_dim: d, layout, positions: [n - m] });
        const scale = Math.sqrt(dot(q, 0, q, 0, d) * dot(k, 0, k, 0, d));
        assert.ok(Math.abs(dot(qm, 0, kn, 0, d) - dot(q, 0, knm, 0, d)) <= IDENTITY_REL * scale, `m=${m} n=${n}`);
      }
    }
  });

  test(`${name}: layouts agree up to the permutation; partial rotary passes channels through; out/in place`, () => {
    const seq = 4, heads = 2, hd = 12, rot = 8, half = rot / 2;
    const x = randomVec(seq * heads * hd, 3);
    const xi = new Float32Array(x.length);
    for (let r = 0; r < seq * heads; r++) {
      for (let i = 0; i < half; i++) {
        xi[r * hd + 2 * i] = x[r * hd + i];
        xi[r * hd + 2 * i + 1] = x[r * hd + i + half];
      }
      for (let j = rot; j < hd; j++) xi[r * hd + j] = x[r * hd + j];
    }
    const opts = { seq, heads, head_dim: hd, rotary_dim: rot, positions: [0, 3, 900, 70000] };
    const yh = pe.ropeApply(x, { ...opts, layout: 'half_split' });
    const yi = pe.ropeApply(xi, { ...opts, layout: 'interleaved' });
    for (let r = 0; r < seq * heads; r++) {
      for (let i = 0; i < half; i++) {
        assert.equal(yi[r * hd + 2 * i], yh[r * hd + i]);
        assert.equal(yi[r * hd + 2 * i + 1], yh[r * hd + i + half]);
      }
      for (let j = rot; j < hd; j++) assert.equal(yh[r * hd + j], x[r * hd + j]);
    }
    // Tables path gives the same numbers; `out` receives the result; in place works.
    const { cos, sin } = pe.ropeTables({ rotary_dim: rot, positions: opts.positions });
    const out = new Float32Array(x.length);
    assert.equal(pe.ropeApplyTables(x, { seq, heads, head_dim: hd, rotary_dim: rot, cos, sin, out }), out);
    assert.deepEqual(out, yh);
    const inplace = x.slice();
    pe.ropeApply(inplace, { ...opts, out: inplace });
    assert.deepEqual(inplace, yh);
    assert.notDeepEqual(x, yh); // the input was not modified
  });

  test(`${name}: sinusoidal table equals the closed form in both layouts, odd d included`, () => {
    for (const d of [16, 9]) {
      const a = pe.sinusoidal({ positions: 40, d });
      const b = pe.sinusoidal({ positions: 40, d, layout: 'concatenated' });
      const ns = Math.ceil(d / 2);
      for (let p = 0; p < 40; p++) {
        for (let c = 0; c < d; c++) {
          const i = Math.floor(c / 2), w = 10000 ** (-2 * i / d);
          const expect = c % 2 === 0 ? Math.sin(p * w) : Math.cos(p * w);
          assert.ok(Math.abs(a[p * d + c] - expect) <= TABLE_ULPS * ulpAt(expect), `p=${p} c=${c}`);
          assert.equal(b[p * d + (c % 2 === 0 ? i : ns + i)], a[p * d + c]);
        }
      }
    }
    const custom = pe.sinusoidal({ positions: [5], d: 4, base: 100 });
    assert.ok(Math.abs(custom[2] - Math.sin(5 / 10)) <= 1e-7);
  });

  test(`${name}: attention scores, softmax rows, causal mask`, () => {
    const seq = 11, d = 16;
    const q = randomVec(seq * d, 1), k = randomVec(seq * d, 2);
    const raw = pe.attentionScores({ q, k, seq, head_dim: d, softmax: false });
    for (let i = 0; i < seq; i++) {
      for (let j = 0; j < seq; j++) {
        let abs = 0;
        for (let c = 0; c < d; c++) abs += Math.abs(q[i * d + c] * k[j * d + c]);
        const expect = dot(q, i * d, k, j * d, d) / Math.sqrt(d);
        assert.ok(Math.abs(raw[i * seq + j] - expect) <= SCORE_REL * abs);
      }
    }
    const p = pe.attentionScores({ q, k, seq, head_dim: d, causal: true, rope: { rope_theta: 10000 } });
    const out = new Float32Array(seq * seq);
    assert.equal(pe.attentionScores({ q, k, seq, head_dim: d, causal: true, rope: {}, out }), out);
    assert.deepEqual(out, p);
    throwsNamed(assert, () => pe.attentionScores({ q, k, seq, head_dim: d, out: new Float32Array(5) }), 'out: length must equal');
    const pre = pe.attentionScores({ q, k, seq, head_dim: d, causal: true, rope: {}, softmax: false });
    for (let i = 0; i < seq; i++) {
      let sum = 0;
      for (let j = 0; j < seq; j++) {
        sum += p[i * seq + j];
        if (j > i) {
          assert.equal(p[i * seq + j], 0);
          assert.equal(pre[i * seq + j], -Infinity);
        }
      }
      assert.ok(Math.abs(sum - 1) <= ROW_SUM);
    }
  });

  test(`${name}: without PE a token swap only permutes the scores; with RoPE it does not`, () => {
    const a = pe.textQK({ text: '猫 抓 老鼠', head_dim: 16, seed: 7 });
    const b = pe.textQK({ text: '老鼠 抓 猫', head_dim: 16, seed: 7 });
    assert.deepEqual(a.tokens, ['猫', '抓', '老鼠']);
    const perm = b.tokens.map((t) => a.tokens.indexOf(t));
    for (const rope of [null, {}]) {
      const sa = pe.attentionScores({ q: a.q, k: a.k, seq: 3, head_dim: 16, rope, softmax: false });
      const sb = pe.attentionScores({ q: b.q, k: b.k, seq: 3, head_dim: 16, rope, softmax: false });
      let worst = 0;
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) worst = Math.max(worst, Math.abs(sb[i * 3 + j] - sa[perm[i] * 3 + perm[j]]));
      if (rope) assert.ok(worst > 1e-3);
      else assert.equal(worst, 0);
    }
    assert.deepEqual(pe.textQK({ text: '猫抓老鼠', head_dim: 4 }).tokens, ['猫', '抓', '老', '鼠']);
  });

  test(`${name}: bad input throws a named PosencError and the module keeps working`, () => {
    const x = new Float32Array(16);
    throwsNamed(assert, () => pe.ropeInvFreq({ rotary_dim: 7 }), 'rotary_dim: must be even');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, rotary_dim: 5 }), 'rotary_dim: must be even');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 0 }), 'head_dim: must be an integer in [1, 8192]');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: -1, head_dim: 8 }), 'seq: must be an integer in [0');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2.5, head_dim: 8 }), 'seq: must be an integer');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, heads: 0, head_dim: 8 }), 'heads:');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, rope_theta: NaN }), 'rope_theta: must be a finite number > 0');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, rope_theta: -5 }), 'rope_theta: must be a finite number > 0');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 3, head_dim: 8 }), 'x: length must equal the shape');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, layout: 'sideways' }), "layout: must be one of 'interleaved', 'half_split'");
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, positions: [0] }), 'positions: length must equal');
    throwsNamed(assert, () => pe.ropeApply(x, { seq: 2, head_dim: 8, out: new Float32Array(3) }), 'out: length must equal');
    throwsNamed(assert, () => pe.ropeTables({ rotary_dim: 8, positions: [0, Infinity] }), 'positions: every position must be finite');
    throwsNamed(assert, () => pe.sinusoidal({ positions: 2 ** 20, d: 8192 }), 'out: result of');
    throwsNamed(assert, () => pe.sinusoidal({ positions: 4, d: 8, base: 0 }), 'base: must be a finite number > 0');
    throwsNamed(assert, () => pe.attentionScores({ q: x, k: x, seq: 2, head_dim: 4 }), 'q: length must equal');
    throwsNamed(assert, () => pe.textQK({ text: ' ', head_dim: 4 }), 'text: must contain at least one token');
    throwsNamed(assert, () => pe.textQK({ text: 'a', head_dim: 4, seed: -1 }), 'seed: must be an integer');
    assert.ok(new PosencError('a: b') instanceof Error);
    // still usable, same numbers as before the errors
    const { cos } = pe.ropeTables({ rotary_dim: 8, positions: 2 });
    assert.ok(Math.abs(cos[4] - Math.cos(1)) < 1e-7);
  });

  test(`${name}: wasm memory does not grow across 10,000 calls`, () => {
    const x = randomVec(4 * 2 * 32, 9);
    const call = (i) => {
      pe.ropeApply(x, { seq: 4, heads: 2, head_dim: 32, positions: [i, i + 1, i + 2, i + 3] });
      pe.attentionScores({ q: x, k: x, seq: 8, head_dim: 32, rope: {}, causal: true });
      if (i % 100 === 0) assert.throws(() => pe.ropeInvFreq({ rotary_dim: 3 }));
    };
    for (let i = 0; i < 100; i++) call(i);
    const before = pe.memoryBytes();
    for (let i = 0; i < 10000; i++) call(i);
    assert.equal(pe.memoryBytes(), before);
  });
}
