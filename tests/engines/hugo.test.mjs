// Hugo (Debian's hugo, installed by scripts/setup.sh): a site made by `hugo new site` + `hugo new theme` (its empty
// single.html filled with the content block), the package from its tarball in node_modules, and the README's recipe:
// module mounts for the package's dist/ (served at /posenc/) and its shortcode, then
// {{< posenc figure="rope-decay" base="500000" >}} in a post. `hugo --minify`, then the post in Chromium.
import { test } from 'node:test';
import { appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPost, findPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';

export const MOUNTS = `
[module]
  [[module.mounts]]
    source = "node_modules/posenc/dist"
    target = "static/posenc"
    excludeFiles = ["*.map", "*.d.ts", "hexo/**", "hugo/**", "jekyll/**"]
  [[module.mounts]]
    source = "node_modules/posenc/dist/hugo/layouts"
    target = "layouts"
  [[module.mounts]]
    source = "static"
    target = "static"
  [[module.mounts]]
    source = "layouts"
    target = "layouts"
`;

test('Hugo: shortcode and module mounts', async (t) => {
  sh.log = [];
  const tmp = tempDir('hugo'), site = join(tmp.dir, 'site');
  try {
    sh('hugo', ['new', 'site', site], tmp.dir);
    sh('hugo', ['new', 'theme', 't'], site);
    writeFiles(site, { 'themes/t/layouts/_default/single.html': '{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}{{ end }}',
      'content/posts/rope-post.md': '---\ntitle: RoPE decay\n---\n\nThe score against distance:\n\n{{< posenc figure="rope-decay" base="500000" controls="" >}}\n' });
    appendFileSync(join(site, 'config.toml'), `theme = "t"\n${MOUNTS}`);   // the recipe
    installPackage(site);
    sh('hugo', ['--minify'], site);
    const out = join(site, 'public'), html = findPost(out, 'rope-post');
    await checkPost({ name: 'hugo', out, path: `/${relative(out, html)}`, html, dark: () => document.body.classList.add('dark') });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
