// Language and URL state.
// Language: ?lang=zh|en, else the browser's language (zh* → zh), switchable; prose is written twice in the HTML
// (<span lang="en">…</span><span lang="zh">…</span>) and CSS shows one; JS-made strings use tr({en, zh}).
// URL: every form control inside <main> with an id (and no data-nourl) is written to the query string when it
// changes (only values that differ from the page's defaults) and read back on load, so a link restores the view.
// Figures: each <posenc-figure id="NAME"> in <main> keeps its state in its attributes, written as NAME.param=value
// (the same parameter names and values as the element's attributes and embed.html's query) when it differs from the
// figure's default.
import { describeFigure } from '../src/figures/index.js';

const listeners = new Set();
let lang = 'en';

export function getLang() { return lang; }
export function tr(s) { return typeof s === 'string' ? s : (s[lang] ?? s.en); }
export function onLang(f) { listeners.add(f); }

export function setLang(l, { write = true } = {}) {
  lang = l === 'zh' ? 'zh' : 'en';
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.documentElement.dataset.lang = lang;
  for (const b of document.querySelectorAll('[data-set-lang]')) b.setAttribute('aria-pressed', String(b.dataset.setLang === lang));
  for (const el of document.querySelectorAll('[data-title-en]')) el.title = el.dataset[lang === 'zh' ? 'titleZh' : 'titleEn'];
  for (const f of figures()) f.setAttribute('lang', lang);
  document.title = lang === 'zh' ? 'posenc — 位置编码，实时计算' : 'posenc — positional encodings, live';
  if (write) writeUrl();
  for (const f of listeners) f(lang);
}

const defaults = new Map();
const controls = () => [...document.querySelectorAll('main input[id], main select[id], main textarea[id]')]
  .filter((el) => !('nourl' in el.dataset) && el.type !== 'file');

const figures = () => [...document.querySelectorAll('main posenc-figure[id]')];
/** A figure's parameters that differ from its defaults, as attribute strings. */
export function figureState(f) {
  const out = {};
  for (const p of describeFigure(f.getAttribute('figure')).params) {
    const v = f.getAttribute(p.name), def = Array.isArray(p.default) ? p.default.join(',') : String(p.default);
    if (v != null && v !== def) out[p.name] = v;
  }
  return out;
}

function valueOf(el) { return el.type === 'checkbox' ? (el.checked ? '1' : '0') : el.value; }
function setValue(el, v) {
  if (el.type === 'checkbox') el.checked = v === '1';
  else el.value = v;
}

export function writeUrl() {
  const q = new URLSearchParams();
  if (lang !== browserLang()) q.set('lang', lang);
  for (const el of controls()) {
    const v = valueOf(el);
    if (v !== defaults.get(el.id)) q.set(el.id, v);
  }
  for (const f of figures()) for (const [k, v] of Object.entries(figureState(f))) q.set(`${f.id}.${k}`, v);
  const s = q.toString();
  history.replaceState(null, '', s ? `?${s}${location.hash}` : `${location.pathname}${location.hash}`);
}

function browserLang() { return (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en'; }

/** Records defaults, applies the URL's values and language; then every input/change rewrites the URL. */
export function initState() {
  for (const el of controls()) defaults.set(el.id, valueOf(el));
  const q = new URLSearchParams(location.search);
  for (const el of controls()) if (q.has(el.id)) setValue(el, q.get(el.id));
  for (const [k, v] of q) { const dot = k.indexOf('.'); if (dot > 0) document.getElementById(k.slice(0, dot))?.setAttribute(k.slice(dot + 1), v); }
  setLang(q.get('lang') ?? browserLang(), { write: false });
  // Written shortly after the last change, not on every input event: each history.replaceState is a same-document
  // navigation (several ms of main-thread work in Chromium), which would delay the figure being repainted.
  let timer = 0;
  const later = () => { clearTimeout(timer); timer = setTimeout(writeUrl, 200); };
  document.querySelector('main').addEventListener('input', later);
  document.querySelector('main').addEventListener('change', later);
  document.querySelector('main').addEventListener('figure-change', later);
  for (const b of document.querySelectorAll('[data-set-lang]')) b.addEventListener('click', () => setLang(b.dataset.setLang));
}
