// Jekyll (Debian's jekyll with the minima theme, installed by scripts/setup.sh): a site made by `jekyll new`, the
// package from its tarball, and the README's recipe: dist/jekyll/_includes/posenc.html copied into _includes/ and dist/
// copied to posenc/, then {% include posenc.html figure="rope-decay" base="500000" %} in a post. `jekyll build`, then
// the post in Chromium. (Debian's gems are the system's: JEKYLL_NO_BUNDLER_REQUIRE skips the Gemfile's bundler step.)
import { test } from 'node:test';
import { cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPost, findPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';

test('Jekyll: include', async (t) => {
  sh.log = [];
  const tmp = tempDir('jekyll'), site = join(tmp.dir, 'site'), env = { JEKYLL_NO_BUNDLER_REQUIRE: 'true' };
  try {
    sh('jekyll', ['new', site, '--skip-bundle'], tmp.dir, { env });
    installPackage(site);
    cpSync(join(site, 'node_modules/posenc/dist/jekyll/_includes'), join(site, '_includes'), { recursive: true });   // the recipe
    cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'posenc'), { recursive: true });
    writeFiles(site, { '_posts/2024-01-02-rope-post.md': '---\nlayout: post\ntitle: RoPE decay\n---\n\nThe score against distance:\n\n{% include posenc.html figure="rope-decay" base="500000" controls="" %}\n' });
    sh('jekyll', ['build'], site, { env });
    const out = join(site, '_site'), html = findPost(out, 'rope-post');
    await checkPost({ name: 'jekyll', out, path: `/${relative(out, html)}`, html, dark: () => document.documentElement.setAttribute('data-theme', 'dark') });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
