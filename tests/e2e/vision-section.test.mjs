// End to end: §10 (positions in images and video) and §6's dual chunk attention part on the built page — the numbers the
// prose states (data-num, en and zh copies alike) equal what the posenc package computes here in Node: patch coordinates
// from pe.ropeAxesFromConfig (Qwen2.5-VL's vision tower, DINOv3), and Qwen2.5-1M's distances from pe.ropeFromConfig on its
// config and pe.dualChunkDistances (vLLM's DualChunkRotaryEmbedding); and the guided path reaches both (contents, what
// you will learn, summary table), each figure placed once and painted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { openPage, shot } from './browser.mjs';
import { helpers } from './site-helpers.mjs';
import { INTEGER, NORMALISED } from '../../web/src/figures/defs/patch-grid.js';

const pe = await init();
let ctx, page;
before(async () => { ctx = await openPage('/', { width: 1280, height: 1000 }); page = ctx.page; });
after(async () => { await ctx?.close(); });
const { control, readout } = helpers(() => page, () => ctx);

/** The number the page states under data-num=name; every copy (en, zh) must agree. */
async function num(name) {
  const vs = await page.$$eval(`[data-num="${name}"]`, (els) => els.map((e) => e.textContent.trim()));
  assert.ok(vs.length >= 2, `${name}: en and zh`);
  assert.ok(vs.every((v) => v === vs[0]), `${name}: copies differ ${vs}`);
  return vs[0];
}

test('§10: the 224 vs 448 px numbers are the coordinates the package gives (integer columns, DINOv3 centres) and their angles', async () => {
  const w = (cfg, n) => pe.ropeAxesFromConfig(cfg, { grid: [n, n] }).axes[1];
  for (const px of [224, 448]) {
    const I = w(INTEGER, Math.floor(px / 14)), N = w(NORMALISED, Math.floor(px / 16)), pn = N.positions;
    assert.equal(Number(await num(`int-last-${px}`)), I.positions.at(-1));
    assert.equal(await num(`norm-last-${px}`), pn.at(-1).toFixed(3));
    assert.equal(await num(`norm-step-${px}`), (pn[1] - pn[0]).toFixed(3));
    assert.equal(await num(`norm-angle-${px}`), (N.angle_scale * N.inv_freq[0] * pn.at(-1)).toFixed(2));
  }
  // a reader picks 896 px in the figure's own control: its read-outs follow, as the package computes them
  assert.equal(await control('patch-grid', 'px', 896), 'ok');
  assert.equal(await readout('patch-grid', 'int-last'), w(INTEGER, 64).positions.at(-1));
  const N896 = w(NORMALISED, 56);
  assert.equal(await readout('patch-grid', 'norm-step'), N896.angle_scale * N896.inv_freq[0] * (N896.positions[1] - N896.positions[0]));
  // the figure placed in the section paints, and so do the others of §10
  for (const id of ['patch-grid', 'rope-allocation', 'rope-axes', 'learned-resize']) {
    assert.equal(await page.$eval(`#s10 posenc-figure#${id}`, async (el) => { el.scrollIntoView(); await el.ready; return el.getAttribute('figure'); }), id);
  }
});

test('§6 dual chunk attention: chunk length, the compressed and folded distances and the largest distance of Qwen2.5-1M', async () => {
  const cfg = readFileSync(new URL('../fixtures/configs/long-context/Qwen2.5-7B-Instruct-1M-assembled.json', import.meta.url), 'utf8');
  const dc = pe.ropeFromConfig(cfg).dual_chunk;
  assert.equal(Number(await num('dca-L')), dc.chunk_len);
  const at = (q, k) => pe.dualChunkDistances({ chunk_size: dc.chunk_size, local_size: dc.local_size, q_positions: [q], k_positions: [k] }).distances[0];
  assert.equal(Number(await num('dca-succ')), at(1_000_000, 760_000));   // 240,000 tokens back, the previous chunk
  assert.equal(Number(await num('dca-first')), at(1_000_000, 0));
  assert.equal(at(1_000_000, 999_000), 1000, 'the prose: a key 1000 back is seen 1000 away');
  // the largest distance any pair gets up to max_position_embeddings: every key against the last query, and a few queries
  const keys = Float64Array.from({ length: 1 << 14 }, (_, i) => Math.round(i * (1_009_999 / ((1 << 14) - 1))));
  let max = 0;
  for (const q of [262_143, 300_000, 507_903, 1_009_999]) max = Math.max(max, pe.dualChunkDistances({ chunk_size: dc.chunk_size, local_size: dc.local_size, q_positions: [q], k_positions: keys }).max_distance);
  assert.equal(Number(await num('dca-max')), max);
  assert.equal(max, dc.chunk_size);
  assert.equal(await page.$eval('#s6-dual-chunk posenc-figure#dual-chunk', async (el) => { el.scrollIntoView(); await el.ready; return 'ok'; }), 'ok');
});

test('guided path: the contents, "what you will learn" and the summary table reach §10 and the dual chunk part', async () => {
  assert.equal(await page.$eval('#toc a[href="#s10"]', (a) => a.textContent.includes('10')), true);
  const learn = await page.$eval('.learn[lang="en"]', (ul) => ul.textContent);
  assert.match(learn, /§10/); assert.match(learn, /dual chunk/);
  const rows = Object.fromEntries(await page.$$eval('#summary-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.scheme, [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href'))])));
  assert.deepEqual(rows['rope-3d'], ['#s10', '#patch-grid', '#rope-allocation']);
  assert.deepEqual(rows['learned-2d'], ['#s10', '#learned-resize']);
  assert.deepEqual(rows['dual-chunk'], ['#s6', '#s6-dual-chunk', '#dual-chunk']);
  await page.$eval('#s10', (el) => el.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('#toc').dataset.current === 's10', null, { timeout: 5000 });
  await shot(page.locator('#s10-takeaways'), 's10-takeaways');
});
