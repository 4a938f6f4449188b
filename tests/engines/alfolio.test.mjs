// The ICLR Blogposts / al-folio convention on Jekyll (Debian's jekyll, `jekyll new`): each interactive figure is ONE
// HTML file under assets/html/<post>/ (here written by the package's own `posenc figure … --html`), embedded by an
// iframe through `relative_url`, on a site under the sub-path baseurl /2025. The post adds only the README's three
// lines that apply the figure's height message. Checked in Chromium inside the iframe (engines.mjs: checkPost, with
// `frame`): paint, a control, the Export PNG, dark mode passed on by posenc:theme as the site's toggle would, no
// console errors; then the iframe's height equals the figure page's (the template's 600 px would cut it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkPost, findPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';
import { PARENT_SNIPPET } from '../e2e/parent-snippet.mjs';

test('al-folio / ICLR convention: assets/html single file in an iframe under baseurl /2025', async (t) => {
  sh.log = [];
  const tmp = tempDir('alfolio'), site = join(tmp.dir, 'site'), env = { JEKYLL_NO_BUNDLER_REQUIRE: 'true' };
  try {
    sh('jekyll', ['new', site, '--skip-bundle'], tmp.dir, { env });
    installPackage(site);
    sh(process.execPath, [join(site, 'node_modules/posenc/dist/cli.js'), 'figure', 'rope-decay', 'base=500000', '--html',
      '-o', join(site, 'assets/html/2025-04-28-posenc/rope-decay.html')], site);
    writeFiles(site, {
      '_config.yml': 'title: ICLR Blogposts 2025\nbaseurl: "/2025"\ntheme: minima\n',
      '_posts/2025-04-28-rope-post.md': `---\nlayout: post\ntitle: RoPE decay\n---\n\nThe score against distance:\n\n<iframe id="fig" src="{{ 'assets/html/2025-04-28-posenc/rope-decay.html' | relative_url }}" frameborder="0" scrolling="no" height="600px" width="100%"></iframe>\n\n${PARENT_SNIPPET}\n`,
    });
    sh('jekyll', ['build'], site, { env });
    const www = join(tmp.dir, 'www');
    cpSync(join(site, '_site'), join(www, '2025'), { recursive: true });   // served under the sub-path
    const html = findPost(join(www, '2025'), 'rope-post');
    await checkPost({
      name: 'alfolio', out: www, path: `/${relative(www, html)}`, html, frame: '#fig', holds: /<iframe id="fig" src="\/2025\/assets\/html\/2025-04-28-posenc\/rope-decay\.html"/,
      dark: () => { document.documentElement.dataset.theme = 'dark'; for (const f of document.querySelectorAll('iframe')) f.contentWindow.postMessage({ type: 'posenc:theme', theme: 'dark' }, '*'); },
      extra: async (p, fig) => {
        const want = await fig.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
        await p.waitForFunction((h) => Number(document.getElementById('fig').getAttribute('height')) === h, want, { timeout: 5000 })
          .catch(async () => assert.fail(`iframe height ${await p.locator('#fig').getAttribute('height')}, the figure's page ${want}`));
        assert.ok(want > 600, `taller than the template's 600 px: ${want}`);
      },
    });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
