// Sphinx (Debian's python3-sphinx 5.3, python3-myst-parser 0.18 and furo, installed by scripts/setup.sh): a project
// made by `sphinx-quickstart`, the package from its tarball, and the README's recipe: dist/ copied to
// source/_static/posenc/, `html_js_files = [('posenc/figures.js', {'type': 'module'})]`, the element as raw HTML in a
// MyST Markdown page one folder deep (Sphinx writes the script's src relative to each page), on a site served under
// Read the Docs' sub-path /en/latest/. furo's dark mode (body[data-theme="dark"], what its toggle sets) must be
// followed. Checked in Chromium (engines.mjs: checkPost).
import { test } from 'node:test';
import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPost, findPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';

test('Sphinx + MyST + furo: html_js_files module, page one folder deep, /en/latest/', async (t) => {
  sh.log = [];
  const tmp = tempDir('sphinx'), site = join(tmp.dir, 'site');
  try {
    sh('sphinx-quickstart', ['-q', '-p', 'RoPE tutorial', '-a', 'posenc', '-v', '0.1', '--sep', site], tmp.dir);
    installPackage(site);
    cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'source/_static/posenc'), { recursive: true });   // the recipe
    appendFileSync(join(site, 'source/conf.py'), "\nextensions = ['myst_parser']\nhtml_theme = 'furo'\nhtml_js_files = [('posenc/figures.js', {'type': 'module'})]\n");
    writeFiles(site, { 'source/tutorial/rope-post.md': '# RoPE decay\n\nThe score against distance:\n\n<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure>\n' });
    const index = join(site, 'source/index.rst');
    writeFileSync(index, readFileSync(index, 'utf8').replace(':caption: Contents:\n', ':caption: Contents:\n\n   tutorial/rope-post\n'));
    sh('sphinx-build', ['-q', '-b', 'html', 'source', 'build/html'], site);
    const www = join(tmp.dir, 'www');
    cpSync(join(site, 'build/html'), join(www, 'en/latest'), { recursive: true });
    const html = findPost(join(www, 'en/latest'), 'rope-post');
    await checkPost({ name: 'sphinx-furo', out: www, path: `/${relative(www, html)}`, html, dark: () => { document.body.dataset.theme = 'dark'; },
      // Debian's furo 2022.12.07 is broken by itself: its furo.js is unbundled module source loaded as a classic script,
      // and its CSS links /javascript/normalize.css/ (the Debian package's path), which no site has
      ignore: [/\/javascript\/normalize\.css\/normalize\.css/, /^SyntaxError: Cannot use import statement outside a module$/] });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
