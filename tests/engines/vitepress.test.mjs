// VitePress: a site made by its own generator (the scaffold that `vitepress init` runs, with its default answers and
// "default theme + customization"; VitePress pinned below, installed once into the engine cache, engines.mjs), the
// package from its tarball, and the README's recipe: `import 'posenc/figures'` in .vitepress/theme/index.ts and Vue's
// isCustomElement in .vitepress/config.mts (without it the static HTML holds `<!---->` where the figure belongs).
// `vitepress build` (reused from the cache while the tarball, recipe and post are unchanged), then the post in
// Chromium; dark mode by VitePress's own marker (class "dark" on <html>).
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBuild, cachedSite, checkPost, sh, writeFiles } from './engines.mjs';

const VITEPRESS = '1.6.4';
const SCAFFOLD = "import { scaffold, ScaffoldThemeType } from 'vitepress'; scaffold({ root: '.', title: 'My Awesome Project', description: 'A VitePress Site', theme: ScaffoldThemeType.DefaultCustom, useTs: true, injectNpmScripts: true });";

test(`VitePress ${VITEPRESS}: isCustomElement and import 'posenc/figures'`, async (t) => {
  sh.log = [];
  const { site, tarball, remove } = cachedSite(`vitepress-${VITEPRESS}`, (dir) => {
    writeFiles(dir, { 'package.json': '{ "name": "site", "private": true }\n' });
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--save-dev', `vitepress@${VITEPRESS}`], dir);
    sh('node', ['--input-type=module', '-e', SCAFFOLD], dir);
  });
  try {
    // the recipe
    const theme = join(site, '.vitepress/theme/index.ts'), config = join(site, '.vitepress/config.mts');
    const files = { '.vitepress/theme/index.ts': `import 'posenc/figures'\n${readFileSync(theme, 'utf8')}`,
      '.vitepress/config.mts': readFileSync(config, 'utf8').replace('export default defineConfig({',
        "export default defineConfig({\n  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag === 'posenc-figure' || tag.startsWith('pe-') } } },"),
      'rope-post.md': '# RoPE decay\n\nThe score against distance:\n\n<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure>\n' };
    writeFiles(site, files);
    // the build is reused while the tarball, the recipe and the post are unchanged (engines.mjs: cachedBuild)
    const { out, reused } = cachedBuild(`vitepress-${VITEPRESS}`, tarball, files, site, '.vitepress/dist', () => sh(join(site, 'node_modules/.bin/vitepress'), ['build'], site));
    if (reused) sh.log.push('build reused (same tarball, recipe and post)');
    await checkPost({ name: 'vitepress', out, path: '/rope-post.html', html: join(out, 'rope-post.html'), dark: () => document.documentElement.classList.add('dark') });
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
