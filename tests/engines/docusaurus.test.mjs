// Docusaurus: a site made by its own generator (create-docusaurus, classic template, pinned below; installed once into
// the engine cache, engines.mjs), the package from its tarball, and the README's recipe: `import 'posenc/figures'` and
// the element in an .mdx blog post. `docusaurus build` (webpack emits the wasm and the worker; reused from the cache
// while the tarball and the post are unchanged), then the post in Chromium; dark mode by Docusaurus's own marker (data-theme="dark" on <html>).
import { test } from 'node:test';
import { basename, dirname, join } from 'node:path';
import { cachedBuild, cachedSite, checkPost, sh, writeFiles } from './engines.mjs';

const DOCUSAURUS = '3.10.2';

test(`Docusaurus ${DOCUSAURUS}: import 'posenc/figures' in MDX`, async (t) => {
  sh.log = [];
  const { site, tarball, remove } = cachedSite(`docusaurus-${DOCUSAURUS}`, (dir) => {
    sh('npm', ['exec', '--yes', `--package=create-docusaurus@${DOCUSAURUS}`, '--', 'create-docusaurus', basename(dir), 'classic', '--javascript', '--skip-install'], dirname(dir));
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], dir);
  });
  try {
    const post = { 'blog/2024-01-02-rope-post.mdx': "---\ntitle: RoPE decay\nslug: rope-post\n---\nimport 'posenc/figures';\n\nThe score against distance:\n\n{/* truncate */}\n\n<posenc-figure figure=\"rope-decay\" base=\"500000\" controls></posenc-figure>\n" };
    writeFiles(site, post);
    // the build (about a minute) is reused while the tarball and the post are unchanged (engines.mjs: cachedBuild)
    const { out, reused } = cachedBuild(`docusaurus-${DOCUSAURUS}`, tarball, post, site, 'build', () => sh(join(site, 'node_modules/.bin/docusaurus'), ['build'], site));
    if (reused) sh.log.push('build reused (same tarball and post)');
    await checkPost({ name: 'docusaurus', out, path: '/blog/rope-post/index.html', html: join(out, 'blog/rope-post/index.html'),
      dark: () => document.documentElement.setAttribute('data-theme', 'dark') });
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
