// Reference lines in Chinese (walk 11-28): the separators between the citations of a `.refs` line are written once in
// the HTML, in ASCII ("; ", ", ", " (arXiv:…)"), for both languages; in Chinese mode they become full-width (；，（）)
// and a Chinese post's title gets 《》, its author's Chinese name and its site in full-width brackets
// (“苏剑林《Transformer 升级之路：2、博采众长的旋转式位置编码》”, “《RoPE 的远距离衰减》（linsight.cn）”).
// English mode gets the source text back. tests/e2e/site-zh-space.test.mjs checks the result.
import { getLang, onLang } from './state.js';

const AUTHORS = { Su: '苏剑林' };
/** @type {Map<Text, string>} */
const original = new Map();

/** The text nodes between the citations of every reference line (not inside a citation, code or an English span). */
function separators() {
  const out = [];
  for (const p of document.querySelectorAll('main .refs')) {
    const w = document.createTreeWalker(p, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.parentElement?.closest('cite, code, [lang="en"], [lang="zh"]') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT) });
    for (let n = w.nextNode(); n; n = w.nextNode()) out.push(/** @type {Text} */ (n));
  }
  return out;
}
/** The link texts of citations of Chinese posts ("Author, Title" or "Title, site"), anywhere in the page's text. */
function chineseTitles() {
  return [...document.querySelectorAll('main cite[lang="zh-Hans"]')].filter((c) => !c.closest('[lang="en"]'))
    .map((c) => c.querySelector('a') ?? c).map((a) => /** @type {Text} */ (a.firstChild)).filter((t) => t?.nodeType === 3);
}
const fullWidth = (s) => s.replace(/\s*;\s*/g, '；').replace(/\s*,\s*/g, '，').replace(/\s*\(\s*/g, '（').replace(/\s*\)\s*/g, '）').replace(/\.\s*$/, '。');
function titled(s) {
  if (/^《/.test(s)) return s;
  const m = /^([A-Z][\w. ]*), (.+)$/.exec(s);
  if (m && AUTHORS[m[1]]) return `${AUTHORS[m[1]]}《${m[2]}》`;
  const site = /^(.+), ([\w-]+\.[a-z]{2,})$/.exec(s);
  if (site) return `《${site[1]}》（${site[2]}）`;
  return `《${s}》`;
}

function apply() {
  const zh = getLang() === 'zh';
  for (const [list, f] of [[separators(), fullWidth], [chineseTitles(), titled]]) {
    for (const t of /** @type {Text[]} */ (list)) {
      if (!original.has(t)) original.set(t, t.data);
      const src = /** @type {string} */ (original.get(t)), want = zh ? f(src) : src;
      if (t.data !== want) t.data = want;
    }
  }
}
apply();
onLang(apply);
