// Chinese typesetting of the rendered page (issue 19): no space between two CJK characters anywhere a reader sees
// (light DOM and the figures' shadow roots, zh mode: the build's cjk-space.js step removes the spaces that source line
// breaks would render), and no synthetic italics on Chinese text (emphasis is bold). Also the build step itself on
// known inputs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPage } from './browser.mjs';
import { joinCjkLines } from '../../web/site/cjk-space.js';

let ctx;
before(async () => { ctx = await openPage('/?lang=zh', { width: 1280, height: 1400 }); });
after(async () => { await ctx?.close(); });

const CJK = '[\\u3000-\\u303f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uff00-\\uffef]';

/** Rendered text (innerText: what CSS shows, spaces as rendered) of the page and of every shadow root, plus the
 *  CJK characters set in an italic font style. */
const scan = (page) => page.evaluate(async (cjk) => {
  for (const f of document.querySelectorAll('posenc-figure')) { if (!f.checkVisibility()) continue; f.scrollIntoView(); await f.ready?.catch(() => {}); }
  // Code is literal (an attribute value such as the tokens '猫 抓 老鼠' is split at its spaces): read as a Latin word.
  const hideCode = (root) => { for (const c of root.querySelectorAll('code, pre, kbd, samp, textarea')) c.textContent = 'code'; };
  hideCode(document);
  for (const el of document.querySelectorAll('*')) if (el.shadowRoot) hideCode(el.shadowRoot);
  const texts = [document.body.innerText];
  const italic = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) { texts.push(...[...el.shadowRoot.children].map((c) => c.innerText ?? '')); walk(el.shadowRoot); }
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
      if (new RegExp(cjk).test(own) && getComputedStyle(el).fontStyle !== 'normal' && el.checkVisibility()) italic.push(own.trim().slice(0, 40));
    }
  };
  walk(document);
  return { texts, italic };
}, CJK);

test('build step: line breaks between CJK characters go, deliberate spaces and Latin neighbours stay', () => {
  assert.equal(joinCjkLines('把输入重新排列，\n  输出'), '把输入重新排列，输出');
  assert.equal(joinCjkLines('最慢的\n  <strong>保持</strong>'), '最慢的<strong>保持</strong>');
  assert.equal(joinCjkLines('（<output>1</output>）\n 个词元'), '（<output>1</output>）个词元');
  assert.equal(joinCjkLines('第 i 对'), '第 i 对');
  assert.equal(joinCjkLines('底数\n  RoPE'), '底数\n  RoPE');
  assert.equal(joinCjkLines('中文</p>\n<p>段落'), '中文</p>\n<p>段落', 'a block boundary renders no space anyway');
  assert.equal(joinCjkLines('无能为力：\n  Hugging Face'), '无能为力：Hugging Face', 'no space after fullwidth punctuation');
  assert.equal(joinCjkLines('RoPE\n  （注）'), 'RoPE（注）', 'nor before it');
  assert.equal(joinCjkLines('English text.\n  More text'), 'English text.\n  More text');
  assert.equal(joinCjkLines('β 取常数——\n  画出'), 'β 取常数——画出', 'nor after the Chinese dash');
  assert.equal(joinCjkLines('a rule —\n  the next'), 'a rule —\n  the next', 'an English dash keeps its space');
});

for (const path of ['/?lang=zh', '/gallery.html?lang=zh', '/embed.html?figure=t5&lang=zh']) {
  test(`zh, ${path}: no space between two CJK characters, no italic Chinese`, async () => {
    const p = path === '/?lang=zh' ? ctx.page : await ctx.open(path);
    const { texts, italic } = await scan(p);
    const bad = texts.flatMap((t) => [...t.matchAll(new RegExp(`.{0,12}${CJK}[ \\u00a0]+${CJK}.{0,12}`, 'gu'))].map((m) => m[0]));
    // Fullwidth punctuation (、。，：；) is not followed by a space either (a source line break after '：' or '，').
    bad.push(...texts.flatMap((t) => [...t.matchAll(/.{0,12}[\u3001\u3002\uff0c\uff1a\uff1b][ \u00a0]+.{0,12}/gu)].map((m) => m[0])));
    // nor the Chinese dash '——' next to a Chinese character ('不崩溃—— 而不是')
    bad.push(...texts.flatMap((t) => [...t.matchAll(new RegExp(`.{0,12}(?:——[ \\u00a0]+${CJK}|${CJK}[ \\u00a0]+——).{0,12}`, 'gu'))].map((m) => m[0])));
    // nor a space before a full-width opening bracket or title mark ('Qwen2.5-VL （视觉塔）', '.safetensors （例如': walk 11-28)
    bad.push(...texts.flatMap((t) => [...t.matchAll(/.{0,12}\S[ \u00a0]+[\uff08\u300a].{0,12}/gu)].map((m) => m[0])));
    assert.deepEqual(bad, []);
    assert.deepEqual(italic, []);
    if (p !== ctx.page) await p.close();
  });
}

test('zh reference lines: full-width separators between the citations, Chinese post titles in 《》 (walk 11-28)', async () => {
  const p = ctx.page;
  const refs = await p.$$eval('main .refs', (ps) => ps.filter((e) => e.checkVisibility()).map((e) => {
    // the text between the citations: everything except citations, code and the other language's spans
    const c = /** @type {HTMLElement} */ (e.cloneNode(true));
    for (const x of c.querySelectorAll('cite, code, [lang="en"]')) x.remove();
    return c.textContent.replace(/\s+/g, ' ').trim();
  }));
  assert.ok(refs.length >= 12, `${refs.length} reference lines`);
  for (const r of refs) assert.doesNotMatch(r, /[;,()]/, `ASCII punctuation between citations: ${r}`);
  const titles = await p.$$eval('main cite[lang="zh-Hans"]', (cs) => cs.filter((c) => c.checkVisibility()).map((c) => c.textContent.trim()));
  assert.ok(titles.length >= 5);
  for (const t of titles) assert.match(t, /^(苏剑林)?《[^》]+》(（[\w.-]+）)?$/, t);
  assert.ok(titles.includes('苏剑林《Transformer 升级之路：2、博采众长的旋转式位置编码》'));
  assert.ok(titles.includes('《RoPE 的远距离衰减》（linsight.cn）'));
  // English mode gets the source text back
  const en = await ctx.open('/', { width: 1280, height: 900 });
  assert.ok((await en.$$eval('main cite[lang="zh-Hans"]', (cs) => cs.map((c) => c.textContent.trim()))).includes('Su, Transformer 升级之路：2、博采众长的旋转式位置编码'));
  await en.close();
});
