// Plain HTML, the README's first recipe: `npm i posenc`, copy node_modules/posenc/dist to the site as /posenc/, one
// script tag and the element. Served as static files and checked in Chromium (engines.mjs: checkPost).
import { test } from 'node:test';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { checkPost, installPackage, tempDir, writeFiles } from './engines.mjs';

test('plain HTML: dist copied to /posenc/, script + element', async () => {
  const t = tempDir('plain'), site = join(t.dir, 'site');
  try {
    installPackage(site);
    cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'public/posenc'), { recursive: true });   // the recipe
    writeFiles(join(site, 'public'), { 'posts/rope-post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RoPE</title>
<script type="module" src="/posenc/figures.js"></script></head><body><h1>RoPE's decay</h1>
<posenc-figure figure="rope-decay" base="500000" controls></posenc-figure></body></html>` });
    await checkPost({ name: 'plain', out: join(site, 'public'), path: '/posts/rope-post.html', html: join(site, 'public/posts/rope-post.html'),
      dark: () => document.documentElement.classList.add('dark') });
  } finally { t.remove(); }
});
