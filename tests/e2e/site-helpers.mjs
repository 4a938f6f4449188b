// Helpers of the site's e2e tests (site.test.mjs, site-page.test.mjs): figures are <posenc-figure id="NAME">, page
// controls are elements with an id. helpers(getPage, getCtx) binds them to a test file's current page and context
// (each takes an optional page as its last argument).
import assert from 'node:assert/strict';
import { settled } from './browser.mjs';

export function helpers(getPage, getCtx) {
  const close = (a, b, rel = 1e-6) => Math.abs(a - b) <= rel * Math.max(1, Math.abs(b));
  /** Scrolls figure `id` into view and waits until its current state is painted ('ok' or the error message). */
  const ready = (id, p = getPage()) => p.locator(`#${id}`).evaluate(async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); });
  const readout = (id, rid, p = getPage()) => p.$eval(`#${id}`, (el, r) => Number(el.shadowRoot.querySelector(`output[data-id="${r}"]`)?.dataset.value ?? NaN), rid);
  const readoutText = (id, rid, p = getPage()) => p.$eval(`#${id}`, (el, r) => el.shadowRoot.querySelector(`output[data-id="${r}"]`).textContent, rid);
  const block = (id, pid) => `#${id} >> [data-panel="${pid}"]`;
  /** A fingerprint of a panel's pixels (canvas) or shapes (plane). */
  const pixels = (id, pid, p = getPage()) => p.$eval(`#${id}`, (el, pp) => {
    const b = el.shadowRoot.querySelector(`[data-panel="${pp}"]`), c = b.shadowRoot.querySelector('canvas');
    return c ? c.toDataURL() : b.shadowRoot.querySelector('svg').innerHTML;
  }, pid);
  /** Sets a figure parameter through its own control (as a reader does) and waits for the repaint. */
  async function control(id, name, value, p = getPage()) {
    await p.$eval(`#${id}`, (el, [n, v]) => {
      const c = el.shadowRoot.querySelector(`[name="${n}"]`);
      if (c.type === 'checkbox') c.checked = v; else c.value = String(v);
      c.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    }, [name, value]);
    return ready(id, p);
  }
  const shown = (id, p = getPage()) => p.$eval(`#${id}`, (el) => Number(el.dataset.value));
  async function set(id, value, p = getPage()) {
    await p.$eval(`#${id}`, (el, v) => {
      if (el.type === 'checkbox') el.checked = v; else el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }, value);
    await settled(p);
  }
  /** Removes the expected console error matching `re` from the collected errors (waiting up to 2 s for it). */
  async function expectError(re) {
    const errors = getCtx().errors;
    for (let t = 0; t < 40 && !errors.some((e) => re.test(e)); t++) await new Promise((r) => setTimeout(r, 50));
    const i = errors.findIndex((e) => re.test(e));
    assert.ok(i >= 0, `console.error ${re}`);
    errors.splice(i, 1);
  }
  return { close, ready, readout, readoutText, block, pixels, control, shown, set, expectError };
}
