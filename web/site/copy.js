// A "Copy" button on every code listing that runs as pasted (<pre class="listing" data-run>, tests/js/site-listings.test.mjs):
// it copies the listing's text exactly (what the test runs), and says what it did in a status next to it, in the
// page's language. Without clipboard access (an http: page, a denied permission) the text is selected instead.
import { tr, onLang } from './state.js';

const T = { copy: { en: 'Copy', zh: '复制' }, label: { en: 'Copy this code', zh: '复制这段代码' },
  done: { en: 'Copied.', zh: '已复制。' }, manual: { en: 'No clipboard access: the code is selected, press Ctrl+C.', zh: '无法访问剪贴板：代码已选中，请按 Ctrl+C 复制。' } };
const buttons = [];

for (const pre of document.querySelectorAll('main pre.listing[data-run]')) {
  const bar = document.createElement('div'); bar.className = 'copy-bar';
  const b = document.createElement('button'); b.type = 'button'; b.className = 'copy-code';
  const status = document.createElement('span'); status.className = 'muted copy-status'; status.setAttribute('role', 'status');
  b.addEventListener('click', async () => {
    const code = pre.textContent ?? '';
    try { await navigator.clipboard.writeText(code); status.textContent = tr(T.done); }
    catch { getSelection()?.selectAllChildren(pre); status.textContent = tr(T.manual); }
    b.dataset.copied = code;   // what went to the clipboard (tests read it back)
  });
  bar.append(b, status);
  pre.before(bar);
  buttons.push([b, status]);
}
const label = () => { for (const [b, s] of buttons) { b.textContent = tr(T.copy); b.setAttribute('aria-label', tr(T.label)); s.textContent = ''; } };
label();
onLang(label);
