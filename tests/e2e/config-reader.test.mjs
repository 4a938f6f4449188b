// End to end: section 6's config reader on the built site in headless Chromium. Each gallery model (a real config.json)
// renders in every config figure without error and with the numbers pe.ropeFromConfig gives here in Node; a pasted bad
// config replaces the old result with an error that names the key (en and zh) and hides the other figures; Llama 4's
// schedule shows every 4th layer NoPE; the M-RoPE figure shows the image block of get_rope_index's ids.
// Screenshots (en, zh; desktop, phone): test-results/config-reader-*.png.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { openPage, shot, setLang } from './browser.mjs';
import { csvRows } from './csv.mjs';

const pe = await init();
const fixture = (f) => readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8');
const FOLLOWERS = ['config-schedule', 'config-decay', 'config-scale'];
let ctx, page;

before(async () => { ctx = await openPage(); page = ctx.page; });
after(async () => { await ctx?.close(); });

const ready = (id, p = page) => p.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); });
const readout = (id, rid, p = page) => p.$eval(`#${id}`, (el, r) => Number(el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.dataset.value ?? NaN), rid);
const readoutText = (id, rid, p = page) => p.$eval(`#${id}`, (el, r) => el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.textContent ?? null, rid);
const csv = (id, p = page) => p.$eval(`#${id}`, (el) => el.toCSV());
/** Waits until figure `id` holds config `text` and has painted it. */
async function follows(id, text, p = page) {
  await p.waitForFunction(([i, t]) => document.getElementById(i).getAttribute('config') === t, [id, text], { timeout: 10000 });
  return ready(id, p);
}
/** Pastes `text` into the first figure's config box, as a reader does. */
async function paste(text, p = page) {
  await p.$eval('#config-wavelengths', (el, t) => {
    const c = el.shadowRoot.querySelector('[name="config"]');
    c.value = t; c.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  }, text);
  return ready('config-wavelengths', p);
}
async function expectError(re) {
  for (let t = 0; t < 40 && !ctx.errors.some((e) => re.test(e)); t++) await new Promise((r) => setTimeout(r, 50));
  const i = ctx.errors.findIndex((e) => re.test(e));
  assert.ok(i >= 0, `console.error ${re}`);
  ctx.errors.splice(i, 1);
}

// What the results show follows from the file alone: at load, before any config figure computes, it is already the
// default model's (Llama 3.1 8B: no attention factor, no M-RoPE), so nothing below the first figure moves when it paints
// (it once waited for that paint and then hid 870 px of figures, which never painted: a sweep waited on them for ever).
test('the results are laid out for the default model before the first figure paints, and stay so after', async () => {
  const p = await ctx.open('/');
  const state = () => p.evaluate(() => ['config-scale', 'config-scale-none', 'config-mrope-box', 'config-mrope-none'].map((id) => `${id}:${document.getElementById(id).hidden ? 'hidden' : 'shown'}`)
    .concat(String(/** @type {any} */ (document.getElementById('config-wavelengths'))._painted)));
  const want = ['config-scale:hidden', 'config-scale-none:shown', 'config-mrope-box:hidden', 'config-mrope-none:shown'];
  assert.deepEqual(await state(), [...want, 'false'], 'at load');
  assert.equal(await ready('config-wavelengths', p), 'ok');
  assert.deepEqual(await state(), [...want, 'true'], 'after the first figure painted');
  await p.context().close();
});

test('every gallery model renders in every config figure, with the numbers the package reads from its file', async () => {
  const models = await page.$$eval('#config-gallery button', (bs) => bs.map((b) => [b.dataset.model, b.textContent]));
  assert.ok(models.length >= 8, `${models.length} models`);
  // the address's gallery choice (a <select> written in the HTML, so a link is validated before the script runs) lists the same models
  assert.deepEqual(await page.$$eval('#config-pick option', (os) => os.map((o) => o.value)), ['', ...models.map(([id]) => id)]);
  for (const [id, name] of models) {
    await page.click(`#config-gallery button[data-model="${id}"]`);
    assert.equal(await ready('config-wavelengths'), 'ok', name);
    const text = await page.$eval('#config-wavelengths', (el) => el.getAttribute('config'));
    const r = pe.ropeFromConfig(text);
    assert.equal(await readout('config-wavelengths', 'info'), r.inv_freq[r.inv_freq.length - 1], name);
    for (const [t, v] of Object.entries(r.layer_types)) if (v) assert.equal(await readout('config-wavelengths', `type-${t}`), v.attention_scaling, `${name} ${t}`);
    // a model whose attention factors are all 1 gets a sentence, not an empty chart of factors
    const flat = !r.mla && !r.attn_temperature && Object.values(r.layer_types).every((t) => !t || (t.attention_scaling === 1 && !['longrope', 'dynamic'].includes(t.rope_type)));
    await page.waitForFunction((f) => document.getElementById('config-scale').hidden === f && document.getElementById('config-scale-none').hidden === !f, flat);
    for (const f of FOLLOWERS) if (!(flat && f === 'config-scale')) assert.equal(await follows(f, text), 'ok', `${name}: ${f}`);
    // M-RoPE: the ids figure follows; any other model: it is hidden and a note says why
    if (r.mrope_section) assert.equal(await follows('config-mrope', text), 'ok', name);
    await page.waitForFunction((m) => document.getElementById('config-mrope-box').hidden === !m && document.getElementById('config-mrope-none').hidden === m, Boolean(r.mrope_section));
    assert.equal(await page.$eval('#config-results', (el) => el.hidden), false);
    // the line above the figures names the model and states what was read
    const line = await page.$eval('#config-model', (el) => [el.dataset.model, el.textContent]);
    assert.equal(line[0], id);
    assert.ok(line[1].startsWith(name) && line[1].includes(`rope_theta ${Number(r.rope_theta.toPrecision(6))}`), line[1]);
    // the source names its organisation, as on the Hugging Face Hub (organisation/model)
    assert.match(await page.$eval('#config-model code:nth-of-type(2)', (c) => c.textContent), /^[\w-]+\/[\w.-]+/, name);
    assert.equal(await page.$eval(`#config-gallery button[data-model="${id}"]`, (b) => b.getAttribute('aria-pressed')), 'true');
    // schedule: one cell per layer, or the note that there is none; M-RoPE: ids, or the note that it is not M-RoPE
    if (r.layers) assert.equal(csvRows(await csv('config-schedule'), 'strip').filter((c) => c.value !== 'NaN').length, r.layers.length, name);
    else assert.match(await readoutText('config-schedule', 'none'), /no layer schedule/);
    if (r.mrope_section) assert.equal(csvRows(await csv('config-mrope'), 'ids').length % 3, 0, name);
    if (r.mla) assert.equal(await readout('config-scale', 'mscale2'), r.mla.softmax_scale_factor, name);
  }
  assert.deepEqual(ctx.errors, []);
  await shot(page.locator('#config-reader'), 'config-reader-gallery-en');
});

test('a bad config replaces the old result with an error naming the key, in English and in Chinese', async () => {
  await page.click('#config-gallery button[data-model="deepseek-v3"]');
  assert.equal(await ready('config-wavelengths'), 'ok');
  const bad = fixture('DeepSeek-V3.json').replace('"factor": 40,', '"factor": 0,');
  assert.match(await paste(bad), /^ERR rope_scaling\.factor: must be a finite number >= 1 \(got 0\)$/);
  await expectError(/<posenc-figure figure="config-wavelengths">: rope_scaling\.factor/);
  const shown = () => page.$eval('#config-wavelengths', (el) => {
    const sr = el.shadowRoot;
    return { error: sr.querySelector('.error').hidden ? null : sr.querySelector('.error').textContent, panels: sr.querySelector('.panels').hidden,
      readouts: sr.querySelectorAll('.readouts output').length };
  });
  assert.deepEqual(await shown(), { error: 'rope_scaling.factor: must be a finite number >= 1 (got 0)', panels: true, readouts: 0 });
  assert.equal(await page.$eval('#config-results', (el) => el.hidden), true, 'no stale figure below the error');
  assert.equal(await page.$eval('#config-gallery button[data-model="deepseek-v3"]', (b) => b.getAttribute('aria-pressed')), 'false');
  await page.click('[data-set-lang="zh"]');
  await ready('config-wavelengths').catch(() => {});
  await page.waitForFunction(() => /必须/.test(document.querySelector('#config-wavelengths').shadowRoot.querySelector('.error').textContent));
  assert.equal((await shown()).error, '参数错误：rope_scaling.factor：必须是 >= 1 的有限数（收到 0）。');
  await shot(page.locator('#config-reader'), 'config-reader-error-zh');
  // a typo inside the scaling dict: named, with the key it probably meant
  assert.match(await paste(bad.replace('"factor": 0,', '"factor": 40,').replace('"beta_fast"', '"beta_fats"')), /beta_fats/);
  assert.equal((await shown()).error, "参数错误：rope_scaling.beta_fats：rope_type 'yarn' 没有这个键（是否想写 'beta_fast'？）。");
  await page.click('[data-set-lang="en"]');
  await page.waitForFunction(() => /did you mean 'beta_fast'/.test(document.querySelector('#config-wavelengths').shadowRoot.querySelector('.error').textContent));
  // not JSON at all, then a good config again: everything is back
  assert.match(await paste('{"rope_theta": 1e4,'), /^ERR config: not valid JSON/);
  const good = fixture('DeepSeek-V3.json');
  assert.equal(await paste(good), 'ok');
  for (const f of FOLLOWERS) assert.equal(await follows(f, good), 'ok', f);
  assert.equal(await page.$eval('#config-results', (el) => el.hidden), false);
  assert.equal(await page.$eval('#config-model', (el) => el.dataset.model), 'deepseek-v3');
  while (ctx.errors.length && /config-wavelengths/.test(ctx.errors[0])) ctx.errors.shift();
  assert.deepEqual(ctx.errors, []);
});

const marksOf = (id, p = page) => p.$eval(`#${id}`, (el) => el.shadowRoot.querySelector('[data-panel="plot"]').marks.map((m) => ({ x: m.x, y: m.y, label: m.label })));
const note = (id, rid, p = page) => p.$eval(`#${id}`, (el, r) => el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.parentElement.querySelector('.note')?.textContent ?? null, rid);

test('Llama 3.1 and DeepSeek-V3: the scaling keys read, Llama 3’s bands and thresholds, YaRN’s β and ramp, mscale² explained', async () => {
  // Llama 3.1 8B: low_freq_factor 1, high_freq_factor 4 from its file; the bands counted here from HF's rule
  await page.click('#config-gallery button[data-model="llama-3.1-8b"]');
  assert.equal(await ready('config-wavelengths'), 'ok');
  const llama = JSON.parse(fixture('Llama-3.1-8B.json')), rs = llama.rope_scaling, L0 = rs.original_max_position_embeddings;
  const bands = [0, 0, 0];
  for (let i = 0; i < 64; i++) { const lam = 2 * Math.PI * llama.rope_theta ** (2 * i / 128); bands[lam < L0 / rs.high_freq_factor ? 0 : lam > L0 / rs.low_freq_factor ? 2 : 1]++; }
  assert.deepEqual(bands, [29, 6, 29]);
  const b = pe.ropeFromConfig(fixture('Llama-3.1-8B.json')).llama3_bands;
  assert.deepEqual([b.n_kept, b.n_smoothed, b.n_scaled], bands);
  const type = await readoutText('config-wavelengths', 'type-full_attention');
  assert.ok(type.includes(`low_freq_factor ${rs.low_freq_factor}, high_freq_factor ${rs.high_freq_factor}: pairs 29 kept / 6 smoothed / 29 scaled`), type);
  assert.equal(await note('config-wavelengths', 'type-full_attention'), ' — read from: rope_scaling');
  const ys = (await marksOf('config-wavelengths')).map((m) => m.y);
  for (const y of [L0 / rs.high_freq_factor, L0 / rs.low_freq_factor]) assert.ok(ys.includes(y), `threshold ${y} drawn (${ys})`);
  assert.ok((await page.$eval('#config-model', (el) => el.textContent)).includes('pairs 29 kept / 6 smoothed / 29 scaled'));
  // identifiers in that line are set as code
  const codes = await page.$$eval('#config-model > code', (cs) => cs.map((c) => c.textContent));
  for (const k of ['full_attention', 'rope_scaling', 'low_freq_factor', 'high_freq_factor', 'attention_scaling']) assert.ok(codes.includes(k), `${k} as code (${codes})`);
  // DeepSeek-V3: beta_fast / beta_slow / mscale / mscale_all_dim as in its file; the ramp from find_correction_range
  await page.click('#config-gallery button[data-model="deepseek-v3"]');
  assert.equal(await ready('config-wavelengths'), 'ok');
  const ds = JSON.parse(fixture('DeepSeek-V3.json')), y = ds.rope_scaling, d = ds.qk_rope_head_dim, L1 = y.original_max_position_embeddings;
  const dim = (beta) => (d * Math.log(L1 / (beta * 2 * Math.PI))) / (2 * Math.log(ds.rope_theta));
  const ramp = [Math.floor(dim(y.beta_fast)), Math.ceil(dim(y.beta_slow))];
  const t = await readoutText('config-wavelengths', 'type-full_attention');
  assert.ok(t.includes(`beta_fast ${y.beta_fast}, beta_slow ${y.beta_slow}: ramp over pairs ${ramp[0]} … ${ramp[1]}`) && t.includes(`mscale ${y.mscale}, mscale_all_dim ${y.mscale_all_dim}`), t);
  const mscale = 0.1 * y.mscale_all_dim * Math.log(y.factor) + 1;
  assert.ok(Math.abs(await readout('config-wavelengths', 'mla') - mscale ** 2) < 1e-12);
  assert.ok((await note('config-wavelengths', 'mla')).includes(`= ${Number(mscale.toPrecision(6))}`), await note('config-wavelengths', 'mla'));
  const dy = (await marksOf('config-wavelengths')).map((m) => m.y);
  for (const v of [L1 / y.beta_fast, L1 / y.beta_slow]) assert.ok(dy.includes(v), `threshold ${v} drawn (${dy})`);
  // config-scale: the vertical line carries no label that could cross the mscale² line; the caption names it
  assert.equal(await follows('config-scale', fixture('DeepSeek-V3.json')), 'ok');
  assert.deepEqual((await marksOf('config-scale')).map((m) => [m.x, m.label]), [[L1, '']]);
  assert.match(await page.$eval('#config-scale', (el) => el.shadowRoot.querySelector('[data-panel="plot"]').getAttribute('caption')), /original_max_position_embeddings = 4096/);
  await shot(page.locator('#config-reader'), 'config-reader-deepseek-en');
});

test('Chinese: the package’s notes translated, layer types named in Chinese, no English note left in place', async () => {
  const p = await ctx.open('/?lang=zh#config-reader', { width: 1280, height: 1400 });
  await p.click('#config-gallery button[data-model="gemma-3-27b"]');
  assert.equal(await ready('config-wavelengths', p), 'ok');
  const w = pe.ropeFromConfig(fixture('gemma-3-27b-it.json')).warnings;
  assert.ok(w.length > 0);
  const notes = await readoutText('config-wavelengths', 'warnings', p);
  assert.ok(!/原文见英文界面/.test(notes) && /中没有 .*采用 Hugging Face 中 gemma3_text 配置类的默认值/.test(notes), notes);
  assert.match(await readoutText('config-wavelengths', 'type-sliding_attention', p) ?? '', /head_dim 128 中旋转 128 维/);
  assert.match(await p.$eval('#config-wavelengths', (el) => el.shadowRoot.querySelector('output[data-id="type-sliding_attention"]').parentElement.firstChild.textContent), /滑动窗口注意力/);
  assert.match(await note('config-wavelengths', 'type-full_attention', p), /读自：text_config\.rope_scaling/);
  await p.click('#config-gallery button[data-model="qwen3.5-9b"]');
  assert.equal(await ready('config-wavelengths', p), 'ok');
  assert.match(await readoutText('config-wavelengths', 'mrope', p), /通道对个数/);
  assert.equal(await follows('config-schedule', fixture('Qwen3.5-9B.json'), p), 'ok');
  assert.match(await readoutText('config-schedule', 'type-full_attention', p), /（默认层类型，即配置顶层的 RoPE 设置）$/);
  await shot(p.locator('#config-reader'), 'config-reader-zh-notes');
  await p.context().close();
});

// meta-llama/Llama-4-Scout-17B-16E: the text_config position keys as published (no_rope_layers: 1 = RoPE)
const LLAMA4 = JSON.stringify({ architectures: ['Llama4ForConditionalGeneration'], model_type: 'llama4',
  text_config: { model_type: 'llama4_text', attention_chunk_size: 8192, attn_scale: 0.1, attn_temperature_tuning: true, floor_scale: 8192,
    head_dim: 128, hidden_size: 5120, num_attention_heads: 40, num_hidden_layers: 48, max_position_embeddings: 10485760,
    no_rope_layers: Array.from({ length: 48 }, (_, i) => ((i + 1) % 4 ? 1 : 0)), rope_theta: 500000.0,
    rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } } }, null, 2);

test('Llama 4 pasted: the schedule strip shows every 4th layer NoPE; temperature tuning grows with position', async () => {
  assert.equal(await paste(LLAMA4), 'ok');
  assert.equal(await follows('config-schedule', LLAMA4), 'ok');
  const cells = csvRows(await csv('config-schedule'), 'strip').filter((c) => c.value !== 'NaN');
  assert.equal(cells.length, 48);
  const rows = await page.$eval('#config-schedule', (el) => el.shadowRoot.querySelector('[data-panel="strip"]').rowLabels);
  // the layer types are drawn whole beside their rows, and the legend names the two colours
  const drawn = await page.$eval('#config-schedule', (el) => {
    const b = el.shadowRoot.querySelector('[data-panel="strip"]');
    return [b.textBoxes().map((t) => t.text), [...b.shadowRoot.querySelectorAll('.cats span')].map((x) => x.textContent)];
  });
  assert.ok(drawn[0].includes('chunked_attention') && drawn[0].includes('full_attention'), drawn[0].join(' '));
  assert.deepEqual(drawn[1], ['RoPE', 'NoPE (no positions)']);
  for (const c of cells) {
    const layer = Number(c.col), nope = (layer + 1) % 4 === 0;
    assert.equal(c.value, nope ? '0' : '1', `layer ${layer}`);
    assert.equal(rows[Number(c.row)], nope ? 'full_attention' : 'chunked_attention', `layer ${layer}`);
  }
  assert.match(await readoutText('config-schedule', 'type-full_attention'), /^12 layers, no RoPE \(layers 3, 7, 11,/);
  assert.equal(await follows('config-scale', LLAMA4), 'ok');
  const temp = csvRows(await csv('config-scale'), 'plot', 'Llama 4 query temperature (NoPE layers)');
  for (const t of temp) assert.ok(Math.abs(Number(t.value) - (1 + 0.1 * Math.log(1 + Math.floor((Number(t.x) + 1) / 8192)))) < 1e-12, t.x);
  assert.ok(Number(temp.at(-1).value) > 1.7);
  await shot(page.locator('#config-reader'), 'config-reader-llama4-en');
});

test('M-RoPE: Qwen2.5-VL\'s ids of text + image equal mropePositionIds; the image block has one t, rows on h, columns on w', async () => {
  await page.click('#config-gallery button[data-model="qwen2.5-vl-7b"]');
  assert.equal(await ready('config-wavelengths'), 'ok');
  const text = fixture('Qwen2.5-VL-7B-Instruct.json');
  assert.equal(await follows('config-mrope', text), 'ok');
  const cells = csvRows(await csv('config-mrope'), 'ids');
  const L = cells.length / 3, at = (a, j) => Number(cells[a * L + j].value);
  // default example: 4 text tokens, <vision_start>, an 8 × 12 patch image merged 2 × 2 (4 rows × 6 columns), <vision_end>, 3 text tokens
  const ids = [1000, 1001, 1002, 1003, 151652, ...Array(24).fill(151655), 151653, 1030, 1031, 1032];
  const want = pe.mropePositionIds({ config: text, input_ids: ids, image_grid_thw: [[1, 8, 12]] });
  assert.equal(L, ids.length);
  for (let a = 0; a < 3; a++) for (let j = 0; j < L; j++) assert.equal(at(a, j), want.position_ids[a * L + j], `axis ${a} token ${j}`);
  for (let k = 0; k < 24; k++) assert.deepEqual([at(0, 5 + k), at(1, 5 + k), at(2, 5 + k)], [5, 5 + Math.floor(k / 6), 5 + (k % 6)], `image token ${k}`);
  assert.equal(await readout('config-mrope', 'deltas'), want.rope_deltas);
  // the try (a 28×40-patch image): 14 rows and 20 columns of ids, so ] resumes at 5 + 20 and rope_deltas = −260 — said
  // by readouts too, as a phone's cells are too narrow to print 280 ids (mropePositionIds computes the same)
  await page.$eval('#config-mrope', (el) => el.setAttribute('image', '28x40'));
  assert.equal(await ready('config-mrope'), 'ok');
  const big = pe.mropePositionIds({ config: text, input_ids: [1000, 1001, 1002, 1003, 151652, ...Array(280).fill(151655), 151653, 1286, 1287, 1288], image_grid_thw: [[1, 28, 40]] });
  const idsAt = (j) => [0, 1, 2].map((a) => big.position_ids[a * 289 + j]).join(', ');
  assert.equal(big.rope_deltas, -260);
  assert.equal(await readout('config-mrope', 'deltas'), -260);
  assert.deepEqual([idsAt(284), idsAt(285)], ['5, 18, 24', '25, 25, 25']);
  assert.match(await readoutText('config-mrope', 'last'), new RegExp(idsAt(284)));
  assert.match(await readoutText('config-mrope', 'after'), new RegExp(idsAt(285)));
  await page.$eval('#config-mrope', (el) => el.setAttribute('image', '8x12'));
  assert.equal(await ready('config-mrope'), 'ok');
  // the ids are printed in their cells: on the line of each row label (t, h, w), left to right, the numbers drawn read
  // get_rope_index's ids
  const boxes = await page.$eval('#config-mrope', (el) => el.shadowRoot.querySelector('[data-panel="ids"]').textBoxes()
    .filter((b) => !b.rotated).map((b) => ({ y: b.y + b.h / 2, x: b.x + b.w / 2, text: b.text })));
  const rowY = ['t', 'h', 'w'].map((a) => boxes.find((b) => b.text === a)?.y);
  assert.ok(rowY.every(Number.isFinite), 'row labels t, h, w are drawn');
  const printed = rowY.map((y) => boxes.filter((b) => Math.abs(b.y - y) < 1 && /^\d+$/.test(b.text)).sort((a, b) => a.x - b.x).map((b) => Number(b.text)));
  assert.deepEqual(printed.flat(), [...want.position_ids]);
  // pair → axis: contiguous [16, 24, 24], with a t / h / w legend in place of a colour bar
  const axes = csvRows(await csv('config-mrope'), 'axes').map((c) => Number(c.value));
  assert.deepEqual(axes, [...Array(16).fill(0), ...Array(24).fill(1), ...Array(24).fill(2)]);
  assert.deepEqual(await page.$eval('#config-mrope', (el) => {
    const sr = el.shadowRoot.querySelector('[data-panel="axes"]').shadowRoot;
    return [getComputedStyle(sr.querySelector('.bar')).display, [...sr.querySelectorAll('.cats span')].map((s) => s.textContent)];
  }), ['none', ['t', 'h', 'w']]);
  // Qwen3.5 (interleaved sections [11, 11, 10]): h drives pairs 1, 4, 7, …, w pairs 2, 5, 8, …, t the rest
  await page.click('#config-gallery button[data-model="qwen3.5-9b"]');
  assert.equal(await follows('config-mrope', fixture('Qwen3.5-9B.json')), 'ok');
  const il = csvRows(await csv('config-mrope'), 'axes').map((c) => Number(c.value));
  assert.deepEqual(il, Array.from({ length: 32 }, (_, i) => (i % 3 === 1 && i < 33 ? 1 : i % 3 === 2 && i < 30 ? 2 : 0)));
  await shot(page.locator('#config-mrope'), 'config-reader-mrope-en');
});

test('M-RoPE\'s try: a 28×40 image on the chosen model (kept): 280 image tokens, ids up to 5 + 20, rope_deltas −260 as its sentence says', async () => {
  await page.click('#config-gallery button[data-model="qwen2.5-vl-7b"]');
  const text = fixture('Qwen2.5-VL-7B-Instruct.json');
  assert.equal(await follows('config-mrope', text), 'ok');
  await page.click('[data-try="config-mrope"] button');
  await page.waitForFunction(() => document.getElementById('config-mrope').getAttribute('image') === '28x40');
  assert.equal(await ready('config-mrope'), 'ok');
  assert.equal(await page.$eval('#config-mrope', (el) => el.getAttribute('config')), text, 'the try keeps the reader\'s model');
  assert.match(await page.$eval('[data-try="config-mrope"]', (el) => /** @type {HTMLElement} */ (el).innerText), /280 image tokens.*rope_deltas is −260/);
  // independently: get_rope_index on 4 text tokens, the image's 14 × 20 merged tokens, 3 text tokens
  const ids = [1000, 1001, 1002, 1003, 151652, ...Array(280).fill(151655), 151653, 1286, 1287, 1288];
  const want = pe.mropePositionIds({ config: text, input_ids: ids, image_grid_thw: [[1, 28, 40]] });
  assert.equal(want.rope_deltas, -260);
  assert.equal(await readout('config-mrope', 'deltas'), -260);
  const cells = csvRows(await csv('config-mrope'), 'ids'), L = cells.length / 3;
  assert.equal(L, ids.length);
  assert.deepEqual(cells.map((c) => Number(c.value)), [...want.position_ids]);
  assert.equal(Math.max(...cells.slice(2 * L, 2 * L + 4 + 1 + 280).map((c) => Number(c.value))), 24, 'the image\'s w ids reach 5 + 20 − 1');
  assert.equal(Number(cells[2 * L + 4 + 1 + 280].value), 25, '<vision_end> resumes at 5 + 20');
  // another model releases the try (its button no longer pressed) and the figure follows it
  await page.click('#config-gallery button[data-model="qwen3.5-9b"]');
  assert.equal(await follows('config-mrope', fixture('Qwen3.5-9B.json')), 'ok');
  assert.equal(await page.$eval('[data-try="config-mrope"] button', (b) => b.getAttribute('aria-pressed')), 'false');
});

test('the page opens on Llama 3.1 8B (its button pressed), read key by key: value, what it does, the number it gives', async () => {
  const p = await ctx.open('/#config-reader');
  assert.equal(await ready('config-wavelengths', p), 'ok');
  assert.equal(await p.$eval('#config-wavelengths', (el) => el.getAttribute('config')), fixture('Llama-3.1-8B.json'));
  assert.equal(await p.$eval('#config-gallery button[data-model="llama-3.1-8b"]', (b) => b.getAttribute('aria-pressed')), 'true');
  assert.ok(!new URL(p.url()).searchParams.has('config-pick'), 'the default is not written into the address');
  const rows = await p.$$eval('#config-keys tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const row = (k) => rows.find((r) => r[0] === k || r[0].endsWith(`.${k}`));
  assert.equal(row('rope_theta')[1], '500000');
  assert.equal(row('factor')[1], '8');
  assert.equal(row('original_max_position_embeddings')[1], '8192');
  assert.match(row('high_freq_factor')[3], /λ < 2048: 29 pairs kept/);
  assert.match(row('low_freq_factor')[3], /λ > 8192: 29 pairs scaled, 6 smoothed/);
  // no empty chart: Llama 3.1 multiplies attention by nothing, so a sentence stands in for config-scale
  assert.equal(await p.$eval('#config-scale', (e) => e.hidden), true);
  assert.equal(await p.$eval('#config-scale-none', (e) => e.hidden), false);
  // … and the figure's Permalink · Embed bar goes with it (walk 11-28: an orphan bar stood in its place)
  assert.equal(await p.$eval('#config-scale', (e) => e.nextElementSibling?.classList.contains('embed-bar') ? e.nextElementSibling.checkVisibility() : 'no bar'), false);
  await p.context().close();
});

test('the address keeps the gallery choice (not the config text); a link with it shows that model', async () => {
  await page.click('#config-gallery button[data-model="exaone-4.0-32b"]');
  assert.equal(await ready('config-wavelengths'), 'ok');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('config-pick') === 'exaone-4.0-32b');
  assert.ok(!/config-[a-z]+\.config=/.test(await page.evaluate(() => location.search)), 'no config text in the address');
  assert.equal(await page.$('#state-notice'), null, 'no "too long for the address" notice');
  const p = await ctx.open('/?config-pick=exaone-4.0-32b#config-reader');
  assert.equal(await ready('config-wavelengths', p), 'ok');
  assert.equal(await p.$eval('#config-wavelengths', (el) => el.getAttribute('config')), fixture('EXAONE-4.0-32B.json'));
  assert.equal(await follows('config-schedule', fixture('EXAONE-4.0-32B.json'), p), 'ok');
  assert.match(await readoutText('config-schedule', 'type-full_attention', p), /^16 layers, no RoPE/);
  // a pasted config that is not in the gallery clears the choice; the address holds the pasted text instead
  await paste('{"head_dim": 64, "rope_theta": 10000}');
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('config-pick') &&
    new URLSearchParams(location.search).get('config-wavelengths.config') === '{"head_dim": 64, "rope_theta": 10000}');
  await p.context().close();
});

test('phone width and Chinese: the reader fits, screenshots', async () => {
  // one page at 390 px: English, then the language switch to Chinese (the page's own; a ?lang=zh load shows the same)
  const p = await ctx.open('/?lang=en#config-reader', { width: 390, height: 844 });
  await p.click('#config-gallery button[data-model="gemma-3-27b"]');
  // Gemma 3 multiplies attention by nothing: its sentence stands in for config-scale, which stays hidden
  await p.waitForFunction(() => !document.getElementById('config-scale-none').hidden);
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await setLang(p, 'zh');
    for (const f of ['config-wavelengths', ...FOLLOWERS]) if (f !== 'config-scale') assert.equal(await ready(f, p), 'ok', f);
    assert.equal(await p.$eval('#config-scale-none', (e) => e.hidden), false);
    const over = await p.$eval('#config-reader', (el) => el.scrollWidth - el.clientWidth);
    assert.ok(over <= 1, `no horizontal overflow (${over} px) at 390 px, ${lang}`);
    await shot(p.locator('#config-reader'), `config-reader-${lang}-390`);
  }
  await p.context().close();
  assert.deepEqual(ctx.errors, []);
});

// Pythia-12B's config.json as EleutherAI publishes it (GPT-NeoX keys), Qwen2.5's window keys; at 390 px (walk 11-28)
const PYTHIA = JSON.stringify({ architectures: ['GPTNeoXForCausalLM'], bos_token_id: 0, eos_token_id: 0, hidden_act: 'gelu', hidden_size: 5120,
  initializer_range: 0.02, intermediate_size: 20480, layer_norm_eps: 1e-5, max_position_embeddings: 2048, model_type: 'gpt_neox',
  num_attention_heads: 40, num_hidden_layers: 36, rotary_emb_base: 10000, rotary_pct: 0.25, tie_word_embeddings: false,
  torch_dtype: 'float16', transformers_version: '4.24.0', use_cache: true, use_parallel_residual: true, vocab_size: 50688 });
test('keys as the file names them (Pythia: rotary_pct, rotary_emb_base; no "read from" a key the file lacks); window keys read; every value on screen at 390 px', async () => {
  const p = await ctx.open('/#config-reader', { width: 390, height: 900 });
  assert.equal(await paste(PYTHIA, p), 'ok');
  await p.waitForFunction(() => [...document.querySelectorAll('#config-keys tbody tr')].some((tr) => tr.cells[0].textContent === 'rotary_pct'));
  const rows = await p.$$eval('#config-keys tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const row = (k) => rows.find((r) => r[0] === k);
  assert.deepEqual(row('rotary_pct').slice(0, 2), ['rotary_pct', '0.25']);
  assert.match(row('rotary_pct')[2], /transformers calls it partial_rotary_factor/);
  assert.match(row('rotary_pct')[3], /rotary_dim = 32/);   // 5120 / 40 = 128 channels, a quarter rotate
  assert.deepEqual(row('rotary_emb_base').slice(0, 2), ['rotary_emb_base', '10000']);
  assert.ok(!row('partial_rotary_factor') && !row('rope_theta'), 'no key the file does not have');
  await p.waitForFunction(() => /rotary_dim 32 of head_dim 128/.test(document.getElementById('config-model').textContent ?? ''));
  const said = await p.textContent('#config-model') ?? '';
  assert.doesNotMatch(said, /read from/, said);   // Pythia's file has no rope_scaling / rope_parameters to read from
  // every cell inside the 390 px viewport (the table stacks into one card per key)
  const outside = await p.$$eval('#config-keys tbody td', (tds) => tds.map((td) => td.getBoundingClientRect()).filter((r) => r.width > 0 && (r.left < 0 || r.right > 390.5)).length);
  assert.equal(outside, 0);
  await shot(p.locator('#config-keys'), 'config/keys-pythia-390');
  // no M-RoPE in Pythia: config-mrope is hidden, and no Permalink · Embed bar is left standing in its place
  await p.waitForFunction(() => document.getElementById('config-mrope-box')?.hidden === true);
  assert.deepEqual(await p.$$eval('#config-mrope, #config-mrope + .embed-bar', (els) => els.map((e) => e.checkVisibility())), [false, false]);
  // Qwen2.5-7B: sliding_window, use_sliding_window, max_window_layers, with the window switched off
  assert.equal(await paste(fixture('Qwen2.5-7B.json'), p), 'ok');
  await p.waitForFunction(() => [...document.querySelectorAll('#config-keys tbody tr')].some((tr) => tr.cells[0].textContent === 'use_sliding_window'));
  const q = await p.$$eval('#config-keys tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.match(q.find((r) => r[0] === 'sliding_window')[3], /not applied: use_sliding_window is false/);
  assert.match(q.find((r) => r[0] === 'use_sliding_window')[3], /every layer attends over the whole input/);
  assert.match(q.find((r) => r[0] === 'max_window_layers')[3], /no effect while use_sliding_window is false/);
  await p.context().close();
});

for (const width of [390, 1280]) test(`config-wavelengths at ${width} px: each threshold label stands within 9 px of its own line and nearer it than any other (or goes to the legend)`, async () => {
  const p = await ctx.open('/#config-reader', { width, height: 900 });
  assert.equal(await ready('config-wavelengths', p), 'ok');
  const r = await p.$eval('#config-wavelengths', (el) => {
    const b = /** @type {any} */ ([...el.shadowRoot.querySelectorAll('[data-panel]')].find((x) => x.tagName === 'PE-LINES'));
    return { lines: b.markLines().filter((/** @type {any} */ m) => m.y !== undefined), boxes: b.textBoxes().filter((t) => t.kind === 'label'), legend: b.shadowRoot.querySelector('.legend')?.textContent ?? '' };
  });
  assert.ok(r.lines.length >= 2, JSON.stringify(r.lines));   // Llama 3.1: L₀/high_freq_factor, L₀/low_freq_factor, max
  for (const m of r.lines) {
    const bx = r.boxes.find((t) => t.text === m.label || m.label.startsWith(t.text));
    if (!bx) { assert.ok(r.legend.includes(m.label), `${m.label}: neither drawn nor in the legend`); continue; }
    const mid = bx.y + bx.h / 2, gap = Math.max(0, bx.y - m.y, m.y - (bx.y + bx.h));
    assert.ok(gap <= 9, `"${m.label}" is ${gap.toFixed(1)} px from its line`);   // by its line, not across the plot
    for (const o of r.lines) if (o !== m) assert.ok(Math.abs(mid - m.y) < Math.abs(mid - o.y), `"${m.label}" (at ${mid.toFixed(1)}) nearer the line of "${o.label}" (${o.y.toFixed(1)}) than its own (${m.y.toFixed(1)})`);
  }
  await shot(p.locator('#config-wavelengths'), `config/wavelengths-${width}`);
  await p.context().close();
});
