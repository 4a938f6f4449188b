// End to end: the page in headless Chromium — heatmap drawn, controls repaint it, hover value = API value,
// the permutation demo behaves as stated, no console errors. Screenshots go to test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import init from 'posenc';
import { openPage } from './browser.mjs';

const shots = new URL('../../test-results/', import.meta.url);
mkdirSync(shots, { recursive: true });
let ctx;
const pe = await init();

before(async () => { ctx = await openPage(); });
after(async () => { await ctx?.close(); });

const mapState = (id) => ctx.page.$eval(`#${id}`, (el) => ({
  renders: el.renderCount, rows: el.rows, cols: el.cols,
  pixels: el.shadowRoot.querySelector('.map').toDataURL(),
}));

/** Fraction of non-white pixels in the heatmap canvas. */
const inkFraction = (id) => ctx.page.$eval(`#${id}`, (el) => {
  const c = el.shadowRoot.querySelector('.map'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let ink = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 240 || d[i + 1] < 240 || d[i + 2] < 240)) ink++;
  return ink / (d.length / 4);
});

test('the heatmap is drawn with the wasm SIMD build', async () => {
  const s = await mapState('main-map');
  assert.equal(s.rows, 16);
  assert.ok(s.renders >= 1);
  assert.ok(await inkFraction('main-map') > 0.5, 'canvas mostly painted');
  assert.match(await ctx.page.textContent('#build-info'), /SIMD128/);
  await ctx.page.screenshot({ path: new URL('page-top.png', shots).pathname, fullPage: true });
});

test('a control change repaints the heatmap', async () => {
  const before = await mapState('main-map');
  await ctx.page.selectOption('#base', '100');
  const after1 = await mapState('main-map');
  assert.ok(after1.renders > before.renders);
  assert.notEqual(after1.pixels, before.pixels);
  await ctx.page.fill('#seq', '24');
  await ctx.page.$eval('#seq', (el) => el.dispatchEvent(new Event('input', { bubbles: true })));
  const after2 = await mapState('main-map');
  assert.equal(after2.rows, 24);
});

test('the hovered value equals the API value', async () => {
  // Current controls: default text, seq 24, head dim 32, base 100, half_split, RoPE, not causal.
  const box = await ctx.page.$eval('#main-map', (el) => {
    const r = el.shadowRoot.querySelector('.map').getBoundingClientRect();
    const g = el._geometry();
    return { x: r.left + g.labelW + g.cell * 5.5, y: r.top + g.labelH + g.cell * 3.5 };
  });
  await ctx.page.mouse.move(box.x, box.y);
  const hovered = await ctx.page.$eval('#main-map', (el) => el.hovered);
  assert.deepEqual([hovered.row, hovered.col], [3, 5]);
  const shown = Number(await ctx.page.$eval('#hover-readout', (el) => el.dataset.value));
  // Independent computation in Node through the package.
  const text = await ctx.page.inputValue('#text');
  const base = pe.textQK({ text, head_dim: 32, seed: 0 });
  const n = base.tokens.length, seq = 24;
  const q = new Float32Array(seq * 32), k = new Float32Array(seq * 32);
  for (let i = 0; i < seq; i++) {
    q.set(base.q.subarray((i % n) * 32, (i % n + 1) * 32), i * 32);
    k.set(base.k.subarray((i % n) * 32, (i % n + 1) * 32), i * 32);
  }
  const s = pe.attentionScores({ q, k, seq, head_dim: 32, rope: { rope_theta: 100, layout: 'half_split' } });
  assert.equal(shown, s[3 * seq + 5]);
  assert.equal(hovered.value, s[3 * seq + 5]);
  const tip = await ctx.page.$eval('#main-map', (el) => el.shadowRoot.querySelector('.tip').textContent);
  assert.match(tip, /row 3 .* col 5 .*: 0\.\d{4}/);
});

test('the permutation demo: permuted without PE, changed with RoPE', async () => {
  const diff = async () => Number(await ctx.page.$eval('#perm-diff', (el) => el.dataset.value));
  assert.ok(await diff() <= 1e-6, 'no PE: only permuted');
  assert.deepEqual(await ctx.page.$eval('#perm-b', (el) => el.rowLabels), ['老鼠', '抓', '猫']);
  await ctx.page.check('#perm-rope');
  assert.ok(await diff() > 1e-3, 'RoPE: scores changed');
  await ctx.page.locator('#permutation').screenshot({ path: new URL('permutation.png', shots).pathname });
  await ctx.page.uncheck('#perm-rope');
  assert.ok(await diff() <= 1e-6);
});

test('no console errors or page errors', () => {
  assert.deepEqual(ctx.errors, []);
});
