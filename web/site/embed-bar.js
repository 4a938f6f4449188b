// Under every figure of the page: a permalink (anchor + the figure's state) and an Embed panel, self-hosting first:
//   (a) the script + element snippet for the package's files on the author's own site (dist/ copied to /posenc/; the
//       README's recipe per blog engine), (b) the same from a CDN, pinned to this build's package.json version, with a
//       note for readers in mainland China, (c) an iframe of embed.html with the lines that fit its height to the figure,
//       (d) PNG / SVG / CSV downloads.
import { version } from '../../package.json';
import { figureState, tr, onLang, getLang } from './state.js';
import { describeFigure } from '../src/figures/index.js';
import { embedBarHTML } from './figure-bars.js';
// the single-file figure's script (Vite emits it as an asset; fetched only when "HTML" is clicked)
import standaloneUrl from '../../dist/figures-standalone.js?url';

const T = {
  script: { en: 'Script and element, self-hosted (recommended): copy the package’s dist/ folder to your site as /posenc/ (npm i posenc; the README has a recipe for Hexo, Hugo, Jekyll, VitePress, Docusaurus)', zh: '脚本与元素，自托管（推荐）：把包的 dist/ 文件夹复制到网站的 /posenc/（npm i posenc；README 里有 Hexo、Hugo、Jekyll、VitePress、Docusaurus 的做法）' },
  cdn: { en: `Or from a CDN (version ${version}; if it is not on npm yet, self-host). jsDelivr is often slow or blocked in mainland China: self-host there, or use the npmmirror copy: https://registry.npmmirror.com/posenc/${version}/files/dist/figures.js`,
    zh: `或者用 CDN（版本 ${version}；若该版本尚未发布到 npm，请自托管）。jsDelivr 在中国大陆常常很慢或无法访问：请自托管，或改用 npmmirror 镜像：https://registry.npmmirror.com/posenc/${version}/files/dist/figures.js` },
  iframe: { en: 'iframe (platforms that allow iframes; the script line fits its height to the figure, and without it the height suits a phone)', zh: 'iframe（允许 iframe 的平台；其中的脚本让高度贴合图，没有脚本时高度按手机宽度留足）' },
  files: { en: 'Files (platforms without scripts: Zhihu, WeChat, Medium…)', zh: '文件（不运行脚本的平台：知乎、微信、Medium 等）' },
  html: { en: 'Download HTML', zh: '下载 HTML' } };
const attr = (v) => String(v).replace(/&/g, '&amp;').replace(/"/g, '&quot;');
// The lines that apply embed.html's height messages (embed.js) to the iframe that sent them.
export const RESIZE = "<script>addEventListener('message', (e) => { if (e.data?.type !== 'posenc:height') return; for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.height = e.data.height; });</script>";
// The iframe's width on a phone: a 360–390 px screen less the blog's margins (measuring narrower errs on the safe side:
// a narrower figure is taller), and embed.html's padding (embed.css).
const PHONE = 340, PAD = 8;

/**
 * embed.html's own height in an iframe `width` px wide: the page itself, loaded hidden at that width, so that its media
 * queries (a phone's 44 px controls, its stacked panels) apply as they will in the reader's iframe; 0 if it fails.
 */
function heightAt(src, width) {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    Object.assign(frame.style, { position: 'fixed', left: '0', top: '0', width: `${width}px`, height: '800px', border: '0', visibility: 'hidden', pointerEvents: 'none' });
    frame.setAttribute('aria-hidden', 'true'); frame.tabIndex = -1;
    const done = (h) => { frame.remove(); resolve(h); };
    frame.addEventListener('load', async () => {
      try {
        const w = frame.contentWindow, d = frame.contentDocument;
        await w.customElements.whenDefined('posenc-figure');
        await d.querySelector('posenc-figure').ready;
        done(Math.ceil(d.body.getBoundingClientRect().height));
      } catch { done(0); }
    }, { once: true });
    frame.src = src;
    document.body.append(frame);
  });
}
/**
 * The height the iframe needs: the larger of embed.html's height on a phone and at this page's width, both measured
 * in hidden copies of it (so it is right before the figure itself has rendered). Some figures are tallest narrow (panels
 * stack, controls grow to 44 px), others wide (a square heatmap grows with the column).
 */
async function phoneHeight(f, src) {
  const [a, b] = await Promise.all([heightAt(src, PHONE), heightAt(src, Math.max(PHONE, Math.round(f.parentElement?.clientWidth || 0)))]);
  return Math.max(a, b);
}

/** The page's link to figure `f` in its current state (path, query, #id). */
function permalink(f, base = location.href, state = figureState(f)) {
  const link = new URLSearchParams(Object.fromEntries(Object.entries(state).map(([k, v]) => [`${f.id}.${k}`, v])));
  if (getLang() === 'zh') link.set('lang', 'zh');
  return `${new URL(base).pathname}${link.toString() ? `?${link}` : ''}#${f.id}`;
}

/** The snippets for figure element `f`: {script, cdn, iframe, link}; `phone` = its height in embed.html on a phone. */
export function snippets(f, base = location.href, phone = 0) {
  const name = f.getAttribute('figure'), state = figureState(f), lang = getLang();
  const attrs = Object.entries(state).map(([k, v]) => ` ${k}="${attr(v)}"`).join('') + (lang === 'zh' ? ' lang="zh"' : '');
  const q = new URLSearchParams({ figure: name, ...state, ...(lang === 'zh' ? { lang } : {}) });
  const page = new URL(base); page.search = ''; page.hash = '';
  const height = Math.max(Math.ceil(f.getBoundingClientRect().height) + 2 * PAD, phone) || 520;
  const element = `<posenc-figure figure="${name}"${attrs}></posenc-figure>`;
  return {
    script: `<script type="module" src="/posenc/figures.js"></script>\n${element}`,
    cdn: `<script type="module" src="https://cdn.jsdelivr.net/npm/posenc@${version}/dist/figures.js"></script>\n${element}`,
    iframe: `<iframe src="${new URL(`embed.html?${q}`, page)}" title="${attr(tr(describeFigure(name).title))}" width="100%" height="${height}" frameborder="0" loading="lazy"></iframe>\n${RESIZE}`,
    link: permalink(f, base, state),
  };
}

export function addEmbedBars() {
  for (const f of document.querySelectorAll('main posenc-figure[id]')) {
    // the bar is in the page's HTML (written at build: figure-bars.js), else written here; its panel is made here
    if (!f.nextElementSibling?.matches('.embed-bar')) f.insertAdjacentHTML('afterend', embedBarHTML(f.id));
    const bar = /** @type {HTMLElement} */ (f.nextElementSibling), a = /** @type {HTMLAnchorElement} */ (bar.querySelector('a.permalink'));
    const btn = /** @type {HTMLButtonElement} */ (bar.querySelector('button.embed')), panel = document.createElement('div');
    panel.className = 'embed-panel'; panel.hidden = true;
    const box = (key, cls) => { const l = document.createElement('label'), s = document.createElement('span'), t = document.createElement('textarea'); t.readOnly = true; t.rows = 3; t.className = cls; s.dataset.key = key; l.append(s, t); return l; };
    const files = document.createElement('p'); files.className = 'files';
    const fl = document.createElement('span'); fl.dataset.key = 'files'; files.append(fl);
    for (const kind of ['png', 'svg', 'csv']) { const b = document.createElement('button'); b.type = 'button'; b.textContent = kind.toUpperCase(); b.dataset.download = kind; b.addEventListener('click', () => f.download(kind)); files.append(' ', b); }
    const html = document.createElement('button'); html.type = 'button'; html.dataset.download = 'html'; html.dataset.key = 'html';
    html.title = 'one self-contained file (figure, state, wasm): opens offline, in an iframe, from a notebook export';
    html.addEventListener('click', async () => f.download('html', { script: await fetch(standaloneUrl).then((r) => r.text()), controls: true }));
    files.append(' ', html);
    panel.append(box('script', 'snippet-script'), box('cdn', 'snippet-cdn'), box('iframe', 'snippet-iframe'), files);
    bar.append(panel);
    let phone = 0, measured = '';
    // A closed panel needs only the permalink: the snippets (which measure the figure: a layout per figure when all
    // bars are added at load) are made when it opens.
    const refresh = () => {
      a.href = permalink(f);
      if (panel.hidden) return;
      const s = snippets(f, location.href, phone);
      for (const k of ['script', 'cdn', 'iframe']) { const t = panel.querySelector(`.snippet-${k}`); t.value = s[k]; t.rows = k === 'iframe' ? 5 : 3; }
      for (const el of panel.querySelectorAll('[data-key]')) el.textContent = tr(T[el.dataset.key]);
      // the phone height, measured once per state while the panel is open (the iframe snippet is exact once it is in)
      const key = s.iframe.split('"')[1];
      if (!panel.hidden && key !== measured) {
        measured = key; panel.dataset.measuring = 'true';
        phoneHeight(f, key).then((h) => { if (measured === key) { phone = h; delete panel.dataset.measuring; refresh(); } });
      }
    };
    // opened before the figure has rendered: its own height joins the snippet once it has
    btn.addEventListener('click', () => { panel.hidden = !panel.hidden; btn.setAttribute('aria-expanded', String(!panel.hidden)); refresh(); f.ready.then(() => setTimeout(refresh, 0), () => {}); });
    f.addEventListener('figure-change', () => setTimeout(refresh, 0));
    onLang(refresh);
    refresh();
  }
}
