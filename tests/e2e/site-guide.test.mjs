// The guided path (issue 19): §0 (what you will learn, the summary table of every scheme, the notation box), the
// sticky contents that marks the section being read and folds on phones, takeaways at every section's end, §6's
// formulas with worked numbers (each equal to the posenc package's own result, with the closed form beside it), the
// layout listings' live check, citations as links (code at a commit), "cite this page", and the sharing tags.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { openPage, shot } from './browser.mjs';

const pe = await init();
let ctx, page;
before(async () => { ctx = await openPage('/', { width: 1280, height: 900 }); page = ctx.page; });
after(async () => { await ctx?.close(); });

// Figures another part of issue 19 adds (the intuition figures); the summary table already links them.
const PENDING = new Set(['rope-clock', 'rope-worked', 'rope-relative', 'ntk-base', 'scaling-wavelengths']);

test('§0: the summary table has every scheme, each row linking to its section and a figure or part that exists', async () => {
  const rows = await page.$$eval('#summary-table tbody tr', (trs) => trs.map((tr) => ({
    scheme: tr.dataset.scheme, cells: tr.cells.length, links: [...tr.querySelectorAll('a')].map((a) => a.getAttribute('href')) })));
  assert.deepEqual(rows.map((r) => r.scheme), ['sinusoidal', 'learned', 'floater', 'shaw', 'transformer-xl', 't5', 'deberta', 'tupe', 'rope',
    'context-extension', 'dual-chunk', 'mrope', 'rope-3d', 'learned-2d', 'nope', 'alibi', 'xpos', 'research']);
  for (const r of rows) {
    assert.equal(r.cells, 8, r.scheme);
    assert.match(r.links[0], /^#s\d+$/, `${r.scheme}: section link first`);
    assert.ok(r.links.length >= 2, `${r.scheme}: a figure link`);
  }
  // Every in-page link of the whole page lands on an element (the pending intuition figures excepted).
  const broken = await page.$$eval('a[href^="#"]', (as) => as.map((a) => a.getAttribute('href').slice(1)).filter((id) => !document.getElementById(id)));
  assert.deepEqual(broken.filter((id) => !PENDING.has(id)), []);
});

test('§1 architecture picture: three places (input, logits, rotation of q and k); the summary table reuses its icons', async () => {
  const cards = await page.$$eval('#where-position .wp-card use', (us) => us.map((u) => u.getAttribute('href')));
  assert.deepEqual(cards, ['#wp-input', '#wp-bias', '#wp-rotate']);
  for (const id of ['wp-input', 'wp-bias', 'wp-rotate']) assert.equal(await page.$eval(`#${id}`, (e) => e.tagName.toLowerCase()), 'symbol');
  const icons = Object.fromEntries(await page.$$eval('#summary-table tbody tr', (trs) => trs.map((tr) => [tr.dataset.scheme, tr.cells[1].querySelector('use')?.getAttribute('href') ?? null])));
  for (const s of ['sinusoidal', 'learned']) assert.equal(icons[s], '#wp-input', s);
  for (const s of ['shaw', 't5', 'deberta', 'alibi']) assert.equal(icons[s], '#wp-bias', s);
  for (const s of ['rope', 'context-extension', 'xpos']) assert.equal(icons[s], '#wp-rotate', s);
  assert.equal(icons.nope, null, 'NoPE puts position nowhere');
  // the picture comes early: in §1, before §2
  assert.ok(await page.evaluate(() => document.getElementById('where-position').compareDocumentPosition(document.getElementById('s2')) & Node.DOCUMENT_POSITION_FOLLOWING));
});

test('notation box: one convention (query minus key) and a row for every source of the other sign', async () => {
  const t = await page.$eval('#notation', (el) => el.textContent);
  assert.match(t, /query minus key/);
  const rows = await page.$$eval('#notation-map tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
  for (const name of ['Shaw', 'Transformer-XL', 'T5', 'DeBERTa', 'RoPE', 'ALiBi', 'xPos']) assert.ok(rows.some((r) => r.includes(name)), name);
});

test('every section ends with two or three takeaways, in both languages', async () => {
  const got = await page.$$eval('main > section[id]', (ss) => ss.map((s) => ({ id: s.id,
    en: s.querySelectorAll('aside.takeaways ul[lang="en"] li').length, zh: s.querySelectorAll('aside.takeaways ul[lang="zh"] li').length })));
  for (const s of got.filter((x) => x.id !== 's0')) {
    assert.ok(s.en >= 2 && s.en <= 3, `${s.id}: ${s.en} takeaways`);
    assert.equal(s.zh, s.en, s.id);
  }
});

test('contents: sticky, marks the section being read; on a phone folded behind a button', async () => {
  assert.equal(await page.$eval('#toc', (el) => getComputedStyle(el).position), 'sticky');
  for (const id of ['s6', 's3', 's9']) {
    await page.$eval(`#${id}`, (el) => el.scrollIntoView());
    await page.waitForFunction((x) => document.querySelector('#toc').dataset.current === x, id, { timeout: 5000 });
    assert.equal(await page.$eval(`#toc a[href="#${id}"]`, (a) => a.getAttribute('aria-current')), 'true');
    assert.equal(await page.$$eval('#toc a[aria-current]', (as) => as.length), 1);
    // The bar stays at the top of the window.
    assert.ok(Math.abs(await page.$eval('#toc', (el) => el.getBoundingClientRect().top)) < 1);
  }
  const phone = await ctx.open('/#s4', { width: 390, height: 800 });
  assert.equal(await phone.$eval('#toc-list', (el) => el.checkVisibility()), false);
  assert.ok((await phone.$eval('#toc', (el) => el.getBoundingClientRect().height)) < 60, 'one line on a phone');
  await phone.click('.toc-toggle');
  assert.equal(await phone.$eval('#toc-list', (el) => el.checkVisibility()), true);
  assert.equal(await phone.$eval('.toc-toggle', (el) => el.getAttribute('aria-expanded')), 'true');
  await shot(phone, 'guide/toc-390-open');
  await phone.click('#toc a[href="#s7"]');
  assert.equal(await phone.$eval('#toc-list', (el) => el.checkVisibility()), false, 'following a link folds the list');
  await phone.close();
});

/** The value a worked number on the page states (every copy, en and zh, must agree). */
async function worked(name) {
  const vs = await page.$$eval(`[data-worked="${name}"]`, (els) => els.map((e) => e.dataset.value));
  assert.ok(vs.length >= 1, name);
  assert.ok(vs.every((v) => v === vs[0]), `${name}: copies differ`);
  return vs[0];
}
const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

test('§6 formulas: each worked number equals the package (Hugging Face formulas) and its closed form', async () => {
  const d = 128, b = 10000;
  const def = pe.ropeInvFreq({ rotary_dim: d, rope_theta: b });
  // Static NTK-aware: b' = b·s^(d/(d−2)).
  const ntk = pe.ropeInvFreqScaled({ rope_type: 'ntk', rotary_dim: d, rope_theta: b, factor: 8 });
  close(Number(await worked('ntk-base')), ntk.effective_base, 1e-12);
  close(ntk.effective_base, b * 8 ** (d / (d - 2)), 1e-12);
  for (const i of [16, 32]) {
    close(Number(await worked(`ntk-ratio-${i}`)), ntk.inv_freq[i] / def[i], 1e-9);
    close(ntk.inv_freq[i] / def[i], 8 ** (-2 * i / (d - 2)), 1e-9);
  }
  assert.ok(ntk.inv_freq.every((v, i) => v <= def[i] * (1 + 1e-12)), 'NTK never speeds a pair up (source 000 says it does)');
  // Dynamic NTK at L = s·L0: the slowest pair is divided by α = s² − s + 1 = 57, not by s.
  const L0 = 4096;
  const dyn = pe.ropeInvFreqScaled({ rope_type: 'dynamic', rotary_dim: d, rope_theta: b, factor: 8, max_position_embeddings: L0, seq_len: 8 * L0 });
  close(def[63] / dyn.inv_freq[63], Number(await worked('dynamic-alpha')), 1e-9);
  assert.equal(Number(await worked('dynamic-alpha')), 8 * 8 - 8 + 1);
  // YaRN: ramp over pairs low…high, mscale.
  const yr = pe.yarnCorrectionRange({ rotary_dim: d, rope_theta: b, original_max_position_embeddings: L0 });
  assert.equal(Number(await worked('yarn-low')), yr.low);
  assert.equal(Number(await worked('yarn-high')), yr.high);
  assert.equal(yr.low, Math.floor(d * Math.log(L0 / (2 * Math.PI * 32)) / (2 * Math.log(b))));
  const yarn4 = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: d, rope_theta: b, factor: 4, original_max_position_embeddings: L0, max_position_embeddings: 4 * L0 });
  close(Number(await worked('yarn-mscale-4')), yarn4.attention_scaling, 1e-12);
  close(yarn4.attention_scaling, 0.1 * Math.log(4) + 1, 1e-12);
  // DeepSeek: mscale = mscale_all_dim → rotary factor 1; the softmax scale gets mscale(40, 1)².
  const ds = (extra) => pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: b, factor: 40, original_max_position_embeddings: L0,
    max_position_embeddings: 40 * L0, ...extra }).attention_scaling;
  close(ds({ mscale: 1, mscale_all_dim: 1 }), 1, 1e-12);
  close(Number(await worked('deepseek-mscale2')), ds({}) ** 2, 1e-12);
  // Llama 3.1's bands.
  const bands = pe.llama3Bands({ rotary_dim: d, rope_theta: 500000, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 });
  assert.equal(await worked('llama3-bands'), [bands.n_kept, bands.n_smoothed, bands.n_scaled].join());
  const wl = Array.from({ length: 64 }, (_, i) => 2 * Math.PI * 500000 ** (2 * i / d));   // closed form
  assert.equal(await worked('llama3-bands'), [wl.filter((w) => w < 2048).length, wl.filter((w) => w >= 2048 && w <= 8192).length, wl.filter((w) => w > 8192).length].join());
  assert.deepEqual([bands.high_freq_wavelen, bands.low_freq_wavelen], [2048, 8192]);
  // LongRoPE's attention factor for Phi-3-mini-128k.
  const ones = new Array(48).fill(1);
  const lr = pe.ropeInvFreqScaled({ rope_type: 'longrope', rotary_dim: 96, rope_theta: b, short_factor: ones, long_factor: ones,
    original_max_position_embeddings: 4096, max_position_embeddings: 131072 });
  close(Number(await worked('longrope-mscale')), lr.attention_scaling, 1e-12);
  close(lr.attention_scaling, Math.sqrt(1 + Math.log(32) / Math.log(4096)), 1e-12);
});

test('§2 erratum: a sinusoidal pair moves by 2·sin(ω/2) per token at any position (the package’s table), fast pairs most', async () => {
  const d = 128, tab = pe.sinusoidal({ positions: [10, 11, 10000, 10001], d, layout: 'interleaved' });
  for (const i of [0, 63]) {
    const step = (r) => Math.hypot(tab[(r + 1) * d + 2 * i] - tab[r * d + 2 * i], tab[(r + 1) * d + 2 * i + 1] - tab[r * d + 2 * i + 1]);
    const stated = Number(await worked(`sin-step-${i}`));
    close(stated, 2 * Math.sin(10000 ** (-2 * i / d) / 2), 1e-12);
    for (const r of [0, 2]) assert.ok(Math.abs(step(r) - stated) <= 1e-3 * stated + 3e-7, `pair ${i} at row ${r}: ${step(r)}`);   // float32 table: same step at 10 and 10 000
  }
});

test('layout listings: each JavaScript translation equals the kernel; layouts agree only after the permutation', async () => {
  const diffs = async () => JSON.parse(await page.$eval('#s4x-table', (t) => t.dataset.diffs));
  const check = (ds) => {
    assert.equal(ds.length, 6);
    for (const i of [0, 1, 2, 3, 5]) assert.ok(ds[i] < 1e-5, `row ${i}: ${ds[i]}`);
    assert.ok(ds[4] > 1e-2, `without the permutation the layouts differ: ${ds[4]}`);
  };
  check(await diffs());
  await page.selectOption('#s4x-d', '128');
  await page.fill('#s4x-m', '1000');
  await page.waitForFunction(() => document.querySelector('#s4x-table').dataset.m === '1000' && document.querySelector('#s4x-table').dataset.d === '128');
  check(await diffs());
  await shot(page.locator('#s4-layouts'), 'guide/layouts-1280');
});

test('citations are links: papers to arXiv, posts to their pages, reference code at a commit', async () => {
  const cites = await page.$$eval('main cite', (cs) => cs.map((c) => [c.textContent, c.querySelector('a')?.href ?? '']));
  assert.ok(cites.length >= 30, `${cites.length} citations`);
  for (const [t, href] of cites) assert.match(href, /^https?:\/\//, t);
  const code = await page.$$eval('main a[href*="github.com"]', (as) => as.map((a) => a.href));
  assert.ok(code.length >= 15);
  for (const h of code) assert.match(h, /\/(blob|tree)\/[0-9a-f]{40}(\/|$)/, h);
  const rope = await page.$$eval('a[href*="modeling_rope_utils.py"]', (as) => as.map((a) => a.href));
  assert.ok(rope.length >= 2);
  // Every "arXiv:NNNN.NNNNN" in the text sits next to a link to that paper.
  const ids = await page.$$eval('main .refs', (ps) => ps.flatMap((p) => [...p.textContent.matchAll(/arXiv:(\d{4}\.\d{4,5})/g)].map((m) => m[1])));
  const linked = new Set(await page.$$eval('main a[href^="https://arxiv.org/abs/"]', (as) => as.map((a) => a.href.split('/abs/')[1])));
  for (const id of ids) assert.ok(linked.has(id), id);
});

test('cite this page: BibTeX with the page address, and a copy button that reports what it did', async () => {
  const bib = await page.$eval('#cite-bibtex', (el) => el.textContent);
  assert.match(bib, /^@misc\{posenc,/);
  assert.match(bib, new RegExp(`url\\s+= \\{${ctx.base.replace(/[.]/g, '\\.')}/\\}`));
  assert.equal((bib.match(/\{/g) ?? []).length, (bib.match(/\}/g) ?? []).length, 'braces balance');
  await page.click('#cite-copy');
  await page.waitForFunction(() => document.querySelector('#cite-status').textContent !== '');
});

test('every runnable listing has a Copy button that copies exactly the code the listing test runs', async () => {
  const n = await page.$$eval('main pre.listing[data-run]', (ps) => ps.length);
  assert.ok(n >= 9, `${n} listings`);
  const bars = await page.$$eval('main pre.listing[data-run]', (ps) => ps.map((pre) => pre.previousElementSibling?.querySelector('button.copy-code')?.textContent));
  assert.deepEqual(bars, Array(n).fill('Copy'));
  const first = page.locator('#code-trap-torch button.copy-code');
  await first.scrollIntoViewIfNeeded();
  await first.click();
  await page.waitForFunction(() => document.querySelector('#code-trap-torch .copy-status')?.textContent !== '');
  const [copied, code, status] = await page.$eval('#code-trap-torch', (f) => [f.querySelector('button.copy-code').dataset.copied, f.querySelector('pre.listing').textContent, f.querySelector('.copy-status').textContent]);
  assert.equal(copied, code);
  assert.match(code, /^import torch\n/);
  assert.match(status, /^(Copied\.|No clipboard access)/);
});

test('sharing: description, Open Graph and Twitter card with a 1200 × 630 PNG on index, gallery and embed; index ↔ gallery links', async () => {
  for (const path of ['/', '/gallery.html', '/embed.html?figure=wavelengths']) {
    const p = path === '/' ? page : await ctx.open(path);
    const meta = await p.evaluate(() => Object.fromEntries([...document.querySelectorAll('meta[name], meta[property]')]
      .map((m) => [m.getAttribute('name') ?? m.getAttribute('property'), m.content])));
    for (const k of ['description', 'og:title', 'og:description', 'og:image', 'twitter:card', 'twitter:image']) assert.ok(meta[k], `${path}: ${k}`);
    assert.equal(meta['twitter:card'], 'summary_large_image');
    const img = await p.evaluate(async (src) => {
      const r = await fetch(new URL(src, location.href));
      const bmp = await createImageBitmap(await r.blob());
      return [r.status, r.headers.get('content-type'), bmp.width, bmp.height];
    }, meta['og:image']);
    assert.deepEqual(img, [200, 'image/png', 1200, 630], path);
    if (p !== page) await p.close();
  }
  assert.ok(await page.$('#toc a[href="./gallery.html"]'), 'index → gallery');
  const g = await ctx.open('/gallery.html');
  assert.ok(await g.$('header a[href="./"]'), 'gallery → index');
  await g.close();
});

test('the new parts raise no console error (e.g. a KaTeX construct whose inline style the CSP refuses)', () => {
  assert.deepEqual(ctx.errors, []);
});
