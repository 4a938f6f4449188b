// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the page served locally.
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-gpu'];

/** Starts the server and the browser; returns {page, url, errors, close}. errors collects console errors and page errors. */
export async function openPage(path = '/', viewport = { width: 1100, height: 1400 }) {
  const server = await serve(0);
  const url = `http://127.0.0.1:${server.address().port}${path}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 }).catch(async (e) => { console.log(errors); throw e; });
  return { page, url, errors, close: async () => { await browser.close(); server.close(); } };
}
