// Eleventy (npm @11ty/eleventy, pinned below; installed once into the engine cache, engines.mjs): a site of one
// Markdown post, the package from its tarball, and the README's recipe: `addPassthroughCopy({ 'node_modules/posenc/dist':
// 'posenc' })`, the HtmlBasePlugin, and the two lines in the post; built with `--pathprefix=/blog/` (a sub-path: the
// plugin rewrites /posenc/figures.js to /blog/posenc/figures.js). The page switches dark by prefers-color-scheme,
// as eleventy-base-blog does; the figure must follow. Checked in Chromium (engines.mjs: checkPost).
import { test } from 'node:test';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { cachedSite, checkPost, sh, writeFiles } from './engines.mjs';

const ELEVENTY = '3.1.8';

test(`Eleventy ${ELEVENTY}: passthrough copy, HtmlBasePlugin, --pathprefix`, async (t) => {
  sh.log = [];
  const { site, remove } = cachedSite(`eleventy-${ELEVENTY}`, (dir) => {
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'blog', private: true, type: 'module' }) });
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `@11ty/eleventy@${ELEVENTY}`], dir);
  });
  try {
    writeFiles(site, {
      'eleventy.config.js': "import { HtmlBasePlugin } from '@11ty/eleventy';\nexport default function (config) {\n  config.addPassthroughCopy({ 'node_modules/posenc/dist': 'posenc' });\n  config.addPlugin(HtmlBasePlugin);\n}\n",
      '_includes/base.njk': '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title>\n<style>@media (prefers-color-scheme: dark) { body { background: rgb(21, 32, 43); color: #eee; } }</style></head><body>{{ content | safe }}</body></html>\n',
      'posts/rope-post.md': '---\nlayout: base.njk\ntitle: RoPE decay\n---\n\nThe score against distance:\n\n<script type="module" src="/posenc/figures.js"></script>\n<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure>\n',
    });
    sh(join(site, 'node_modules/.bin/eleventy'), ['--quiet', '--pathprefix=/blog/'], site);
    const www = join(site, 'www');
    cpSync(join(site, '_site'), join(www, 'blog'), { recursive: true });
    const html = join(www, 'blog/posts/rope-post/index.html');
    await checkPost({ name: 'eleventy', out: www, path: '/blog/posts/rope-post/index.html', html,
      holds: /<script type="module" src="\/blog\/posenc\/figures\.js"><\/script>\s*(<p>)?<posenc-figure figure="rope-decay"/,
      extra: async (p, fig) => {
        // the reader's system switches to dark: the page's own CSS turns dark, and the figure with it
        await p.emulateMedia({ colorScheme: 'dark' });
        const bg = () => fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim());
        for (const t0 = Date.now(); await bg() !== '#17171a'; await p.waitForTimeout(50)) if (Date.now() - t0 > 5000) throw new Error('eleventy: the figure did not follow prefers-color-scheme: dark');
      } });
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
