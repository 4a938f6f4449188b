// Exports for paste-only platforms, from a single-file figure opened from file://: toPNG({ width: 680 }) is laid out
// for a 680 px column (the PNG is 680 × scale px wide, whatever the page's width), the alt text names the figure and
// the parameters drawn and holds the read-out of this state, the PNG carries it as iTXt chunks and the SVG as
// <title>/<desc>; a bad width is named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shotPath } from './browser.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));

/** The iTXt chunks of a PNG: { keyword: text }. */
function itxt(buf) {
  const out = {};
  for (let i = 8; i < buf.length;) {
    const n = buf.readUInt32BE(i), type = buf.toString('latin1', i + 4, i + 8);
    if (type === 'iTXt') { const d = buf.subarray(i + 8, i + 8 + n), k = d.indexOf(0); out[d.toString('latin1', 0, k)] = d.subarray(k + 5).toString('utf8'); }
    i += 12 + n;
  }
  return out;
}

test('toPNG({ width: 680 }), alt text in the PNG and the SVG', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-alt-')), file = join(dir, 'rope-decay.html');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    assert.equal(spawnSync(process.execPath, [join(repo, 'dist/cli.js'), 'figure', 'rope-decay', 'base=500000', '--html', '-o', file]).status, 0);
    const p = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors = [];
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await p.goto(pathToFileURL(file).href);
    const fig = p.locator('posenc-figure');
    await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready));
    const r = await fig.evaluate(async (el) => {
      const wide = new Uint8Array(await (await el.toPNG({ scale: 1 })).arrayBuffer());
      const col = new Uint8Array(await (await el.toPNG({ scale: 2, width: 680 })).arrayBuffer());
      let bad = ''; try { await el.toPNG({ width: 100 }); } catch (e) { bad = e.message; }
      return { wide: [...wide], col: [...col], alt: el.altText(), svg: el.toSVG(), svg390: await el.toSVG({ width: 390 }), bad, copies: document.querySelectorAll('posenc-figure').length };
    });
    const wide = Buffer.from(r.wide), col = Buffer.from(r.col);
    assert.equal(wide.readUInt32BE(16) > 1000, true, `the on-page export is the page's width: ${wide.readUInt32BE(16)}`);
    assert.equal(col.readUInt32BE(16), 1360, 'width 680 at scale 2');
    assert.equal(r.copies, 1, 'the hidden copy is gone');
    // not the takeaway, which is written for the defaults ("with base 10000 …") and would contradict the picture
    assert.match(r.alt, /^RoPE’s long-range decay\. Drawn with base = 500000\. score at n − m = 15000, base 500000: /);
    assert.doesNotMatch(r.alt, /base 10000/);
    const readout = await fig.evaluate((el) => el.shadowRoot.querySelector('output[data-id="at"]').textContent);
    assert.ok(r.alt.includes(readout), `the alt text holds the read-out ${readout}: ${r.alt}`);
    assert.deepEqual(itxt(col), { Title: 'RoPE’s long-range decay', Description: r.alt });
    assert.match(r.svg, /^<svg [^>]*role="img"><title>RoPE’s long-range decay<\/title><desc>RoPE’s long-range decay\./);
    // the image's line under the title says what it shows: the parameters drawn, not the defaults' takeaway
    // ("with base 10000 and d = 512 … (marked)", above a base-500000 plot with no mark)
    for (const svg of [r.svg, r.svg390]) {
      const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
      assert.equal(texts[1], 'Drawn with base = 500000.');
      assert.ok(!texts.some((x) => /base 10000|\(marked\)/.test(x)), texts.slice(0, 4).join(' | '));
    }
    assert.match(r.bad, /^width: must be an integer from 240 to 4096/);
    // toSVG({ width }): laid out for a phone column, every text at least 12 px (the command line's --svg checks the boxes)
    assert.match(r.svg390, /^<svg [^>]*width="390"/);
    assert.deepEqual([...r.svg390.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1])).filter((v) => v < 12), []);
    // the Export menu: "680 px" chosen, PNG and SVG are laid out for that column
    await fig.locator('button.export').click();
    await fig.locator('select.width').selectOption('680');
    const [dl] = await Promise.all([p.waitForEvent('download'), fig.locator('button[data-x="png"]').click()]);
    const { readFileSync: rf } = await import('node:fs');
    assert.equal(rf(await dl.path()).readUInt32BE(16), 1360, 'the menu\'s PNG at 680 px, scale 2');
    const [dl2] = await Promise.all([p.waitForEvent('download'), fig.locator('button[data-x="svg"]').click()]);
    assert.match(rf(await dl2.path(), 'utf8'), /^<svg [^>]*width="680"/);
    assert.deepEqual([...r.svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1])).filter((v) => v < 12), []);
    // a look at it as a reader would
    const shot = shotPath('export/rope-decay-680');
    const { writeFileSync } = await import('node:fs'); writeFileSync(shot, col);
    assert.deepEqual(errors, []);
  } finally { await browser.close(); rmSync(dir, { recursive: true, force: true }); }
});

// The npm package ships figures-standalone.js's text once, as posenc/widget's `standaloneText` (package.json "files"
// leaves the file out): a site that copies the package's dist/ gets its HTML export from widget.js; with neither file
// the figure says why.
test('Export → HTML with the package as shipped (text from widget.js), and with neither file: the figure says why', async () => {
  const { serveStatic } = await import('./figures-server.mjs');
  const { cpSync, readdirSync, readFileSync } = await import('node:fs');
  const { scriptText } = await import(pathToFileURL(join(repo, 'web/src/figures/html.js')).href);
  const shipped = mkdtempSync(join(tmpdir(), 'posenc-nostandalone-')), bare = mkdtempSync(join(tmpdir(), 'posenc-nowidget-'));
  for (const f of readdirSync(join(repo, 'dist'))) {
    if (f !== 'figures-standalone.js') cpSync(join(repo, 'dist', f), join(shipped, f), { recursive: true });
    if (f !== 'figures-standalone.js' && f !== 'widget.js') cpSync(join(repo, 'dist', f), join(bare, f), { recursive: true });
  }
  const page = (pkg) => `<!doctype html><html><head><meta charset="utf-8"><script type="module" src="./${pkg}/figures.js"></script></head><body><posenc-figure figure="alibi"></posenc-figure></body></html>`;
  const S = await serveStatic({ mounts: { '/pkg/': shipped, '/bare/': bare }, pages: { '/p.html': page('pkg'), '/b.html': page('bare') } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const p = await browser.newPage(), pageErrors = [], requests = [];
    p.on('pageerror', (e) => pageErrors.push(String(e)));
    p.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await p.goto(`${S.origin}/p.html`);
    let fig = p.locator('posenc-figure');
    await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready));
    const html = await fig.evaluate((el) => el.toHTML());
    // the page inlines exactly the built figures-standalone.js (as html.js escapes it), found through widget.js
    const inlined = /<script id="posenc-standalone">([^]*?)<\/script>/.exec(html)?.[1];
    assert.equal(inlined, scriptText(readFileSync(join(repo, 'dist/figures-standalone.js'), 'utf8')));
    assert.ok(requests.includes('/pkg/figures-standalone.js') && requests.includes('/pkg/widget.js'), requests.join(' '));
    await p.goto(`${S.origin}/b.html`);
    fig = p.locator('posenc-figure');
    await fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready));
    await fig.locator('button.export').click();
    await fig.locator('.menu button[data-x="html"]').click();
    const note = fig.locator('.export-error');
    await note.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await note.textContent(), /^toHTML: neither .*figures-standalone\.js \(HTTP 404\) nor .*widget\.js's standaloneText .*toHTML\(\{ script \}\)/);
    assert.deepEqual(pageErrors, []);
  } finally { await browser.close(); S.server.close(); for (const d of [shipped, bare]) rmSync(d, { recursive: true, force: true }); }
});
