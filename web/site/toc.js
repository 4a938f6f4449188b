// The sticky table of contents (index.html, nav#toc): the link of the section being read is marked (aria-current),
// found by an IntersectionObserver on the sections; on phones (CSS, max-width 700px) the list folds behind a button
// that also names the current section. And "Cite this page": the BibTeX gets this page's address and a copy button.
const toc = document.getElementById('toc');
const links = new Map([...toc.querySelectorAll('a[href^="#"]')].map((a) => [a.getAttribute('href').slice(1), a]));
const toggle = toc.querySelector('.toc-toggle');
const current = toc.querySelector('.toc-current');

/** Marks `id`'s link as the current one and names it on the phone button. */
function mark(id) {
  for (const [k, a] of links) { if (k === id) a.setAttribute('aria-current', 'true'); else a.removeAttribute('aria-current'); }
  const a = links.get(id);
  current.replaceChildren(...(a ? [...a.childNodes].map((n) => n.cloneNode(true)) : []));
  toc.dataset.current = id ?? '';
}

// A section is "being read" when it crosses a line 30% down the window; of those, the lowest one that has begun.
const visible = new Set();
const sections = [...links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
const io = new IntersectionObserver((entries) => {
  for (const e of entries) { if (e.isIntersecting) visible.add(e.target); else visible.delete(e.target); }
  const inView = sections.filter((s) => visible.has(s));
  mark(inView.length ? inView[inView.length - 1].id : (scrollY < 100 ? null : toc.dataset.current || null));
}, { rootMargin: '-30% 0px -69% 0px' });
for (const s of sections) io.observe(s);

// Jumps land below the bar: its height (one or two lines on a desktop, one on a phone) as --toc-h (style.css).
const setHeight = () => document.documentElement.style.setProperty('--toc-h', `${Math.ceil(toc.getBoundingClientRect().height)}px`);
new ResizeObserver(setHeight).observe(toc);
setHeight();

toggle.addEventListener('click', () => {
  const open = !toc.classList.contains('open');
  toc.classList.toggle('open', open);
  toggle.setAttribute('aria-expanded', String(open));
});
// Following a link on a phone closes the list again.
toc.addEventListener('click', (e) => {
  if (e.target.closest('a') && toc.classList.contains('open')) { toc.classList.remove('open'); toggle.setAttribute('aria-expanded', 'false'); }
});

// Cite this page: the address without the query (the view's state is not part of the citation).
const bib = document.getElementById('cite-bibtex');
if (bib && !bib.textContent.includes('url ')) {
  const url = `${location.origin}${location.pathname}`;
  bib.textContent = bib.textContent.replace(/\n}$/, `,\n  url          = {${url}}\n}`);
}
document.getElementById('cite-copy')?.addEventListener('click', async () => {
  const status = document.getElementById('cite-status');
  const zh = document.documentElement.dataset.lang === 'zh';
  try { await navigator.clipboard.writeText(bib.textContent); status.textContent = zh ? '已复制。' : 'Copied.'; }
  catch { getSelection().selectAllChildren(bib); status.textContent = zh ? '无法访问剪贴板：已选中文本，请手动复制。' : 'No clipboard access: the text is selected, press Ctrl+C.'; }
});
