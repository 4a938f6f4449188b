// End to end: the rope-axes figure (issue 29, item 3's figure definition) as drawn in headless Chromium makes its point —
// each axis owns its own block of pairs: tokens one step apart along one axis differ only on that axis's pairs. Checked
// on the heatmap cells and curves the building blocks hold, against the closed forms of the models' reference code
// (huggingface/diffusers@58eb52c0: Wan h = w = 2⌊D/6⌋, HunyuanVideo rope_axes_dim at base 256).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { describeFigure } from 'posenc/figures';
import { figurePage } from './figure-page.mjs';

let P;
const errors = [];
before(async () => { P = await figurePage(['rope-axes'], { errors }); });
after(async () => { await P?.close(); });

const TOL = 2e-7;   // float32 cos of float64 angles

test('rope-axes: a step along one axis changes only that axis’s pairs (Wan, the HunyuanVideo try, DINOv3)', async () => {
  for (const [params, blocks] of [[{}, [[0, 22], [22, 43], [43, 64]]], [describeFigure('rope-axes').tries[0].params, [[0, 8], [8, 36], [36, 64]]],
    [{ model: 'dinov3' }, [[0, 16], [16, 32]]]]) {
    const { panels: { cos, freq } } = await P.draw('rope-axes', params);
    const grid = (params.model === 'dinov3' ? [3, 4] : [2, 3, 4]), half = cos.cols;
    assert.equal(cos.rows, grid.reduce((a, b) => a * b, 1));
    assert.equal(half, blocks[blocks.length - 1][1]);
    assert.deepEqual(freq.series.map((s) => [s.x[0], s.x[s.x.length - 1] + 1]), blocks, 'pair blocks drawn');
    // token index of grid coordinates (last axis fastest) and its neighbour one step along axis a
    const stride = grid.map((_, a) => grid.slice(a + 1).reduce((x, y) => x * y, 1));
    for (let a = 0; a < grid.length; a++) {
      if (grid[a] < 2) continue;
      const k0 = 0, k1 = stride[a];
      for (let p = 0; p < half; p++) {
        const inAxis = p >= blocks[a][0] && p < blocks[a][1];
        const same = Math.abs(cos.data[k0 * half + p] - cos.data[k1 * half + p]) <= TOL;
        // Flux-like index axes are constant; every other axis moves all of its pairs except where the angle change is tiny
        if (!inAxis) assert.ok(same, `${params.model ?? 'wan'}: axis ${a} step leaves pair ${p} unchanged`);
      }
      const moved = Array.from({ length: blocks[a][1] - blocks[a][0] }, (_, i) => blocks[a][0] + i)
        .filter((p) => Math.abs(cos.data[k0 * half + p] - cos.data[k1 * half + p]) > TOL).length;
      assert.ok(moved > 0, `axis ${a}: its own pairs move`);
    }
  }
  // the try's number: HunyuanVideo's slowest t pair turns 256^(−14/16) per frame
  const { panels: { freq } } = await P.draw('rope-axes', describeFigure('rope-axes').tries[0].params);
  const t = freq.series[0].y;
  assert.ok(Math.abs(t[t.length - 1] - 256 ** (-14 / 16)) <= 1e-12 && Math.abs(t[t.length - 1] - 0.0078) < 1e-4);
  assert.deepEqual(errors, []);
});
