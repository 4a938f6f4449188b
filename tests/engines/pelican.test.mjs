// Pelican (Debian's pelican, installed by scripts/setup.sh): the README's recipe in a site laid out as
// pelican-quickstart lays it out (content/, pelicanconf.py, Debian's default theme), the package from its tarball:
// node_modules/posenc/dist copied to content/posenc, STATIC_PATHS and ARTICLE_EXCLUDES, and in a Markdown post the
// script through {static} plus the element. Built by the real `pelican` at the root (SITEURL '') and under a sub-path
// (SITEURL '/blog'), served by Python's http.server, checked in Chromium (engines.mjs: checkPost). The build logs no
// ERROR (without ARTICLE_EXCLUDES Pelican reads the package's .html files as articles: 5 ERRORs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkPost, installPackage, repo, sh, tempDir, writeFiles } from './engines.mjs';

// the README's Pelican recipe (the post's two lines and the settings), verbatim
export const PELICAN_POST = `<script type="module" src="{static}/posenc/figures.js"></script>
<posenc-figure figure="rope-decay" base="500000" controls>RoPE’s long-range decay: an interactive figure (it needs JavaScript).</posenc-figure>`;
export const PELICAN_SETTINGS = "STATIC_PATHS = ['images', 'posenc']\nARTICLE_EXCLUDES = ['posenc']\n";

test('the README\'s Pelican recipe is the one built here', () => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8'), recipe = /- \*\*Pelican\*\*[\s\S]*?\n- \*\*/.exec(readme)?.[0] ?? '';
  for (const line of [...PELICAN_SETTINGS.trim().split('\n'), PELICAN_POST.split('\n')[0]]) assert.ok(recipe.includes(line), line);
});

for (const [where, siteurl] of [['the root', ''], ['a sub-path', '/blog']]) {
  test(`Pelican: {static} script + element, at ${where}`, async (t) => {
    sh.log = [];
    const tmp = tempDir('pelican'), site = join(tmp.dir, 'site');
    try {
      writeFiles(site, {
        'pelicanconf.py': `AUTHOR = 'A'\nSITENAME = 'Blog'\nSITEURL = '${siteurl}'\nPATH = 'content'\nTIMEZONE = 'UTC'\nDEFAULT_LANG = 'en'\n`
          + `FEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\nTRANSLATION_FEED_ATOM = None\nAUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\n`
          + `DEFAULT_PAGINATION = False\n${PELICAN_SETTINGS}`,
        'content/rope-post.md': `Title: RoPE decay\nDate: 2026-11-28 10:00\n\nThe score against distance:\n\n${PELICAN_POST}\n`,
      });
      installPackage(site);
      cpSync(join(site, 'node_modules/posenc/dist'), join(site, 'content/posenc'), { recursive: true });   // the recipe
      const r = spawnSync('pelican', ['content', '-o', 'output', '-s', 'pelicanconf.py'], { cwd: site, encoding: 'utf8', env: { ...process.env, COLUMNS: '200' } });
      const log = `${r.stdout}\n${r.stderr}`;
      assert.equal(r.status, 0, log);
      assert.doesNotMatch(log, /ERROR/, log);
      // served as the host would: the output at the site's root, or under /blog/
      const root = join(tmp.dir, 'www'), into = join(root, siteurl);
      mkdirSync(into, { recursive: true });
      cpSync(join(site, 'output'), into, { recursive: true });
      const html = join(into, 'rope-decay.html');
      await checkPost({ name: `pelican${siteurl.replace('/', '-')}`, out: root, path: `${siteurl}/rope-decay.html`, html, python: true,
        holds: new RegExp(`<script type="module" src="${siteurl}/posenc/figures\\.js"></script>\\s*(?:</p>)?\\s*(?:<p>)?<posenc-figure figure="rope-decay"`),
        // the figure on display, and its text for readers without scripts not
        extra: async (_p, fig) => assert.equal(await fig.evaluate((el) => el.getClientRects().length > 0 && getComputedStyle(el.shadowRoot.querySelector('slot')).display === 'none'), true) });
    } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
  });
}
