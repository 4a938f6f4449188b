// Chinese mode is complete (issue 12, defect 9): the visible text of the whole page in zh mode — every section, the
// figures' titles, takeaways, controls, captions, legends, readouts and notices (their shadow roots included), the
// page's own tables and checks — has no English word outside code, math and proper names (zh-text.mjs holds the
// allow-lists); error messages included: a figure's parameter error, a PosencError from the package inside a figure
// and on the page (the learned-table loader), each shown in Chinese with the parameter name kept, never raw.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { describeFigure, figureNames } from '../../web/src/figures/index.js';   // the sources the site is built from
import { openPage, settled, shot } from './browser.mjs';
import { zhVisibleText, englishWords } from './zh-text.mjs';
import { errorText } from '../../web/src/figures/messages.js';

const pe = await init();
// The figures' parameter names and enum values are code (they are attribute names and values).
const CODE = new Set(['true', 'false', ...figureNames.flatMap((n) => describeFigure(n).params.flatMap((p) => [p.name, ...(p.values ?? []).map(String)]))]);
let ctx, page;

before(async () => { ctx = await openPage('/?lang=zh', { width: 1280, height: 1400 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

const paintAll = (p) => p.evaluate(async () => { for (const f of document.querySelectorAll('posenc-figure')) { if (!f.checkVisibility()) continue; f.scrollIntoView(); await f.ready.catch(() => {}); } });
const figureError = (id) => page.$eval(`#${id}`, (el) => { const b = el.shadowRoot.querySelector('.error'); return b.hidden ? '' : b.textContent; });

test('PosencError messages in Chinese: the parameter name kept, the rule translated, no English words', () => {
  const cases = [
    [() => pe.ropeInvFreq({ rotary_dim: 7 }), 'rotary_dim'],
    [() => pe.ropeApply(new Float32Array(4), { seq: 1, head_dim: 4, rope_base: 3 }), 'ropeApply'],
    [() => pe.ropeFromConfig('{"rope_theta": -1, "head_dim": 64}'), 'rope_theta'],
    [() => pe.ropeFromConfig('{"rope_theta": 10000, "head_dim": 64, "rope_scaling": {"rope_type": "linear", "factr": 2}}'), 'rope_scaling.factr'],
    [() => pe.ropeFromConfig('{"rope_theta": 10000'), 'config'],
    [() => pe.tableFromJSON('[[1, 2], [3'), 'json'],
    [() => pe.tableLookup({ rows: 2, cols: 1, data: new Float32Array(2) }, { positions: [5] }), 'positions'],
    [() => pe.alibiSlopes({ heads: 0 }), 'num_heads'],
  ];
  for (const [f, param] of cases) {
    const e = (() => { try { f(); } catch (x) { return x; } return null; })();
    assert.equal(e?.name, 'PosencError');
    const t = errorText(e);
    assert.ok(t.en === e.message || (param === 'positions' && t.en === 'positions: position 5 is outside the table’s rows 0…1 (tick “clamp” to repeat the last row)'), t.en);
    assert.ok(t.zh.startsWith(`参数错误：${param}`), t.zh);
    assert.deepEqual(englishWords([t.zh], CODE), [], t.zh);
  }
  assert.match(errorText(new TypeError('x is not a function')).zh, /^计算失败/);
});

test('every figure’s Chinese title, description, takeaway, labels and rules (gallery, embeds) have no English words', () => {
  for (const n of figureNames) {
    const d = describeFigure(n);
    const texts = [d.title.zh, d.description.zh, d.takeaway.zh, ...d.params.flatMap((p) => [p.label.zh, p.rule.zh])];
    assert.deepEqual(englishWords(texts, CODE), [], n);
  }
});

test('zh mode: no English words in the visible text of the page and its figures', async () => {
  await paintAll(page);
  await settled(page);
  const texts = await zhVisibleText(page);
  assert.ok(texts.length > 800, `visible texts: ${texts.length}`);
  assert.ok(texts.some((t) => t.includes('旋转位置编码')), 'section prose is collected');
  assert.ok(texts.some((t) => t.includes('分桶后的 δ')), 'figure legends (shadow DOM) are collected');
  assert.deepEqual(englishWords(texts, CODE), []);
  await shot(page, 'zh-1280-full', { fullPage: true, timeout: 120_000 });   // ~70,000 px tall: slow on a shared 2-core machine
});

test('zh mode: the figure gallery (titles, descriptions, parameter tables, every figure) has no English words', async () => {
  const g = await ctx.open('/gallery.html?lang=zh', { width: 1280, height: 1400 });
  await paintAll(g);
  const texts = await zhVisibleText(g);
  assert.ok(texts.some((t) => t.includes('允许的值')), 'the parameter tables are collected');
  assert.deepEqual(englishWords(texts, CODE), []);
  await g.close();
});

test('zh mode: error messages are Chinese — a figure parameter, a PosencError inside a figure, the table loader', async () => {
  // A figure parameter out of range (FigureError, already bilingual).
  await page.$eval('#t5', (el) => el.setAttribute('head', '8'));
  await page.$eval('#t5', (el) => el.ready.catch(() => {}));
  assert.match(await figureError('t5'), /^属性 "head" 必须是 0 到 7 之间的整数/);
  // A PosencError from the package inside a figure (the config reader: a misspelt key).
  await page.$eval('#config-wavelengths', (el) => el.setAttribute('config', '{"rope_theta": 10000, "head_dim": 64, "rope_scaling": {"rope_type": "linear", "factr": 2}}'));
  await page.$eval('#config-wavelengths', (el) => el.ready.catch(() => {}));
  assert.equal(await figureError('config-wavelengths'), "参数错误：rope_scaling.factr：rope_type 'linear' 没有这个键（是否想写 'factor'？）。");
  // The page's table loader: a broken file, then a lookup past the end of a good one.
  await page.setInputFiles('#s2l-file', { name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('[[1, 2], [3') });
  // the file is read asynchronously: wait for its error, not for a fixed time (100 ms was too short under load)
  await page.waitForFunction(() => document.querySelector('#s2l-form + .error')?.textContent, null, { timeout: 10000 }); await settled(page);
  assert.equal(await page.$eval('#s2l-form + .error', (el) => el.textContent), '参数错误：json：不是合法的 JSON 表格。');
  await page.setInputFiles('#s2l-file', { name: 'ok.json', mimeType: 'application/json', buffer: Buffer.from('[[1, 2], [3, 4]]') });
  await page.waitForFunction(() => document.querySelector('#s2l-info').dataset.rows === '2'); await settled(page);
  assert.equal(await page.$eval('#s2l-lookup', (el) => el.textContent), '位置 70 超出了表的范围（第 0…1 行）；勾选“截断”可改为重复最后一行。');
  await shot(page.locator('#s2l-form'), 'zh-s2-loader-error');
  const texts = await zhVisibleText(page);
  assert.deepEqual(englishWords(texts, CODE), []);
  ctx.errors.splice(0);   // the figures log their errors to the console (expected here)
});

test('zh mode: the figures whose default text is English show a Chinese one, kept out of the address; English brings theirs back', async () => {
  const p = await ctx.open('/?lang=zh');
  const texts = () => p.evaluate(() => ['attention', 'explorer', 'multiplicative'].map((id) => {
    const f = /** @type {any} */ (document.getElementById(id));
    return [f.getAttribute('text') ?? f.getAttribute('word'), f.shadowRoot.querySelector('input[name="text"], input[name="word"]')?.value];
  }));
  for (const id of ['attention', 'explorer', 'multiplicative']) await p.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); await /** @type {any} */ (el).ready; });
  assert.deepEqual(await texts(), [['猫抓老鼠，老鼠跑到旧桌子底下。', '猫抓老鼠，老鼠跑到旧桌子底下。'], ['猫抓老鼠，老鼠跑到旧桌子底下。', '猫抓老鼠，老鼠跑到旧桌子底下。'], ['猫', '猫']]);
  // the map's tokens are the Chinese characters (the package's textQK splits CJK text per character): 16 rows, 老 at 2 and 5
  const rows = await p.$eval('#attention', (f) => /** @type {any} */ (f.shadowRoot?.querySelector('pe-heatmap')).rowLabels);
  assert.deepEqual([rows.length, rows[2], rows[5], rows[15]], [16, '老', '老', '猫']);
  await p.waitForTimeout(300);
  assert.equal(new URL(p.url()).searchParams.toString(), 'lang=zh', 'the Chinese default is not written to the address');
  await p.click('#lang-en');
  await p.waitForTimeout(300);
  assert.deepEqual((await texts()).map((t) => t[0]), [null, null, null]);
  await p.context().close();
});
