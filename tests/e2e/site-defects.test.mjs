// End to end, the built site in headless Chromium: the remaining defects of issue 12, one test each —
// 8 (a table column cut off at desktop width), 11 (§3 DeBERTa and Transformer-XL figures show what their text says),
// 14 (the learned-table loader: no stale state after a failed load, paging past row 511) and 18 (every number shown
// comes from the package's API: the page's own scripts do no arithmetic on results). Screenshots: test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { openPage, settled, shot } from './browser.mjs';

const pe = await init();
let ctx, page;

before(async () => { ctx = await openPage('/', { width: 1280, height: 1400 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

async function set(id, value) {
  await page.$eval(`#${id}`, (el, v) => {
    if (el.type === 'checkbox') el.checked = v; else el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
  await settled(page);
}
const load = async (name, text) => {
  await page.setInputFiles('#s2l-file', { name, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });
  await page.waitForTimeout(100);
  await settled(page);
};
const s2error = () => page.$eval('#s2l-form', (f) => (f.nextElementSibling?.classList.contains('error') && !f.nextElementSibling.hidden ? f.nextElementSibling.textContent : ''));

test('defect 14: a failed load leaves nothing of the previous table on display; rows past 511 can be paged to', async () => {
  // A 600-row table: the similarity shows rows 0…511, then from row 512 the remaining 88 rows, equal to the API's.
  const rows = Array.from({ length: 600 }, (_, p) => [Math.cos(p / 50), Math.sin(p / 50), Math.cos(p / 7), 1]);
  await load('big.json', JSON.stringify(rows));
  assert.equal(await page.$eval('#s2l-info', (el) => el.dataset.rows), '600');
  assert.equal(await page.$eval('#s2l-sim', (el) => el.rows), 512);
  assert.equal(await s2error(), '');
  await set('s2l-from', 512);
  assert.equal(await page.$eval('#s2l-sim', (el) => el.rows), 88);
  const table = pe.tableFromJSON(JSON.stringify(rows));
  const want = pe.tableSimilarity({ rows: 88, cols: 4, data: table.data.subarray(512 * 4) }, { metric: 'cosine' });
  const got = await page.$eval('#s2l-sim', (el) => [el.rowLabels[0], ...Array.from(el._data.slice(0, 3)), el._data[87 * 88 + 3]]);
  assert.equal(got[0], '512', 'rows are labelled with their table index');
  assert.deepEqual(got.slice(1), [want[0], want[1], want[2], want[87 * 88 + 3]].map(Math.fround));
  assert.match(await page.$eval('#s2l-sim', (el) => el.getAttribute('caption')), /512…599 of 0…599/);
  await set('s2l-from', 600);
  assert.match(await s2error(), /^from: must be an integer in \[0, 599\]/, 'past the last row: an error, not a silent clamp');
  await set('s2l-from', 0);
  // A broken file: an error, and none of the 600-row table stays (no rows, no heatmap, no lookup).
  await load('broken.json', '[[1, 2], [3');
  assert.match(await s2error(), /^json: /);
  assert.equal(await page.$eval('#s2l-info', (el) => el.dataset.rows), undefined);
  assert.match(await page.$eval('#s2l-info', (el) => el.textContent), /broken\.json: —/);
  assert.equal(await page.$eval('#s2l-sim', (el) => el.hidden), true);
  // …and really not drawn: the heatmap's own display: inline-block must not override `hidden` (issue 19; style.css).
  assert.equal(await page.$eval('#s2l-sim', (el) => [el.checkVisibility(), getComputedStyle(el).display].join()), 'false,none');
  assert.equal(await page.$eval('#s2l-lookup', (el) => [el.textContent, el.dataset.value]).then(([t, v]) => `${t}|${v}`), '—|undefined');
  await shot(page.locator('#s2l-form'), 'defect14-failed-load');
  // Changing another control does not bring the old table back.
  await set('s2l-pos', 3);
  assert.equal(await page.$eval('#s2l-sim', (el) => el.hidden), true);
  // A good file again: shown, error gone.
  await load('small.json', JSON.stringify(rows.slice(0, 10)));
  assert.equal(await page.$eval('#s2l-info', (el) => el.dataset.rows), '10');
  assert.equal(await page.$eval('#s2l-sim', (el) => [el.hidden, el.rows].join()), 'false,10');
  assert.equal(await s2error(), '');
  assert.equal(Number(await page.$eval('#s2l-lookup', (el) => el.dataset.value)), pe.tableLookup(pe.tableFromJSON(JSON.stringify(rows.slice(0, 10))), { positions: [3] })[0]);
});

test('defect 8: no table is wider than its box at desktop width (en and zh): every column is visible without scrolling', async () => {
  for (const w of [1280, 1024]) {
    await page.setViewportSize({ width: w, height: 1400 });
    for (const lang of ['en', 'zh']) {
      await page.click(`#lang-${lang}`);
      await settled(page);
      const cut = await page.$$eval('main table', (ts) => ts.filter((t) => t.offsetParent !== null).map((t) => {
        const box = t.parentElement.getBoundingClientRect(), r = t.getBoundingClientRect();
        return { id: t.id || t.className, over: Math.max(r.right - box.right, r.right - document.querySelector('main').getBoundingClientRect().right) };
      }).filter((x) => x.over > 1));
      assert.deepEqual(cut, [], `${lang} at ${w} px`);
    }
  }
  await page.click('#lang-en');
  await shot(page.locator('#s4f-table'), 'defect8-s4f-table-en-1024');
  await page.setViewportSize({ width: 1280, height: 1400 });
});

// The figures' exported numbers (toCSV) of one panel as a lookup (i, j) → value.
async function cells(figure, panel) {
  const { csvRows } = await import('./csv.mjs');
  const text = await page.$eval(`#${figure}`, async (el) => { el.scrollIntoView(); await el.ready; return el.toCSV(); });
  const m = new Map();
  for (const r of csvRows(text, panel)) m.set(`${r.row},${r.col}`, Number(r.value));
  return (i, j) => m.get(`${i},${j}`);
}

test('defect 11: DeBERTa’s position terms see only the bucketed δ; Transformer-XL’s (b) is not a distance-only term, and masked cells are not drawn as distances', async () => {
  // DeBERTa, defaults (same word everywhere, 24 positions, position_buckets 16, max_relative_positions 64):
  // content→content is flat; c2p and p2c take equal values exactly where the bucketed δ(i, j) is equal, different
  // values for different buckets; the numbers equal debertaScores.
  const n = 24, d = 16, rel = pe.debertaRelativePositions({ q_len: n, position_buckets: 16, max_relative_positions: 64 });
  const c2c = await cells('deberta', 'c2c'), c2p = await cells('deberta', 'c2p'), p2c = await cells('deberta', 'p2c');
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) assert.equal(c2c(i, j), c2c(0, 0));
  for (const [name, t] of [['c2p', c2p], ['p2c', p2c]]) {
    const byBucket = new Map();
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const b = rel[i * n + j];
      if (!byBucket.has(b)) byBucket.set(b, t(i, j)); else assert.equal(t(i, j), byBucket.get(b), `${name}: (${i}, ${j}) in bucket ${b}`);
    }
    assert.ok(byBucket.size > 2 * 8 && byBucket.size < 2 * n - 1, `${name}: far offsets share log buckets (${byBucket.size} buckets for ${2 * n - 1} offsets)`);
    assert.ok(new Set(byBucket.values()).size > byBucket.size / 2, `${name}: different buckets, different values`);
  }
  const { q, k } = pe.textQK({ text: Array(n).fill('w').join(' '), head_dim: d, seed: 0 });
  const { randomRows } = await import('../../web/src/figures/defs/util.js');
  const s = pe.debertaScores({ q, k, pos_key: randomRows(pe, 32, d, 4, 'pk'), pos_query: randomRows(pe, 32, d, 5, 'pq'), seq: n, d, position_buckets: 16, max_relative_positions: 64 });
  assert.equal(c2p(5, 17), s.c2p[5 * n + 17]);
  assert.equal(p2c(20, 3), s.p2c[20 * n + 3]);
  // Transformer-XL (8 tokens, 2 memory rows): (b) differs along some diagonal (the query's content matters), (d) does
  // not; cells right of the causal boundary (key after the query) are masked in (b) and (d), as in the score.
  const b = await cells('transformer-xl', 'b'), dd = await cells('transformer-xl', 'd');
  let bVaries = false;
  for (let i = 1; i < 8; i++) for (let j = 1; j <= i + 2; j++) {
    assert.ok(Math.abs(dd(i, j) - dd(i - 1, j - 1)) <= 1e-5 * Math.max(1, Math.abs(dd(i, j))), `(d) diagonal at ${i},${j}`);
    if (Math.abs(b(i, j) - b(i - 1, j - 1)) > 1e-3) bVaries = true;
  }
  assert.ok(bVaries, '(b) depends on the query too');
  for (let i = 0; i < 8; i++) for (let j = i + 3; j < 10; j++) assert.ok(Number.isNaN(b(i, j)) && Number.isNaN(dd(i, j)), `masked at ${i},${j}`);
  const takeaway = await page.$eval('#transformer-xl', (el) => el.shadowRoot.querySelector('.takeaway').textContent);
  assert.doesNotMatch(takeaway, /\(b\) and \(d\) depend on the query–key distance only/);
  await shot(page.locator('#deberta'), 'defect11-deberta');
  await shot(page.locator('#transformer-xl'), 'defect11-transformer-xl');
});

test('defect 18: the numbers shown come from the API — no dot products, norms or complex products assembled in page or figure code', async () => {
  // Static: the page's scripts and the §4 and §7 figures take no square root or hypot of API results and write no
  // complex product by hand; the figure's dot products are not assembled from tableSimilarity.
  const { readFileSync, readdirSync } = await import('node:fs');
  const site = new URL('../../web/site/', import.meta.url), defs = new URL('../../web/src/figures/defs/', import.meta.url);
  const files = [...readdirSync(site).filter((f) => f.endsWith('.js')).map((f) => new URL(f, site)),
    ...['rope-rotation.js', 'xpos.js'].map((f) => new URL(f, defs))];
  for (const f of files) {
    const src = readFileSync(f, 'utf8');
    for (const re of [/Math\.sqrt/, /Math\.hypot/, /q\[0\] \* cis/, ...(f.pathname.endsWith('rope-rotation.js') ? [/tableSimilarity/] : [])]) assert.doesNotMatch(src, re, `${f.pathname}`);
  }
  // Dynamic: §4's checks equal the API's own ⟨R_m q, R_n k⟩ (ropeInnerProductSweep) exactly.
  const { randomRows } = await import('../../web/src/figures/defs/util.js');
  const d = 16, qk = randomRows(pe, 2, d, 9, 'qk'), q = qk.slice(0, d), k = qk.slice(d);
  const score = (x, a, y, b) => pe.ropeInnerProductSweep({ q: x, k: y, head_dim: d, rope_theta: 10000, layout: 'interleaved', q_position: a, k_start: b, count: 1 })[0];
  await page.locator('#s4d-form').scrollIntoViewIfNeeded(); await settled(page);
  const shown = (id) => page.$eval(`#${id}`, (el) => Number(el.dataset.value));
  assert.equal(await shown('s4d-c1'), score(q, 7, k, 2));
  assert.equal(await shown('s4d-c2'), score(q, 7, q, 7), '‖R_m q‖² by the API');
  assert.equal(await shown('s4d-c4'), score(q, 0, k, 2 - 7), 'qᵀR_{n−m}k by the API');
  // The rotation figure's three readouts, and xPos's scale panel (the package's table at angle 0).
  const rr = await page.$eval('#rope-rotation', async (el) => { el.scrollIntoView(); await el.ready;
    return ['dot', 'rel', 'raw'].map((id) => Number(el.shadowRoot.querySelector(`output[data-id="${id}"]`).dataset.value)); });
  const s2 = (a, b) => pe.ropeInnerProductSweep({ q: [1.2, 0.3], k: [0.6, 0.9], head_dim: 2, layout: 'interleaved', inv_freq: [0.3], q_position: a, k_start: b, count: 1 })[0];
  assert.deepEqual(rr, [s2(3, 1), s2(0, -2), s2(0, 0)]);
  const { csvRows } = await import('./csv.mjs');
  const xcsv = await page.$eval('#xpos', async (el) => { el.scrollIntoView(); await el.ready; return el.toCSV(); });
  // the factor panel: pair i's curve ζᵢ^(distance/512) from the package's ζᵢ (its table at angle 0), at distance 512 = ζᵢ
  const t = pe.xposTables({ rotary_dim: 64, positions: [0], centred: [512], scale_base: 512 });
  for (const i of [0, 8, 16, 31]) {
    const rows = csvRows(xcsv, 'factor').filter((r) => r.series.startsWith(`pair ${i}:`));
    assert.equal(Number(rows[512].value), t.cos[i] ** 1, `pair ${i} at distance 512`);
  }
  assert.ok(Math.abs(t.cos[0] - pe.xposZeta({ rotary_dim: 64 })[0]) < 1e-6, 'ζ_0^(512/512) = ζ_0');
});
