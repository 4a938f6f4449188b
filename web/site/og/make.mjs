// Makes the link-preview images (Open Graph / Twitter card, 1200 × 630) of index.html, gallery.html and embed.html:
// one figure each, drawn by the built site's embed page in headless Chromium. Run after scripts/build.sh, then build
// again so Vite fingerprints the new files:   node web/site/og/make.mjs
// The PNGs are committed (the build does not need a browser); rerun when a figure's look changes.
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../../scripts/serve.mjs';

const SHOTS = {
  index: 'figure=wavelengths',
  gallery: 'figure=context-extension',
  embed: 'figure=rope-rotation',
};
const server = await serve(0);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'] });
try {
  for (const [name, query] of Object.entries(SHOTS)) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 630 }, deviceScaleFactor: 1 });
    await page.goto(`${base}/embed.html?${query}`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: fileURLToPath(new URL(`./${name}.png`, import.meta.url)), clip: { x: 0, y: 0, width: 1200, height: 630 } });
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
