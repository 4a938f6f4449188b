// The CSV export carries the read-outs (issue 34 item 6: yarn-attention's factor slider changed nothing in the exported
// numbers: its curves span every s, and only the mark and the read-outs follow the factor). Each read-out is a comment
// line `# read-out <id> (<label>): <value>` at full precision; here checked against YaRN's 0.1·ln s + 1 and its square.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';
import { csvRows } from './csv.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

test('toCSV: the read-outs as comment lines; yarn-attention\'s factor moves them', async () => {
  const S = await serveStatic({ mounts: { '/posenc/': dist }, pages: { '/post.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title>
<script type="module" src="/posenc/figures.js"></script></head><body><posenc-figure figure="yarn-attention" controls></posenc-figure></body></html>` } });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const p = await browser.newPage();
    const errors = [];
    p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await p.goto(`${S.origin}/post.html`);
    const fig = p.locator('posenc-figure');
    const csvAt = (factor) => fig.evaluate(async (el, f) => {
      await customElements.whenDefined('posenc-figure');
      if (f !== null) el.setAttribute('factor', String(f));
      await el.ready;
      return el.toCSV();
    }, factor);
    const readouts = (csv) => Object.fromEntries([...csv.matchAll(/^# read-out ([\w-]+) \(([^)]*(?:\([^)]*\)[^)]*)*)\): (.*)$/gm)].map((m) => [m[1], Number(m[3])]));
    const a = await csvAt(null), b = await csvAt(16);
    const ra = readouts(a), rb = readouts(b);
    assert.deepEqual(Object.keys(ra), ['attention-factor', 'softmax-factor', 'logit-multiplier'], a.split('\n').slice(0, 8).join('\n'));
    for (const [r, s] of [[ra, 4], [rb, 16]]) {
      assert.ok(Math.abs(r['attention-factor'] - (0.1 * Math.log(s) + 1)) < 1e-12, `${s}: ${r['attention-factor']}`);
      assert.ok(Math.abs(r['logit-multiplier'] - (0.1 * Math.log(s) + 1) ** 2) < 1e-12);
    }
    // the curves themselves are the same for every factor: the read-outs are what the slider changes
    assert.deepEqual(csvRows(a), csvRows(b));
    assert.notEqual(a, b);
    assert.deepEqual(errors, []);
  } finally { await browser.close(); S.server.close(); }
});
