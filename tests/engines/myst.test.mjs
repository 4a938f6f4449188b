// MyST (npm mystmd, pinned below; installed once into the engine cache): a project whose page uses MyST's
// {anywidget} directive with posenc/widget (node_modules/posenc/dist/widget.js) and the figure's traits as the
// directive's JSON body. `myst build --html` needs its theme from api.mystmd.org (no network here), so the test runs
// the real `myst build --site` up to its site content — the page's AST, where the directive became an anywidget node
// ({esm, model}) and the module was copied to public/ — and then does what the theme's renderer does with that node:
// imports `esm` and calls render({ model, el }) with a model of those traits (anywidget's interface). In Chromium
// (engines.mjs: checkPost): paint, a control, the Export PNG, dark mode by a class on <html>, no console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedSite, checkPost, sh, writeFiles } from './engines.mjs';
import { FAKE_MODEL } from '../e2e/fake-model.mjs';

const MYST = '1.8.3';
const HARNESS = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>RoPE</title></head><body><div id="out"></div><script type="module">
${FAKE_MODEL}
// the theme's part: the page's anywidget node → import(esm) → render({ model, el })
const page = await fetch('./content/index.json').then((r) => r.json());
const find = (n) => (n?.type === 'anywidget' ? n : Array.isArray(n) ? n.map(find).find(Boolean) : n && typeof n === 'object' ? find(Object.values(n)) : null);
const node = find(page.mdast);
const widget = (await import('./public' + node.esm)).default;
widget.render({ model: new FakeModel(node.model), el: document.getElementById('out') });
</script></body></html>`;

test(`MyST ${MYST}: the {anywidget} directive with posenc/widget`, async (t) => {
  sh.log = [];
  const { site, remove } = cachedSite(`mystmd-${MYST}`, (dir) => {
    writeFiles(dir, { 'package.json': JSON.stringify({ name: 'book', private: true }) });
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', `mystmd@${MYST}`], dir);
  });
  try {
    writeFiles(site, {
      'myst.yml': 'version: 1\nproject:\n  title: RoPE\nsite:\n  template: book-theme\n',
      'index.md': '# RoPE decay\n\n:::{anywidget} ./node_modules/posenc/dist/widget.js\n{ "figure": "rope-decay", "params": { "base": "500000" }, "controls": true }\n:::\n',
    });
    // the site content; without network the theme's download (last) fails, and only that is forgiven
    const t0 = Date.now(), r = spawnSync(join(site, 'node_modules/.bin/myst'), ['build', '--site'], { cwd: site, encoding: 'utf8' });
    sh.log.push(`myst build --site: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (r.status !== 0) assert.match(`${r.stdout}${r.stderr}`, /request to https:\/\/api\.mystmd\.org\/templates\/site\/myst\/book-theme failed/, r.stdout + r.stderr);
    const built = join(site, '_build/site'), json = join(built, 'content/index.json');
    const esm = /"esm":"(\/widget-[0-9a-f]+\.js)"/.exec(readFileSync(json, 'utf8'))?.[1];
    assert.ok(esm, 'the page holds an anywidget node with its module');
    assert.deepEqual(readFileSync(join(built, 'public', esm)), readFileSync(join(site, 'node_modules/posenc/dist/widget.js')), 'public/ holds posenc/widget');
    const www = join(site, 'www');
    cpSync(built, join(www, 'book'), { recursive: true });
    writeFiles(www, { 'book/index.html': HARNESS });
    await checkPost({ name: 'myst-anywidget', out: www, path: '/book/index.html', html: json,
      holds: /"type":"anywidget","esm":"\/widget-[0-9a-f]+\.js","model":\{"figure":"rope-decay","params":\{"base":"500000"\},"controls":true\}/,
      dark: () => document.documentElement.classList.add('dark') });
  } finally { remove(); t.diagnostic(sh.log.join('; ')); }
});
