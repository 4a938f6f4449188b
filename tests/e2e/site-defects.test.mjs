// End to end, the built site in headless Chromium: the remaining defects of issue 12, one test each —
// 8 (a table column cut off at desktop width), 11 (§3 DeBERTa and Transformer-XL figures show what their text says),
// 14 (the learned-table loader: no stale state after a failed load, paging past row 511) and 18 (every number shown
// comes from the package's API: the page's own scripts do no arithmetic on results). Screenshots: test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import init from 'posenc';
import { openPage, settled } from './browser.mjs';

const shots = new URL('../../test-results/', import.meta.url);
mkdirSync(shots, { recursive: true });
const shotPath = (name) => new URL(`${name}.png`, shots).pathname;
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
  assert.equal(await page.$eval('#s2l-lookup', (el) => [el.textContent, el.dataset.value]).then(([t, v]) => `${t}|${v}`), '—|undefined');
  await page.locator('#s2l-form').screenshot({ path: shotPath('defect14-failed-load') });
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
