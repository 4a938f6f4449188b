// @ts-check
// A link into the page (#rope-decay) keeps its target in view while the page builds itself (issue 34, the deep-link
// layout shift). The browser scrolls to the fragment while the document loads; then the page's code defines
// <posenc-figure> (every figure above the target takes its height at once: 35,000 → 58,700 px at 1280), typesets and
// translates, and the browser's scroll anchoring kept only part of that: the reader landed 6,000 px above the figure
// (CLS 1.5). Here every change of the page's height puts the target back where the browser put it (its
// scroll-margin-top under the sticky contents bar), in the same frame, before it is painted — until the reader
// scrolls, clicks or types, or something else scrolls the page (a script's scrollIntoView), or 20 s have passed; and
// not at all where the reader has moved before the page's code ran.
const INPUTS = ['wheel', 'touchstart', 'pointerdown', 'keydown'];
// the reader's input, watched from the moment this module runs (start.js imports it as the page loads): before
// holdHash() it means no hold; during the hold, the end of it
let touched = false, onInput = () => {};
const touch = () => { touched = true; onInput(); for (const t of INPUTS) removeEventListener(t, touch, true); };
if (typeof addEventListener !== 'undefined') for (const t of INPUTS) addEventListener(t, touch, { capture: true, passive: true });

/** Holds location.hash's element in view until the reader (or another script) moves the page. */
export function holdHash() {
  let id = '';
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
  const target = id ? document.getElementById(id) : null;
  if (!target || typeof ResizeObserver === 'undefined') return;
  const root = document.documentElement;
  // where scrollIntoView puts it: scroll-margin-top below the top, or lower where the page ends first
  const atRest = () => {
    const top = target.getBoundingClientRect().top, margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
    return Math.abs(top - margin) <= 2 || (top > margin && innerHeight + scrollY >= root.scrollHeight - 2);
  };
  // the reader has moved already (or the browser restored an earlier place on a reload): nothing to hold
  if (touched || (scrollY !== 0 && !atRest())) return;
  let height = root.scrollHeight;
  const ro = new ResizeObserver(() => {
    height = root.scrollHeight;
    if (!atRest()) target.scrollIntoView({ block: 'start', behavior: 'instant' });
  });
  // a scroll that no change of height explains is the reader's or another script's: let go
  const onScroll = () => { if (root.scrollHeight === height && !atRest()) stop(); };
  const stop = () => { ro.disconnect(); clearTimeout(timer); removeEventListener('scroll', onScroll); onInput = () => {}; };
  ro.observe(document.body);
  addEventListener('scroll', onScroll, { passive: true });
  onInput = stop;
  const timer = setTimeout(stop, 20000);
}
