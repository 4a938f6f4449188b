// End to end: the intuition-first figures of §4 (rope-clock, rope-worked, rope-relative) and §6 (ntk-base,
// scaling-wavelengths) on the built site in headless Chromium. Each figure's takeaway is asserted on the numbers it
// draws (its CSV and read-outs), against closed forms computed here in float64: θ_i = base^(−2i/d), the rotation of a
// pair, ⟨q, R_(n−m) k⟩ pair by pair, base·s^(d/(d−2)), YaRN's ramp and Llama 3's bands as Hugging Face writes them
// (_compute_yarn_parameters, _compute_llama3_parameters in transformers' modeling_rope_utils.py).
// Screenshots (en, zh; 1280 and 390 px): test-results/intuition-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { openPage, shot } from './browser.mjs';
import { csvRows } from './csv.mjs';
import { randomRows } from '../../web/src/figures/defs/util.js';
import { defs } from '../../web/src/figures/registry.js';
import { describeFigure } from '../../web/src/figures/index.js';

const pe = await init();
let ctx, page;
before(async () => { ctx = await openPage('/', { width: 1280, height: 1400 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

/** Sets a figure's attributes (as its controls do) and waits until it has painted: 'ok' or the error. */
const show = (id, attrs = {}, p = page) => p.locator(`#${id}`).evaluate(async (el, a) => {
  el.scrollIntoView();
  for (const [k, v] of Object.entries(a)) el.setAttribute(k, String(v));
  await null;
  return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`);
}, attrs);
const csv = (id) => page.$eval(`#${id}`, (el) => el.toCSV());
const readout = (id, rid) => page.$eval(`#${id}`, (el, r) => Number(el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.dataset.value ?? NaN), rid);
const readoutText = (id, rid) => page.$eval(`#${id}`, (el, r) => el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.textContent ?? null, rid);
const values = (rows) => rows.map((r) => Number(r.value));
const theta = (d, base) => Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));
const wrapDeg = (a) => { const x = ((a % 360) + 360) % 360; return x > 180 ? x - 360 : x; };
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);

// float32 rotation (tables and products in float32): angles good to ~1e-6 rad; 1e-3 degrees is a wide margin
const ANGLE_TOL_DEG = 1e-3;
// pe.ropeInnerProductSweep's documented accuracy: |error| ≤ 1e-5·Σ_i|h_i|, h_i the pair products
const sweepTol = (q, k) => 1e-5 * q.reduce((s, x, i) => s + Math.abs(x * k[i]), 0) * 2 + 1e-7;

test('the part files sit at the start of §4 and early in §6, before the algebra', async () => {
  const order = await page.evaluate(() => [...document.querySelectorAll('#s4 posenc-figure, #s6 posenc-figure')].map((f) => f.id));
  assert.deepEqual(order.slice(0, 4), ['rope-clock', 'rope-worked', 'rope-relative', 'rope-rotation']);
  assert.equal(order[order.indexOf('rope-relative') + 1], 'rope-rotation');
  // §6: the number-base view and the one wavelength figure come before the context-extension panels; the separate
  // wavelength figure is merged into scaling-wavelengths (one figure, not three)
  assert.ok(order.indexOf('ntk-base') < order.indexOf('scaling-wavelengths') && order.indexOf('scaling-wavelengths') < order.indexOf('context-extension'), order.join());
  assert.ok(!order.includes('wavelengths'), 'no separate wavelength figure');
  // §5 opens with the clocks (rope-phasor), before Su's bound
  const s5 = await page.evaluate(() => [...document.querySelectorAll('#s5 posenc-figure')].map((f) => f.id));
  assert.equal(s5[0], 'rope-phasor', s5.join());
  // the derivation of §4 comes after the intuition
  assert.ok(await page.evaluate(() => document.getElementById('s4-intuition').compareDocumentPosition(document.getElementById('s4d-steps')) & Node.DOCUMENT_POSITION_FOLLOWING));
});

test('rope-clock: shifting both positions turns every hand, but the angle between q’s and k’s hand stays (n − m)·θ_i', async () => {
  const hands = async () => Object.fromEntries((await Promise.all([0, 1, 2, 3].map(async (i) => csvRows(await csv('rope-clock'), `pair${i}`).map((r) => [`${i}${r.series}`, [Number(r.x), Number(r.value)]])))).flat());
  assert.equal(await show('rope-clock', { m: 5, n: 2, shift: 0, base: 100 }), 'ok');
  const before = await hands();
  assert.equal(await show('rope-clock', { shift: 37 }), 'ok');
  const after = await hands(), th = theta(8, 100), rows = csvRows(await csv('rope-clock'), 'angle');
  for (let i = 0; i < 4; i++) {
    // every shift t = 0 … 256 drawn: the angle between the hands is (n − m)·θᵢ throughout
    const line = values(rows.filter((r) => r.series === `pair ${i}: angle from q’s hand to k’s`));
    assert.equal(line.length, 257);
    for (const [t, v] of line.entries()) near(v, wrapDeg((2 - 5) * th[i] * 180 / Math.PI), ANGLE_TOL_DEG, `pair ${i}, shift ${t}: (n − m)·θᵢ`);
    // q's hand (length 1) now points at (m + t)·θᵢ
    const a = (5 + 37) * th[i];
    near(after[`${i}q`][0], Math.cos(a), 1e-5, `pair ${i} q.x`); near(after[`${i}q`][1], Math.sin(a), 1e-5, `pair ${i} q.y`);
  }
  // while q's own hand turns: pair 1 sweeps through the whole circle over the shifts
  const own = values(rows.filter((r) => r.series === 'pair 1: q’s own hand (it turns)'));
  assert.ok(Math.max(...own) > 170 && Math.min(...own) < -170, 'q’s hand turns');
  // the hands did turn (the fast ones visibly), the score did not change
  assert.ok(Math.hypot(after['0q'][0] - before['0q'][0], after['0q'][1] - before['0q'][1]) > 0.1);
  assert.ok(await readout('rope-clock', 'change') <= ANGLE_TOL_DEG);
  const q = new Float32Array(8), k = new Float32Array(8);
  for (let i = 0; i < 4; i++) { q[2 * i] = 1; k[2 * i] = 0.65; }
  near(await readout('rope-clock', 'score'), th.reduce((s, t) => s + 0.65 * Math.cos(-3 * t), 0), sweepTol(q, k), 'score = Σ 0.65·cos((n − m)θ_i)');
  // and the page prints it so: the score after the shift and the one before it read the same
  const [after6, line] = await page.$eval('#rope-clock', (el) => { const o = el.shadowRoot.querySelector('output[data-id="score"]'); return [o.textContent, o.parentElement.textContent]; });
  assert.ok(line.includes(`before the shift: ${after6}`), line);
  await shot(page.locator('#rope-clock'), 'intuition-clock-en-1280');
});

test('rope-worked: every printed number is the closed form; the score equals ⟨q, R_(n−m) k⟩ and does not change with m, n moved together', async () => {
  const q = [1, 0.5, -0.5, 1], k = [0.5, 1, 1, 0.5], th = theta(4, 10000);
  const closed = (m, n) => th.reduce((s, t, i) => { const a = 2 * i, b = a + 1, f = (n - m) * t;
    return s + Math.cos(f) * (q[a] * k[a] + q[b] * k[b]) + Math.sin(f) * (q[b] * k[a] - q[a] * k[b]); }, 0);
  const rot = (v, p) => [0, 1].flatMap((i) => { const f = p * th[i], [x, y] = [v[2 * i], v[2 * i + 1]]; return [x * Math.cos(f) - y * Math.sin(f), x * Math.sin(f) + y * Math.cos(f)]; });
  const tol = sweepTol(q, k);
  for (const [m, n] of [[1, 3], [11, 13], [40, 42]]) {
    assert.equal(await show('rope-worked', { m, n }), 'ok');
    near(await readout('rope-worked', 'dot'), closed(m, n), tol, `score at (${m}, ${n})`);
    near(await readout('rope-worked', 'rel'), closed(m, n), tol, `⟨q, R_(n−m) k⟩ at (${m}, ${n})`);
    near(await readout('rope-worked', 'dot'), closed(1, 3), 2 * tol, `(${m}, ${n}) has the score of (1, 3)`);
    // the printed rotated q: four numbers, four decimals
    const shown = (await readoutText('rope-worked', 'qm')).replace(/[()]/g, '').split(', ').map((s) => Number(s.replace('−', '-')));
    rot(q, m).forEach((x, i) => near(shown[i], x, 5e-5 + 1e-6, `Rₘq[${i}] at m = ${m}`));
    const cells = await page.$eval('#rope-worked', (el) => [...el.shadowRoot.querySelectorAll('table[data-id="channels"] tr')].map((r) => [...r.cells].map((c) => c.textContent)));
    assert.equal(cells.length, 5);
    rot(k, n).forEach((x, i) => near(Number(cells[i + 1][8].replace('−', '-')), x, 5e-5 + 1e-6, `Rₙk[${i}] in the table`));
  }
  await shot(page.locator('#rope-worked'), 'intuition-worked-en-1280');
});

test('rope-relative: the map is constant along every diagonal (float tolerance) and equals ⟨q, R_(n−m) k⟩; moving q alone changes the score', async () => {
  const d = 16, base = 100, N = 32;
  assert.equal(await show('rope-relative', { head_dim: d, base, seq: N, m: 6, n: 2 }), 'ok');
  const q = Array.from(randomRows(pe, 1, d, 3, 'q').slice(0, d)), k = Array.from(randomRows(pe, 1, d, 4, 'k').slice(0, d)), th = theta(d, base), tol = sweepTol(q, k);
  // half_split pairs (i, i + d/2), as the sweep's default layout and Hugging Face
  const S = (m, n) => th.reduce((s, t, i) => { const a = i, b = i + d / 2, f = (n - m) * t;
    return s + Math.cos(f) * (q[a] * k[a] + q[b] * k[b]) + Math.sin(f) * (q[b] * k[a] - q[a] * k[b]); }, 0);
  const map = csvRows(await csv('rope-relative'), 'map');
  assert.equal(map.length, N * N);
  const at = (i, j) => Number(map[i * N + j].value);
  let diag = 0;
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    near(at(i, j), S(i, j), tol, `S(${i}, ${j})`);
    if (i + 1 < N && j + 1 < N) diag = Math.max(diag, Math.abs(at(i, j) - at(i + 1, j + 1)));
  }
  assert.ok(diag <= 2 * tol, `largest change along a diagonal ${diag}`);
  near(await readout('rope-relative', 'diag'), diag, 1e-9, 'the read-out states it');
  const both = values(csvRows(await csv('rope-relative'), 'line', 'both move: (6 + t, 2 + t)'));
  const qOnly = values(csvRows(await csv('rope-relative'), 'line', 'only q moves: (6 + t, 2)'));
  assert.equal(both.length, 128);
  for (const [t, v] of both.entries()) near(v, S(6, 2), tol, `both moved by ${t}`);
  const spread = Math.max(...qOnly) - Math.min(...qOnly), scale = Math.max(...map.map((c) => Math.abs(Number(c.value))));
  assert.ok(spread > 0.2 * scale, `moving q alone changes the score: spread ${spread}, scale ${scale}`);
  await shot(page.locator('#rope-relative'), 'intuition-relative-en-1280');
});

test('ntk-base: NTK keeps the fastest pair, divides the slowest by s like PI, slows the rest by s^(−2i/(d−2)); PI divides all', async () => {
  for (const [d, base, len, s] of [[128, 10000, 4096, 8], [64, 500000, 8192, 32]]) {
    assert.equal(await show('ntk-base', { rotary_dim: d, rope_theta: base, original_max_position_embeddings: len, factor: s }), 'ok');
    const rows = csvRows(await csv('ntk-base'), 'speed');
    const ntk = values(rows.filter((r) => r.series.startsWith('NTK-aware'))), pi = values(rows.filter((r) => r.series.startsWith('PI')));
    assert.equal(ntk.length, d / 2);
    near(ntk[0], 1, 1e-12, 'fastest pair untouched');
    near(ntk[d / 2 - 1] * s, 1, 1e-9, 'slowest pair ÷ s');
    ntk.forEach((x, i) => { near(x / s ** (-2 * i / (d - 2)), 1, 1e-9, `pair ${i}`); if (i) assert.ok(x < ntk[i - 1], 'monotone: high frequencies nearly untouched, low ones slowed'); });
    pi.forEach((x, i) => near(x * s, 1, 1e-12, `PI pair ${i}`));
    near(await readout('ntk-base', 'ntk-base') / (base * s ** (d / (d - 2))), 1, 1e-12, 'base·s^(d/(d−2))');
    // at position L·s the NTK angle of the slowest pair is the largest angle it saw in training
    const ang = csvRows(await csv('ntk-base'), 'angle');
    const last = (label) => Number(ang.filter((r) => r.series.startsWith(label)).at(-1).value);
    near(last('NTK-aware') / last('largest angle seen'), 1, 1e-9, 'slowest pair back inside the trained range');
    near(last('largest angle seen'), len * th(d, base).at(-1), 1e-9 * len, 'L·θ_last');
  }
  function th(d, base) { return theta(d, base); }
  await shot(page.locator('#ntk-base'), 'intuition-ntk-base-en-1280');
});

test('scaling-wavelengths: every scheme’s stretch per pair is Hugging Face’s rule; Llama 3.1’s 29 / 6 / 29 bands', async () => {
  const [d, base, len, s] = [128, 500000, 8192, 8];
  assert.equal(await show('scaling-wavelengths', { rotary_dim: d, rope_theta: base, original_max_position_embeddings: len, factor: s }), 'ok');
  const rows = csvRows(await csv('scaling-wavelengths'), 'stretch'), th = theta(d, base);
  const of = (label) => values(rows.filter((r) => r.series === label));
  of('PI (linear)').forEach((x, i) => near(x, s, 1e-12, `PI pair ${i}`));
  of('NTK-aware').forEach((x, i) => near(x, s ** (2 * i / (d - 2)), 1e-9 * s, `NTK pair ${i}`));
  // YaRN (HF): find_correction_range with beta_fast 32, beta_slow 1, truncated; inv = θ/s·ramp + θ·(1 − ramp)
  const dim = (b) => (d * Math.log(len / (b * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(Math.floor(dim(32)), 0), high = Math.min(Math.ceil(dim(1)), d - 1);
  of('YaRN').forEach((x, i) => { const r = Math.min(1, Math.max(0, (i - low) / (high - low))); near(x, 1 / (r / s + 1 - r), 1e-9 * s, `YaRN pair ${i}`); });
  // Llama 3 (HF): keep λ < L/4, θ/s for λ > L/1, smooth between
  let kept = 0, smoothed = 0, scaled = 0;
  of('Llama 3').forEach((x, i) => {
    const lam = (2 * Math.PI) / th[i];
    let w = th[i];
    if (lam < len / 4) kept++;
    else if (lam > len / 1) { w = th[i] / s; scaled++; } else { const sm = (len / lam - 1) / (4 - 1); w = (1 - sm) * th[i] / s + sm * th[i]; smoothed++; }
    near(x, th[i] / w, 1e-9 * s, `Llama 3 pair ${i}`);
  });
  assert.deepEqual([kept, smoothed, scaled], [29, 6, 29]);
  assert.equal(await readoutText('scaling-wavelengths', 'llama3'), '29 / 6 / 29');
  assert.equal(await readoutText('scaling-wavelengths', 'yarn'), `${low} … ${high}`);
  // the wavelength panel draws the thresholds the schemes switch at
  const marks = await page.$eval('#scaling-wavelengths', (el) => el.shadowRoot.querySelector('[data-panel="wave"]').marks.map((m) => m.y));
  assert.deepEqual(marks, [len, len / 4, len / 32]);
  await shot(page.locator('#scaling-wavelengths'), 'intuition-scaling-wavelengths-en-1280');
});

// "Try this" (the `tries` of each definition): one click sets these parameters, every other one at its default; the
// sentence that goes with it is checked here against what the figure then draws.
const tryIt = (name, i) => {
  const all = Object.fromEntries(describeFigure(name).params.map((q) => [q.name, Array.isArray(q.default) ? q.default.join(',') : q.default]));
  return show(name, { ...all, ...defs[name].tries[i].params });
};
test('every “try this” of the five figures shows what its sentence says', async () => {
  const look = (n, i) => defs[n].tries[i].look.en;
  assert.equal(await tryIt('rope-clock', 0), 'ok');
  const ang = (await readoutText('rope-clock', 'angles'));
  assert.ok(look('rope-clock', 0).includes(ang.split(' · ').join(', ')), `${ang} in: ${look('rope-clock', 0)}`);
  theta(8, 100).forEach((t, i) => near(Number(ang.split(' · ')[i].replace('−', '-').replace('°', '')), wrapDeg(-3 * t * 180 / Math.PI), 0.05, `pair ${i}`));
  assert.equal(await tryIt('rope-clock', 1), 'ok');
  const slow = (await readoutText('rope-clock', 'angles')).split(' · ')[3];
  near(-3 * 10000 ** (-6 / 8) * 180 / Math.PI, -0.172, 1e-3, 'pair 3 at base 10000');
  assert.ok(look('rope-clock', 1).includes(`only ${slow}`), slow);
  const q = [1, 0.5, -0.5, 1], k = [0.5, 1, 1, 0.5], th = theta(4, 10000);
  const closed = (m, n) => th.reduce((s, t, i) => { const a = 2 * i, b = a + 1, f = (n - m) * t;
    return s + Math.cos(f) * (q[a] * k[a] + q[b] * k[b]) + Math.sin(f) * (q[b] * k[a] - q[a] * k[b]); }, 0);
  const f4 = (x) => x.toFixed(4).replace('-', '−');
  for (const [i, [m, n]] of [[0, [11, 13]], [1, [3, 1]]]) {
    assert.equal(await tryIt('rope-worked', i), 'ok');
    assert.equal(await readoutText('rope-worked', 'dot'), f4(closed(m, n)));
    assert.ok(look('rope-worked', i).includes(f4(closed(m, n)).replace(/^0/, '0')), look('rope-worked', i));
  }
  assert.notEqual(f4(closed(3, 1)), f4(closed(1, 3)), 'swapping m and n changes the score');
  assert.equal(await tryIt('rope-relative', 0), 'ok');
  const d = 16, qq = Array.from(randomRows(pe, 1, d, 3, 'q').slice(0, d)), kk = Array.from(randomRows(pe, 1, d, 4, 'k').slice(0, d));
  const s00 = qq.reduce((s, x, i) => s + x * kk[i], 0);   // at m = n the rotation cancels: ⟨q, k⟩
  const line = values(csvRows(await csv('rope-relative'), 'line', 'both move: (0 + t, 0 + t)'));
  for (const v of line) near(v, s00, sweepTol(qq, kk), 'the flat line is ⟨q, k⟩');
  assert.ok(look('rope-relative', 0).includes(f4(s00)), `${f4(s00)} in: ${look('rope-relative', 0)}`);
  assert.equal(await tryIt('ntk-base', 0), 'ok');
  const sp = csvRows(await csv('ntk-base'), 'speed');
  near(Number(sp.find((r) => r.series.startsWith('PI')).value), 1 / 32, 1e-15, 'PI: fastest ÷ 32');
  const nt = values(sp.filter((r) => r.series.startsWith('NTK')));
  near(nt[0], 1, 0, 'NTK: fastest untouched'); near(nt.at(-1) * 32, 1, 1e-12, 'NTK: slowest ÷ 32');
  assert.equal(await tryIt('scaling-wavelengths', 0), 'ok');
  assert.equal(await readoutText('scaling-wavelengths', 'llama3'), '29 / 6 / 29');
  assert.ok(look('scaling-wavelengths', 0).includes('29 / 6 / 29'));
});

test('Chinese and phone width: the parts have no stray space between CJK characters; screenshots', async () => {
  // at 390 px (the desktop width is the main page's; the spacing of the Chinese text does not depend on the width)
  for (const [lang, vp] of [['zh', { width: 390, height: 844 }], ['en', { width: 390, height: 844 }]]) {
    const p = await ctx.open(`/?lang=${lang}#s4-intuition`, vp);
    for (const part of ['s4-intuition', 's6-intuition']) {
      // the part's own prose (its headings, paragraphs and notes; the figures' shadow roots are checked by their own tests)
      const text = await p.$eval(`#${part}`, (el) => [...el.querySelectorAll(':scope > h3, :scope > p')].map((x) => x.innerText).join('\n'));
      if (lang === 'zh') assert.ok(!/[\u3000-\u9fff\uff00-\uffef] +[\u3000-\u9fff\uff00-\uffef]/.test(text), `${part}: a space between two CJK characters`);
      for (const id of await p.$$eval(`#${part} posenc-figure`, (els) => els.map((e) => e.id))) {
        assert.equal(await p.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); }), 'ok', id);
        await shot(p.locator(`#${id}`), `intuition-${id}-${lang}-${vp.width}`);
      }
      const over = await p.$eval(`#${part}`, (el) => el.scrollWidth - el.clientWidth);
      assert.ok(over <= 1, `${part}: no horizontal overflow (${over} px) at ${vp.width}`);
    }
    await p.context().close();
  }
  assert.deepEqual(ctx.errors, []);
});
