// MkDocs (Debian's mkdocs 1.4 and mkdocs-material 8.2, installed by scripts/setup.sh): a site made by `mkdocs new`,
// the package from its tarball, dist/ copied to docs/posenc/, and the README's recipe: `extra_javascript` with the
// classic-script loader posenc/figures-loader.js (MkDocs 1.4 adds only classic scripts: figures.js itself there fails
// with "Cannot use 'import.meta' outside a module"), the element as raw HTML in a page one level deep, on a site
// served under the sub-path /tutorial/. Material's palette toggle (default ↔ slate) is clicked: the figure must turn
// dark without a reload. Checked in Chromium (engines.mjs: checkPost).
import { test } from 'node:test';
import { cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPost, findPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';

const CONFIG = `site_name: RoPE tutorial
site_url: https://example.org/tutorial/
theme:
  name: material
  palette:
    - scheme: default
      toggle: { icon: material/brightness-7, name: Dark mode }
    - scheme: slate
      toggle: { icon: material/brightness-4, name: Light mode }
extra_javascript:
  - posenc/figures-loader.js
`;

test('MkDocs + Material: extra_javascript loader, sub-path, palette toggle to slate', async (t) => {
  sh.log = [];
  const tmp = tempDir('mkdocs'), site = join(tmp.dir, 'site');
  try {
    sh('mkdocs', ['new', site], tmp.dir);
    installPackage(site);
    cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'docs/posenc'), { recursive: true });   // the recipe
    writeFiles(site, {
      'mkdocs.yml': CONFIG,
      'docs/posts/rope-post.md': '# RoPE decay\n\nThe score against distance:\n\n<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure>\n',
    });
    sh('mkdocs', ['build', '--quiet'], site);
    const www = join(tmp.dir, 'www');
    cpSync(join(site, 'site'), join(www, 'tutorial'), { recursive: true });   // served under the sub-path
    const html = findPost(join(www, 'tutorial'), 'rope-post');
    await checkPost({ name: 'mkdocs-material', out: www, path: `/${relative(www, html)}`, html,
      dark: () => document.querySelector('label[for="__palette_2"]').click() });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
