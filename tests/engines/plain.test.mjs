// Plain HTML, the README's first recipe: `npm i posenc`, copy node_modules/posenc/dist to the site as /posenc/, the
// README's snippet (read from the README: script tag and element) in a page. Served as static files and checked in
// Chromium (engines.mjs: checkPost). The text inside the element: not rendered once the figure is there, and what the
// reader sees where the script does not load (a site on a sub-path that kept `/posenc/`: HTTP 404).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';
import { checkPost, installPackage, pythonServer, repo, tempDir, writeFiles } from './engines.mjs';

// the README's snippet under "## Embed a figure"
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const SNIPPET = /## Embed a figure[\s\S]*?```html\n([\s\S]*?)```/.exec(readme)[1].trim();
const page = (body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RoPE</title></head><body><h1>RoPE's decay</h1>\n${body}\n</body></html>`;
// whether the element's own text (the fallback) is laid out on the page
const fallbackShown = (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getClientRects().length > 0 && el.textContent.trim().length > 0; };

test('plain HTML: dist copied to /posenc/, the README\'s script + element', async () => {
  assert.match(SNIPPET, /^<script type="module" src="\/posenc\/figures\.js"><\/script>\n<posenc-figure figure="rope-decay" base="500000" controls>[^<]+<\/posenc-figure>$/);
  const t = tempDir('plain'), site = join(t.dir, 'site');
  try {
    installPackage(site);
    cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'public/posenc'), { recursive: true });   // the recipe
    writeFiles(join(site, 'public'), { 'posts/rope-post.html': page(SNIPPET) });
    await checkPost({ name: 'plain', out: join(site, 'public'), path: '/posts/rope-post.html', html: join(site, 'public/posts/rope-post.html'),
      dark: () => document.documentElement.classList.add('dark'),
      extra: async (_p, fig) => assert.equal(await fig.evaluate(fallbackShown), false, 'the fallback text is not shown beside the figure') });
  } finally { t.remove(); }
});

test('plain HTML on a sub-path with the root-absolute /posenc/ (HTTP 404): the reader sees the element\'s text', async () => {
  const t = tempDir('plain-missing'), root = join(t.dir, 'www');
  writeFiles(root, { 'blog/posts/rope-post.html': page(SNIPPET) });   // dist/ is at /blog/posenc/ (not copied: 404 either way)
  const S = await pythonServer(root);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const p = await browser.newPage();
    const failed = [];
    p.on('response', (r) => { if (r.status() >= 400) failed.push(new URL(r.url()).pathname); });
    await p.goto(`${S.origin}/blog/posts/rope-post.html`, { waitUntil: 'networkidle' });
    assert.deepEqual(failed.filter((u) => u !== '/favicon.ico'), ['/posenc/figures.js']);
    const fig = p.locator('posenc-figure');
    assert.equal(await fig.evaluate(fallbackShown), true);
    assert.match(await fig.innerText(), /interactive figure \(it needs JavaScript\)/);
  } finally { await browser.close(); S.server.close(); t.remove(); }
});
