// Under every figure of the page: a permalink (anchor + the figure's state) and an Embed panel with (a) the script +
// element snippet for the current state, (b) an iframe snippet for embed.html, (c) PNG / SVG / CSV downloads.
import { version } from '../../package.json';
import { figureState, tr, onLang, getLang } from './state.js';
import { describeFigure } from '../src/figures/index.js';

const T = { link: { en: 'Permalink', zh: '链接' }, embed: { en: 'Embed', zh: '嵌入' }, script: { en: 'Script and element (any HTML page; no bundler needed)', zh: '脚本与元素（任何 HTML 页面，无需打包工具）' },
  iframe: { en: 'iframe (platforms that allow iframes)', zh: 'iframe（允许 iframe 的平台）' }, files: { en: 'Files (platforms without scripts: Zhihu, WeChat, Medium…)', zh: '文件（不运行脚本的平台：知乎、微信、Medium 等）' } };
const attr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The snippets for figure element `f`: {script, iframe, link}. */
export function snippets(f, base = location.href) {
  const name = f.getAttribute('figure'), state = figureState(f), lang = getLang();
  const attrs = Object.entries(state).map(([k, v]) => ` ${k}="${attr(v)}"`).join('') + (lang === 'zh' ? ' lang="zh"' : '');
  const q = new URLSearchParams({ figure: name, ...state, ...(lang === 'zh' ? { lang } : {}) });
  const link = new URLSearchParams(Object.fromEntries(Object.entries(state).map(([k, v]) => [`${f.id}.${k}`, v])));
  if (lang === 'zh') link.set('lang', 'zh');
  const page = new URL(base); page.search = ''; page.hash = '';
  const height = Math.ceil(f.getBoundingClientRect().height + 24) || 520;
  return {
    script: `<script type="module" src="https://cdn.jsdelivr.net/npm/posenc@${version}/dist/figures.js"></script>\n<posenc-figure figure="${name}"${attrs}></posenc-figure>`,
    iframe: `<iframe src="${new URL(`embed.html?${q}`, page)}" title="${attr(tr(describeFigure(name).title))}" width="100%" height="${height}" loading="lazy"></iframe>`,
    link: `${page.pathname}${link.toString() ? `?${link}` : ''}#${f.id}`,
  };
}

export function addEmbedBars() {
  for (const f of document.querySelectorAll('main posenc-figure[id]')) {
    const bar = document.createElement('div'), a = document.createElement('a'), btn = document.createElement('button'), panel = document.createElement('div');
    bar.className = 'embed-bar'; a.className = 'permalink'; btn.type = 'button'; btn.className = 'embed'; panel.className = 'embed-panel'; panel.hidden = true;
    btn.setAttribute('aria-expanded', 'false');
    const box = (key, cls) => { const l = document.createElement('label'), s = document.createElement('span'), t = document.createElement('textarea'); t.readOnly = true; t.rows = 3; t.className = cls; s.dataset.key = key; l.append(s, t); return l; };
    const files = document.createElement('p'); files.className = 'files';
    const fl = document.createElement('span'); fl.dataset.key = 'files'; files.append(fl);
    for (const kind of ['png', 'svg', 'csv']) { const b = document.createElement('button'); b.type = 'button'; b.textContent = kind.toUpperCase(); b.dataset.download = kind; b.addEventListener('click', () => f.download(kind)); files.append(' ', b); }
    panel.append(box('script', 'snippet-script'), box('iframe', 'snippet-iframe'), files);
    bar.append(a, ' · ', btn, panel);
    f.after(bar);
    const refresh = () => {
      const s = snippets(f);
      a.href = s.link; a.textContent = `# ${tr(T.link)}`; btn.textContent = tr(T.embed);
      panel.querySelector('.snippet-script').value = s.script; panel.querySelector('.snippet-iframe').value = s.iframe;
      for (const el of panel.querySelectorAll('[data-key]')) el.textContent = tr(T[el.dataset.key]);
    };
    btn.addEventListener('click', () => { panel.hidden = !panel.hidden; btn.setAttribute('aria-expanded', String(!panel.hidden)); refresh(); });
    f.addEventListener('figure-change', () => setTimeout(refresh, 0));
    onLang(refresh);
    refresh();
  }
}
