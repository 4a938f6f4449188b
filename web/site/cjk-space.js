// Build step (vite.config.js): a line break in the HTML source between two Chinese characters renders as a space
// ("把输入重新排列， 输出"), which Chinese typesetting never has. Whitespace that contains a line break is removed
// where it stands between two CJK characters or CJK punctuation marks, also across inline tags
// ("…的\n<strong>保持</strong>"), and next to fullwidth punctuation (which carries its own spacing); a space on one line
// (deliberate, e.g. around Latin text or numbers) is kept, and so is a break between a Latin letter or digit and a CJK
// character. tests/e2e/site-zh-space.test.mjs checks the rendered page.

/** CJK ideographs, CJK symbols and punctuation, fullwidth forms, and the curly quotes Chinese text uses. */
const CJK = '\\u2018\\u2019\\u201c\\u201d\\u3000-\\u303f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uff00-\\uffef';
// A tag that is not a block: opening or closing tags of these may sit between the two characters.
const INLINE = '(?:</?(?:a|b|strong|em|i|span|cite|abbr|sub|sup|q|small|mark|output)\\b[^>]*>)*';
const BREAK = new RegExp(`([${CJK}])(${INLINE})[ \\t]*\\n\\s*(${INLINE})(?=[${CJK}])`, 'gu');
// Fullwidth punctuation carries its own spacing: no break-space after it, nor before it (“：\n Hugging Face”, “RoPE\n（”).
const PUNCT = '\\u3000-\\u303f\\uff00-\\uffef';
const AFTER_PUNCT = new RegExp(`([${PUNCT}])(${INLINE})[ \\t]*\\n\\s*`, 'gu');
const BEFORE_PUNCT = new RegExp(`([^\\s>])[ \\t]*\\n\\s*(${INLINE})(?=[${PUNCT}])`, 'gu');
// The Chinese dash '——' (two em dashes; English uses one) is punctuation too: no break-space after it (“β 取常数——\n 画出”).
const AFTER_DASH = new RegExp(`(——)(${INLINE})[ \\t]*\\n\\s*`, 'gu');

/** `html` with every line break between two CJK characters (and its indentation) removed. */
export function joinCjkLines(html) {
  // Two curly quotes on either side are English text quoting English: only a pair with a CJK character or mark joins.
  return html.replace(BREAK, (all, a, tagsBefore, tagsAfter, offset, s) => {
    const next = s[offset + all.length];
    const quote = /[\u2018\u2019\u201c\u201d]/;
    if (quote.test(a) && quote.test(next)) return all;
    return a + tagsBefore + tagsAfter;
  }).replace(AFTER_PUNCT, '$1$2').replace(BEFORE_PUNCT, '$1$2').replace(AFTER_DASH, '$1$2');
}
