// posenc for Hexo. Copy this file into your site's scripts/ folder (Hexo runs every file there; .cjs: CommonJS, as
// Hexo loads it), after `npm i posenc`:
//   cp node_modules/posenc/dist/hexo/posenc.cjs scripts/
// It adds
//   - a tag: {% posenc rope-decay base=500000 %} — the figure's name, then its attributes as key=value; a value with
//     spaces is quoted as a whole: {% posenc attention "text=猫 抓 老鼠" controls %};
//   - a generator that serves the package's files at <root>posenc/ (Hexo serves and deploys nothing from node_modules).
'use strict';
const fs = require('fs');
const path = require('path');

const dist = path.join(path.dirname(require.resolve('posenc/package.json', { paths: [hexo.base_dir] })), 'dist');
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
/** The files a page needs (scripts and wasm), relative to dist/. */
function files(dir, rel = '') {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return ['hexo', 'hugo', 'jekyll'].includes(r) ? [] : files(dir, r);
    return /\.(js|mjs|wasm)$/.test(e.name) ? [r] : [];
  });
}

hexo.extend.generator.register('posenc', () => files(dist).map((f) => ({ path: `posenc/${f}`, data: () => fs.createReadStream(path.join(dist, f)) })));

hexo.extend.tag.register('posenc', (args) => {
  const [figure, ...rest] = args;
  const attrs = rest.map((a) => { const i = a.indexOf('='); return i < 0 ? ` ${esc(a)}` : ` ${esc(a.slice(0, i))}="${esc(a.slice(i + 1))}"`; }).join('');
  // the script on every page that has a figure (a module script runs once however often it is included)
  return `<script type="module" src="${hexo.config.root || '/'}posenc/figures.js"></script><posenc-figure figure="${esc(figure)}"${attrs}></posenc-figure>`;
});
