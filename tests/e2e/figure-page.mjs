// A test page with one <posenc-figure> of each given name (dist/figures.js, as a user gets it) in headless Chromium,
// and what a figure draws, read from its building blocks: heatmap data and marks, curves, vectors, read-outs, the
// text boxes each block drew and the curves' paths (for the layout test).
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './browser.mjs';
import { serveStatic } from './figures-server.mjs';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * Opens a page with the named figures (lang, width; in `browser` when given, else a new one); returns
 * {page, draw(name, attrs), close}.
 */
export async function figurePage(names, { lang = 'en', width = 1280, errors = [], browser: shared = null } = {}) {
  const body = names.map((n) => `<posenc-figure figure="${n}" controls></posenc-figure>`).join('\n');
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><script type="module" src="./pkg/figures.js"></script>
<style>body { margin: 0 auto; max-width: 988px; padding: 0 8px; font-family: system-ui, sans-serif; }</style></head><body>${body}</body></html>`;
  const srv = await serveStatic({ mounts: { '/pkg/': dist }, pages: { '/f.html': html } });
  const browser = shared ?? await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${srv.origin}/f.html`);
  await page.waitForFunction(() => customElements.get('posenc-figure'));
  /** Sets exactly `attrs` (the other parameters back to their defaults), waits until painted, returns what is drawn. */
  const draw = (name, attrs = {}) => page.evaluate(async ([name, attrs]) => {
    const el = document.querySelector(`posenc-figure[figure="${name}"]`);
    for (const a of [...el.attributes]) if (!['figure', 'lang', 'controls', 'caption', 'theme'].includes(a.name)) el.removeAttribute(a.name);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    el.scrollIntoView();
    await el.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const out = { panels: {}, readouts: {} };
    for (const b of el.shadowRoot.querySelectorAll('[data-panel]')) {
      const o = { caption: b.getAttribute('caption') };
      if (b.tagName === 'PE-HEATMAP') Object.assign(o, { rows: b.rows, cols: b.cols, data: Array.from(b.data), marks: b.marks, values: b._values(b._geometry()), range: b.range });
      else if (b.tagName === 'PE-LINES') Object.assign(o, { marks: b.marks, regions: b.regions, logX: b.hasAttribute('log-x'), xticks: b.textBoxes().filter((t) => t.kind === 'xtick').map((t) => t.text), series: b.series.map((s) => ({ label: s.label, color: s.color, dash: s.dash, x: s.x ? Array.from(s.x) : Array.from(s.y, (_, i) => (s.x0 ?? 0) + i * (s.dx ?? 1)), y: Array.from(s.y), y2: s.y2 ? Array.from(s.y2) : null })) });
      else Object.assign(o, { vectors: b.vectors });
      out.panels[b.dataset.panel] = o;
    }
    for (const o of el.shadowRoot.querySelectorAll('.readouts output')) out.readouts[o.dataset.id] = o.dataset.value === undefined ? null : Number(o.dataset.value);
    return out;
  }, [name, attrs]);
  return { page, draw, close: async () => { if (shared) await page.close(); else await browser.close(); srv.server.closeAllConnections(); srv.server.close(); } };
}
