// Links to parts of the page that another branch adds later (the real-model section, id "real-model"): written as
// <a data-href="#id">, they become ordinary links once an element with that id is on the page, and stay plain text
// (no broken in-page link) until then. An element with data-needs="id" (a sentence about that part) stays hidden until
// the part is there.
for (const el of document.querySelectorAll('main [data-needs]')) {
  if (document.getElementById(/** @type {HTMLElement} */ (el).dataset.needs ?? '')) el.removeAttribute('hidden');
}
for (const a of document.querySelectorAll('main a[data-href^="#"]')) {
  if (document.getElementById(a.dataset.href.slice(1))) a.setAttribute('href', a.dataset.href);
}
