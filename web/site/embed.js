// embed.html?figure=NAME&param=value…&lang=zh&theme=dark&controls: one figure and no chrome, for iframes.
// Every query key other than figure is passed to <posenc-figure> as an attribute (its parameters have the same names
// and values as the site's URL state); a bad one is reported inside the figure.
import '../src/figures/index.js';
import './embed.css';

const q = new URLSearchParams(location.search), f = document.createElement('posenc-figure');
f.setAttribute('figure', q.get('figure') ?? '');
for (const [k, v] of q) if (k !== 'figure' && /^[a-z][a-z0-9_-]*$/.test(k)) f.setAttribute(k, v);
if (q.get('lang')) document.documentElement.lang = q.get('lang');
if (q.get('theme') === 'dark') document.body.classList.add('dark');
document.querySelector('main').append(f);
f.ready.then(() => { document.body.dataset.ready = 'true'; }, () => { document.body.dataset.ready = 'error'; });
