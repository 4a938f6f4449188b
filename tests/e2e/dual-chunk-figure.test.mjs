// End to end: the dual-chunk figure (issue 29, item 2) as drawn in headless Chromium makes its point — its takeaway
// asserted on the heatmap cells and curves the building blocks hold, against vLLM's remapping written here in closed form
// (vllm-project/vllm@07b13497 vllm/model_executor/layers/rotary_embedding/dual_chunk_rope.py) and pe.ropeDecayBound.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { describeFigure } from 'posenc/figures';
import { figurePage } from './figure-page.mjs';

const pe = await init();
let P;
const errors = [];
before(async () => { P = await figurePage(['dual-chunk'], { errors }); });
after(async () => { await P?.close(); });

/** vLLM's encoded distance of query i and key j ≤ i (chunks of L = chunk_size − local_size). */
const encoded = (cs, ls, i, j) => {
  const L = cs - ls, ci = Math.floor(i / L), cj = Math.floor(j / L);
  return ci === cj ? i - j : cj === ci - 1 ? Math.min((i % L) + L, cs) - (j % L) : Math.min(2 * L - 1, cs) - (j % L);
};

test('dual-chunk: no drawn distance exceeds chunk_size; the decay is Su’s bound read at the encoded distance (default and the try)', async () => {
  const d = describeFigure('dual-chunk');
  for (const params of [{}, ...d.tries.map((t) => t.params)]) {
    const p = { ...Object.fromEntries(d.params.map((x) => [x.name, x.default])), ...params };
    const r = await P.draw('dual-chunk', params), { map, dist, decay } = r.panels, n = p.n;
    assert.equal(map.rows, n);
    let max = 0;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const v = map.data[i * n + j];
      if (j > i) { assert.ok(Number.isNaN(v), `masked ${i},${j}`); continue; }
      assert.equal(v, encoded(p.chunk_size, p.local_size, i, j), `cell ${i},${j}`);
      max = Math.max(max, v);
    }
    assert.ok(max <= p.chunk_size && n - 1 > p.chunk_size, `largest encoded ${max} ≤ chunk_size ${p.chunk_size} < true ${n - 1}`);
    const bound = pe.ropeDecayBound({ rotary_dim: 128, rope_theta: p.rope_theta, count: n });
    const eff = dist.series.find((s) => s.label === 'dual chunk').y, dca = decay.series.find((s) => s.label === 'dual chunk').y;
    eff.forEach((e, k) => { assert.equal(e, encoded(p.chunk_size, p.local_size, n - 1, n - 1 - k)); assert.ok(Math.abs(dca[k] - bound[e]) <= 1e-6 * Math.abs(bound[e])); });
    // the takeaway: beyond chunk_size the drawn decay never goes below the bound's smallest value within chunk_size
    const floor = Math.min(...bound.slice(0, p.chunk_size + 1)), plain = decay.series.find((s) => s.label === 'plain RoPE').y;
    for (let k = p.chunk_size + 1; k < n; k++) assert.ok(dca[k] >= floor * (1 - 1e-6), `${k}`);
    assert.ok(Math.min(...plain.slice(p.chunk_size + 1)) < floor, 'plain RoPE keeps falling');
  }
  assert.deepEqual(errors, []);
});
