// Code identifiers are set as code (issue 34, deliver 6): in the built page, en and zh, at both reading levels, every
// text node — every section (folded blocks included: hidden text is walked too), the level stubs, and the figures'
// shadow roots once painted (titles, takeaways, captions, legends, read-outs, notices) — is scanned for identifier-like
// tokens: snake_case (rope_theta, freqs_cis), camelCase API names (ropeFromConfig, relShift), dotted keys (llama.rope.freq_base,
// config.json). Each must stand inside code / pre / kbd / samp, a formula (KaTeX, MathML), script or style; attributes
// are not text. A screen reader then reads it as code, and the page styles it as code, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, settled, setLang } from './browser.mjs';

/**
 * Tokens that match the patterns but are not identifiers, each with its reason. Keep it small: anything a reader could
 * type into code belongs in <code>.
 */
const NOT_IDENTIFIERS = new Map([
  ['e.g', 'the abbreviation "e.g."'],
  ['i.e', 'the abbreviation "i.e."'],
  ['arXiv', 'the preprint server\'s name, in citations (arXiv:1706.03762)'],
  ['llama.cpp', 'a project\'s name (ggml-org/llama.cpp), as a proper noun: "run by llama.cpp"'],
  ['llama2.c', 'a project\'s name (karpathy/llama2.c), as a proper noun'],
  ['linsight.cn', 'a website named as a source'],
]);

const SNAKE = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;
// camelCase API names (ropeFromConfig, relShift); not names like xPos, vLLM, mT5, iRoPE (one lower-case letter, then capitals)
const CAMEL = /\b[a-z]{2,}[A-Z][a-z]+[A-Za-z0-9]*\b/g;
const DOTTED = /\b[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+\b/g;

/** [token, its text node's text, the nearest element with an id] for every identifier-like token outside code. */
function scan(page) {
  return page.evaluate((src) => {
    const res = src.map((s) => new RegExp(s, 'g'));
    // <option> is left out: its content model is text only, no element (so no <code>) can stand in it
    const CODE = 'code, pre, kbd, samp, script, style, template, math, .katex, .katex-display, .katex-mathml, [data-tex], svg title, option';
    const out = [];
    const inCode = (el) => el.closest(CODE) !== null;   // a figure's code stands in its own shadow tree
    const where = (el) => {
      let e = el;
      while (e) {
        if (e.id) return e.id;
        const r = e.getRootNode();
        e = e.parentElement ?? (r instanceof ShadowRoot ? r.host : null);
      }
      return '?';
    };
    const walk = (root) => {
      const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let n = w.currentNode; n; n = w.nextNode()) {
        if (n.nodeType === 1) {
          if (n.shadowRoot) walk(n.shadowRoot);
          continue;
        }
        const el = n.parentElement;
        if (!el || inCode(el)) continue;
        const t = n.textContent;
        for (const re of res) for (const m of t.matchAll(re)) out.push([m[0], t.trim().slice(0, 160), where(el)]);
        // a dotted key cut in two (rope_scaling in code, ".factor" left as text)
        const prev = n.previousSibling;
        if (/^\.[a-z]/.test(t) && prev?.nodeType === 1 && /** @type {Element} */ (prev).matches('code')) out.push([`${prev.textContent}${t.split(/[^\w.]/)[0]}`, t.trim().slice(0, 160), where(el)]);
      }
    };
    walk(document.body);
    return out;
  }, [SNAKE.source, CAMEL.source, DOTTED.source]);
}

const paintAll = (p) => p.evaluate(async () => {
  for (const f of document.querySelectorAll('posenc-figure')) {
    if (!f.checkVisibility()) continue;   // a figure the page hides (or folds) never computes: nothing to wait for
    f.scrollIntoView();
    await Promise.race([f.ready.catch(() => {}), new Promise((r) => setTimeout(r, 20000))]);
  }
});

let ctx;
before(async () => { ctx = await openPage('/?lang=en', { width: 1280, height: 1400 }); });
after(async () => { await ctx?.close(); });

/** The distinct hits of a scan, as lines: token (#id): “text”. */
async function outside(page) {
  const seen = new Map();
  for (const [tok, text, id] of await scan(page)) if (!NOT_IDENTIFIERS.has(tok) && !seen.has(`${tok}@${id}`)) seen.set(`${tok}@${id}`, `${tok} (#${id}): “${text}”`);
  return [...seen.values()];
}

async function check(page, lang) {
  assert.equal(await page.evaluate(() => document.documentElement.lang.slice(0, 2)), lang);
  const texts = await page.evaluate(() => document.body.innerText.length);
  assert.ok(texts > 20000, `the page has text (${texts} characters)`);
  const hits = await outside(page);
  assert.equal(hits.length, 0, `${lang}: ${hits.length} identifiers outside code:\n${hits.join('\n')}`);
}

// One page painted once, scanned in English, then switched to Chinese (the figures redraw their texts) and scanned
// again: a page loaded with ?lang=zh shows the same texts (tests/e2e/site-zh.test.mjs).
test('en and zh, level full: no identifier outside code in any text node (sections, folded blocks, figures)', { timeout: 600000 }, async () => {
  const page = ctx.page;   // /?lang=en at 1280 × 1400
  await page.waitForSelector('body[data-identifiers="code"]', { timeout: 60000 });   // code-idents.js's first pass
  await paintAll(page);
  await settled(page);
  await check(page, 'en');
  await setLang(page, 'zh');
  await paintAll(page);
  await settled(page);
  await check(page, 'zh');
  await setLang(page, 'en');
});

for (const lang of ['en', 'zh']) {
  test(`${lang}, level intuition: no identifier outside code in any text node (sections, folded blocks, stubs)`, { timeout: 600000 }, async () => {
    const page = await ctx.open(`/?lang=${lang}&level=intuition`, { width: 1280, height: 1400 });
    await page.waitForSelector('body[data-identifiers="code"]', { timeout: 60000 });
    await check(page, lang);
    await page.context().close();
  });
}

test('the scan finds an identifier outside code, and none inside (the test can fail)', async () => {
  const page = await ctx.open('/?lang=en', { width: 800, height: 600 });
  await page.evaluate(() => {
    // in a shadow root: the page's own watcher (code-idents.js) would set a paragraph of the page as code at once
    const host = document.createElement('div'), p = document.createElement('p');
    p.id = 'probe';
    p.innerHTML = 'set rope_theta and call ropeFromConfig with llama.rope.freq_base; <code>head_dim</code> <span class="katex">n_ctx</span>';
    host.attachShadow({ mode: 'open' }).append(p);
    document.body.append(host);
  });
  const hits = new Set((await scan(page)).filter(([, , id]) => id === 'probe').map(([t]) => t));
  assert.deepEqual([...hits].sort(), ['freq_base', 'llama.rope.freq_base', 'ropeFromConfig', 'rope_theta']);
  await page.context().close();
});

test('text the page writes later is set as code too (code-idents.js), in both languages, formulas and options untouched', async () => {
  const page = await ctx.open('/?lang=zh', { width: 800, height: 600 });
  await page.waitForSelector('body[data-identifiers="code"]', { timeout: 60000 });
  const got = await page.evaluate(async () => {
    const p = document.createElement('p');
    document.querySelector('main')?.append(p);
    p.textContent = '读取 rope_scaling.factor 与 ropeFromConfig';   // a dotted key is one code span, not rope_scaling + ".factor"
    await new Promise((r) => setTimeout(r, 50));
    const first = [...p.querySelectorAll('code')].map((c) => c.textContent);
    p.firstChild.nodeValue = 'max_position_embeddings 之后';   // a text node changed in place
    await new Promise((r) => setTimeout(r, 50));
    return { first, text: p.textContent, second: [...p.querySelectorAll('code')].map((c) => c.textContent),
      option: document.querySelector('option')?.childElementCount ?? 0 };
  });
  assert.deepEqual(got.first, ['rope_scaling.factor', 'ropeFromConfig']);
  assert.ok(got.second.includes('max_position_embeddings'), JSON.stringify(got));
  assert.equal(got.option, 0);
  await page.context().close();
});
