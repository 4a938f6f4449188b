// @ts-check
// A link into the page (#rope-decay) lands on its target while the page still loads (issue 34: the first figure
// within a second of a cold load). Chromium scrolls to a fragment only once the whole document is parsed: a cold
// 390 px load of the 395 KB page showed its top until 1.0–1.3 s, though the target had been parsed at 0.2 s and the
// first frame painted at 0.5–0.9 s. This script is put inline at the top of every built page's <head> (csp.js: the
// policy allows it by its sha256 and no other inline script), so it runs before anything waits for a style sheet:
// once a frame, while the document parses, it puts the target in view (under the sticky contents bar: its
// scroll-margin-top) as soon as the target and the page's style sheets are there — not before the style sheets:
// laid out without them it would stand elsewhere. When parsing ends the browser's own scroll and then hold-hash.js
// (the page's code) take over. Nothing is done once the reader has scrolled, touched or typed.
(() => {
  let id = '';
  try { id = decodeURIComponent(location.hash.slice(1)); } catch { return; }
  if (!id) return;
  const inputs = ['wheel', 'touchstart', 'pointerdown', 'keydown'];
  let moved = false;
  const move = () => { moved = true; };
  for (const t of inputs) addEventListener(t, move, { capture: true, passive: true });
  const sheetsIn = () => [...document.querySelectorAll('link[rel="stylesheet"]')].every((l) => /** @type {HTMLLinkElement} */ (l).sheet);
  const frame = () => {
    if (moved || document.readyState !== 'loading') { for (const t of inputs) removeEventListener(t, move, true); return; }
    const target = document.getElementById(id);
    if (target && sheetsIn()) {
      const top = target.getBoundingClientRect().top, margin = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
      const end = innerHeight + scrollY >= document.documentElement.scrollHeight - 2;   // as far as the page goes yet
      if (Math.abs(top - margin) > 2 && !(top > margin && end)) target.scrollIntoView({ block: 'start', behavior: 'instant' });
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
