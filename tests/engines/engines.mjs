// The blog-engine tests' shared part: the package as an author gets it (`npm pack`, unpacked as node_modules/posenc of
// a fresh site), the npm engines' generated sites cached OUTSIDE the checkout, keyed by the generator's version
// (~/.cache/posenc-engines/<engine>-<version>, or $POSENC_ENGINE_CACHE; made once, reused when present), a static
// server for the built site, and the checks every engine's post must pass in Chromium:
//   the figure paints (rope-decay, base 500000: its read-out equals the closed form, and its canvas has ink), a control
//   changes its numbers (base → 10000: the read-out follows the closed form), the Export menu downloads a PNG, no console
//   errors, and the build's static HTML already holds the element.
import { createHash } from 'node:crypto';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, shot } from '../e2e/browser.mjs';
import { serveStatic } from '../e2e/figures-server.mjs';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const CACHE = process.env.POSENC_ENGINE_CACHE ?? join(homedir(), '.cache/posenc-engines');

/** Runs a command (throws with its output on failure); returns stdout. */
export function sh(cmd, args, cwd, { env = {}, timeout = 600000 } = {}) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`.slice(-6000));
  sh.log?.push(`${cmd} ${args.slice(0, 2).join(' ')}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return r.stdout;
}

/** A temp folder removed by the returned `remove`. */
export function tempDir(prefix) { const d = mkdtempSync(join(tmpdir(), `posenc-${prefix}-`)); return { dir: d, remove: () => rmSync(d, { recursive: true, force: true }) }; }

/**
 * `npm pack` of the checkout, unpacked to `<site>/node_modules/posenc` (an npm install of a dependency-free package).
 * Returns the tarball's SHA-256 (npm pack is reproducible: same files, same bytes).
 */
export function installPackage(site) {
  const t = tempDir('pack');
  const { filename } = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', t.dir], { cwd: repo, encoding: 'utf8' }))[0];
  const hash = createHash('sha256').update(readFileSync(join(t.dir, filename))).digest('hex');
  sh('tar', ['xzf', join(t.dir, filename), '-C', t.dir]);
  mkdirSync(join(site, 'node_modules'), { recursive: true });
  rmSync(join(site, 'node_modules/posenc'), { recursive: true, force: true });
  renameSync(join(t.dir, 'package'), join(site, 'node_modules/posenc'));
  t.remove();
  return hash;
}

/**
 * The engine's generated site, cached: `create(dir)` runs the engine's own generator into `dir` (once per key).
 * Returns a fresh copy in a temp folder whose node_modules holds links to the cached packages (the engine resolves
 * its own dependencies from the cache) and the real package under test; `remove` deletes the copy.
 */
export function cachedSite(key, create) {
  const dir = join(CACHE, key);
  if (!existsSync(join(dir, '.ready'))) {
    rmSync(dir, { recursive: true, force: true });
    const tmp = `${dir}.tmp-${process.pid}`;   // not created here: generators refuse an existing folder
    rmSync(tmp, { recursive: true, force: true }); mkdirSync(CACHE, { recursive: true });
    create(tmp);
    writeFileSync(join(tmp, '.ready'), new Date().toISOString());
    rmSync(dir, { recursive: true, force: true }); renameSync(tmp, dir);
  }
  const t = tempDir(key);
  const site = join(t.dir, 'site');
  cpSync(dir, site, { recursive: true, filter: (src) => !src.startsWith(join(dir, 'node_modules')) });
  if (existsSync(join(dir, 'node_modules'))) {
    mkdirSync(join(site, 'node_modules'));
    for (const e of readdirSync(join(dir, 'node_modules'))) symlinkSync(join(dir, 'node_modules', e), join(site, 'node_modules', e));
  }
  const tarball = installPackage(site);
  return { site, tarball, remove: t.remove };
}

/**
 * The slow engines' build, reused while nothing it reads changed: `build()` runs in `site` and leaves its output in
 * `<site>/<outRel>`, which is kept in the cache under a key of the engine, the tarball's hash and `inputs` (the recipe
 * and the post, as text). A changed package, recipe or post builds again; older builds of the engine are dropped.
 * Returns the output folder and whether it was reused.
 */
export function cachedBuild(engine, tarball, inputs, site, outRel, build) {
  const key = createHash('sha256').update(`${tarball}\n${JSON.stringify(inputs)}`).digest('hex').slice(0, 16);
  const builds = join(CACHE, 'builds'), out = join(builds, `${engine}-${key}`);
  if (existsSync(join(out, '.complete'))) return { out, reused: true };
  build();
  mkdirSync(builds, { recursive: true });
  for (const e of readdirSync(builds)) if (e.startsWith(`${engine}-`)) rmSync(join(builds, e), { recursive: true, force: true });
  cpSync(join(site, outRel), out, { recursive: true });
  writeFileSync(join(out, '.complete'), '');
  return { out, reused: false };
}

/** Writes `files` ({relative path: text}) under `dir`. */
export function writeFiles(dir, files) {
  for (const [p, text] of Object.entries(files)) { mkdirSync(dirname(join(dir, p)), { recursive: true }); writeFileSync(join(dir, p), text); }
}

/** The built HTML file under `out` whose path contains `slug` (the post). */
export function findPost(out, slug) {
  const walk = (d) => readdirSync(d).flatMap((e) => { const p = join(d, e); return statSync(p).isDirectory() ? walk(p) : [p]; });
  const hits = walk(out).filter((p) => p.endsWith('.html') && p.includes(slug));
  assert.ok(hits.length, `no built page for ${slug} under ${out}`);
  return hits.sort((a, b) => a.length - b.length)[0];
}

// Closed form of the read-out the test reads: rope-decay with q = k = ones (its default), d = 512, at n − m = 15000:
// ⟨R_m q, R_n k⟩ = Σ_{i<d/2} 2·cos(15000·θ_i), θ_i = base^(−2i/d) (RoFormer, Su et al. 2021, eq. 34).
export const scoreAt = (base, d = 512, r = 15000) => { let s = 0; for (let i = 0; i < d / 2; i++) s += 2 * Math.cos(r * base ** (-2 * i / d)); return s; };
// The sweep runs in float32 (angles reduced in float32 by the wasm): 256 terms of magnitude ≤ 2, each off by ≤ ~1e-3.
export const SCORE_TOL = 0.05;

/**
 * Serves `out` and checks the post at `path` in Chromium (see the top of this file). `html` is the static HTML file of
 * the post as the engine built it (`holds`: what it must contain). `dark` (optional) flips the page to the engine's dark
 * mode: the figure must follow. `frame`: a selector of the iframe that holds the figure (a single-file figure).
 * `extra(page, figureLocator)`: more checks of the engine's, run last. `ignore`: regular expressions of the theme's own
 * errors (each named where it is passed), which are not the figure's.
 * Requests to other origins (themes' CDN fonts and icons: no network here) are answered empty.
 */
export async function checkPost({ name, out, path, html, dark, frame, extra, ignore = [], holds = /<posenc-figure[^>]*figure=("|')?rope-decay/, python = false, server = null }) {
  const staticHtml = readFileSync(html, 'utf8');
  assert.match(staticHtml, holds, `${name}: the built HTML holds the element`);
  // `python`: served by Python's http.server (a static server that is not the project's own), else by serveStatic
  // `server`: one already serving `out` (started before the build, for an engine that writes its origin into the pages)
  const S = server ?? (python ? await pythonServer(out) : await serveStatic({ mounts: { '/': out } }));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const errors = [];
  try {
    const ctx = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
    await ctx.route((u) => /^https?:$/.test(u.protocol) && !u.href.startsWith(S.origin), (r) => r.fulfill({ status: 200, body: '' }));
    const p = await ctx.newPage();
    // a theme's missing favicon is the site's business, not the figure's (Hexo's landscape links /favicon.png)
    const favicon = (url) => /\/favicon\.\w+$/.test(url ?? '');
    p.on('console', (m) => { if (m.type() === 'error' && !favicon(m.location().url)) errors.push(`${m.text()} ${m.location().url ?? ''}`); });
    p.on('pageerror', (e) => errors.push(String(e)));
    p.on('response', (r) => { if (r.status() >= 400 && !favicon(r.url())) errors.push(`HTTP ${r.status()} ${r.url()}`); });
    await p.goto(path.startsWith('file:') ? path : `${S.origin}${path}`);   // a file:// URL: opened from disk
    // `frame`: the figure is a single-file figure inside that iframe of the post
    const fig = (frame ? p.frameLocator(frame) : p).locator('posenc-figure').first();
    // an engine may load the element's module after the static HTML is shown (Docusaurus: the post's chunk after hydration)
    const ready = () => fig.evaluate((el) => { el.scrollIntoView(); return customElements.whenDefined('posenc-figure').then(() => el.ready).then(() => 'ok', (e) => `ERR ${e.message}`); });
    const readout = () => fig.evaluate((el) => Number(el.shadowRoot.querySelector('output[data-id="at"]').dataset.value));
    assert.equal(await ready(), 'ok', `${name}: figure ready; console: ${errors.join(' | ')}`);
    assert.ok(Math.abs(await readout() - scoreAt(500000)) < SCORE_TOL, `${name}: score at 15000, base 500000: ${await readout()} vs ${scoreAt(500000)}`);
    const ink = await fig.evaluate((el) => {
      const c = el.shadowRoot.querySelector('pe-lines').shadowRoot.querySelector('canvas'), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n;
    });
    assert.ok(ink > 2000, `${name}: the plot has ink (${ink} pixels)`);
    await fig.locator('select[name="base"]').selectOption('10000');
    assert.equal(await ready(), 'ok');
    assert.ok(Math.abs(await readout() - scoreAt(10000)) < SCORE_TOL, `${name}: after the control, score at 15000, base 10000: ${await readout()} vs ${scoreAt(10000)}`);
    await fig.locator('button.export').click();
    const dl = p.waitForEvent('download');
    await fig.locator('.menu button[data-x="png"]').click();
    const file = await dl;
    assert.equal(file.suggestedFilename(), 'posenc-rope-decay.png');
    assert.deepEqual([...readFileSync(await file.path()).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${name}: a PNG`);
    await shot(fig, `engines/${name}`);
    if (dark) {
      await p.evaluate(dark);
      const bg = () => fig.evaluate((el) => getComputedStyle(el).getPropertyValue('--pe-bg').trim());
      for (const t0 = Date.now(); await bg() !== '#17171a'; await p.waitForTimeout(50)) {
        if (Date.now() - t0 > 5000) assert.fail(`${name}: the figure did not follow the page's dark mode`);
      }
      await shot(p, `engines/${name}-dark`);
    }
    if (extra) await extra(p, fig);   // the engine's own checks, on the page as it is now
    assert.deepEqual(errors.filter((e) => !ignore.some((r) => r.test(e))), [], `${name}: console errors`);
  } finally {
    await browser.close(); S.server.close();
  }
}

/**
 * `python3 -m http.server` serving `dir` on a free port of 127.0.0.1: a plain static server that is not the project's
 * own (no rewrites, no links, its own MIME table). Returns { origin, server: { close } } like serveStatic.
 */
export async function pythonServer(dir) {
  const proc = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const port = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`python3 -m http.server did not start: ${text}`)), 15000);
    const on = (b) => { text += b; const m = /port (\d+)/.exec(text); if (m) { clearTimeout(t); resolve(Number(m[1])); } };
    proc.stdout.on('data', on); proc.stderr.on('data', (b) => { text += b; });
    proc.on('exit', (c) => { clearTimeout(t); reject(new Error(`python3 -m http.server exited ${c}: ${text}`)); });
  });
  proc.stderr.removeAllListeners('data'); proc.stderr.resume(); proc.stdout.resume();   // its request log is not read
  return { origin: `http://127.0.0.1:${port}`, server: { close: () => proc.kill() } };
}
