// @ts-check
// The reader's switches in the page's header (web/site/state.js, theme-switch.js): the level — "Intuition" folds every
// block marked data-level="full" (derivations, algebra, code listings) out of the page AND its accessibility tree, with
// a stub whose button unfolds it; kept in the address (?level=intuition), en and zh — and the colour theme: the
// reader's system (prefers-color-scheme) by default, or the switch's Light / Dark (?theme=); the figures follow.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './browser.mjs';

/** @type {Awaited<ReturnType<typeof openPage>>} */
let ctx;
before(async () => { ctx = await openPage('/', { width: 1280, height: 900 }); });
after(async () => { await ctx?.close(); });

/** @param {import('playwright-core').Page} p */
const state = (p) => p.evaluate(() => ({ level: document.documentElement.dataset.level, query: location.search,
  pressed: [...document.querySelectorAll('[data-set-level]')].filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => /** @type {HTMLElement} */ (b).dataset.setLevel) }));
/** The accessibility tree of §4 as text (what a screen reader can reach). @param {import('playwright-core').Page} p */
const tree = (p) => p.locator('#s4').ariaSnapshot();

test('level: Intuition folds the derivations out of the page and the accessibility tree; the stub unfolds; the URL keeps it', async () => {
  const p = ctx.page;
  // … and the sections added later: §6's dual chunk rules and DeepSeek's mscale algebra, §7's research formulas, §10's per-model splits
  // … and the detours the intuition level skips (issue 35): FLOATER, Shaw's value term and DeBERTa's EMD, the runnable code,
  // the engine and gguf comparison, dual chunk attention, linear attention's 1 + cos
  const folded = ['s4-derivation', 's4-polar', 's4-forms', 's4-layouts', 's4-cis', 's5-derivation', 's6-formulas', 's6-ntk',
    's6-dual-chunk-rules', 'q-yarn-deepseek', 's7-research-formulas', 's10-video-models',
    's2-floater', 's3-more', 's4-code', 'code-kv-cache', 'model-files', 's6-dual-chunk', 's8-more', 's4-roformer', 's7-research', 's8-figure', 's2-multiplicative', 's3-tupe', 'real-model-seeds', 'own-model'];
  assert.deepEqual(await state(p), { level: 'full', query: '', pressed: ['full'] });
  const before = await tree(p);
  assert.match(before, /heading "The derivation, checked step by step"/);
  assert.match(before, /def rotate_half/);                 // a code listing (§4's layouts)
  for (const id of folded) assert.ok(await p.locator(`#${id}`).isVisible(), `${id} shown in full`);
  assert.match(await p.locator('#s7-research').ariaSnapshot(), /chijames\/KERPLE/);
  assert.equal(await p.locator('.level-stub').first().isVisible(), false);

  await p.click('#level-intuition');
  await p.waitForFunction(() => location.search.includes('level=intuition'));
  assert.deepEqual(await state(p), { level: 'intuition', query: '?level=intuition', pressed: ['intuition'] });
  for (const id of folded) assert.equal(await p.locator(`#${id}`).isVisible(), false, `${id} folded`);
  const after = await tree(p);
  assert.doesNotMatch(after, /heading "The derivation, checked step by step"|def rotate_half|heading "How the solution is found/);
  assert.match(after, /Folded in the intuition view: The derivation, checked step by step;/);   // the stub says what is folded
  assert.match(after, /RoPE/);                              // the section itself stays, with its intuition
  assert.ok(await p.locator('#rope-rotation').isVisible(), 'the figures outside the folded blocks stay');
  assert.ok(await p.locator('#s4-qk-only').isVisible(), 'and the ideas between them (only q and k are rotated)');
  // one stub per run of folded blocks (blocks with nothing shown between them share it), naming them, with a button
  const stubs = await p.$$eval('.level-stub', (els) => els.filter((e) => e.checkVisibility()).map((e) => /** @type {HTMLElement} */ (e).innerText));
  assert.deepEqual(stubs, [
    'Folded in the intuition view: Multiplicative and recursive forms; FLOATER: positions as a trajectory. Show the full derivation',
    "Folded in the intuition view: TUPE; Shaw's second term: position on the value side; DeBERTa's enhanced mask decoder. Show the full derivation",
    'Folded in the intuition view: The d = 4 example in code. Show the full derivation',
    'Folded in the intuition view: The derivation, checked step by step; How the solution is found: eq. (14), (15), (17), (18). Show the full derivation',
    'Folded in the intuition view: Three ways to compute Rₘq; The layouts in reference code; freqs_cis, worked (d = 8, 3 positions). Show the full derivation',
    "Folded in the intuition view: RoFormer's reported results. Show the full derivation",
    'Folded in the intuition view: The three pitfalls in code. Show the full derivation',
    'Folded in the intuition view: Where the decay comes from; Why d = 512, base 10000 turns back up near 15,000. Show the full derivation',
    'Folded in the intuition view: The seeds’ claims, tested on the model. Show the full derivation',
    'Folded in the intuition view: Your own model. Show the full derivation',
    "Folded in the intuition view: Your model's files, side by side; The formulas, as Hugging Face runs them. Show the full derivation",
    'Folded in the intuition view: Long context by remapping distances: dual chunk attention. Show the full derivation',
    'Folded in the intuition view: DeepSeek’s mscale and mscale_all_dim. Show the full derivation',
    'Folded in the intuition view: The NTK-aware base, derived. Show the full derivation',
    'Folded in the intuition view: Why each scheme does what it does. Show the full derivation',
    'Folded in the intuition view: Research without released models: a gallery. Show the full derivation',
    'Folded in the intuition view: The two normalisers on random vectors; A similarity that stays non-negative: 1 + cos. Show the full derivation',
    'Folded in the intuition view: How each video model splits its 64 pairs. Show the full derivation']);
  // §7's research gallery is a detour of the intuition path (issue 35): folded whole, figure included, and out of the tree
  assert.equal(await p.locator('#research-bias').isVisible(), false);
  assert.doesNotMatch(await p.locator('#s7').ariaSnapshot(), /chijames\/KERPLE|In words: KERPLE/);

  // the address round-trips: a fresh page opened with it starts folded
  const q = await ctx.open('/?level=intuition');
  assert.deepEqual(await state(q), { level: 'intuition', query: '?level=intuition', pressed: ['intuition'] });
  assert.equal(await q.locator('#s4-derivation').isVisible(), false);
  // the stub's button unfolds (level back to full, dropped from the address) and lands on the block
  await q.locator('#s4-derivation').evaluate((el) => /** @type {HTMLElement} */ (el.previousElementSibling?.querySelector('button')).click());
  await q.waitForFunction(() => !location.search.includes('level'));
  assert.deepEqual(await state(q), { level: 'full', query: '', pressed: ['full'] });
  assert.ok(await q.locator('#s4-derivation').isVisible());
  const top = await q.locator('#s4-derivation').evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 200, `unfolded block scrolled to the top (${top})`);
  await q.context().close();

  // a value the page does not know is ignored and listed
  const bad = await ctx.open('/?level=expert');
  assert.equal((await state(bad)).level, 'full');
  assert.match(await bad.textContent('#state-notice') ?? '', /level = "expert" — must be full or intuition/);
  await bad.context().close();

  await p.click('#level-full');
  await p.waitForFunction(() => !location.search.includes('level'));
});

test('level: a link to a folded block (the summary table’s TUPE) unfolds the page and lands on it', async () => {
  const p = await ctx.open('/?level=intuition');
  assert.equal(await p.locator('#tupe').isVisible(), false);
  await p.locator('main a[href="#tupe"]').first().click();
  await p.waitForFunction(() => document.documentElement.dataset.level === 'full');
  assert.ok(await p.locator('#tupe').isVisible());
  await p.context().close();
});

test('level in Chinese: the same folding, Chinese stub and buttons, the Chinese headings gone from the accessibility tree', async () => {
  const p = await ctx.open('/?lang=zh&level=intuition');
  assert.equal((await state(p)).level, 'intuition');
  assert.equal(await p.innerText('#level-intuition'), '直观');
  const t = await tree(p);
  assert.doesNotMatch(t, /heading "推导，逐步验证"|def rotate_half/);
  const stub = await p.$eval('#s4-derivation', (el) => /** @type {HTMLElement} */ (el.previousElementSibling).innerText);
  assert.equal(stub, '直观模式下已折叠：推导，逐步验证；解是怎样求出来的：式 (14)、(15)、(17)、(18)。显示完整推导');
  await p.click('#level-full');
  assert.match(await tree(p), /heading "推导，逐步验证"/);
  await p.context().close();
});

/** The page's background, html's data-theme, and a figure's own background (its --pe-bg). @param {import('playwright-core').Page} p */
const colours = (p) => p.evaluate(async () => {
  const f = /** @type {any} */ (document.getElementById('permutation'));
  f.scrollIntoView(); await f.ready;
  return { theme: document.documentElement.dataset.theme, page: getComputedStyle(document.body).backgroundColor,
    figure: getComputedStyle(f).getPropertyValue('--pe-bg').trim(), url: location.search };
});

test('theme: dark when the system is dark, the figures too; the switch overrides it either way and the address keeps it', async () => {
  const dark = await ctx.open('/', undefined, { colorScheme: 'dark' });
  assert.deepEqual(await colours(dark), { theme: 'dark', page: 'rgb(23, 23, 26)', figure: '#17171a', url: '' });
  await dark.click('#theme-light');
  await dark.waitForFunction(() => location.search.includes('theme=light'));
  await dark.waitForFunction(() => getComputedStyle(/** @type {Element} */ (document.getElementById('permutation'))).getPropertyValue('--pe-bg').trim() === '#ffffff');
  assert.deepEqual(await colours(dark), { theme: 'light', page: 'rgb(252, 252, 253)', figure: '#ffffff', url: '?theme=light' });
  await dark.click('#theme-auto');
  await dark.waitForFunction(() => !location.search.includes('theme'));
  assert.equal((await colours(dark)).theme, 'dark');
  await dark.context().close();

  const light = await ctx.open('/?theme=dark&lang=zh');
  assert.deepEqual(await colours(light), { theme: 'dark', page: 'rgb(23, 23, 26)', figure: '#17171a', url: '?lang=zh&theme=dark' });
  assert.deepEqual(await light.$$eval('[data-set-theme]', (bs) => bs.map((b) => `${/** @type {HTMLElement} */ (b).innerText}:${b.getAttribute('aria-pressed')}`)), ['跟随系统:false', '浅色:false', '深色:true']);
  await light.context().close();
  assert.deepEqual((await colours(ctx.page)).theme, 'light');
});
