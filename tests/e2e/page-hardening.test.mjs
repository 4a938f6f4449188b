// The page under hostile input (issue 15, item 5, the page half), in headless Chromium against the built site served
// WITHOUT a Content-Security-Policy header — as a plain static host serves it — so the policy in force is the pages'
// own <meta>. Each test is a regression test of one defect found by hand:
//   CSP: the built site carried no policy of its own; now every page has the <meta> and works under it;
//   URL state: `rope-rotation.q=NaN,Infinity` broke the drawing, bad control values reached the computation
//     (raw "head_dim: must be an integer…" under the form); now bad keys and values → defaults + a translated notice;
//   URL size: an 8,000-token text was written into the address (47 KB and growing; HTTP 431 on reload);
//   long input: pasting it into a figure's text box blocked the page for up to 177 ms at a time.
// (Errors of the computations shown in the UI — translated, never raw — are the site's tests: tests/e2e/site*.test.mjs.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { CSP, LAND } from '../../web/site/csp.js';
import { MAX_QUERY } from '../../web/site/state.js';
import { CHROMIUM_ARGS } from './browser.mjs';

let server, browser, base;
const errors = [];
before(async () => {
  server = await serve(0, undefined, { csp: false });
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); server?.close(); });

/** Opens `path` in a fresh context; every CSP violation of the page is recorded in window.__csp. */
async function open(path, { locale = 'en-US', ready = 'true' } = {}) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 1400 }, locale });
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  const response = await page.goto(`${base}${path}`);
  await page.waitForSelector(`body[data-ready="${ready}"]`, { timeout: 30000 });
  return { page, response };
}
/** Scrolls figure `id` into view and waits for its paint: 'ok' or 'ERR message'. */
const paint = (page, id) => page.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); });
/** Every read-out of figure `id`: {id: value as a number (NaN when it has none)}. */
const readouts = (page, id) => page.$eval(`#${id}`, (el) => Object.fromEntries([...el.shadowRoot.querySelectorAll('.readouts output')]
  .map((o) => [o.dataset.id, o.dataset.value === undefined ? NaN : Number(o.dataset.value)])));
/** The notice's items: {load: [key…], write: [key…]} and its text. */
const notice = (page) => page.evaluate(() => {
  const box = document.getElementById('state-notice');
  const keys = (kind) => [...(box?.querySelectorAll(`ul[data-kind="${kind}"] li[data-key]`) ?? [])].map((li) => li.dataset.key);
  return { load: keys('load'), write: keys('write'), text: box?.textContent ?? '', visible: !!box && box.getBoundingClientRect().height > 0 };
});
const visibleErrors = (page) => page.$$eval('.error', (els) => els.filter((e) => !e.hidden).map((e) => e.textContent));
/** An 8,000-token text (about 47,000 characters). */
const LONG = Array.from({ length: 8000 }, (_, i) => `tok${i % 97}`).join(' ');

test('CSP: every built page carries the strict policy in a <meta>, has no inline script but land.js (by its hash), and works under it with no header', async () => {
  for (const file of ['index.html', 'gallery.html', 'embed.html']) {
    const res = await fetch(`${base}/${file}`);
    assert.equal(res.headers.get('content-security-policy'), null, 'the test server sends no policy');
    const html = await res.text();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    assert.ok(meta, `${file}: a CSP <meta>`);
    const policy = meta[1].replace(/&#39;/g, "'");
    assert.equal(policy, CSP, file);
    for (const d of ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self' blob:"]) assert.ok(policy.includes(d), `${file}: ${d}`);
    assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval'(?<!wasm-unsafe-eval')/, `${file}: no unsafe-inline, no eval`);
    assert.ok(html.indexOf('Content-Security-Policy') < html.search(/<script|<link rel="stylesheet"/), `${file}: the policy comes before any script or style`);
    // one inline script, land.js (a link's target in view while the page parses), allowed by its sha256 and no other;
    // none in embed.html (framed by hosts whose own policy would refuse it)
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    assert.deepEqual(inline, file === 'embed.html' ? [] : [LAND], `${file}: no inline script but land.js`);
    assert.ok(policy.includes(`'sha256-${createHash('sha256').update(LAND).digest('base64')}'`), `${file}: land.js's hash in script-src`);
    assert.doesNotMatch(html, /\son[a-z]+=/i, `${file}: no inline event handler`);
  }
  const { page } = await open('/');
  // KaTeX, the live numbers (wasm on the main thread), and figures of each kind paint: heatmap, curves, the 2-D plane
  assert.ok(await page.$$eval('.katex', (els) => els.length) > 20);
  await page.waitForFunction(() => document.body.dataset.live === 'ready');
  assert.ok(await page.$$eval('output[data-live]', (els) => els.every((el) => el.dataset.value !== undefined)), 'every live number computed');
  for (const id of ['attention', 'rope-decay', 'rope-rotation', 'config-wavelengths']) assert.equal(await paint(page, id), 'ok', id);
  assert.equal(await page.$eval('#attention', (el) => el.engine), 'worker');
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation');
  // the <meta> policy is in force: an injected inline script is refused and reported
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script'); s.textContent = 'window.__inline = true;'; document.head.append(s);
    await new Promise((r) => setTimeout(r, 100));
    return window.__inline === true;
  });
  assert.equal(ran, false, 'inline script blocked');
  assert.deepEqual(await page.evaluate(() => window.__csp.map((v) => v.split(' ')[0])), ['script-src-elem']);
  errors.splice(0, errors.length, ...errors.filter((e) => !/Content Security Policy/.test(e)));   // that refusal's own console line
  await page.context().close();
  const g = await open('/gallery.html');
  for (const id of ['sinusoidal', 'explorer']) assert.equal(await paint(g.page, id), 'ok', id);
  const e = await open('/embed.html?figure=su-decay');
  for (const p of [g.page, e.page]) assert.deepEqual(await p.evaluate(() => window.__csp), []);
  await g.page.context().close(); await e.page.context().close();
  assert.deepEqual(errors, []);
});

test('URL state: bad keys and values → defaults, a visible translated notice listing them, no NaN drawing, a clean address', async () => {
  const bad = {
    'rope-rotation.q': 'NaN,Infinity',        // the example (under the figure's current id)
    's4p-q': 'NaN,Infinity',                   // the same key under the old id: nothing on the page has that name
    'sinusoidal.layout': 'zzz', 'attention.nope': '1', 'rope-rotation.theme': 'dark', 'bogus.x': '1',
    'explorer.head': '7',                      // valid alone, but explorer.heads = 1 below: the figure's cross-check
    'permutation.i': '40',                     // 0–63, but the default text has 3 tokens: refused by the first paint
    's4d-d': 'abc', 's4d-m': 'NaN', 's4d-n': '1.5', 's2-pos': '1e400', 's2-k': '99999999', 's3r-step': '9', 's2l-clamp': '2', lang: 'fr',
  };
  // valid ones are kept — sinusoidal.d starts a section-2 draw while the compute worker still loads (that request was lost)
  const q = new URLSearchParams({ ...bad, 'rope-rotation.m': '5', 'explorer.heads': '1', 's4d-base': '500000', 'sinusoidal.d': '64' });
  const { page } = await open(`/?${q}`);
  for (const id of ['rope-rotation', 'sinusoidal', 'explorer', 'attention', 'permutation']) assert.equal(await paint(page, id), 'ok', id);
  await page.waitForFunction(() => document.querySelector('#state-notice li[data-key="permutation.i"]'));
  const n = await notice(page);
  assert.ok(n.visible, 'the notice is shown');
  assert.deepEqual([...n.load].sort(), Object.keys(bad).sort(), 'every bad key is listed, and only those');
  assert.match(n.text, /could not be used and were ignored/);
  assert.match(n.text, /rope-rotation\.q = "NaN,Infinity" — Attribute "q" must be two numbers/);
  assert.match(n.text, /s4d-d = "abc" — must be one of 8, 16, 64, 128/);
  assert.match(n.text, /s2-k = "99999999" — must be an integer from -100000 to 100000/);
  // the defaults (or the link's valid values) are in force, and every number drawn is finite
  assert.equal(await page.$eval('#rope-rotation', (el) => el.getAttribute('q')), null);
  assert.deepEqual(await page.$eval('#rope-rotation', (el) => el.params.q), [1.2, 0.3]);
  assert.equal(await page.$eval('#rope-rotation', (el) => el.params.m), 5);
  assert.deepEqual(await page.$eval('#explorer', (el) => [el.params.heads, el.params.head]), [1, 0]);
  assert.equal(await page.$eval('#permutation', (el) => el.params.i), 0);
  const r = await readouts(page, 'rope-rotation');
  assert.ok(Object.keys(r).length >= 2 && Object.values(r).every(Number.isFinite), `finite read-outs ${JSON.stringify(r)}`);
  assert.deepEqual(await page.$eval('#rope-rotation [data-panel]', (el) => el.vectors.map((v) => [v.x, v.y]).flat().every(Number.isFinite)), true);
  assert.deepEqual(await page.evaluate(() => ['s4d-d', 's4d-m', 's4d-n', 's2-pos', 's2-k', 's3r-step', 's4d-base'].map((id) => document.getElementById(id).value)),
    ['16', '7', '2', '7', '13', '0', '500000']);
  assert.equal(await page.$eval('#s2l-clamp', (el) => el.checked), false);
  await page.waitForFunction(() => document.body.dataset.pending === '0', null, { timeout: 10000 });
  assert.equal(await page.$eval('#s2-shift-vec', (el) => JSON.parse(el.dataset.moved).length), 64, 'the shift check used d = 64');
  assert.deepEqual(await visibleErrors(page), [], 'no section or figure shows an error');
  // the address keeps only what was used
  assert.deepEqual(Object.fromEntries(new URL(page.url()).searchParams), { 'rope-rotation.m': '5', 'explorer.heads': '1', 's4d-base': '500000', 'sinusoidal.d': '64' });
  // translated: the notice follows the language switch
  await page.click('#lang-zh');
  const zh = await notice(page);
  assert.match(zh.text, /此链接中的部分设置无法使用，已忽略/);
  assert.match(zh.text, /s4d-d = "abc" — 必须是 8、16、64、128 之一/);
  assert.match(zh.text, /rope-rotation\.q = "NaN,Infinity" — 属性 "q" 必须是 两个数 "x,y"/);
  assert.doesNotMatch(zh.text.replace(/"[^"]*"|[\w.-]+(?= =)|\b(en|zh)\b/g, ''), /\b(must|ignored|figure|nothing)\b/, 'no English left in the zh notice');
  // closed by the reader; a reload of the clean address shows none
  await page.click('#state-notice .close');
  assert.equal((await notice(page)).visible, false);
  await page.goto(page.url()); await page.waitForSelector('body[data-ready="true"]');
  assert.equal((await notice(page)).visible, false);
  await page.context().close();
  // The figures never saw the refused values, but the one only a computation finds: the permutation logged it once.
  assert.deepEqual(errors, ['<posenc-figure figure="permutation">: Attribute "i" must be a token index from 0 to 2 for this text (got "40").']);
  errors.length = 0;
});

test(`URL state is bounded: a value too long for the address (over ${MAX_QUERY} characters) is left out, the page says so, reload works`, async () => {
  const { page } = await open('/?t5.head=3');
  assert.equal(await paint(page, 'config-wavelengths'), 'ok');
  // a real config.json (the figure's default, Llama 3.1) with a long field, as pasted from a model repository: ~5,000 characters
  const config = await page.$eval('#config-wavelengths', (el) => el.params.config);
  const big = JSON.stringify({ ...JSON.parse(config), architectures: Array.from({ length: 200 }, (_, i) => `LlamaForCausalLM${i}`) }, null, 2);
  assert.ok(big.length > 2 * MAX_QUERY && big.length < 20000);
  await page.locator('#config-wavelengths [name="config"]').fill(big);
  await page.waitForFunction(() => document.querySelector('#state-notice ul[data-kind="write"]'));
  assert.equal(await paint(page, 'config-wavelengths'), 'ok', 'the figure uses the long config');
  const n = await notice(page);
  assert.ok(n.visible);
  assert.deepEqual(n.write, ['config-wavelengths.config']);
  assert.match(n.text, new RegExp(`at most ${MAX_QUERY} characters.*config-wavelengths\\.config — ${big.length} characters`));
  let url = new URL(page.url());
  assert.ok(url.search.length <= MAX_QUERY + 1, `query of ${url.search.length} characters`);
  assert.equal(url.searchParams.get('config-wavelengths.config'), null);
  assert.equal(url.searchParams.get('t5.head'), '3', 'what fits is kept');
  // a shorter config fits again: written, and the notice goes
  const small = JSON.stringify(JSON.parse(config));
  await page.locator('#config-wavelengths [name="config"]').fill(small);
  await page.waitForFunction((v) => new URL(location.href).searchParams.get('config-wavelengths.config') === v, small);
  assert.equal((await notice(page)).visible, false);
  // the address the page writes with the long one reloads: 200 (the 47 KB address of an 8,000-token text got 431)
  await page.locator('#config-wavelengths [name="config"]').fill(big);
  await page.waitForFunction(() => document.querySelector('#state-notice ul[data-kind="write"]'));
  url = page.url();
  const res = await page.goto(url);
  assert.equal(res.status(), 200);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.$eval('#t5', (el) => el.params.head), 3);
  assert.equal(await page.$eval('#config-wavelengths', (el) => el.params.config), config, 'left out: the default after a reload');
  assert.equal((await notice(page)).visible, false);
  await page.context().close();
  assert.deepEqual(errors, []);
});

test('a long input never blocks the page for more than 100 ms at a time (longtask observer, 8,000-token paste into every text box)', async (t) => {
  const { page } = await open('/');
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({ type: 'longtask' });
  });
  // every text box that drives a figure, with the figure's cap
  const boxes = await page.$$eval('main posenc-figure', (els) => els.flatMap((f) => [...f.shadowRoot.querySelectorAll('input[type=text], textarea')]
    .map((c) => ({ id: f.id, name: c.name, cap: c.maxLength }))));
  assert.deepEqual(boxes.map((b) => `${b.id}.${b.name} ≤ ${b.cap}`).sort(), ['attention.text ≤ 400', 'config-wavelengths.config ≤ 20000',
    'explorer.text ≤ 400', 'factor-advisor.config ≤ 20000', 'model-attention.models ≤ 400', 'model-loss.models ≤ 400', 'multiplicative.word ≤ 40', 'permutation.text ≤ 200', 'train-short-attention.models ≤ 400',
    'train-short.models ≤ 400', 'transformer-xl.text ≤ 200'].sort());
  // Up to 3 pastes per box (the box reset to its default text between them), the box passing when one of them has no
  // task over 100 ms: this machine is shared (load average up to 10 on 2 cores), and a renderer descheduled in the
  // middle of a 40 ms task reports it as 150 ms; work of the page's own over 100 ms shows up in every attempt.
  const worst = {};
  for (const { id, name, cap } of boxes) {
    assert.equal(await paint(page, id), 'ok', id);
    const box = page.locator(`#${id} [name="${name}"]`), initial = await box.evaluate((el) => el.value);
    const tries = worst[`${id}.${name}`] = [];
    let shown;
    for (let k = 0; k < 3 && !(tries.at(-1) <= 100); k++) {
      await box.fill(initial); await paint(page, id);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 400)));
      await page.evaluate(() => { window.__long.length = 0; });
      await box.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.insertText(LONG);
      shown = await paint(page, id);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 600)));     // the address is written 200 ms after the last change
      tries.push(Math.max(0, ...await page.evaluate(() => window.__long)));
    }
    // the box took its cap, says so, and the figure drew that text (a config cut from a plain text is no JSON: refused)
    assert.equal(await box.evaluate((el) => el.value), LONG.slice(0, cap), id);
    assert.equal(await page.$eval(`#${id}`, (el, n) => el.shadowRoot.querySelector(`[data-cap-for="${n}"]`).hidden, name), false);
    if (/^(config-wavelengths|factor-advisor)$/.test(id)) assert.match(shown, /^ERR .*JSON/); else assert.equal(shown, 'ok', id);
  }
  t.diagnostic(`longest task (ms) per box, per attempt: ${JSON.stringify(worst)}`);
  assert.ok(Object.values(worst).every((tries) => tries.at(-1) <= 100), `longest task (ms) per box, per attempt: ${JSON.stringify(worst)}`);
  assert.match(await page.$eval('#permutation', (el) => el.shadowRoot.querySelector('[data-cap-for="text"]').textContent), /at most 200 characters/);
  await page.click('#lang-zh');
  assert.match(await page.$eval('#permutation', (el) => el.shadowRoot.querySelector('[data-cap-for="text"]').textContent), /最多 200 个字符/);
  await page.context().close();
  errors.splice(0, errors.length, ...errors.filter((e) => !/figure="(config-wavelengths|factor-advisor)">.*JSON/.test(e)));
  assert.deepEqual(errors, []);
});
