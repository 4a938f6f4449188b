// @ts-check
// Code identifiers in text set as code (issue 34): a figure's captions, takeaways, labels, legends, read-outs and notes
// are plain strings (en and zh) that name config keys and API functions (rope_theta, head_dim, ropeFromConfig,
// llama.rope.freq_base, config.json). setCodeText writes such a string into an element with every identifier in its
// own <code>, so a screen reader and the page's styles treat it as code in both languages; the rest stays text.

/**
 * Dotted keys and file names (first: rope_scaling.factor is one token, not rope_scaling and ".factor"), snake_case, and
 * camelCase API names (two lower-case letters first: not xPos, vLLM, mT5).
 */
export const IDENTIFIER = /\b(?:[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]{2,}[A-Z][a-z]+[A-Za-z0-9]*)\b/g;

/** Tokens of that shape that are names, not code: each with its reason. */
export const NOT_IDENTIFIERS = new Map([
  ['e.g', 'the abbreviation "e.g."'],
  ['i.e', 'the abbreviation "i.e."'],
  ['arXiv', 'the preprint server\'s name'],
  ['llama.cpp', 'a project\'s name (ggml-org/llama.cpp), as in "run by llama.cpp"'],
  ['llama2.c', 'a project\'s name (karpathy/llama2.c)'],
  ['linsight.cn', 'a website cited as a source'],
]);

/** `text` as text and <code> parts (an array for Element.replaceChildren). */
export function codeParts(/** @type {string} */ text) {
  /** @type {(string | HTMLElement)[]} */
  const out = [];
  let at = 0;
  for (const m of text.matchAll(IDENTIFIER)) {
    if (NOT_IDENTIFIERS.has(m[0])) continue;
    const i = /** @type {number} */ (m.index);
    if (i > at) out.push(text.slice(at, i));
    const c = document.createElement('code');
    c.textContent = m[0];
    out.push(c);
    at = i + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

const HAS = new RegExp(IDENTIFIER.source);
/** Sets `el`'s text to `text` with its identifiers as code; nothing is written when the text is already there.
 * @template {Element} T @param {T} el @param {string} text @returns {T} */
export function setCodeText(el, text) {
  if (el.textContent === text && (el.childElementCount > 0 || !HAS.test(text))) return el;
  el.replaceChildren(...codeParts(text));
  return el;
}
