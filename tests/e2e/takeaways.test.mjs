// End to end: every figure makes its point (issue 19). Each figure's takeaway (and each "try this" sentence) is asserted
// on the numbers the figure draws — its heatmap cells, curves, marks and read-outs as the building blocks hold them —
// checked against closed forms or the package's API computed here in Node, never against pixels.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { figureNames, describeFigure } from 'posenc/figures';
import { randomRows } from '../../web/src/figures/defs/util.js';
import { figurePage } from './figure-page.mjs';
import { englishWords } from './zh-text.mjs';

const pe = await init();
const NAMES = figureNames.filter((n) => !n.startsWith('config-'));   // the config reader's figures: config-reader.test.mjs
const CODE = new Set(['true', 'false', ...figureNames.flatMap((n) => describeFigure(n).params.flatMap((p) => [p.name, ...(p.values ?? []).map(String)]))]);
let P;
const errors = [];
before(async () => { P = await figurePage(NAMES, { errors }); });
after(async () => { await P?.close(); });

const at = (m, r, c) => m.data[r * m.cols + c];
const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const series = (panel, label) => { const s = panel.series.find((x) => x.label === label); assert.ok(s, `series "${label}" in ${panel.series.map((x) => x.label)}`); return s; };
/** Every try of a figure, drawn: [{look, drawn}]. */
async function tries(name) {
  const out = [];
  for (const t of describeFigure(name).tries) out.push({ look: t.look.en, d: await P.draw(name, t.params) });   // one at a time: one element
  return out;
}

test('every figure on the page has at least one "try this" whose parameters are valid', () => {
  for (const n of NAMES) {
    const t = describeFigure(n).tries;
    assert.ok(t.length >= 1, `${n}: a try`);
    for (const x of t) {
      assert.ok(x.look.en && x.look.zh && !/[\u4e00-\u9fff] [\u4e00-\u9fff]/.test(x.look.zh), `${n}: en + zh sentence`);
      assert.deepEqual(englishWords([x.look.zh], CODE), [], `${n}: no English words in the zh sentence`);
      const names = describeFigure(n).params.map((p) => p.name);
      for (const k of Object.keys(x.params)) assert.ok(names.includes(k), `${n}: try sets a parameter it has (${k})`);
    }
  }
});

test('§2 position codes: integers grow, binary steps are uneven (6 bits at 31 → 32), the sinusoid’s step and size are the same everywhere', async () => {
  for (const [d, n, widest, at] of [[await P.draw('position-codes'), 64, 6, 31], [(await tries('position-codes'))[0].d, 256, 8, 127]]) {
    assert.equal(d.readouts['int-max'], n - 1);
    assert.equal(Math.round(d.readouts['bin-step']), widest);
    const step = d.panels.step, size = d.panels.size, bin = series(step, 'binary bits').y, sine = series(step, 'sinusoid').y;
    assert.equal(bin.indexOf(Math.max(...bin)), at, 'the widest binary step is at the carry');
    assert.ok(bin.filter((x) => x === 1).length >= (n - 1) / 2, 'one bit between most neighbours');
    // the sinusoid: every step √Σ(2 sin(ωᵢ/2))², every code √bits long (ωᵢ = π/2^i, 8 pairs)
    const want = Math.sqrt(Array.from({ length: 8 }, (_, i) => (2 * Math.sin(Math.PI / 2 ** i / 2)) ** 2).reduce((a, b) => a + b));
    for (const x of sine) assert.ok(Math.abs(x - want) < 1e-5, `${x} vs ${want}`);
    for (const x of series(size, 'sinusoid').y) assert.ok(Math.abs(x - Math.sqrt(8)) < 1e-5);
    assert.equal(series(size, 'integer p').y.at(-1), n - 1);
    // the binary map: bit i of p
    const m = d.panels.binary;
    for (const p of [0, 31, 32, n - 1]) for (let i = 0; i < 8; i++) assert.equal(at2(m, p, i), Math.floor(p / 2 ** i) % 2);
  }
  function at2(m, r, c) { return m.data[r * m.cols + c]; }
});

test('§1 permutation: S′ − PSPᵀ is 0 without RoPE, and not with it (its own colour scale)', async () => {
  const d = await P.draw('permutation');
  assert.ok(maxAbs(d.panels.diff.data) <= 1e-6, 'no position: only permuted');
  const [{ d: r }] = await tries('permutation');
  const { a, b, diff } = r.panels, n = a.rows, perm = [2, 1, 0];   // tokens 0 and 2 swapped
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.ok(Math.abs(at(diff, i, j) - (at(b, i, j) - at(a, perm[i], perm[j]))) < 1e-6);
  assert.ok(maxAbs(diff.data) > 1e-3, `RoPE: the scores changed (${maxAbs(diff.data)})`);
  assert.ok(diff.range[1] <= 2 * maxAbs(diff.data), 'its own scale, fitted to the difference');
});

test('§1 attention: with RoPE the rows of “the” differ; unticked (the try) they are identical', async () => {
  const rows = (m, i) => m.data.slice(i * m.cols, (i + 1) * m.cols);
  const the = [0, 3, 6, 10, 13], d = await P.draw('attention');
  assert.ok(maxAbs(rows(d.panels.map, 0).map((x, k) => x - rows(d.panels.map, 3)[k])) > 1e-3, 'RoPE: rows differ');
  const [{ d: r }] = await tries('attention');
  for (const i of the) assert.deepEqual(rows(r.panels.map, i), rows(r.panels.map, 0), `row ${i} = row 0`);
});

test('§2 sinusoidal: p_i·p_j is constant along every diagonal; the shift try keeps p_i·p_j = p_{i+s}·p_{j+s}', async () => {
  const { panels: { sim } } = await P.draw('sinusoidal');
  let worst = 0;
  for (let i = 0; i + 1 < sim.rows; i++) for (let j = 0; j + 1 < sim.cols; j++) worst = Math.max(worst, Math.abs(at(sim, i + 1, j + 1) - at(sim, i, j)));
  assert.ok(worst < 1e-4 * maxAbs(sim.data), `diagonals constant (${worst})`);
  const [{ d: r }] = await tries('sinusoidal');
  assert.ok(Math.abs(r.readouts.pij - r.readouts.pijs) < 1e-5 * Math.abs(r.readouts.pij));
});

test('§2 multiplicative: x ⊙ p channel by channel; at position 0 the even channels vanish', async () => {
  const d = await P.draw('multiplicative'), L = d.panels.lines;
  const x = series(L, 'embedding x').y, p = series(L, 'pₚₒₛ').y, xp = series(L, 'x ⊙ p').y;
  xp.forEach((v, i) => assert.ok(Math.abs(v - x[i] * p[i]) < 1e-6));
  const [{ d: r }] = await tries('multiplicative'), xp0 = series(r.panels.lines, 'x ⊙ p').y, x0 = series(r.panels.lines, 'embedding x').y;
  xp0.forEach((v, i) => assert.ok(Math.abs(v - (i % 2 ? x0[i] : 0)) < 1e-7, `channel ${i}`));
});

test('§3 Shaw: index clip(j − i, −K, K) + K, 2K + 1 embeddings; K = 1 leaves three', async () => {
  for (const { d, K } of [{ d: await P.draw('shaw'), K: 4 }, { d: (await tries('shaw'))[0].d, K: 1 }]) {
    const m = d.panels.map;
    for (let i = 0; i < m.rows; i++) for (let j = 0; j < m.cols; j++) assert.equal(at(m, i, j), Math.min(K, Math.max(-K, j - i)) + K);
    assert.equal(new Set(m.data).size, 2 * K + 1);
  }
});

test('§3 Transformer-XL: every term masked after the query; (d) constant along diagonals, (c) down columns', async () => {
  const { panels } = await P.draw('transformer-xl'), mem = 2, { rows, cols } = panels.score;
  for (const t of ['a', 'b', 'c', 'd', 'score']) for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) {
    const v = at(panels[t], i, j), masked = j > i + mem;
    assert.equal(masked, v === -Infinity || Number.isNaN(v), `${t}[${i},${j}] masked = ${masked}`);
  }
  for (let i = 0; i + 1 < rows; i++) for (let j = 0; j + 1 <= i + mem; j++) {
    assert.ok(Math.abs(at(panels.d, i + 1, j + 1) - at(panels.d, i, j)) < 1e-5, `(d) diagonal at ${i},${j}`);
    assert.ok(Math.abs(at(panels.c, i + 1, j) - at(panels.c, i, j)) < 1e-5, `(c) column ${j}`);
  }
  // the try: the same word everywhere, no memory: (a) flat, (b) constant along diagonals
  const [{ d: r }] = await tries('transformer-xl'), A = r.panels.a, B = r.panels.b;
  for (let i = 0; i < A.rows; i++) for (let j = 0; j <= i; j++) {
    assert.ok(Math.abs(at(A, i, j) - at(A, 0, 0)) < 1e-5, '(a) flat');
    if (i + 1 < A.rows) assert.ok(Math.abs(at(B, i + 1, j + 1) - at(B, i, j)) < 1e-5, '(b) diagonal');
  }
});

test('§3 T5: exact buckets near 0, log-wider beyond, the last one past max_distance; decoder: the future is bucket 0', async () => {
  const { panels: { plot } } = await P.draw('t5'), s = series(plot, 'bucket(j − i)');
  const b = (x) => s.y[s.x.indexOf(x)];
  for (let x = -7; x <= 7; x++) assert.equal(new Set([b(x), b(x + 1)]).size, 2, `offsets ${x}, ${x + 1}: own buckets`);
  assert.ok(b(40) === b(41) && b(-40) === b(-41), 'far offsets share');
  for (const x of s.x) if (x >= 128) assert.equal(b(x), 31); else if (x <= -128) assert.equal(b(x), 15);
  assert.deepEqual(plot.marks.map((m) => m.x), [-128, 128]);
  s.x.forEach((x, i) => assert.equal(s.y[i], pe.t5RelativePositionBucket(x)));
  const [{ d: r }] = await tries('t5'), dec = series(r.panels.plot, 'bucket(j − i)');
  dec.x.forEach((x, i) => { if (x >= 0) assert.equal(dec.y[i], 0, `decoder j − i = ${x}`); });
  assert.equal(Math.max(...dec.y), 31, 'all 32 buckets go to the past');
});

test('§3 DeBERTa: δ axis ±max_relative_positions, y fits the buckets, staircase past position_buckets/2, diagonal terms', async () => {
  for (const { d, pb } of [{ d: await P.draw('deberta'), pb: 16 }, { d: (await tries('deberta'))[0].d, pb: 32 }]) {
    const plot = d.panels.plot, s = series(plot, 'bucketed δ');
    assert.deepEqual([Math.min(...s.x), Math.max(...s.x)], [-64, 64], 'x = ±max_relative_positions');
    s.x.forEach((x, i) => { if (Math.abs(x) < pb / 2) assert.equal(s.y[i], x, `δ = ${x} keeps its own bucket`); });
    const far = s.y.filter((_, i) => Math.abs(s.x[i]) >= pb / 2);
    assert.ok(new Set(far).size <= far.length / 2, `past |δ| = ${pb / 2} neighbouring δ share buckets`);
    const top = maxAbs(s.y), ident = series(plot, 'δ (unbucketed)');
    assert.ok(ident.y.every((v) => Number.isNaN(v) || Math.abs(v) <= top), 'the δ line stays inside the bucket range');
  }
  const { panels: p, readouts } = await P.draw('deberta');
  assert.ok(maxAbs(p.c2c.data.map((x) => x - p.c2c.data[0])) < 1e-5, 'content→content flat');
  for (const t of ['c2p', 'p2c']) for (let i = 0; i + 1 < p[t].rows; i++) for (let j = 0; j + 1 < p[t].cols; j++) assert.ok(Math.abs(at(p[t], i + 1, j + 1) - at(p[t], i, j)) < 1e-5, `${t} diagonal`);
  assert.ok(Math.abs(readouts.scale - Math.sqrt(3 * 16)) < 1e-6, '√(3d)');
});

test('§3 TUPE: the positional term is (p_i U_Q)(p_j U_K)ᵀ/√(2d) of the positions alone', async () => {
  for (const { d, head } of [{ d: await P.draw('tupe'), head: 0 }, { d: (await tries('tupe'))[0].d, head: 2 }]) {
    const n = 32, dm = 32, hd = 8, p = pe.sinusoidal({ positions: n, d: dm }), uq = randomRows(pe, dm, 4 * hd, 6, 'uq'), uk = randomRows(pe, dm, 4 * hd, 7, 'uk');
    const proj = (u, i) => Array.from({ length: hd }, (_, c) => { let s = 0; for (let a = 0; a < dm; a++) s += p[i * dm + a] * u[a * 4 * hd + head * hd + c]; return s; });
    const m = d.panels.map;
    for (const [i, j] of [[0, 0], [3, 17], [31, 5], [12, 12]]) {
      const Q = proj(uq, i), K = proj(uk, j), want = Q.reduce((s, x, c) => s + x * K[c], 0) / Math.sqrt(2 * hd);
      assert.ok(Math.abs(at(m, i, j) - want) < 1e-4 * Math.max(1, Math.abs(want)), `head ${head} (${i}, ${j}): ${at(m, i, j)} vs ${want}`);
    }
  }
});

test('§4 rope-rotation: ⟨Rₘq, Rₙk⟩ = ⟨q, Rₙ₋ₘk⟩, and moving m and n together (the try) keeps it', async () => {
  const d = await P.draw('rope-rotation'), [{ d: r }] = await tries('rope-rotation');
  assert.ok(Math.abs(d.readouts.dot - d.readouts.rel) < 1e-6);
  assert.ok(Math.abs(r.readouts.dot - d.readouts.dot) < 1e-6, `${r.readouts.dot} vs ${d.readouts.dot}`);
  const qm = r.panels.plane.vectors.find((v) => v.id === 'qm'), c = Math.cos(8 * 0.3), s = Math.sin(8 * 0.3);
  assert.ok(Math.abs(qm.x - (1.2 * c - 0.3 * s)) < 1e-6 && Math.abs(qm.y - (1.2 * s + 0.3 * c)) < 1e-6, 'Rₘq is q turned by mθ');
});

test('§4 partial rotary: the flat band starts exactly at rotary_dim (ruled), half-split pairs i, i + rotary_dim/2', async () => {
  for (const { d, rd } of [{ d: await P.draw('partial-rotary'), rd: 32 }, { d: (await tries('partial-rotary'))[0].d, rd: 16 }]) {
    const m = d.panels.map;
    assert.deepEqual(m.marks.map((x) => x.col), [rd]);
    for (let c = 0; c < m.cols; c++) {
      const col = Array.from({ length: m.rows }, (_, r) => at(m, r, c));
      if (c >= rd) assert.ok(col.every((v) => v === 1), `channel ${c} passes through`);
      else assert.ok(maxAbs(col.map((v) => v - 1)) > 0.1, `channel ${c} rotates visibly`);
    }
    for (let r = 0; r < m.rows; r++) for (let i = 0; i < rd / 2; i++) assert.ok(Math.abs(at(m, r, i) ** 2 + at(m, r, i + rd / 2) ** 2 - 2) < 1e-4, 'pair (i, i + rd/2) keeps its norm');
  }
});

test('§5 rope-decay: turns back up after the slowest pair’s quarter turn; bound ≥ |score|; random q, k peak at 0', async () => {
  const d = await P.draw('rope-decay', { base2: 0 }), plot = d.panels.plot, s = series(plot, 'base 10000');
  const quarter = Math.PI / 2 / 10000 ** (-510 / 512);
  assert.ok(Math.abs(plot.marks[0].x - quarter) < 1e-6 * quarter);
  const top = (a, b) => s.y2.filter((_, i) => s.x[i] >= a && s.x[i] < b);
  assert.ok(Math.max(...top(2 * quarter, 65536)) > Math.min(...top(0.7 * quarter, 1.3 * quarter)) + 50, 'turns back up');
  const abs = series(d.panels.bound, '|score|, base 10000').y, bound = series(d.panels.bound, 'bound max|Δh|·Σ|Sⱼ|, base 10000').y;
  abs.forEach((v, i) => assert.ok(bound[i] >= v - 1e-3 * Math.max(1, v), `bound at pixel ${i}`));
  const [big, random] = await tries('rope-decay');
  assert.equal(big.d.panels.plot.marks.length, 0, 'base 500000: quarter turn outside the window');
  const env = series(big.d.panels.plot, 'base 500000').y2, q4 = env.length / 4;
  assert.ok(Math.max(...env.slice(3 * q4)) < Math.max(...env.slice(q4, 2 * q4)), 'base 500000: no turn back up');
  // non-negative random q, k (source 003's np.random.rand): score at 0 ≥ 3 × the mean |score| beyond 1000
  const r = series(random.d.panels.plot, 'base 10000'), far = r.x.map((x, i) => [x, Math.max(Math.abs(r.y[i]), Math.abs(r.y2[i]))]).filter(([x]) => x > 1000);
  const meanAbs = far.reduce((a, [, v]) => a + v, 0) / far.length;   // per-pixel max |score|: an upper bound on the mean |score|
  assert.ok(random.d.readouts.at >= 3 * meanAbs, `peak ${random.d.readouts.at} vs 3 × ${meanAbs}`);
  const v = randomRows(pe, 2, 512, 0, 'qk').map(Math.abs);
  assert.equal(random.d.readouts.at, pe.ropeInnerProductSweep({ q: v.slice(0, 512), k: v.slice(512), head_dim: 512, rope_theta: 10000, count: 1 })[0]);
  assert.ok(v.every((x) => x >= 0));
});

test('§5 Su’s curve: (d/2 + 1)/2 at 0, falls below a quarter of it by 256; at long range it stops falling', async () => {
  const s = (await P.draw('su-decay')).panels.plot.series[0].y;
  assert.ok(Math.abs(s[0] - 32.5) < 1e-5);
  assert.ok(s[256] < s[0] / 4);
  const [{ d: r }] = await tries('su-decay'), y = r.panels.plot.series[0].y, tail = y.slice(1000);
  assert.ok(Math.min(...tail) > 1 && Math.min(...tail) < 2 && Math.max(...tail) > 10 && Math.max(...tail) < 15, `swings ${Math.min(...tail)} … ${Math.max(...tail)}`);
});

test('§6 wavelengths: 2π·base^(2i/d); the count above the training length is the closed form', async () => {
  for (const { d, base, L } of [{ d: await P.draw('wavelengths'), base: 10000, L: 4096 }, { d: (await tries('wavelengths'))[0].d, base: 500000, L: 8192 }]) {
    const w = d.panels.wave.series[0].y;
    w.forEach((v, i) => assert.ok(Math.abs(v - 2 * Math.PI * base ** ((2 * i) / 128)) < 1e-9 * v));
    assert.equal(d.readouts.incomplete, w.filter((_, i) => 2 * Math.PI * base ** ((2 * i) / 128) > L).length);
  }
});

test('§6 context extension: one colour per scheme in every panel; PI = 1/factor; YaRN, Llama 3 keep fast pairs; dynamic NTK ends at 1/α', async () => {
  for (const { d, s } of [{ d: await P.draw('context-extension'), s: 8 }, { d: (await tries('context-extension'))[0].d, s: 2 }]) {
    const { ratio } = d.panels, get = (l) => series(ratio, l).y;
    get('PI (linear)').forEach((v) => assert.ok(Math.abs(v - 1 / s) < 1e-12));
    for (const l of ['YaRN', 'Llama 3']) { const y = get(l); assert.equal(y[0], 1); assert.ok(Math.abs(y.at(-1) - 1 / s) < 1e-12, l); }
    // Hugging Face's dynamic NTK at L = s·L_train: α = s·L/L_train − (s − 1) = s² − s + 1, the slowest pair's ratio is 1/α
    const alpha = s * s - (s - 1), dyn = ratio.series.find((x) => /^dynamic NTK/.test(x.label)).y;
    assert.ok(Math.abs(dyn.at(-1) - 1 / alpha) < 1e-9 / alpha, `dynamic: ${dyn.at(-1)} vs 1/${alpha}`);
    for (const x of ratio.series) {
      const small = Object.entries(d.panels).find(([id, p]) => id.startsWith('decay-') && p.series[1].label === x.label)?.[1];
      assert.ok(small, `a decay panel for ${x.label}`);
      assert.equal(small.series[1].color, x.color, `${x.label}: same colour in both panels`);
      assert.equal(small.series[0].label, 'unscaled');
    }
    assert.equal(new Set(ratio.series.map((x) => x.color)).size, ratio.series.length, 'distinct colours');
  }
});

test('§5 rope-phasor: at distance 64 the fast half cancels, the slow half remains; the score is 2·Σcos; the tries', async () => {
  const theta = (d, b) => Array.from({ length: d / 2 }, (_, i) => b ** (-2 * i / d));
  const meanCos = (th, r, lo, hi) => th.slice(lo, hi).reduce((s, t) => s + Math.cos(r * t), 0) / (hi - lo);
  const check = (d, { distance, base, dim }) => {
    const th = theta(dim, base), h = dim / 4;
    assert.ok(Math.abs(d.readouts.fast - meanCos(th, distance, 0, h)) < 1e-5, 'fast mean');
    assert.ok(Math.abs(d.readouts.slow - meanCos(th, distance, h, 2 * h)) < 1e-5, 'slow mean');
    assert.ok(Math.abs(d.readouts.score - 2 * th.reduce((s, t) => s + Math.cos(distance * t), 0)) < 1e-3, 'score = 2·Σcos');
    assert.equal(d.panels.hands.vectors.length, dim / 2 + 1, 'one hand per pair and the mean hand');
    const score = d.panels.score.series[0];
    assert.ok(Math.abs(score.y[distance] - d.readouts.score) < 1e-3, 'the curve passes through the read-out');
    return d.readouts;
  };
  const r = check(await P.draw('rope-phasor'), { distance: 64, base: 10000, dim: 128 });
  assert.ok(Math.abs(r.fast) < 0.05 && r.slow > 0.95, `takeaway: fast ${r.fast} ≈ 0, slow ${r.slow} ≈ 1`);
  assert.ok(r.score / 128 > 0.4 && r.score / 128 < 0.6, `about half: ${r.score / 128}`);
  const [t0, t1, t2] = await tries('rope-phasor');
  assert.ok(Math.abs(check(t0.d, { distance: 0, base: 10000, dim: 128 }).score - 128) < 1e-3, 'peak 128 at 0');
  const a = check(t1.d, { distance: 1000, base: 10000, dim: 128 });
  assert.ok(Math.abs(a.fast) < 0.05 && Math.abs(a.slow - 0.34) < 0.01 && Math.abs(a.score / 128 - 1 / 6) < 0.02, JSON.stringify(a));
  const b = check(t2.d, { distance: 1000, base: 500000, dim: 128 });
  assert.ok(b.slow > 0.9 && Math.abs(b.score / 128 - 0.5) < 0.05 && b.score > 2 * a.score, JSON.stringify(b));
});

test('§6 ntk-base: the shaded band is exactly the pairs that never turned in training and that NTK pushes past the trained angle', async () => {
  for (const [p, want] of [[{}, [46, 62]], [{ factor: 32 }, null]]) {
    const d = await P.draw('ntk-base', p), s = p.factor ?? 8, dim = 128, len = 4096;
    const th = Array.from({ length: dim / 2 }, (_, i) => 10000 ** (-2 * i / dim));
    const ntk = th.map((t, i) => t * s ** (-2 * i / (dim - 2)));
    const out = th.map((t, i) => i).filter((i) => len * th[i] < 2 * Math.PI && len * s * ntk[i] > len * th[i] * (1 + 1e-9));
    if (want) assert.deepEqual([out[0], out.at(-1)], want);
    const band = d.panels.angle.regions.find((x) => /past the trained angles/.test(x.label.en ?? x.label));
    assert.ok(band, 'a band on the angle panel');
    assert.deepEqual([band.x0 + 0.5, band.x1 - 0.5], [out[0], out.at(-1)]);
    assert.equal(d.readouts.beyond, out.length);
    // inside the band NTK's angle at L·s is above the black line; PI's equals it
    const a = d.panels.angle, ntkA = series(a, 'NTK-aware at L·s').y, seen = a.series[0].y, piA = series(a, 'PI at L·s').y;
    for (const i of out) { assert.ok(ntkA[i] > seen[i] && seen[i] < 2 * Math.PI, `pair ${i}`); assert.ok(Math.abs(piA[i] / seen[i] - 1) < 1e-9); }
  }
});

test('§6 scaling-wavelengths: the pairs that do not finish a turn within L (the merged wavelength figure)', async () => {
  const d = await P.draw('scaling-wavelengths');
  const w = Array.from({ length: 64 }, (_, i) => 2 * Math.PI * 10000 ** ((2 * i) / 128));
  assert.equal(d.readouts.incomplete, w.filter((x) => x > 4096).length);
});

test('§6 context extension on a log axis: YaRN and Llama 3 start as the unscaled decay, PI does not; PI is the unscaled decay stretched by s', async () => {
  const { panels } = await P.draw('context-extension');
  const un = (k) => series(panels[`decay-${k}`], 'unscaled'), sc = (k, l) => series(panels[`decay-${k}`], l);
  for (const k of ['linear', 'yarn', 'llama3']) assert.ok(panels[`decay-${k}`].logX, `${k}: log axis`);
  const x = un('yarn').x, upTo = (lim) => x.map((v, i) => i).filter((i) => x[i] <= lim);
  assert.equal(x[0], 1, 'the first tokens are drawn one by one');
  // the takeaway: both within 0.02 over the first two dozen tokens, Llama 3 past a hundred; PI 0.25 above by the 13th
  for (const [k, l, lim] of [['yarn', 'YaRN', 24], ['llama3', 'Llama 3', 100]]) {
    const y = sc(k, l).y, u = un(k).y;
    for (const i of upTo(lim)) assert.ok(Math.abs(y[i] - u[i]) < 0.02, `${l} at ${x[i]}: ${y[i]} vs ${u[i]}`);
  }
  const pi = sc('linear', 'PI (linear)').y, u = un('linear').y;
  assert.ok(pi[x.indexOf(13)] - u[x.indexOf(13)] > 0.25, `PI at 13: ${pi[x.indexOf(13)]} vs ${u[x.indexOf(13)]}`);
  // stretched by s = 8: PI at distance 8x ≈ unscaled at x (windows far enough out to hold many tokens)
  const near = (arr, xs, v) => arr[xs.reduce((b, xi, i) => (Math.abs(Math.log(xi / v)) < Math.abs(Math.log(xs[b] / v)) ? i : b), 0)];
  for (const v of [128, 512, 2048]) assert.ok(Math.abs(near(pi, x, 8 * v) - near(u, x, v)) < 0.05, `PI at ${8 * v} vs unscaled at ${v}`);
});

test('§6 evidence: the YaRN paper’s published numbers as drawn; NTK-aware turns up past ~17k and loses the passkey, YaRN keeps falling', async () => {
  const d = await P.draw('evidence-extension'), ppl = d.panels.ppl, get = (l) => series(ppl, l);
  // spot values of the published data (github.com/jquesnelle/yarn data/proofpile-long-small-llama1-32k.csv, passkey-32k.csv)
  assert.equal(get('PI (linear)').y.at(-1), 3.568); assert.equal(get('NTK-aware').y.at(-1), 8.494); assert.equal(get('YaRN').y.at(-1), 2.769);
  assert.equal(get('NTK-aware').x[16], 17408);
  const ntk = get('NTK-aware').y, yarn = get('YaRN').y, pi = get('PI (linear)').y, parts = get('NTK-by-parts (YaRN without temperature)').y;
  const iMin = ntk.indexOf(Math.min(...ntk));
  assert.equal(get('NTK-aware').x[iMin], 17408, 'NTK-aware is best near 17k');
  assert.ok(Math.abs(ntk[iMin] - 3.17) < 0.005 && Math.abs(ntk.at(-1) - 8.49) < 0.005, 'from 3.17 to 8.49');
  // PI is worse than YaRN and NTK-by-parts at every length, and than NTK-aware until NTK-aware breaks down
  for (let i = 0; i < pi.length; i++) assert.ok(pi[i] > yarn[i] && pi[i] > parts[i] && (i > iMin || pi[i] > ntk[i]), `PI at ${i}`);
  for (let i = iMin; i < yarn.length - 1; i++) { assert.ok(yarn[i + 1] <= yarn[i] + 1e-9, 'YaRN keeps falling'); assert.ok(ntk[i + 1] >= ntk[i], 'NTK climbs'); }
  assert.ok(Math.abs(parts.at(-1) - 2.81) < 0.005 && Math.abs(yarn.at(-1) - 2.77) < 0.005);
  const pk = d.panels.passkey;
  assert.equal(series(pk, 'NTK-aware').y.at(-1), 0); assert.equal(series(pk, 'YaRN').y.at(-1), 0.68);
  assert.equal(Math.max(...pk.series.map((x) => x.y.at(-1))), series(pk, 'PI (linear)').y.at(-1), 'PI best at 32k (0.76)');
  // LongRoPE's README (github.com/microsoft/LongRoPE at 0e66bfdb…, Books3): LLaMA 2 7B from 8k to 2048k stays within
  // 6.17 … 7.08 (2048k = 512 × its 4096 training tokens); Mistral 7B climbs to 13.71
  const lr = d.panels.longrope, llama = series(lr, 'LongRoPE, LLaMA 2 7B → 2048k'), mistral = series(lr, 'LongRoPE, Mistral 7B → 2048k');
  assert.deepEqual([...llama.y], [6.81, 6.66, 6.31, 6.27, 6.21, 6.17, 6.17, 6.35, 7.08]);
  assert.deepEqual([...mistral.y], [6.63, 6.48, 6.38, 6.43, 6.68, 7.15, 7.98, 9.42, 13.71]);
  assert.equal(llama.x[0], 8192); assert.equal(llama.x.at(-1), 2 ** 21); assert.equal(llama.x.at(-1) / 4096, 512);
  assert.equal(Math.min(...llama.y), 6.17); assert.equal(Math.max(...llama.y), 7.08);
  const [{ d: t }] = await tries('evidence-extension');
  assert.deepEqual(t.panels.ppl.series.map((x) => x.label), ['NTK-aware', 'YaRN']);
  for (let i = 0; i <= iMin; i++) assert.ok(Math.abs(ntk[i] - yarn[i]) < 0.3, `within 0.3 at ${get('YaRN').x[i]}`);
});

test('§7 ALiBi: slopes 2^(−8h/H), h = 1 … H; the 8-head, 5-token try prints −2, −1.5, −1, −0.5, 0', async () => {
  const d = await P.draw('alibi', { heads: 8 });
  series(d.panels.slopes, 'slopes for 8 heads').y.forEach((v, i) => assert.equal(v, 2 ** (-8 * (i + 1) / 8)));
  assert.deepEqual(d.panels.slopes.xticks, ['0', '1', '2', '3', '4', '5', '6', '7'], 'integer head ticks');
  assert.equal(d.panels.slopes.marks[0].label, 'head 0');
  const [{ d: r }, { d: r7 }] = await tries('alibi'), m = r.panels.map;
  assert.deepEqual(Array.from({ length: 5 }, (_, j) => at(m, 4, j) + 0), [-2, -1.5, -1, -0.5, 0]);
  assert.equal(m.values, true, 'values printed in the 5 × 5 map');
  assert.equal(r7.readouts.slope, 2 ** -8);
});

test('§7 xPos: every factor ζᵢ^(distance/scale_base) < 1 and falling; the envelope ratio drops, faster for scale_base 128', async () => {
  const d = await P.draw('xpos'), [{ d: r }] = await tries('xpos');
  const zeta = pe.xposTables({ rotary_dim: 64, positions: [0], centred: [512], scale_base: 512 }).cos;
  for (const s of d.panels.factor.series) {
    const i = Number(/pair (\d+)/.exec(s.label)[1]);
    s.y.forEach((v, x) => assert.ok(Math.abs(v - zeta[i] ** (x / 512)) < 1e-9));
    assert.ok(s.y.at(-1) < 1 && s.y.at(-1) < s.y[1]);
  }
  const ratio = (x) => x.panels.ratio.series[0].y, late = (a) => a.slice(-8).reduce((s, v) => s + v, 0) / 8;
  assert.ok(ratio(d).slice(1).every((v) => v < 1), 'xPos envelope below RoPE’s');
  assert.ok(late(ratio(d)) < 0.8 && late(ratio(r)) < late(ratio(d)), `late ratio ${late(ratio(d))}, scale_base 128: ${late(ratio(r))}`);
});

test('§8 linear attention: eq. (28)’s denominator crosses 0, eq. (29)’s stays positive', async () => {
  for (const d of [await P.draw('linear-attention'), (await tries('linear-attention'))[0].d]) {
    const den = d.panels.den;
    assert.ok(Math.min(...series(den, 'denominator, eq. (28)').y) < 0 && Math.min(...series(den, 'denominator, eq. (29)').y) > 0);
    assert.ok(d.readouts['max-naive'] > 10 * d.readouts['max-num']);
  }
});

test('§9 explorer: none is only permuted, RoPE is not; RoPE’s term named with the position inside; Transformer-XL’s terms named as in §3', async () => {
  const d = await P.draw('explorer');
  assert.equal(d.panels['term-content_content'].caption, 'rotated q·k (position inside)');
  const [{ d: r }, { d: x }] = await tries('explorer');
  assert.equal(r.readouts.permA, 0);
  assert.ok(r.readouts.permB > 1e-3);
  const xl = await P.draw('transformer-xl');
  const s3 = ['a', 'b', 'c', 'd'].map((t) => xl.panels[t].caption.split(':')[0]);
  assert.deepEqual(['content_content', 'content_position', 'position_content', 'position_position'].map((t) => x.panels[`term-${t}`].caption), s3);
  assert.deepEqual(errors, []);
});

test('rope-compare: the score error grows with the distance; the try (distances ≤ 8192) shows it about ten times smaller', async () => {
  const full = await P.draw('rope-compare'), [t] = await tries('rope-compare');
  const P0 = describeFigure('rope-compare').params, a = pe.ropeFromConfig(P0[0].default), b = pe.ropeFromConfig(P0[1].default);
  const ref = (n) => pe.compareRope(a, b, { positions: n, samples: 8192 });
  // float64 in both; Chromium's and Node's Math.cos may differ in the last bit
  const near = (x, y) => assert.ok(Math.abs(x - y) <= 1e-12 * Math.abs(y), `${x} vs ${y}`);
  near(full.readouts.ones, ref(131072).max_score_error_ones);
  near(t.d.readouts.ones, ref(8192).max_score_error_ones);
  assert.ok(t.d.readouts.ones * 5 < full.readouts.ones, `${t.d.readouts.ones} vs ${full.readouts.ones}`);
});
