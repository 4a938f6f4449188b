// @ts-check
// The single-file figure's conversation with a parent window (html.js documents it):
//   out: { type: 'posenc:height', height, figure } whenever the document's height changes (and once on load);
//   in:  { type: 'posenc:theme', theme: 'dark' | 'light' | 'auto' } sets <html data-theme>, which the figure follows.
// Without a parent (a file opened by itself) nothing is sent and the theme follows prefers-color-scheme.

export function startProtocol() {
  const root = document.documentElement, fig = document.querySelector('posenc-figure');
  if (window.parent !== window) {
    let last = -1;
    const send = () => {
      const height = Math.ceil(root.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: 'posenc:height', height, figure: fig?.getAttribute('figure') ?? null }, '*');
    };
    new ResizeObserver(send).observe(root);
    send();
  }
  addEventListener('message', (e) => {
    const d = e.data;
    if (!d || d.type !== 'posenc:theme') return;
    if (d.theme === 'dark' || d.theme === 'light') root.dataset.theme = d.theme;
    else if (d.theme === 'auto') delete root.dataset.theme;
    else console.error(`posenc:theme: theme must be 'dark', 'light' or 'auto' (got ${JSON.stringify(d.theme)})`);
  });
}
