// The page's prose (web/site/sections/*.html and the prose of index.html) in headless Chromium: every live number in
// the text equals the closed form it stands for (and the package's result in Node), the errata boxes exist in both
// languages, no raw LaTeX-like text is left in prose (defect 10), xPos's decay has the library's sign in both
// languages (defect 16), §2 states the exact longest wavelength for the chosen d (defect 17). (Chinese completeness of
// the whole page, figures and errors included: site-zh.test.mjs.) Screenshots: test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { openPage, shot, setLang } from './browser.mjs';

const pe = await init();
let ctx, page;

const liveReady = (p) => p.waitForSelector('body[data-live="ready"]', { timeout: 30000 });
before(async () => { ctx = await openPage(); page = ctx.page; await liveReady(page); });
after(async () => { await ctx?.close(); });

/** Values of every <output data-live=name> matching the extra attribute selector (all copies: en and zh). */
const live = (name, sel = '') => page.$$eval(`output[data-live="${name}"]${sel}`, (els) => els.map((e) => Number(e.dataset.value)));
const near = (a, b, tol) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
async function expectLive(name, want, tol, sel = '') {
  const got = await live(name, sel);
  assert.ok(got.length > 0, `no output ${name}${sel}`);
  for (const v of got) assert.ok(near(v, want, tol), `${name}${sel}: shown ${v}, expected ${want}`);
}
/** Sets a figure parameter as its own control does (the attribute), then waits for the live outputs to follow. */
async function setParam(figure, name, value) {
  await page.$eval(`#${figure}`, (el, [n, v]) => el.setAttribute(n, String(v)), [name, value]);
  await page.waitForTimeout(50);
}

test('every live output is filled', async () => {
  const empty = await page.$$eval('output[data-live]', (els) => els.filter((e) => e.dataset.value === undefined || e.textContent === '—').map((e) => e.dataset.live));
  assert.deepEqual(empty, []);
  assert.ok((await page.$$eval('output[data-live]', (els) => els.length)) >= 50);
});

test('§4 rotation and transposed-matrix check: closed forms and the package agree', async () => {
  await expectLive('rot-x', Math.cos(1), 1e-6);
  await expectLive('rot-y', Math.sin(1), 1e-6);
  await expectLive('rot-true', Math.sin(1), 1e-6);        // ⟨R_1 q, R_0 k⟩ = q·R_{n−m} k = sin 1
  await expectLive('rot-swapped', -Math.sin(1), 1e-6);    // what the printed R_{m−n} gives
  await expectLive('glm-rotary', 64, 0);
  const s = pe.ropeInnerProductSweep({ q: [1, 0], k: [0, 1], head_dim: 2, q_position: 1, k_start: 0, count: 1 })[0];
  await expectLive('rot-true', s, 1e-7);
});

test('§5 Su average, Abel check and the quarter period of the slowest pair', async () => {
  await expectLive('su-avg', 32.5, 1e-6, '[data-at="0"]');  // (1/64)·Σ_{j=1}^{64} j
  const f = (r) => {                                         // float64 closed form of the average, d = 128
    let re = 0, im = 0, sum = 0;
    for (let i = 0; i < 64; i++) { re += Math.cos(r * 10000 ** (-i / 64)); im += Math.sin(r * 10000 ** (-i / 64)); sum += Math.hypot(re, im); }
    return sum / 64;
  };
  await expectLive('su-avg', f(64), 1e-4, '[data-at="64"]');
  await expectLive('su-avg', f(256), 1e-4, '[data-at="256"]');
  await expectLive('abel-lhs', 1, 1e-6, '[data-at="0"]');
  await expectLive('abel-lhs', Math.cos(1), 1e-6, '[data-at="1"]');
  const theta = 10000 ** (-510 / 512);
  await expectLive('slow-wavelength', 2 * Math.PI / theta, 1e-9);
  await expectLive('slow-quarter', Math.PI / (2 * theta), 1e-9);
  assert.ok(near((await live('slow-quarter'))[0], 15153, 1e-4));    // the source's "about 15,000"
  for (const v of await live('slow-quarter-score')) assert.ok(Math.abs(v) < 1e-4);
});

test('§6 NTK-aware base: slowest frequency divided by exactly α, the source’s α^(2/d) is not', async () => {
  const check = async (d, b, a) => {
    const th = b ** (-(d - 2) / d);
    await expectLive('orig-last', th, 1e-9);
    await expectLive('ntk-last', th / a, 1e-9);
    await expectLive('pi-last', th / a, 1e-9);
    await expectLive('ntk-theta0', 1, 0);
    await expectLive('ntk-base-check', th / a, 1e-9);
    await expectLive('ntk-base', b * a ** (d / (d - 2)), 1e-9);
    await expectLive('orig-wavelength', 2 * Math.PI / th, 1e-9);
    await expectLive('ntk-wavelength', 2 * Math.PI * a / th, 1e-9);
    await expectLive('src-ntk-last', th * a ** (-2 * (d - 2) / d ** 2), 1e-9);
    const api = pe.ropeInvFreqScaled({ rope_type: 'ntk', factor: a, rotary_dim: d, rope_theta: b }).inv_freq;
    await expectLive('ntk-last', api[api.length - 1], 1e-12);
  };
  await check(128, 10000, 8);
  const f = 'context-extension';
  await setParam(f, 'rotary_dim', 64); await setParam(f, 'rope_theta', 500000); await setParam(f, 'factor', 32);
  await check(64, 500000, 32);
  await setParam(f, 'rotary_dim', 128); await setParam(f, 'rope_theta', 10000); await setParam(f, 'factor', 8);
});

test('§7 ALiBi slopes and biases, xPos ζ', async () => {
  await expectLive('alibi-slope', 0.5, 0, '[data-head="0"]');
  await expectLive('alibi-slope', 1 / 256, 0, '[data-head="7"]');
  await expectLive('alibi-bias', -512, 0, '[data-head="0"][data-dist="1024"]');
  await expectLive('alibi-bias', -4, 0, '[data-head="7"][data-dist="1024"]');
  await expectLive('alibi-bias', -8, 0, '[data-head="7"][data-dist="2048"]');
  await expectLive('xpos-zeta', 0.4 / 1.4, 1e-6, '[data-i="0"]');
  await expectLive('xpos-zeta', (62 + 25.6) / 89.6, 1e-6, '[data-i="31"]');
  await expectLive('xpos-zeta-inv', 1.4 / 0.4, 1e-6, '[data-i="0"]');
  await expectLive('shaw-value', (6 * -2 - 1 + 0) / 8, 1e-7);
});

test('errata: collapsed notes out of the path, each in both languages, each with a live check, one language visible at a time once opened', async () => {
  const closed = await page.$$eval('details.errata', (els) => els.map((e) => e.open));
  assert.ok(closed.length >= 6 && closed.every((o) => !o), 'every erratum starts collapsed');
  assert.equal(await page.$$eval('aside.errata', (els) => els.length), 0, 'no erratum box in the path');
  for (const id of ['errata-transpose', 'errata-abel', 'errata-ntk', 'errata-xpos']) {
    const box = await page.$eval(`details.errata#${id}`, (el) => { el.open = true; return ['en', 'zh'].map((l) => {
      const d = el.querySelector(`:scope > [lang="${l}"]`);
      return { text: d?.textContent.length ?? 0, outputs: d?.querySelectorAll('output[data-live]').length ?? 0, visible: d?.checkVisibility() ?? false };
    }); });
    await page.$eval(`details.errata#${id}`, (el) => { el.open = false; });
    for (const b of box) { assert.ok(b.text > 150, `${id}: text`); assert.ok(b.outputs >= 2, `${id}: live check`); }
    assert.deepEqual(box.map((b) => b.visible), [true, false], id);
  }
});

// Visible text of the page's own prose elements (Playwright selectors also pierce the figures' shadow roots: skipped)
// in the current language, without code, math, outputs, citations, form controls and
// what the figures write (<posenc-figure> and the read-outs and tables of sections.js: .readout, .check, .muted, table.nums, .mat).
const proseText = (p, selector) => p.$$eval(selector, (els) => els
  .filter((e) => e.getRootNode() === document && e.checkVisibility() && !e.closest('.readout, .check, .muted, table.nums, .mat, .vecs, .controls, posenc-figure'))
  .map((e) => {
    const c = e.cloneNode(true), lang = document.documentElement.dataset.lang;
    for (const x of c.querySelectorAll(`[lang]:not([lang="${lang}"]), code, .katex, .m, .math, output, cite, select, input, textarea, ` +
      '.check, .readout, posenc-figure, pe-heatmap, pe-lines, pe-vec2')) x.remove();
    for (const x of c.querySelectorAll('td, th, caption')) x.append(' ');
    return c.textContent.replace(/\s+/g, ' ');
  }));

test('defect 10: no raw LaTeX-like text (x_i, x^(…), Σ_, √(…)) in the prose, in either language', async () => {
  const raw = /[A-Za-zα-ωΘΣ]_[{(A-Za-z0-9]|\^[({]|Σ_|√\(/;
  for (const l of ['en', 'zh']) {
    await setLang(page, l);
    const bad = (await proseText(page, 'main p, main li, main h2, main h3, main h4, main caption, main td, main th')).filter((t) => raw.test(t));
    assert.deepEqual(bad, [], `${l}: ${bad.join(' | ')}`);
  }
  await setLang(page, 'en');
});

test('defect 16: xPos decay exponent is the same in English and Chinese, and is the library’s', async () => {
  // The library: queries scaled by ζ^(c/s), keys by ζ^(−c/s) — pair 0 (θ₀ = 1) of q_m·k_n for q = k = (1, 0).
  const L = 64, d = 2, s = 512, x = new Float32Array(L * d);
  for (let t = 0; t < L; t++) x[t * d] = 1;
  const q = pe.xposApply(x, { seq: L, head_dim: d, scale_base: s }), k = pe.xposApply(x, { seq: L, head_dim: d, scale_base: s, downscale: true });
  const zeta = 0.4 / 1.4, m = 40, n = 10;
  const dot = q[m * d] * k[n * d] + q[m * d + 1] * k[n * d + 1];
  assert.ok(near(dot, zeta ** ((m - n) / s) * Math.cos(m - n), 1e-5), `library: ${dot}`);   // + (m − n): decay for m > n
  for (const l of ['en', 'zh']) {
    const tex = await page.$$eval(`#s7 p[lang="${l}"] .katex-mathml annotation`, (as) => as.map((a) => a.textContent).join(' '));
    const m2 = tex.match(/\\zeta_i\^\{(-?)\(m-n\)\/s\}/);
    assert.ok(m2, `${l}: no decay factor ζ_i^{(m−n)/s} in the xPos text`);
    assert.equal(m2[1], '', `${l}: decay exponent must be +(m−n)/s`);
    assert.ok(!/\\zeta_i\^\{-\(m-n\)/.test(tex), `${l}: a −(m−n) exponent remains`);
  }
});

test('defect 17: §2 states the exact longest wavelength for the chosen d, base and layout', async () => {
  const w = async () => (await live('s2-longest'))[0];
  assert.ok(near(await w(), 2 * Math.PI * 10000 ** (30 / 32), 1e-9));     // d = 32: 2π·10000^(30/32), 44 % below 2π·10000
  const inv = pe.ropeInvFreq({ rotary_dim: 32, rope_theta: 10000 });
  assert.ok(near(await w(), 2 * Math.PI / inv[15], 1e-12));
  await setParam('sinusoidal', 'd', 128);
  assert.ok(near(await w(), 2 * Math.PI * 10000 ** (126 / 128), 1e-9));
  await setParam('sinusoidal', 'base', 1000);
  assert.ok(near(await w(), 2 * Math.PI * 1000 ** (126 / 128), 1e-9));
  await setParam('sinusoidal', 'layout', 't2t');
  assert.ok(near(await w(), 2 * Math.PI * 1000, 1e-9));                   // tensor2tensor reaches 2π·base exactly
  await setParam('sinusoidal', 'layout', 'interleaved'); await setParam('sinusoidal', 'base', 10000); await setParam('sinusoidal', 'd', 32);
  const text = (await proseText(page, '#s2 p[lang="en"]')).join(' ');
  assert.ok(!/every 2π·10000 tokens/.test(text));
});

test('screenshots of the prose parts, en and zh, desktop and 360 px; nothing wider than the phone screen', async () => {
  for (const [w, tag] of [[1100, 'desktop'], [360, 'phone']]) {
    const p = w === 1100 ? page : await ctx.open('/', { width: 360, height: 800 });
    if (p !== page) await liveReady(p);
    for (const l of ['en', 'zh']) {
      await setLang(p, l);
      for (const id of ['s4-polar', 's4-models', 's5-derivation', 's6-ntk', 's7-more']) {
        const el = p.locator(`#${id}`);
        await el.scrollIntoViewIfNeeded();
        await shot(el, `content-${id}-${l}-${tag}`);
      }
      const wide = await p.$$eval('main .part', (els) => els.filter((e) => e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.id));
      assert.deepEqual(wide, [], `${tag} ${l}`);
    }
    await setLang(p, 'en');
  }
  assert.deepEqual(ctx.errors, []);
});
