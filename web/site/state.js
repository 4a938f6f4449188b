// Language and URL state.
// Language: ?lang=zh|en, else the browser's language (zh* → zh), switchable; prose is written twice in the HTML
// (<span lang="en">…</span><span lang="zh">…</span>) and CSS shows one; JS-made strings use tr({en, zh}).
// URL: every form control inside <main> with an id (and no data-nourl) is written to the query string when it
// changes (only values that differ from the page's defaults) and read back on load, so a link restores the view.
// Figures: each <posenc-figure id="NAME"> in <main> keeps its state in its attributes, written as NAME.param=value
// (the same parameter names and values as the element's attributes and embed.html's query) when it differs from the
// figure's default.
// Read on load, a link is validated: every key must name something on the page (lang, a control, or NAME.param of a
// figure there) and every value must be one that control or figure accepts (the figure's own parameter rules and
// cross-checks). Anything else is ignored — the default stays — and a notice at the top of the page lists it, in the
// page's language. Written, the query string is at most MAX_QUERY characters: values that do not fit (the longest
// first, e.g. a pasted long text) are left out of the address and the notice says which (a reload shows their
// defaults). Long addresses are what servers refuse (HTTP 431 above 8–16 KB of headers) and what make every
// history.replaceState slow.
import { describeFigure } from '../src/figures/index.js';
import { getTheme, setTheme, THEMES } from './theme-switch.js';

/** The most characters of query string the page writes into its address. */
export const MAX_QUERY = 2000;

const listeners = new Set();
let lang = 'en';

export function getLang() { return lang; }

// ── the reader's level: "full" (the default: every derivation, algebra and code listing) or "intuition" (those folded:
// each [data-level="full"] block is display: none — out of the page and its accessibility tree — with a one-line stub
// in its place whose button unfolds it) ──
export const LEVELS = ['full', 'intuition'];
let level = 'full';
export function getLevel() { return level; }
const STUB = { en: 'Folded in the intuition view', zh: '直观模式下已折叠' };
const UNFOLD = { en: 'Show the full derivation', zh: '显示完整推导' };
/** The folded blocks in runs: blocks that follow each other (nothing shown between them) share one stub. */
function runs() {
  /** @type {Element[][]} */
  const out = [];
  for (const block of document.querySelectorAll('main [data-level="full"]')) {
    let prev = block.previousElementSibling;
    while (prev?.classList.contains('level-stub')) prev = prev.previousElementSibling;
    const last = out.at(-1);
    if (last && prev === last.at(-1)) last.push(block); else out.push([block]);
  }
  return out;
}
function stubs() {
  // a block's names: its data-level-title-en/-zh (a heading with a formula in it), else its headings' texts
  const title = (/** @type {HTMLElement} */ b) => {
    const given = b.dataset[lang === 'zh' ? 'levelTitleZh' : 'levelTitleEn'];
    if (given) return [given];
    return [...b.querySelectorAll('h3')].map((h) => (h.querySelector(`:scope > [lang="${lang}"]`) ?? h).textContent?.trim() ?? '');
  };
  for (const run of runs()) {
    const block = /** @type {HTMLElement} */ (run[0]);
    let stub = block.previousElementSibling?.classList.contains('level-stub') ? block.previousElementSibling : null;
    if (!stub) {
      stub = document.createElement('p'); stub.className = 'level-stub';
      const text = document.createElement('span'), b = document.createElement('button');
      b.type = 'button'; b.className = 'level-unfold';
      b.addEventListener('click', () => {
        setLevel('full'); block.scrollIntoView();
        const h = /** @type {HTMLElement | null} */ (block.querySelector('h3, h4'));
        if (h) { h.setAttribute('tabindex', '-1'); h.focus({ preventScroll: true }); }
      });
      stub.append(text, ' ', b);
      block.before(stub);
    }
    const names = run.flatMap((b) => title(/** @type {HTMLElement} */ (b))).filter(Boolean);
    stub.firstElementChild.textContent = names.length ? (lang === 'zh' ? `${tr(STUB)}：${names.join('；')}。` : `${tr(STUB)}: ${names.join('; ')}.`) : `${tr(STUB)}${lang === 'zh' ? '。' : '.'}`;
    stub.lastElementChild.textContent = tr(UNFOLD);
    stub.childNodes[1].textContent = lang === 'zh' ? '' : ' ';   // no space after the full stop '。' in Chinese
  }
}
// A link to something the intuition level folds (the summary table's #tupe, #research-bias …) switches to the full
// level first, so that the browser's jump lands on a shown element.
if (typeof document !== 'undefined') document.addEventListener('click', (e) => {   // (Node imports this module too: tests)
  const a = /** @type {Element | null} */ (e.target instanceof Element ? e.target.closest('a[href^="#"]') : null);
  if (!a || level !== 'intuition') return;
  const t = document.getElementById((a.getAttribute('href') ?? '').slice(1));
  if (t?.closest('main [data-level="full"]')) setLevel('full');
});
export function setLevel(l, { write = true } = {}) {
  level = l === 'intuition' ? 'intuition' : 'full';
  document.documentElement.dataset.level = level;
  for (const b of document.querySelectorAll('[data-set-level]')) b.setAttribute('aria-pressed', String(b.dataset.setLevel === level));
  stubs();
  if (write) writeUrl();
  for (const f of levelListeners) f(level);
}
const levelListeners = new Set();
export function onLevel(f) { levelListeners.add(f); }
export function tr(s) { return typeof s === 'string' ? s : (s[lang] ?? s.en); }
export function onLang(f) { listeners.add(f); }

export function setLang(l, { write = true } = {}) {
  const from = lang;
  lang = l === 'zh' ? 'zh' : 'en';
  languageDefaults(from, lang);
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  document.documentElement.dataset.lang = lang;
  for (const b of document.querySelectorAll('[data-set-lang]')) b.setAttribute('aria-pressed', String(b.dataset.setLang === lang));
  for (const el of document.querySelectorAll('[data-title-en]')) el.title = el.dataset[lang === 'zh' ? 'titleZh' : 'titleEn'];
  for (const f of figures()) f.setAttribute('lang', lang);
  stubs();
  document.title = lang === 'zh' ? 'posenc — 位置编码，实时计算' : 'posenc — positional encodings, live';
  if (write) writeUrl();
  showNotice();
  for (const f of listeners) f(lang);
}

const defaults = new Map();
const controls = () => [...document.querySelectorAll('main input[id], main select[id], main textarea[id]')]
  .filter((el) => !('nourl' in el.dataset) && el.type !== 'file');

const figures = () => [...document.querySelectorAll('main posenc-figure[id]')];
// Figures whose default text is English show a Chinese one on the Chinese page, as the default there (a link or an
// embed snippet from the Chinese page carries it only when the reader changed it). Each text repeats characters, which
// the "Try this" of the attention figure names: 猫 (tokens 0, 15 of 16), 老 (2, 5), 鼠 (3, 6).
const ZH_TEXT = '猫抓老鼠，老鼠跑到旧桌子底下。';
/** @type {Record<string, Record<string, string>>} figure name → parameter → its default on the Chinese page */
export const ZH_DEFAULTS = { attention: { text: ZH_TEXT }, explorer: { text: ZH_TEXT }, multiplicative: { word: '猫' } };
/** A figure's parameters that differ from its defaults (on the Chinese page: its Chinese defaults), as attribute strings. */
export function figureState(f) {
  const out = {}, zh = lang === 'zh' ? ZH_DEFAULTS[f.getAttribute('figure')] ?? {} : {};
  for (const p of describeFigure(f.getAttribute('figure')).params) {
    if (p.name === 'models') continue;   // where the real-model figures load files from (the host's), not the reader's state
    const v = f.getAttribute(p.name), def = p.name in zh ? zh[p.name] : Array.isArray(p.default) ? p.default.join(',') : String(p.default);
    if (v != null && v !== def) out[p.name] = v;
  }
  return out;
}
/** Switches the figures with an English default text to the language's default, unless the reader set another. */
function languageDefaults(from, to) {
  for (const f of figures()) {
    const zh = ZH_DEFAULTS[f.getAttribute('figure')];
    if (!zh) continue;
    const params = describeFigure(f.getAttribute('figure')).params;
    for (const [name, text] of Object.entries(zh)) {
      const en = String(params.find((p) => p.name === name)?.default ?? ''), v = f.getAttribute(name) ?? en;
      if (to === 'zh' && v === en) f.setAttribute(name, text);
      else if (to === 'en' && from === 'zh' && v === text) f.removeAttribute(name);
    }
  }
}

function valueOf(el) { return el.type === 'checkbox' ? (el.checked ? '1' : '0') : el.value; }
function setValue(el, v) {
  if (el.type === 'checkbox') el.checked = v === '1';
  else el.value = v;
}

// ── the notice: what a link asked for that the page ignored (load) or left out of the address (write) ──
const L = (en, zh) => ({ en, zh });
const notes = { load: [], write: [] };
const dismissed = new Set();        // write notes closed by the reader: not shown again while the value stays too long
const SHOWN = 20;                   // items listed per part; the rest are counted
const short = (s) => { const c = [...s]; return c.length > 40 ? `${c.slice(0, 39).join('')}…` : s; };
const T = {
  load: L('Some settings in this link could not be used and were ignored; the defaults are shown instead:',
    '此链接中的部分设置无法使用，已忽略，改为显示默认值：'),
  write: L(`Too long for this page's address (it keeps at most ${MAX_QUERY} characters of settings), so not saved in it — a link or a reload shows the default:`,
    `以下设置太长，未写入本页地址（地址最多保存 ${MAX_QUERY} 个字符的设置）——链接或刷新后显示默认值：`),
  more: (n) => L(`… and ${n} more`, `……另有 ${n} 项`),
  chars: (n) => L(`${n} characters`, `${n} 个字符`),
  close: L('Close', '关闭'),
  unknown: L('nothing on this page has this name', '本页没有这个名称'),
  noParam: (fig) => L(`figure "${fig}" has no such parameter`, `图 "${fig}" 没有这个参数`),
  lang: L('must be en or zh', '必须是 en 或 zh'),
  theme: L('must be auto, light or dark', '必须是 auto、light 或 dark'),
  level: L('must be full or intuition', '必须是 full 或 intuition'),
};

function showNotice() {
  const main = document.querySelector('main');
  let box = document.getElementById('state-notice');
  const write = notes.write.filter((n) => !dismissed.has(n.key));
  if (!notes.load.length && !write.length) { box?.remove(); return; }
  if (!box) {
    box = document.createElement('div'); box.id = 'state-notice'; box.className = 'state-notice'; box.setAttribute('role', 'status');
    main.prepend(box);
  }
  const part = (kind, intro, items) => {
    const p = document.createElement('p'), ul = document.createElement('ul');
    p.textContent = tr(intro); ul.dataset.kind = kind;
    for (const it of items.slice(0, SHOWN)) {
      const li = document.createElement('li'), code = document.createElement('code');
      code.textContent = short(it.key); li.dataset.key = it.key;
      li.append(code, it.value !== undefined ? ` = "${short(it.value)}"` : '', ` — ${tr(it.why)}`);
      ul.append(li);
    }
    if (items.length > SHOWN) { const li = document.createElement('li'); li.textContent = tr(T.more(items.length - SHOWN)); ul.append(li); }
    return [p, ul];
  };
  const close = document.createElement('button');
  close.type = 'button'; close.className = 'close'; close.textContent = '×'; close.setAttribute('aria-label', tr(T.close));
  close.addEventListener('click', () => { notes.load = []; for (const n of notes.write) dismissed.add(n.key); showNotice(); });
  box.replaceChildren(close, ...(notes.load.length ? part('load', T.load, notes.load) : []), ...(write.length ? part('write', T.write, write) : []));
}

// ── writing ──
export function writeUrl() {
  const entries = [];
  if (lang !== browserLang()) entries.push(['lang', lang]);
  if (getTheme() !== 'auto') entries.push(['theme', getTheme()]);
  if (level !== 'full') entries.push(['level', level]);
  for (const el of controls()) {
    const v = valueOf(el);
    if (v !== defaults.get(el.id)) entries.push([el.id, v]);
  }
  // a figure with data-nourl keeps its state out of the address (the page stores it some shorter way)
  for (const f of figures()) if (!('nourl' in f.dataset)) for (const [k, v] of Object.entries(figureState(f))) entries.push([`${f.id}.${k}`, v]);
  // Over the cap: leave out the longest values (as written, percent-encoded) until the rest fits.
  const size = ([k, v]) => new URLSearchParams({ [k]: v }).toString().length + 1;
  const left = [];
  let total = entries.reduce((n, e) => n + size(e), 0);
  while (total - 1 > MAX_QUERY) {
    const i = entries.reduce((b, e, j) => (size(e) > size(entries[b]) ? j : b), 0);
    total -= size(entries[i]);
    const [[key, v]] = entries.splice(i, 1);
    left.push({ key, why: T.chars([...v].length) });
  }
  for (const k of dismissed) if (!left.some((n) => n.key === k)) dismissed.delete(k);
  const changed = JSON.stringify(left) !== JSON.stringify(notes.write);
  notes.write = left;
  if (changed) showNotice();
  const s = new URLSearchParams(entries).toString();
  history.replaceState(null, '', s ? `?${s}${location.hash}` : `${location.pathname}${location.hash}`);
}

function browserLang() { return (navigator.languages?.[0] ?? navigator.language ?? 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en'; }

// ── reading ──
/** The rule value `v` breaks for control `el` ({en, zh}), or null when `el` accepts it as it is. */
function refuses(el, v) {
  if (el.type === 'checkbox') return v === '0' || v === '1' ? null : L('must be 0 or 1', '必须是 0 或 1');
  if (el.tagName === 'SELECT') {
    const vs = [...el.options].map((o) => o.value);
    return vs.includes(v) ? null : L(`must be one of ${vs.join(', ')}`, `必须是 ${vs.join('、')} 之一`);
  }
  if (el.type === 'number' || el.type === 'range') {
    el.value = v;      // the browser's own parsing: not a finite number → '', a range clamps; step and min/max in validity
    if (v.trim() !== '' && el.value === v && el.validity.valid) return null;
    const int = el.step !== 'any' && Number.isInteger(Number(el.step || 1)) && Number.isInteger(Number(el.min || 0));
    const what = int ? L('an integer', '整数') : L('a number', '数');
    const lo = el.min !== '' ? el.min : null, hi = el.max !== '' ? el.max : null;
    if (lo !== null && hi !== null) return L(`must be ${what.en} from ${lo} to ${hi}`, `必须是 ${lo} 到 ${hi} 之间的${what.zh}`);
    if (lo !== null) return L(`must be ${what.en} ≥ ${lo}`, `必须是 ≥ ${lo} 的${what.zh}`);
    if (hi !== null) return L(`must be ${what.en} ≤ ${hi}`, `必须是 ≤ ${hi} 的${what.zh}`);
    return L(`must be ${what.en}`, `必须是${what.zh}`);
  }
  if (el.maxLength >= 0 && [...v].length > el.maxLength) return L(`must be at most ${el.maxLength} characters`, `最多 ${el.maxLength} 个字符`);
  return null;
}

/** Applies the URL's figure parameters to figure `f` ({param: value}); every one it refuses is left out (or removed) and noted. */
function applyFigure(f, params) {
  const names = new Set(describeFigure(f.getAttribute('figure')).params.map((p) => p.name));
  const applied = new Map();
  const refuse = (el, e) => {
    el.removeAttribute(e.attribute);
    notes.load.push({ key: `${f.id}.${e.attribute}`, value: applied.get(e.attribute), why: e.text });
    applied.delete(e.attribute);
  };
  // The figure's own rules — each parameter's, then the cross-checks (e.g. a head index below the number of heads) —
  // checked on a detached copy, so the figure itself (and the page listening to it) only ever sees values it accepts.
  const probe = document.createElement('posenc-figure');
  for (const a of f.getAttributeNames()) if (a !== 'id') probe.setAttribute(a, f.getAttribute(a));
  for (const [name, v] of Object.entries(params)) {
    if (names.has(name)) { probe.setAttribute(name, v); applied.set(name, v); }
    else notes.load.push({ key: `${f.id}.${name}`, value: v, why: T.noParam(f.getAttribute('figure')) });
  }
  for (;;) {
    try { void probe.params; break; } catch (e) { if (!applied.has(e.attribute)) break; refuse(probe, e); }
  }
  for (const [name, v] of applied) f.setAttribute(name, v);
  // Rules that need the computation (e.g. a token index within the text): the first paint reports them.
  if (applied.size) {
    f.ready.catch((e) => {
      if (!e?.text || !applied.has(e.attribute) || f.getAttribute(e.attribute) !== applied.get(e.attribute)) return;
      refuse(f, e); showNotice(); writeUrl();
    });
  }
}

/** Records defaults, applies the URL's valid values and language (and lists the others); then every input/change rewrites the URL. */
export function initState() {
  for (const el of controls()) defaults.set(el.id, valueOf(el));
  const q = new URLSearchParams(location.search);
  const byId = new Map(controls().map((el) => [el.id, el])), figs = new Map(figures().map((f) => [f.id, f])), perFigure = new Map();
  let urlLang = null, urlLevel = 'full';
  for (const [key, v] of q) {
    const dot = key.indexOf('.'), f = dot > 0 ? figs.get(key.slice(0, dot)) : null;
    if (key === 'lang') {
      if (v === 'en' || v === 'zh') urlLang = v; else notes.load.push({ key, value: v, why: T.lang });
    } else if (key === 'theme') {    // applied by theme-switch.js before the figures were defined; checked here
      if (!THEMES.includes(v)) notes.load.push({ key, value: v, why: T.theme });
    } else if (key === 'level') {
      if (LEVELS.includes(v)) urlLevel = v; else notes.load.push({ key, value: v, why: T.level });
    } else if (byId.has(key)) {
      const el = byId.get(key), why = refuses(el, v);
      if (why) { setValue(el, defaults.get(key)); notes.load.push({ key, value: v, why }); } else setValue(el, v);
    } else if (f) {
      if (!perFigure.has(f)) perFigure.set(f, {});
      perFigure.get(f)[key.slice(dot + 1)] = v;
    } else notes.load.push({ key, value: v, why: T.unknown });
  }
  for (const [f, params] of perFigure) applyFigure(f, params);
  setLevel(urlLevel, { write: false });
  setLang(urlLang ?? browserLang(), { write: false });
  // Written shortly after the last change, not on every input event: each history.replaceState is a same-document
  // navigation (several ms of main-thread work in Chromium), which would delay the figure being repainted.
  let timer = 0;
  const later = () => { clearTimeout(timer); timer = setTimeout(writeUrl, 200); };
  document.querySelector('main').addEventListener('input', later);
  document.querySelector('main').addEventListener('change', later);
  document.querySelector('main').addEventListener('figure-change', later);
  for (const b of document.querySelectorAll('[data-set-lang]')) b.addEventListener('click', () => setLang(b.dataset.setLang));
  for (const b of document.querySelectorAll('[data-set-theme]')) b.addEventListener('click', () => { setTheme(b.dataset.setTheme); writeUrl(); });
  for (const b of document.querySelectorAll('[data-set-level]')) b.addEventListener('click', () => setLevel(b.dataset.setLevel));
  if (notes.load.length) writeUrl();     // the address drops what was ignored
}
