// Astro (npm astro 5 + @astrojs/mdx, pinned below; installed once into the engine cache, engines.mjs): a project of
// two posts, the package from its tarball, and the README's recipe: a component src/components/Posenc.astro whose
// <script> imports posenc/figures (Astro bundles it with Vite and emits the wasm and the worker) — used by an .mdx post,
// and by an .md post through its layout. A bare `import 'posenc/figures'` at the top of an .mdx runs at build time
// only (no figure, no error): the recipe avoids it. Built with `base: '/docs'` (a sub-path); `astro build` is reused
// from the cache while the tarball and the sources are unchanged. Both posts checked in Chromium (checkPost).
import { test } from 'node:test';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBuild, cachedSite, checkPost, sh, writeFiles } from './engines.mjs';

const ASTRO = '5.18.2', MDX = '4.3.9';
const FILES = {
  'astro.config.mjs': "import { defineConfig } from 'astro/config';\nimport mdx from '@astrojs/mdx';\nexport default defineConfig({ base: '/docs', integrations: [mdx()] });\n",
  'src/components/Posenc.astro': "---\nconst props = Astro.props;\n---\n<posenc-figure {...props}></posenc-figure>\n<script>import 'posenc/figures';</script>\n",
  'src/layouts/Post.astro': "---\nimport Posenc from '../components/Posenc.astro';\nconst { frontmatter } = Astro.props;\n---\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{frontmatter.title}</title></head>\n<body><h1>{frontmatter.title}</h1><slot />\n<script>import 'posenc/figures';</script></body></html>\n",
  'src/pages/posts/rope-mdx.mdx': "---\ntitle: RoPE decay (MDX)\n---\nimport Posenc from '../../components/Posenc.astro';\n\nThe score against distance:\n\n<Posenc figure=\"rope-decay\" base=\"500000\" controls />\n",
  'src/pages/posts/rope-md.md': "---\nlayout: ../../layouts/Post.astro\ntitle: RoPE decay (Markdown)\n---\n\nThe score against distance:\n\n<posenc-figure figure=\"rope-decay\" base=\"500000\" controls></posenc-figure>\n",
};

test(`Astro ${ASTRO}: a component's <script> in .mdx and a layout's in .md, base /docs`, async (t) => {
  sh.log = [];
  const { site, tarball, remove } = cachedSite(`astro-${ASTRO}`, (dir) => {
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'blog', private: true, type: 'module' }) });
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `astro@${ASTRO}`, `@astrojs/mdx@${MDX}`], dir);
  });
  try {
    writeFiles(site, FILES);
    const { out, reused } = cachedBuild(`astro-${ASTRO}`, tarball, FILES, site, 'dist', () => sh(join(site, 'node_modules/.bin/astro'), ['build', '--silent'], site, { env: { ASTRO_TELEMETRY_DISABLED: '1' } }));
    if (reused) sh.log.push('build reused (same tarball and sources)');
    const www = join(site, 'www');
    cpSync(out, join(www, 'docs'), { recursive: true });
    for (const post of ['rope-mdx', 'rope-md']) {
      const html = join(www, `docs/posts/${post}/index.html`);
      await checkPost({ name: `astro-${post}`, out: www, path: `/docs/posts/${post}/index.html`, html,
        holds: /<posenc-figure figure="rope-decay" base="500000" controls/, dark: () => document.documentElement.classList.add('dark') });
    }
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
