// End to end: the figures of §10 (positions in images and video) make their points — each takeaway and "try this"
// asserted on the numbers drawn in headless Chromium (the building blocks' curves, cells and read-outs), against closed
// forms of the reference code: huggingface/diffusers@58eb52c0 (Wan h = w = 2⌊D/6⌋; HunyuanVideo rope_axes_dim at θ 256;
// Cosmos's base 10⁴·s^(d/(d−2)); Flux axes_dims_rope), transformers' Qwen2-VL mrope_section split (contiguous) and
// Qwen3-VL apply_interleaved_mrope @00709b86, DINOv3's patch centres 2(i + ½)/n − 1 @015e6876, and PyTorch's
// antialiased bilinear @bb7240c3 as SigLIP 2 calls it (transformers@0184d208 resize_positional_embeddings).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { describeFigure } from 'posenc/figures';
import { figurePage } from './figure-page.mjs';

let P;
const errors = [];
before(async () => { P = await figurePage(['patch-grid', 'rope-allocation', 'rope-axes', 'learned-resize'], { errors }); });
after(async () => { await P?.close(); });

const near = (a, b, rel = 1e-6, abs = 1e-7) => assert.ok(Math.abs(a - b) <= abs + rel * Math.abs(b), `${a} vs ${b}`);
const series = (panel, start) => { const s = panel.series.find((x) => x.label.startsWith(start)); assert.ok(s, `${start} in ${panel.series.map((x) => x.label)}`); return s; };
const tryOf = (name) => describeFigure(name).tries[0].params;

test('patch-grid: integer coordinates keep the step and pass every angle of 224 px; normalised ones stay within a few per cent but shrink the step', async () => {
  for (const px of [448, tryOf('patch-grid').px]) {
    const d = await P.draw('patch-grid', px === 448 ? {} : { px });
    const nI = Math.floor(px / 14), nN = Math.floor(px / 16);
    // integer: column indices 0 … n − 1 (14-px patches: 16 at 224 px); normalised: 2(i + ½)/n − 1 (16-px patches: 14 at 224 px)
    for (const [panel, n224, n, coord] of [['integer', 16, nI, (i) => i], ['normalised', 14, nN, (i, n) => 2 * (i + 0.5) / n - 1]]) {
      const base = series(d.panels[panel], '224 px'), other = series(d.panels[panel], `${px} px`);
      assert.equal(base.y.length, n224); assert.equal(other.y.length, n);
      base.y.forEach((v, i) => { near(v, coord(i, n224), 0, 1e-12); near(base.x[i], (i + 0.5) / n224, 0, 1e-12); });
      other.y.forEach((v, i) => near(v, coord(i, n), 0, 1e-12));
    }
    const r = d.readouts;
    // the fastest pair turns 1 rad per column (θ 10⁴: inv_freq[0] = 1) and 2π per unit of DINOv3's coordinate
    assert.equal(r['int-last'], nI - 1); assert.equal(r['int-step'], 1);
    assert.ok(r['int-last'] / 15 >= 2, 'integer: past every angle seen at 224 px, twice or more');
    near(r['norm-last'], 2 * Math.PI * (2 * (nN - 0.5) / nN - 1), 1e-12); near(r['norm-step'], 2 * Math.PI * 2 / nN, 1e-12);
    const last224 = 2 * Math.PI * (2 * 13.5 / 14 - 1);
    assert.ok(r['norm-last'] > last224 && r['norm-last'] / last224 < 1.06, `normalised: within a few per cent (${r['norm-last'] / last224})`);
    assert.ok(r['norm-last'] < 2 * Math.PI, 'never past the coordinate 1');
    near(r['norm-step'] * nN / 14, 2 * Math.PI * 2 / 14, 1e-12);   // the step shrinks as 14/n: half at 448 px, a quarter at 896
  }
  assert.deepEqual(errors, []);
});

/** The axis of pair p (0 t, 1 h, 2 w, 3 Flux id) in each row of rope-allocation, from the reference code's rules. */
const ALLOC = {
  'Wan 2.1': (p) => (p < 22 ? 0 : p < 43 ? 1 : 2),   // t 128 − 2·42 = 44 channels, h = w = 2⌊128/6⌋ = 42
  HunyuanVideo: (p) => (p < 8 ? 0 : p < 36 ? 1 : 2),  // rope_axes_dim [16, 56, 56]
  Cosmos: (p) => (p < 22 ? 0 : p < 43 ? 1 : 2),
  'FLUX.1': (p) => (p < 8 ? 3 : p < 36 ? 1 : 2),      // axes_dims_rope [16, 56, 56], the first the id column
  'Qwen2-VL M-RoPE': (p) => (p < 16 ? 0 : p < 40 ? 1 : 2),                 // mrope_section [16, 24, 24], contiguous
  'Qwen3-VL M-RoPE': (p) => (p >= 60 ? 0 : [0, 1, 2][p % 3]),              // [24, 20, 20] interleaved: h at 1::3, w at 2::3 below 60
};
/** Wavelength 2π/θ of pair p in each row: each axis its own spectrum at its own dimension (diffusion), one spectrum (M-RoPE). */
const WAVE = {
  'Wan 2.1': (p) => { const [k, d] = p < 22 ? [p, 44] : p < 43 ? [p - 22, 42] : [p - 43, 42]; return 2 * Math.PI * 1e4 ** (2 * k / d); },
  HunyuanVideo: (p) => { const [k, d] = p < 8 ? [p, 16] : p < 36 ? [p - 8, 56] : [p - 36, 56]; return 2 * Math.PI * 256 ** (2 * k / d); },
  Cosmos: (p) => { const [k, d, s] = p < 22 ? [p, 44, 2] : p < 43 ? [p - 22, 42, 1] : [p - 43, 42, 1]; return 2 * Math.PI * (1e4 * s ** (d / (d - 2))) ** (2 * k / d); },
  'FLUX.1': (p) => { const [k, d] = p < 8 ? [p, 16] : p < 36 ? [p - 8, 56] : [p - 36, 56]; return 2 * Math.PI * 1e4 ** (2 * k / d); },
  'Qwen2-VL M-RoPE': (p) => 2 * Math.PI * 1e6 ** (2 * p / 128),
  'Qwen3-VL M-RoPE': (p) => 2 * Math.PI * 5e6 ** (2 * p / 128),
};

test('rope-allocation: each diffusion axis its own fast-to-slow spectrum; contiguous M-RoPE leaves t only fast pairs, interleaved gives every axis all speeds', async () => {
  const d = await P.draw('rope-allocation'), { alloc, wave } = d.panels;
  assert.equal(alloc.cols, 64);
  const labels = Object.keys(ALLOC);
  assert.equal(alloc.rows, labels.length);
  labels.forEach((m, r) => {
    for (let p = 0; p < 64; p++) {
      assert.equal(alloc.data[r * 64 + p], ALLOC[m](p), `${m} pair ${p}`);
      near(wave.data[r * 64 + p], Math.log10(WAVE[m](p)), 1e-6);
    }
  });
  const tWaves = (m) => Array.from({ length: 64 }, (_, p) => p).filter((p) => ALLOC[m](p) === 0).map(WAVE[m]);
  // diffusion rows: every axis block starts at wavelength 2π (its fastest pair turns 1 rad per position) and slows steadily
  for (const m of ['Wan 2.1', 'HunyuanVideo', 'Cosmos', 'FLUX.1']) {
    const row = labels.indexOf(m);
    for (let p = 0; p < 64; p++) {
      const first = p === 0 || alloc.data[row * 64 + p] !== alloc.data[row * 64 + p - 1];
      if (first) near(10 ** wave.data[row * 64 + p], 2 * Math.PI, 1e-6);
      else assert.ok(wave.data[row * 64 + p] > wave.data[row * 64 + p - 1]);
    }
  }
  // the takeaway's numbers: Qwen2-VL's slowest t pair ≈ 160 positions per turn; Qwen3-VL's t pairs span fast to very slow
  const q2 = Math.max(...tWaves('Qwen2-VL M-RoPE')), q3 = tWaves('Qwen3-VL M-RoPE');
  near(d.readouts['t-qwen2_vl'], q2, 1e-12);
  assert.ok(q2 > 155 && q2 < 165, `${q2}`);
  assert.ok(Math.min(...q3) < 10 && Math.max(...q3) > 1e6);
  near(d.readouts['t-hunyuan_video'], 2 * Math.PI * 256 ** (14 / 16), 1e-12);
  // the try: turns in 64 positions — every Qwen2-VL t pair more than a third of a turn; some Qwen3-VL t pairs barely move
  const t = await P.draw('rope-allocation', tryOf('rope-allocation')), w = t.panels.wave, r2 = labels.indexOf('Qwen2-VL M-RoPE'), r3 = labels.indexOf('Qwen3-VL M-RoPE');
  const turns = (row, m) => Array.from({ length: 64 }, (_, p) => p).filter((p) => ALLOC[m](p) === 0).map((p) => w.data[row * 64 + p]);
  near(Math.min(...turns(r2, 'Qwen2-VL M-RoPE')), 64 / q2, 1e-6);
  assert.ok(64 / q2 > 1 / 3);
  assert.ok(Math.min(...turns(r3, 'Qwen3-VL M-RoPE')) < 1e-4);
  assert.deepEqual(errors, []);
});

test('rope-axes: each axis’s angle map varies only along its own axis (Wan 2×3×4, DINOv3 3×4)', async () => {
  const wrap = (a) => Math.atan2(Math.sin(a), Math.cos(a));
  // Wan: the fastest pair of each axis turns 1 rad per frame / row / column; 2 frames of 3×4 side by side, a blank between
  const d = await P.draw('rope-axes');
  for (const [axis, f] of [['t', (t) => t], ['h', (t, h) => h], ['w', (t, h, w) => w]]) {
    const m = d.panels[`grid-${axis}`];
    assert.equal(m.rows, 3); assert.equal(m.cols, 9);
    for (let h = 0; h < 3; h++) {
      assert.ok(Number.isNaN(m.data[h * 9 + 4]), 'the blank between frames');
      for (let t = 0; t < 2; t++) for (let w = 0; w < 4; w++) near(m.data[h * 9 + t * 5 + w], wrap(f(t, h, w)), 0, 2e-6);
    }
  }
  // DINOv3 (2-D): angle 2π·x of the patch centre x = 2(i + ½)/n − 1 on its axis, wrapped to (−π, π]
  const v = await P.draw('rope-axes', { model: 'dinov3' });
  assert.equal(v.panels['grid-t'], undefined);
  for (let h = 0; h < 3; h++) for (let w = 0; w < 4; w++) {
    near(v.panels['grid-h'].data[h * 4 + w], wrap(2 * Math.PI * (2 * (h + 0.5) / 3 - 1)), 0, 2e-6);
    near(v.panels['grid-w'].data[h * 4 + w], wrap(2 * Math.PI * (2 * (w + 0.5) / 4 - 1)), 0, 2e-6);
  }
  assert.deepEqual(errors, []);
});

test('learned-resize: the 16×16 table stretched — 32 columns interpolate between 2 learned ones, 8 rows average 4; nothing beyond the table’s range', async () => {
  const d = await P.draw('learned-resize'), { table, resized, weights } = d.panels;
  const T = (r, c) => Math.sin(r) * Math.cos(c);   // the stand-in: sinusoidal d = 2, row p = [sin p, cos p]
  for (let r = 0; r < 16; r++) for (let c = 0; c < 16; c++) near(table.data[r * 16 + c], T(r, c), 0, 1e-7);
  // closed forms of PyTorch's antialiased weights: 16 → 8 rows: [1, 3, 3, 1]/8 inside, [3, 3, 1]/7 at the edges;
  // 16 → 32 columns: bilinear with source x = (j + ½)/2 − ½, clamped
  const rowW = (y) => (y === 0 ? [[0, 3 / 7], [1, 3 / 7], [2, 1 / 7]] : y === 7 ? [[13, 1 / 7], [14, 3 / 7], [15, 3 / 7]]
    : [[2 * y - 1, 1 / 8], [2 * y, 3 / 8], [2 * y + 1, 3 / 8], [2 * y + 2, 1 / 8]]);
  const colW = (x) => { const s = Math.min(Math.max((x + 0.5) / 2 - 0.5, 0), 15), j = Math.floor(s), f = s - j; return j < 15 ? [[j, 1 - f], [j + 1, f]] : [[15, 1]]; };
  assert.equal(resized.rows, 8); assert.equal(resized.cols, 32);
  let lo = Infinity, hi = -Infinity;
  for (let r = 0; r < 16; r++) for (let c = 0; c < 16; c++) { lo = Math.min(lo, T(r, c)); hi = Math.max(hi, T(r, c)); }
  for (let y = 0; y < 8; y++) for (let x = 0; x < 32; x++) {
    let want = 0;
    for (const [r, a] of rowW(y)) for (const [c, b] of colW(x)) want += a * b * T(r, c);
    const got = resized.data[y * 32 + x];
    near(got, want, 0, 1e-6);
    assert.ok(got >= lo - 1e-6 && got <= hi + 1e-6, 'never beyond the learned range');
  }
  const wr = series(weights, 'patch row 4 of 8').y, wc = series(weights, 'patch column 16 of 32').y;
  assert.deepEqual(wr.map((v, k) => [k, v]).filter(([, v]) => v > 0), rowW(4));
  assert.deepEqual(wc.map((v, k) => [k, v]).filter(([, v]) => v > 0), colW(16));
  assert.equal(d.readouts['taps-rows'], 4); assert.equal(d.readouts['taps-cols'], 2);
  assert.ok(d.readouts.peak < 0.8, 'the row detail is averaged down');
  // the try: 16×16 patches take the table unchanged, weight 1 on the own cell
  const s = await P.draw('learned-resize', tryOf('learned-resize'));
  s.panels.resized.data.forEach((v, k) => assert.ok(v === table.data[k], `${k}`));   // exactly (0 and −0 alike)
  assert.equal(d.readouts['taps-rows'] > s.readouts['taps-rows'], true);
  assert.deepEqual(series(s.panels.weights, 'patch row 8 of 16').y.map((v, k) => [k, v]).filter(([, v]) => v > 0), [[8, 1]]);
  assert.deepEqual(errors, []);
});
