// pe.resizePositionGrid: a learned 2-D position table resized as SigLIP 2 does (huggingface/transformers@0184d208
// modeling_siglip2.py, Siglip2VisionEmbeddings.resize_positional_embeddings: F.interpolate(mode='bilinear',
// align_corners=False, antialias=True)), checked against closed forms of PyTorch's antialiased weights
// (pytorch/pytorch@bb7240c3 aten/src/ATen/native/cpu/UpSampleKernel.cpp, _compute_indices_min_size_weights_aa with the
// bilinear aa_filter) worked out by hand here, and against the plain bilinear formula for upsampling.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import init, { PosencError } from 'posenc';

const pe = await init();
const near = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);
const rand = (n, seed) => Float64Array.from({ length: n }, (_, i) => Math.sin(12.9898 * (i + 1) * (seed + 1)) * 43758.5453 % 1);
/** Resize a 1-D signal along the rows (a table of rows × 1 × 1). */
const alongRows = (v, n) => pe.resizePositionGrid({ table: v, rows: v.length, cols: 1, height: n, width: 1 });

test('same size: the table unchanged (weight 1 on its own cell)', () => {
  const t = rand(5 * 7 * 3, 1);
  assert.deepEqual(Array.from(pe.resizePositionGrid({ table: t, rows: 5, cols: 7, dim: 3, height: 5, width: 7 })), Array.from(t));
});

test('downsampling 4 → 2: (3a + 3b + c)/7 and (b + 3c + 3d)/7 (triangle filter 2 wide, truncated at the edges)', () => {
  const [a, b, c, d] = [1, 10, 100, 1000];
  const o = alongRows([a, b, c, d], 2);
  near(o[0], (3 * a + 3 * b + c) / 7);
  near(o[1], (b + 3 * c + 3 * d) / 7);
});

test('downsampling 16 → 8 (SigLIP 2 at 8 patch rows): inside, each output is [1, 3, 3, 1]/8 of four learned rows', () => {
  const v = rand(16, 2), o = alongRows(v, 8);
  for (let i = 1; i < 7; i++) near(o[i], (v[2 * i - 1] + 3 * v[2 * i] + 3 * v[2 * i + 1] + v[2 * i + 2]) / 8);
  near(o[0], (3 * v[0] + 3 * v[1] + v[2]) / 7);
  near(o[7], (v[13] + 3 * v[14] + 3 * v[15]) / 7);
});

test('upsampling: plain bilinear, align_corners=False, edges clamped (source x = (i + ½)·n_in/n_out − ½)', () => {
  for (const [nIn, nOut] of [[2, 4], [16, 32], [16, 24], [16, 20], [3, 7]]) {
    const v = rand(nIn, nIn + nOut), o = alongRows(v, nOut);
    for (let i = 0; i < nOut; i++) {
      const x = Math.min(Math.max((i + 0.5) * nIn / nOut - 0.5, 0), nIn - 1), j = Math.floor(x), f = x - j;
      near(o[i], j + 1 < nIn ? (1 - f) * v[j] + f * v[j + 1] : v[j], 1e-12);
    }
  }
  // 2 → 4 written out: [a, ¾a + ¼b, ¼a + ¾b, b]
  assert.deepEqual(Array.from(alongRows([4, 8], 4)), [4, 5, 7, 8]);
});

test('separable, channels independent, convex: an outer product resizes to the outer product of its 1-D resizes', () => {
  const f = rand(16, 3), g = rand(16, 4), dim = 2;
  const t = Float64Array.from({ length: 16 * 16 * dim }, (_, k) => { const d = k % dim, c = Math.floor(k / dim) % 16, r = Math.floor(k / dim / 16); return d ? 5 : f[r] * g[c]; });
  const o = pe.resizePositionGrid({ table: t, rows: 16, cols: 16, dim, height: 8, width: 32 });
  const F = alongRows(f, 8), G = alongRows(g, 32);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 32; x++) { near(o[(y * 32 + x) * dim], F[y] * G[x], 1e-12); near(o[(y * 32 + x) * dim + 1], 5, 1e-15); }
  const lo = Math.min(...t.filter((_, k) => k % dim === 0)), hi = Math.max(...t.filter((_, k) => k % dim === 0));
  for (let k = 0; k < o.length; k += dim) assert.ok(o[k] >= lo - 1e-15 && o[k] <= hi + 1e-15);
});

test('a tall table to a wide grid: the small intermediate is taken (4096×1×1024 → 1×4096×1024, 2^22 entries each; columns first was 2^34 floats, a RangeError)', () => {
  // a ramp down the rows, equal channels: downsampling 4096 → 1 weighs row j by 1 − |j + ½ − 2048|/4096, symmetric
  // about 2047.5, so every output is that row's index mean 2047.5; upsampling 1 → 4096 copies it along the columns
  const dim = 1024, t = Float64Array.from({ length: 4096 * dim }, (_, k) => Math.floor(k / dim));
  const o = pe.resizePositionGrid({ table: t, rows: 4096, cols: 1, dim, height: 1, width: 4096 });
  assert.equal(o.length, 4096 * dim);
  for (const k of [0, 1, 4096 * dim - 1, 2048 * dim + 5]) near(o[k], 2047.5, 1e-12);
});

test('a wasm buffer as the table: its values, not a rejection', () => {
  const buf = pe.alloc(Float32Array, 4);
  buf.array.set([1, 10, 100, 1000]);
  const o = pe.resizePositionGrid({ table: buf, rows: 4, cols: 1, height: 2, width: 1 });
  near(o[0], (3 * 1 + 3 * 10 + 100) / 7); near(o[1], (10 + 3 * 100 + 3 * 1000) / 7);
  buf.free();
});

test('bad input: PosencError naming the option', () => {
  assert.throws(() => pe.resizePositionGrid({ table: [1], rows: 4096, cols: 4096, dim: 8, height: 1, width: 1 }), /^PosencError: table: rows · cols · dim must be at most 67108864/);
  assert.throws(() => pe.resizePositionGrid({ table: [1, 2, 3], rows: 2, cols: 2, height: 1, width: 1 }), (e) => e instanceof PosencError && /^table: must hold rows · cols · dim = 2·2·1 = 4 numbers \(got 3\)/.test(e.message));
  assert.throws(() => pe.resizePositionGrid({ table: [1, NaN, 3, 4], rows: 2, cols: 2, height: 1, width: 1 }), /^PosencError: table\[1\]: must be finite/);
  assert.throws(() => pe.resizePositionGrid({ table: [1], rows: 1, cols: 1, height: 0, width: 1 }), /^PosencError: height/);
  assert.throws(() => pe.resizePositionGrid({ table: new Float64Array(8), rows: 1, cols: 1, height: 4096, width: 4096, dim: 8 }), /^PosencError: height: height · width · dim must be at most/);
});
