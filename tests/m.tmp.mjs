import { chromium } from 'playwright-core';
import { serve } from '../scripts/serve.mjs';
import { CHROMIUM_ARGS } from './e2e/browser.mjs';
const server = await serve(0);
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
for (const [w, lang] of [[390, 'en'], [390, 'zh'], [1280, 'en'], [1280, 'zh']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${base}/?lang=${lang}#permutation`);
  const pic = await page.evaluate(() => { const f = document.getElementById('permutation'); const p = [...f.querySelectorAll('picture')].find((x) => x.checkVisibility()); return p ? { fig: f.getBoundingClientRect().top, img: p.querySelector('img').getBoundingClientRect().top - f.getBoundingClientRect().top, h: f.getBoundingClientRect().height } : null; });
  await page.waitForSelector('body[data-ready="true"]'); await page.evaluate(() => document.getElementById('permutation').ready); await page.waitForTimeout(300);
  const live = await page.evaluate(() => { const f = document.getElementById('permutation'); const kids = [...f.shadowRoot.children].filter((c) => c.getClientRects().length).map((c) => `${c.tagName.toLowerCase()}.${c.className}:${Math.round(c.getBoundingClientRect().top - f.getBoundingClientRect().top)}+${Math.round(c.getBoundingClientRect().height)}`); return { h: f.getBoundingClientRect().height, kids }; });
  console.log(w, lang, JSON.stringify(pic), JSON.stringify(live));
  await context.close();
}
await browser.close(); server.close();
