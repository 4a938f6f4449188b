// Heights for hosts that allow an iframe but no script (al-folio's template: a fixed height, scrolling="no"): the
// README's numbers are measured here. The single-file figures (`posenc figure … --html`, with controls) are opened in
// iframes 340, 400, 700 and 900 px wide with no height script; each document's height must be the README's number
// for that width (±2 px), and the README's recommended height must hold the tallest of them (nothing cut at 340 px).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const WIDTHS = [900, 700, 400, 340];
// "rope-decay is 874 / 919 / 1262 / 1432 px tall in 900 / 700 / 400 / 340 px wide iframes, alibi 994 / … px"
const para = /\*\*ICLR Blogposts \/ al-folio\*\*[\s\S]*?\n\n/.exec(readme)[0].replace(/\s+/g, ' ');
const stated = {
  'rope-decay': /rope-decay is ([\d /]+) px tall/.exec(para)?.[1].split(' / ').map(Number),
  alibi: /alibi ([\d /]+) px/.exec(para)?.[1].split(' / ').map(Number),
};
const recommended = Number(/height="(\d+)px"/.exec(para)?.[1]);

test('README iframe heights (no height script) are measured: every width from 340 to 900 px, and the recommended height holds them', async () => {
  assert.deepEqual(/in ([\d /]+) px wide iframes/.exec(para)?.[1].split(' / ').map(Number), WIDTHS);
  const dir = mkdtempSync(join(tmpdir(), 'posenc-heights-'));
  const args = { 'rope-decay': ['base=500000'], alibi: [] };
  for (const [name, a] of Object.entries(args)) {
    const r = spawnSync(process.execPath, [join(repo, 'dist/cli.js'), 'figure', name, ...a, '--html', '-o', join(dir, `${name}.html`)], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  }
  const S = await serveStatic({ mounts: { '/f/': dir }, pages: Object.fromEntries(WIDTHS.flatMap((w) => Object.keys(args).map((n) => [`/${n}-${w}.html`,
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head><body style="margin:0">`
    + `<iframe id="fig" src="/f/${n}.html" frameborder="0" scrolling="no" height="${recommended}px" width="${w}"></iframe></body></html>`]))) });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const measured = {};
  try {
    const p = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    for (const name of Object.keys(args)) {
      measured[name] = [];
      for (const w of WIDTHS) {
        await p.goto(`${S.origin}/${name}-${w}.html`);
        const f = p.frameLocator('#fig').locator('posenc-figure');
        assert.equal(await f.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => e.message)), 'ok');
        await p.waitForTimeout(200);   // the last layout after the paint
        measured[name].push(await f.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)));
      }
    }
  } finally { await browser.close(); S.server.close(); rmSync(dir, { recursive: true, force: true }); }
  const all = Object.keys(args).map((n) => `${n} ${measured[n].join(' / ')} px (README: ${stated[n]?.join(' / ')})`).join('; ');
  for (const name of Object.keys(args)) {
    assert.ok(stated[name], `the README states ${name}'s heights`);
    const off = measured[name].map((h, i) => Math.abs(h - stated[name][i]));
    assert.ok(off.every((d) => d <= 2), `measured: ${all}`);
    assert.ok(recommended >= Math.max(...measured[name]), `${name}: height="${recommended}px" cuts ${Math.max(...measured[name])} px`);
  }
});
