// @ts-check
// dist/figures-loader.js: a classic script that loads posenc/figures (figures.js, a module) from the folder it is in.
// For engines that add JavaScript only as classic scripts (MkDocs < 1.5 `extra_javascript`, Sphinx without the
// `type` attribute, CMSs): `figures.js` itself there fails with "Cannot use 'import.meta' outside a module".
// Relative to this script's own URL, so it works under any sub-path; once per page (instant navigation re-runs it).
(function () {
  const me = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  if (!me?.src) { console.error('posenc: figures-loader.js must be loaded by <script src="…/figures-loader.js">'); return; }
  if (document.querySelector('script[data-posenc-figures]')) return;
  const s = document.createElement('script');
  s.type = 'module';
  s.src = new URL('figures.js', me.src).href;
  s.dataset.posencFigures = '';
  document.head.append(s);
})();
