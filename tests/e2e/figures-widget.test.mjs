// posenc/widget (dist/widget.js), the anywidget front-end module, in Chromium: loaded as anywidget loads an `_esm`
// (its text imported from a blob: URL, so it can fetch nothing relative to itself) and rendered with a fake model that
// implements anywidget's model interface (get, set, save_changes, on/off 'change:x'). Two-way: the model's traits
// render the figure (the read-out equals the closed form), a control writes `params` back and saves, a model change
// re-renders, the cleanup function detaches it. No request besides the page and the module, no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';
import { scoreAt, SCORE_TOL } from '../engines/engines.mjs';
import { FAKE_MODEL } from './fake-model.mjs';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const PAGE = `<!doctype html><html><head><meta charset="utf-8"></head><body><div id="out"></div><script type="module">
${FAKE_MODEL}
const text = await fetch('./pkg/widget.js').then((r) => r.text());
const widget = (await import(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })))).default;
window.model = new FakeModel({ figure: 'rope-decay', params: { base: '500000' }, controls: true });
window.cleanup = widget.render({ model, el: document.getElementById('out') });
document.body.dataset.ready = 'true';
</script></body></html>`;

let S, browser;
before(async () => {
  S = await serveStatic({ mounts: { '/w/pkg/': dist }, pages: { '/w/index.html': PAGE } });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); S?.server.close(); });

test('anywidget contract: traits render the figure, a control writes params back, model changes re-render', async () => {
  const ctx = await browser.newContext({ viewport: { width: 900, height: 900 } });
  const p = await ctx.newPage(), errors = [], requests = [];
  p.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  p.on('pageerror', (e) => errors.push(String(e)));
  ctx.on('request', (r) => requests.push(r.url()));
  await p.goto(`${S.origin}/w/index.html`);
  await p.waitForSelector('body[data-ready="true"]');
  const fig = p.locator('#out posenc-figure');
  const ready = () => fig.evaluate((el) => customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => `ERR ${e.message}`));
  const readout = () => fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
  assert.equal(await ready(), 'ok', errors.join(' | '));
  assert.ok(Math.abs(await readout() - scoreAt(500000)) < SCORE_TOL, `base 500000: ${await readout()} vs ${scoreAt(500000)}`);
  assert.equal(await fig.evaluate((el) => el.engine), 'worker');

  // control → model: params written back and saved
  await fig.locator('select[name="base"]').selectOption('10000');
  assert.equal(await ready(), 'ok');
  assert.ok(Math.abs(await readout() - scoreAt(10000)) < SCORE_TOL);
  const m = await p.evaluate(() => ({ params: model.get('params'), saved: model.saved.length }));
  assert.deepEqual(m.params, {}, 'base 10000 is the default: no parameter left in the trait');
  assert.ok(m.saved >= 1, 'save_changes was called');
  await fig.locator('select[name="d"]').selectOption('128');
  assert.equal(await ready(), 'ok');
  assert.deepEqual(await p.evaluate(() => model.get('params')), { d: '128' });
  assert.ok(Math.abs(await readout() - scoreAt(10000, 128)) < SCORE_TOL, `d = 128: ${await readout()} vs ${scoreAt(10000, 128)}`);

  // model → figure: a new params dict (d back to its default), then another figure
  await p.evaluate(() => model.set('params', { base: '1000' }));
  assert.equal(await ready(), 'ok');
  assert.equal(await fig.getAttribute('d'), null, 'a parameter no longer in the trait is removed');
  assert.ok(Math.abs(await readout() - scoreAt(1000)) < SCORE_TOL, `base 1000: ${await readout()} vs ${scoreAt(1000)}`);
  const savedBefore = await p.evaluate(() => model.saved.length);
  assert.equal(savedBefore, m.saved + 1, 'a change from the model is not echoed back as a save');
  await p.evaluate(() => { model.set('params', { heads: '8', head: '2' }); model.set('figure', 'alibi'); });
  assert.equal(await ready(), 'ok', errors.join(' | '));
  // ALiBi's slope of head h (0-based) of H heads: 2^(−8(h+1)/H)
  const slope = await fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="slope"]').dataset.value));
  assert.ok(Math.abs(slope - 2 ** (-8 * 3 / 8)) < 1e-6, `slope of head 2 of 8: ${slope} vs ${2 ** -3}`);
  await shot(p, 'widget/alibi');

  // a bad trait is named
  await p.evaluate(() => model.set('figure', 'rope-decy'));
  assert.match(await ready(), /Unknown figure "rope-decy"/);
  errors.splice(0, errors.length, ...errors.filter((e) => !/Unknown figure "rope-decy"/.test(e)));

  // cleanup: detached, no listener left
  assert.equal(await p.evaluate(() => { cleanup(); return [document.querySelectorAll('posenc-figure').length, Object.values(model.handlers).flat().length]; }).then(String), '0,0');
  const other = requests.filter((u) => !u.startsWith('blob:') && !u.startsWith('data:') && !/\/w\/(index\.html|pkg\/widget\.js)$/.test(u));
  assert.deepEqual(other, [], 'nothing fetched besides the page and the module');
  assert.deepEqual(errors, []);
  await ctx.close();
});
