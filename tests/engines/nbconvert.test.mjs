// Jupyter nbconvert (Debian's jupyter-nbconvert 6.5 and python3-ipykernel, installed by scripts/setup.sh): a notebook
// whose cell displays the README's Jupyter snippet, `HTML(subprocess.check_output(['npx', 'posenc', 'figure',
// 'rope-decay', 'base=500000', '--fragment'], text=True))` (the package from its tarball, its bin linked as npm does),
// executed and exported by `jupyter nbconvert --to html --execute`, then the exported file opened FROM DISK (file://,
// where a <script type="module"> is refused) in Chromium (engines.mjs: checkPost): paint, a control, the Export PNG,
// JupyterLab's dark marker (body[data-jp-theme-light="false"]) followed, and the `--HTMLExporter.theme=dark` export
// dark on load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkPost, installPackage, sh, tempDir, writeFiles } from './engines.mjs';

const CELL = "import subprocess\nfrom IPython.display import HTML\nHTML(subprocess.check_output(['npx', 'posenc', 'figure', 'rope-decay', 'base=500000', '--fragment'], text=True))";
const NOTEBOOK = { cells: [{ cell_type: 'markdown', metadata: {}, source: ['# RoPE decay'] }, { cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: [CELL] }],
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' } }, nbformat: 4, nbformat_minor: 5 };

test('Jupyter nbconvert: executed notebook exported to HTML, opened from file://', async (t) => {
  sh.log = [];
  const tmp = tempDir('nbconvert'), site = join(tmp.dir, 'site');
  try {
    installPackage(site);
    mkdirSync(join(site, 'node_modules/.bin'));
    symlinkSync('../posenc/dist/cli.js', join(site, 'node_modules/.bin/posenc'));   // what npm install does for the bin:
    chmodSync(join(site, 'node_modules/posenc/dist/cli.js'), 0o755);                 // a link, made executable
    writeFiles(site, { 'rope-post.ipynb': JSON.stringify(NOTEBOOK) });
    const env = { PYDEVD_DISABLE_FILE_VALIDATION: '1', npm_config_offline: 'true' };
    sh('jupyter', ['nbconvert', '--to', 'html', '--execute', 'rope-post.ipynb'], site, { env });
    sh('jupyter', ['nbconvert', '--to', 'html', '--execute', '--HTMLExporter.theme=dark', '--output', 'rope-post-dark', 'rope-post.ipynb'], site, { env });
    const html = join(site, 'rope-post.html');
    await checkPost({ name: 'nbconvert', out: site, path: pathToFileURL(html).href, html,
      dark: () => document.body.setAttribute('data-jp-theme-light', 'false'),
      // Debian's nbconvert template links Debian's require.js and MathJax by file:///usr/share/javascript/ paths
      ignore: [/file:\/\/\/usr\/share\/javascript\//],
      extra: async (p) => {
        await p.goto(pathToFileURL(join(site, 'rope-post-dark.html')).href);
        const fig = p.locator('posenc-figure');
        assert.equal(await fig.evaluate((el) => el.ready.then(() => 'ok', (e) => e.message)), 'ok');
        assert.equal(await fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim()), '#17171a', 'the dark export: a dark figure');
      } });
  } finally { tmp.remove(); t.diagnostic(sh.log.join('; ')); }
});
