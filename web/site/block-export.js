// The export menu (PNG, SVG, CSV) for the page's stand-alone building blocks — a <pe-heatmap> or <pe-lines> the page
// draws itself (§2's learned-table similarity) — as every <posenc-figure> has one.
import { blockPNG, blockSVG, blockCSV } from '../src/figures/blocks/export.js';
import { tr, onLang } from './state.js';

async function save(el, kind) {
  const blob = kind === 'png' ? await blockPNG(el) : new Blob([kind === 'svg' ? blockSVG(el) : blockCSV(el)], { type: kind === 'svg' ? 'image/svg+xml' : 'text/csv' });
  const a = Object.assign(document.createElement('a'), { href: URL.createObjectURL(blob), download: `posenc-${el.id}.${kind}` });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

for (const el of document.querySelectorAll('pe-heatmap[id], pe-lines[id]')) {
  const bar = document.createElement('div'), open = document.createElement('button'), menu = document.createElement('span');
  bar.className = 'presets block-export'; bar.dataset.exportFor = el.id;
  open.type = 'button'; open.setAttribute('aria-expanded', 'false');
  menu.hidden = true;
  for (const kind of ['png', 'svg', 'csv']) {
    const b = document.createElement('button'); b.type = 'button'; b.dataset.x = kind; b.textContent = kind.toUpperCase();
    b.addEventListener('click', () => save(el, kind)); menu.append(b, ' ');
  }
  open.addEventListener('click', () => { menu.hidden = !menu.hidden; open.setAttribute('aria-expanded', String(!menu.hidden)); });
  bar.append(open, ' ', menu);
  el.after(bar);
  // the menu goes with the block: hidden while the block is (a bad file shows only its error)
  new MutationObserver(() => { bar.hidden = el.hidden; }).observe(el, { attributes: true, attributeFilter: ['hidden'] });
  bar.hidden = el.hidden;
  const text = () => { open.textContent = `${tr({ en: 'Export', zh: '导出' })} ▾`; };
  text(); onLang(text);
}
