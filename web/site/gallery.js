// The gallery: every name in figureNames with a live preview, its parameter table (from describeFigure) and the
// embed snippets — generated, so it lists exactly what the package ships.
import './style.css';
import { figureNames, describeFigure } from '../src/figures/index.js';
import { initState, tr, getLang, onLang } from './state.js';
import { addEmbedBars } from './embed-bar.js';

const main = document.getElementById('gallery');
const H = { name: { en: 'attribute', zh: '属性' }, type: { en: 'type', zh: '类型' }, def: { en: 'default', zh: '默认值' }, rule: { en: 'allowed', zh: '允许的值' } };
for (const name of figureNames) {
  const d = describeFigure(name), sec = document.createElement('section');
  sec.className = 'gallery-item';
  const h = document.createElement('h2'), p = document.createElement('p'), f = document.createElement('posenc-figure');
  h.dataset.i18n = JSON.stringify(d.title); p.dataset.i18n = JSON.stringify(d.description); p.className = 'muted';
  const code = document.createElement('code'); code.textContent = name; h.append(code);
  f.id = name; f.setAttribute('figure', name);
  const table = document.createElement('table'); table.className = 'params';
  sec.append(h, p, f, table);
  main.append(sec);
}
const paint = () => {
  for (const el of document.querySelectorAll('[data-i18n]')) { const t = JSON.parse(el.dataset.i18n); el.firstChild?.nodeType === 3 ? (el.firstChild.textContent = `${tr(t)} `) : el.prepend(`${tr(t)} `); }
  for (const t of document.querySelectorAll('table.params')) {
    const d = describeFigure(t.parentElement.querySelector('posenc-figure').getAttribute('figure'));
    t.replaceChildren();
    const head = t.insertRow(); for (const k of ['name', 'type', 'def', 'rule']) { const th = document.createElement('th'); th.textContent = tr(H[k]); head.append(th); }
    const short = (v) => (v.length > 40 ? `${v.slice(0, 39)}…` : v);   // a config.json default is long
    // name, type and default are code (attribute names and values); the rule is prose in the page's language
    const code = (v) => Object.assign(document.createElement('code'), { textContent: v });
    for (const prm of d.params) {
      const r = t.insertRow();
      for (const v of [prm.name, prm.type, short(Array.isArray(prm.default) ? prm.default.join(',') : String(prm.default))]) r.insertCell().append(code(v));
      r.insertCell().textContent = tr(prm.rule);
    }
  }
};
initState();
addEmbedBars();
paint(); onLang(paint);
document.body.dataset.ready = 'true';
document.body.dataset.lang = getLang();
