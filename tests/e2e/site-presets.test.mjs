// End to end: "source figure" presets (issue 12, craft). One click on a preset sets its figure to the parameters of a
// figure or table in the source documents — every parameter, the ones it does not name back to their defaults — and
// a note says where it came from, in the page's language; the figure then shows the API's numbers for that setting.
// A later change by the reader releases the preset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { openPage, shot } from './browser.mjs';
import { csvRows } from './csv.mjs';

const pe = await init();
let ctx, page;
before(async () => { ctx = await openPage('/', { width: 1280, height: 1400 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

const presets = () => page.$$eval('.presets[data-figure] button[data-preset]', (bs) => bs.map((b, i) => ({ i, figure: b.closest('.presets').dataset.figure, preset: b.dataset.preset })));
async function click(i) {
  const figure = await page.$$eval('.presets button[data-preset]', (bs, k) => { bs[k].click(); return bs[k].closest('.presets').dataset.figure; }, i);
  const state = await page.$eval(`#${figure}`, (el) => el.ready.then(() => 'ok', (e) => `ERR ${e.message}`));
  return { figure, state };
}
const attrs = (figure) => page.$eval(`#${figure}`, (el) => Object.fromEntries([...el.attributes].map((a) => [a.name, a.value])));
const note = (figure) => page.$eval(`.presets[data-figure="${figure}"] + .preset-note`, (el) => (el.hidden ? '' : el.textContent));
const csv = (figure) => page.$eval(`#${figure}`, (el) => el.toCSV());

test('every preset sets exactly its parameters, paints, and names its source in both languages', async () => {
  const all = await presets();
  assert.ok(all.length >= 8, `presets: ${all.length}`);
  assert.deepEqual([...new Set(all.map((p) => p.figure))].sort(), ['alibi', 'factor-advisor', 'rope-decay', 'su-decay', 't5']);
  // factor-advisor's presets are models of the config reader's gallery: each sets the whole config.json, names the model
  for (const p of all.filter((q) => q.figure === 'factor-advisor')) {
    const r = await click(p.i);
    assert.equal(r.state, 'ok', p.preset.slice(0, 80));
    assert.equal((await attrs(p.figure)).config, p.preset.replace(/^config=/, ''));
    assert.match(await note(p.figure), /^(Qwen|Llama|DeepSeek)[^:]*: .*config\.json/);
  }
  for (const p of all.filter((q) => q.figure !== 'factor-advisor')) {
    // start from a changed state, so the preset has something to undo
    await page.$eval(`#${p.figure}`, (el) => el.setAttribute(el.getAttribute('figure') === 'alibi' ? 'heads' : 'bound', el.getAttribute('figure') === 'alibi' ? '3' : 'true'));
    const r = await click(p.i);
    assert.equal(r.state, 'ok', p.preset);
    const a = await attrs(p.figure);
    for (const kv of p.preset.split(/\s+/)) { const [k, v] = kv.split('='); assert.equal(a[k], v, `${p.figure}.${k}`); }
    // the source by its title (a reader cannot look up the project's internal source numbers)
    assert.match(await note(p.figure), /Press et al\.|From (the|Su Jianlin’s) post “[^”]+” \((linsight\.cn|kexue\.fm\/archives\/\d+)/);
    assert.doesNotMatch(await note(p.figure), /source \d{3}/);
    assert.equal(await page.$$eval('.presets button[aria-pressed="true"]', (bs) => bs.filter((b) => b.closest('.presets').dataset.figure).length) >= 1, true);
  }
  await page.click('#lang-zh');
  assert.match(await note('alibi'), /笔记《位置编码》所引的图（Press 等，ALiBi 论文图 3）/);
  await page.click('#lang-en');
});

test('the presets reproduce the sources’ numbers: ALiBi Fig. 3, Su’s curve, 003’s window 4096, T5’s table', async () => {
  const all = await presets(), find = (fig, re) => all.find((p) => p.figure === fig && re.test(p.preset));
  // ALiBi, Fig. 3: 8 heads, head 0 has slope 1/2; the last of 5 queries gets −2, −1.5, −1, −0.5, 0.
  await click(find('alibi', /n=5/).i);
  const map = csvRows(await csv('alibi'), 'map').filter((r) => r.row === '4').map((r) => Number(r.value));
  assert.deepEqual(map, Array.from(pe.alibiBias({ slopes: [pe.alibiSlopes(8)[0]], q_len: 5, mode: 'causal' }).subarray(20, 25), (v) => v + 0));   // + 0: the CSV writes −0 as 0
  assert.deepEqual(map, [-2, -1.5, -1, -0.5, 0]);
  await shot(page.locator('#alibi'), 'preset-alibi');
  // Su's curve, source 002: d = 128, base 10000, distances 0…256.
  await click(find('su-decay', /count=257/).i);
  const su = csvRows(await csv('su-decay')).map((r) => Number(r.value));
  assert.deepEqual(su.slice(0, 257), Array.from(pe.ropeDecayBound({ rotary_dim: 128, rope_theta: 10000, count: 257 })));
  // 003, figure 1: q = k = ones, d = 512, base 10000, window 4096; the score at distance 2048 is the API's.
  await click(find('rope-decay', /window=4096 bound=false at=2048/).i);
  const at = await page.$eval('#rope-decay', (el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
  assert.equal(at, pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, rope_theta: 10000, q_position: 0, k_start: 2048, count: 1 })[0]);
  await shot(page.locator('#rope-decay'), 'preset-rope-decay-003-1');
  // The reader changes the window: the preset lets go and its note disappears.
  await page.$eval('#rope-decay', (el) => el.setAttribute('window', '16384'));
  assert.equal(await page.$$eval('.presets[data-figure="rope-decay"] button[aria-pressed="true"]', (bs) => bs.length), 0);
  assert.equal(await note('rope-decay'), '');
  // T5: the table under the plot is source 002's (i − j = 0…30).
  await click(find('t5', /num_buckets=32/).i);
  const t5 = await page.$eval('#t5', (el) => [...el.shadowRoot.querySelectorAll('table[data-id="buckets"] tr')[1].cells].slice(1).map((c) => Number(c.textContent)));
  assert.deepEqual(t5, Array.from({ length: 31 }, (_, t) => pe.t5RelativePositionBucket(-t)));
  assert.deepEqual(ctx.errors, []);
});

test('"try this" beside every figure: one click sets its state, the sentence says what to see, a later change releases it', async () => {
  const { describeFigure } = await import('posenc/figures');
  const figs = await page.$$eval('posenc-figure[id]', (fs) => fs.map((f) => ({ id: f.id, figure: f.getAttribute('figure'), prev: f.previousElementSibling?.dataset.try ?? null })));
  const withTries = figs.filter((f) => describeFigure(f.figure).tries.length);
  assert.ok(withTries.length >= 19, `figures with a try: ${withTries.length}`);
  for (const f of withTries) {
    assert.equal(f.prev, f.id, `${f.id}: the try box sits right before the figure`);
    // both languages are in the page's HTML (figure-bars.js), the root's data-lang shows one
    const looks = await page.$$eval(`[data-try="${f.id}"] .try-look > [lang="en"]`, (ls) => ls.map((l) => l.textContent));
    assert.deepEqual(looks, describeFigure(f.figure).tries.map((t) => t.look.en));
  }
  // attention: untick RoPE, and the rows of "the" become identical (as the sentence says)
  await page.click('[data-try="attention"] button');
  assert.equal(await page.$eval('#attention', (el) => el.ready.then(() => el.getAttribute('rope'))), 'false');
  const rows = csvRows(await csv('attention'), 'map'), row = (i) => rows.filter((r) => r.row === String(i)).map((r) => r.value);
  for (const i of [3, 6, 10, 13]) assert.deepEqual(row(i), row(0), `row ${i}`);
  assert.equal(await page.$eval('[data-try="attention"] button', (b) => b.getAttribute('aria-pressed')), 'true');
  await page.$eval('#attention', (el) => el.setAttribute('rope', 'true'));
  assert.equal(await page.$eval('[data-try="attention"] button', (b) => b.getAttribute('aria-pressed')), 'false');
  await page.click('#lang-zh');
  assert.equal(await page.$eval('[data-try="attention"] .try-look', (l) => /** @type {HTMLElement} */ (l).innerText), describeFigure('attention').tries[0].look.zh);
  assert.equal(await page.$eval('[data-try="attention"] button', (b) => /** @type {HTMLElement} */ (b).innerText), '▶ 试一试');
  await page.click('#lang-en');
  await shot(page.locator('[data-try="context-extension"]'), 'try-context-extension');
  assert.deepEqual(ctx.errors, []);
});

test('§2’s stand-alone similarity heatmap has the export menu: its CSV holds the numbers drawn', async () => {
  await page.$eval('#s2l-sim', (el) => el.scrollIntoView());
  await page.waitForFunction(() => document.getElementById('s2l-sim').data);
  const bar = '[data-export-for="s2l-sim"]';
  assert.equal(await page.$eval(bar, (b) => b.hidden), false);
  await page.click(`${bar} > button`);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(`${bar} button[data-x="csv"]`)]);
  const { readFile } = await import('node:fs/promises');
  const text = await readFile(await dl.path(), 'utf8'), lines = text.trim().split('\n');
  const drawn = await page.$eval('#s2l-sim', (el) => ({ n: el.rows * el.cols, first: el.data[1], last: el.data[el.data.length - 1] }));
  assert.equal(lines[1], 'row,col,value');
  assert.equal(lines.length - 2, drawn.n);
  assert.equal(Number(lines[3].split(',')[2]), drawn.first);
  assert.equal(Number(lines.at(-1).split(',')[2]), drawn.last);
  const [png] = await Promise.all([page.waitForEvent('download'), page.click(`${bar} button[data-x="png"]`)]);
  assert.match(png.suggestedFilename(), /^posenc-s2l-sim\.png$/);
  // hidden with the block (a bad file: only the error stays)
  await page.$eval('#s2l-sim', (el) => { el.hidden = true; });
  await page.waitForFunction((s) => document.querySelector(s).hidden, bar);
  assert.equal(await page.$eval('#s2l-sim', (el) => getComputedStyle(el).display), 'none');
  await page.$eval('#s2l-sim', (el) => { el.hidden = false; });
});
