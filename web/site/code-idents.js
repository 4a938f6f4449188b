// @ts-check
// Code identifiers in the page's prose set as code (issue 34): text the page writes at run time (checks, tables built
// in sections.js, the level stubs that repeat folded headings, "Try this" rows, the config reader's read-outs, the
// model files' verdicts) names config keys and API functions; every such token outside code, formulas and form
// controls is put in its own <code>, now and whenever the text changes (a MutationObserver on the page). The static
// sections write their identifiers as <code> themselves; the figures do the same in their shadow roots (code-text.js).
import { IDENTIFIER, codeParts } from '../src/figures/blocks/code-text.js';

const SKIP = 'code, pre, kbd, samp, script, style, template, textarea, select, option, svg, math, .katex, [data-tex], [contenteditable]';
const HAS = new RegExp(IDENTIFIER.source);

/** @param {Text} n */
function codifyText(n) {
  const el = n.parentElement;
  if (!el || !n.isConnected || !HAS.test(n.data) || el.closest(SKIP)) return;
  const parts = codeParts(n.data);
  if (parts.some((p) => typeof p !== 'string')) n.replaceWith(...parts);
}

/** Sets the identifiers in `root`'s text as code. @param {Node} root */
export function codify(root) {
  if (root.nodeType === Node.TEXT_NODE) { codifyText(/** @type {Text} */ (root)); return; }
  const w = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  /** @type {Text[]} */
  const found = [];
  for (let n = w.nextNode(); n; n = w.nextNode()) if (HAS.test(/** @type {Text} */ (n).data)) found.push(/** @type {Text} */ (n));
  for (const n of found) codifyText(n);
}

/**
 * Codifies `root` after every change of its text, and all of it once `after` settles (the first figures painted: the
 * walk over the whole page stays off their path); then root.dataset.identifiers = 'code'.
 * @param {HTMLElement} root @param {Promise<unknown>} [after]
 */
export function watchIdentifiers(root, after = Promise.resolve()) {
  // the observer starts with the full walk, not before: the page's own set-up (sections, formulas, figures) adds
  // thousands of nodes while the first figures load, and the walk covers all of them once
  after.catch(() => {}).then(() => {
    codify(root);
    root.dataset.identifiers = 'code';
    new MutationObserver((records) => {
      for (const m of records) {
        if (m.type === 'characterData') codify(m.target);
        else for (const n of m.addedNodes) codify(n);
      }
    }).observe(root, { childList: true, characterData: true, subtree: true });
  });
}
