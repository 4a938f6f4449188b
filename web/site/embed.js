// embed.html?figure=NAME&param=value…&lang=zh&theme=dark|light|auto&controls&id=ID: one figure and no chrome, for
// iframes. Every query key other than figure and id is passed to <posenc-figure> as an attribute (its parameters have
// the same names and values as the site's URL state); a bad one is reported inside the figure.
// The page tells its parent its height whenever it changes (the figure paints, the iframe's width changes):
//   parent.postMessage({ type: 'posenc:height', figure, id, height }, '*')   (height in CSS pixels, id = the id parameter)
// The Embed panel's iframe snippet carries the few lines that apply it (embed-bar.js: RESIZE).
import '../src/figures/index.js';
import './embed.css';

const q = new URLSearchParams(location.search), f = document.createElement('posenc-figure');
f.setAttribute('figure', q.get('figure') ?? '');
for (const [k, v] of q) if (k !== 'figure' && k !== 'id' && /^[a-z][a-z0-9_-]*$/.test(k)) f.setAttribute(k, v);
if (q.get('lang')) document.documentElement.lang = q.get('lang');
if (['dark', 'auto'].includes(q.get('theme'))) document.body.classList.add(q.get('theme'));   // the page's background: embed.css
document.querySelector('main').append(f);
f.ready.then(() => { document.body.dataset.ready = 'true'; }, () => { document.body.dataset.ready = 'error'; });

if (parent !== window) {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last) parent.postMessage({ type: 'posenc:height', figure: q.get('figure'), id: q.get('id'), height: (last = height) }, '*');
  }).observe(document.body);
}
