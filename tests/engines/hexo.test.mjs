// Hexo: a site made by Hexo's own generator (`hexo init`, hexo-cli pinned below; landscape theme), cached outside the
// checkout (engines.mjs), the package from its tarball, and the README's recipe: dist/hexo/posenc.cjs copied into
// scripts/ (a tag plugin and a generator that serves the package's files at /posenc/). `hexo generate`, then the post
// in Chromium; dark mode by Hexo Fluid's marker (data-user-color-scheme="dark" on <html>).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { cachedSite, checkPost, findPost, sh, writeFiles } from './engines.mjs';

const HEXO_CLI = '4.3.2';

test(`Hexo (hexo-cli ${HEXO_CLI}): {% posenc rope-decay base=500000 %}`, async (t) => {
  sh.log = [];
  const { site, remove } = cachedSite(`hexo-cli-${HEXO_CLI}`, (dir) => sh('npm', ['exec', '--yes', `--package=hexo-cli@${HEXO_CLI}`, '--', 'hexo', 'init', dir], dirname(dir)));
  try {
    cpSync(join(site, 'node_modules/posenc/dist/hexo/posenc.cjs'), join(site, 'scripts/posenc.cjs'));   // the recipe
    writeFiles(site, { 'source/_posts/rope-post.md': '---\ntitle: RoPE decay\ndate: 2024-01-02 10:00:00\n---\n\nThe score against distance:\n\n{% posenc rope-decay base=500000 controls %}\n\nAnd a value with spaces:\n\n{% posenc attention "text=猫 抓 老鼠" seq=3 %}\n' });
    sh(join(site, 'node_modules/.bin/hexo'), ['generate'], site);
    const out = join(site, 'public'), html = findPost(out, 'rope-post');
    assert.match(readFileSync(html, 'utf8'), /<posenc-figure figure="attention" text="猫 抓 老鼠" seq="3"><\/posenc-figure>/);   // a quoted value
    await checkPost({ name: 'hexo', out, path: `/${relative(out, html)}`, html, dark: () => document.documentElement.setAttribute('data-user-color-scheme', 'dark') });
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
