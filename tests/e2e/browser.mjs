// Headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core, against the built site (build/site)
// served locally by scripts/serve.mjs (with its strict Content-Security-Policy).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-gpu'];

/**
 * Starts the server and the browser and opens `path`; returns {page, url, base, errors, open, close}.
 * errors collects console errors, page errors (unhandled exceptions and rejections) of every page opened;
 * open(path, viewport, options) opens another page in the same browser and waits until it is ready
 * (body[data-ready] = options.ready ?? 'true').
 */
export async function openPage(path = '/', viewport = { width: 1100, height: 1400 }, options = {}) {
  const server = await serve(0);
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const errors = [];
  const open = async (p, vp = viewport, o = options) => {
    const context = await browser.newContext({ viewport: vp, locale: o.locale ?? 'en-US', colorScheme: o.colorScheme ?? 'light' });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}${p}`);
    await page.waitForSelector(`body[data-ready="${o.ready ?? 'true'}"]`, { timeout: 30000 }).catch((e) => { throw new Error(`${e.message}; page errors: ${errors.join(' | ')}`); });
    return page;
  };
  const page = await open(path);
  return { page, url: `${base}${path}`, base, errors, open, close: async () => { await browser.close(); server.closeAllConnections(); server.close(); } };   // no kept-alive socket holds the test's process open
}

/** Where a screenshot named NAME goes: test-results/NAME.png (ignored by git; NAME may hold a folder). */
export function shotPath(name) {
  const path = fileURLToPath(new URL(`../../test-results/${name}.png`, import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

/**
 * A screenshot for people to look at (test-results/NAME.png), taken only when POSENC_SHOTS=1: nothing asserts on it,
 * and a full-page shot of the explainer costs seconds, so the test command leaves them out
 * (`POSENC_SHOTS=1 node --test tests/e2e/…` takes them).
 */
export async function shot(target, name, options = {}) {
  if (process.env.POSENC_SHOTS === '1') await target.screenshot({ ...options, path: shotPath(name) });
}

/** Switches the page's language with its own switch (#lang-en / #lang-zh) and waits until the page has taken it. */
export async function setLang(page, lang) {
  await page.click(`#lang-${lang}`);
  await page.waitForFunction((l) => document.documentElement.dataset.lang === l, lang);
}

/** Waits until every computation the page started has been drawn. */
export const settled = (page) => page.waitForFunction(() => document.body.dataset.pending === '0', null, { timeout: 30000 });
