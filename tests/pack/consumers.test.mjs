// The npm package as a user gets it: `npm pack`, installed into a throw-away project (project.mjs), then used from
// Node (ESM, CommonJS), TypeScript 5.9 and 7 (--strict, no skipLibCheck; with and without the DOM library; bundler,
// nodenext and CommonJS under node16), checked by attw and publint, webpack 5, esbuild (iife and esm), Rollup and Vite
// builds and Vite 5 and 8 dev servers loaded in Chromium, and plain pages without a bundler (served from a sub-path,
// from a second origin as a CDN would, under a strict Content-Security-Policy, in a module worker, a post with several
// figures) — each fetching the .wasm once — plus each way loading can fail.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../e2e/browser.mjs';
import { createProject, repo, run } from './project.mjs';
import { files, modes, serve } from './server.mjs';

const project = createProject();
const { dir, pkg, bin } = project;
const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
after(() => project.remove());

// RoPE tables for rotary_dim 8, positions 0..2, rope_theta 10000, in closed form: cos/sin(m·10000^(−2i/8)), float64.
const EXPECTED = { cos: [], sin: [] };
for (let m = 0; m < 3; m++) {
  for (let i = 0; i < 4; i++) {
    EXPECTED.cos.push(Math.cos(m * 10000 ** (-i / 4)));
    EXPECTED.sin.push(Math.sin(m * 10000 ** (-i / 4)));
  }
}
/** Within 2 float32 ulp of the float64 value (the accuracy the package states for RoPE tables). */
function assertTables(r, label) {
  assert.ok(!r.error, `${label}: ${r.error}`);
  for (const k of ['cos', 'sin']) {
    assert.equal(r[k].length, 12, `${label} ${k}`);
    r[k].forEach((v, j) => {
      const e = EXPECTED[k][j];
      const ulp = e === 0 ? 0 : 2 ** (Math.floor(Math.log2(Math.abs(e))) - 23);
      assert.ok(Math.abs(v - e) <= 2 * ulp, `${label} ${k}[${j}] = ${v}, expected ${e}`);
    });
  }
}

/**
 * The <posenc-figure figure="alibi" heads="8" n="16"> of the pages: its CSV holds exactly what it drew — the slopes
 * 2^(−8(h+1)/H) of H = 8 heads (closed form) and head 0's causal bias −m·(i − j), m = 1/2 — to float32 accuracy.
 */
function assertFigure(f, label) {
  assert.ok(f && !f.error, `${label} figure: ${f?.error}`);
  const rows = f.csv.split('\n').filter((l) => l && !l.startsWith('#')).slice(1).map((l) => l.split(','));
  const slopes = rows.filter((r) => r[0] === 'slopes').map((r) => Number(r[5]));
  assert.deepEqual(slopes, [1, 2, 3, 4, 5, 6, 7, 8].map((h) => 2 ** -h), `${label} slopes`);
  const bias = rows.filter((r) => r[0] === 'map' && Number(r[3]) <= Number(r[2]));
  assert.equal(bias.length, 16 * 17 / 2, `${label} bias cells on and below the diagonal`);
  for (const r of bias) assert.ok(Math.abs(Number(r[5]) + 0.5 * (Number(r[2]) - Number(r[3]))) <= 1e-6, `${label} bias ${r}`);
}

test('the tarball holds the package (dist/, LICENSE, README): no duplicate files but the self-contained site\'s wasm, no source maps, no internal names', () => {
  const paths = project.packed.files.map((f) => f.path);
  for (const p of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/index.d.cts',
    'dist/node.js', 'dist/index.cjs', 'dist/glue.mjs', 'dist/posenc-simd.wasm', 'dist/posenc-scalar.wasm',
    'dist/threads/posenc-threads.js', 'dist/threads/posenc-threads.wasm', 'dist/threads/posenc-threads.worker.js', 'dist/threads/package.json',
    'dist/figures.js', 'dist/figures.d.ts', 'dist/figures.cjs', 'dist/figures.d.cts', 'dist/figures-worker.js']) {
    assert.ok(paths.includes(p), `${p} missing from the tarball`);
  }
  assert.deepEqual(paths.filter((p) => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(p)), []);
  // No file twice (the two builds share one glue; only stubs such as `export {};` of type-only modules may repeat), no
  // source maps and no links to missing ones.
  // The one deliberate repeat: dist/site is a self-contained static folder (any host serves it copied alone), so its
  // assets hold the two .wasm builds beside dist/'s own copies; nothing else.
  const seen = new Map(), repeats = [];
  for (const p of paths.filter((f) => readFileSync(join(pkg, f)).length > 100)) {
    const h = createHash('sha256').update(readFileSync(join(pkg, p))).digest('hex');
    if (seen.has(h)) repeats.push([seen.get(h), p].sort().join(' = ')); else seen.set(h, p);
  }
  assert.deepEqual(repeats.map((r) => r.replace(/-[\w-]{8}\.wasm$/, '-HASH.wasm')).sort(),
    ['dist/posenc-scalar.wasm = dist/site/assets/posenc-scalar-HASH.wasm', 'dist/posenc-simd.wasm = dist/site/assets/posenc-simd-HASH.wasm']);
  assert.deepEqual(paths.filter((p) => p.endsWith('.map')), []);
  for (const f of paths.filter((p) => /\.[cm]?js$/.test(p))) assert.doesNotMatch(readFileSync(join(pkg, f), 'utf8'), /sourceMappingURL/, f);
  for (const f of paths.filter((p) => p.endsWith('.d.ts'))) {
    // source paths, C++ or TypeScript file names, the project's source documents (NNN_<hash>.txt); 'llama.cpp' is the
    // public project an engine option names (ropeFromConfig's engine: 'llama.cpp'), not a file
    const internal = readFileSync(join(pkg, f), 'utf8')
      .match(/\b(cpp|web|tests|scripts|seeds)\/|\w\.[ch]pp\b(?<!\bllama\.cpp)|\w+\.m?ts\b(?<!\.d\.ts)|\b\d{3}_[0-9a-f]{16}|\w\.txt\b/g);
    assert.equal(internal, null, `${f} mentions ${internal}`);
  }
  assert.match(readFileSync(join(pkg, 'LICENSE'), 'utf8'), /^MIT License/);
});

test('Node ESM: RoPE tables (SIMD, scalar and threads builds), PosencErrors for bad bytes, posenc/figures importable', () => {
  const r = run('node', ['esm.mjs'], dir);
  assert.equal(r.status, 0, r.output);
  const out = JSON.parse(r.stdout);
  assert.equal(out.version, version);
  assert.equal(out.simd, true);
  assertTables(out, 'node simd');
  assert.deepEqual(out.scalarCos, out.cos);
  assert.ok(out.threads >= 1 && out.threads <= 4, `threads ${out.threads}`);
  assert.equal(out.threadsSameTables, true, 'init({ threads: true }) gives the floats of the default build');
  assert.match(out.html, /^PosencError: wasmBinary: is not a WebAssembly file \(\d+ bytes, starting "<!doctype html>/);
  assert.match(out.otherModule, /^PosencError: wasmBinary: is a WebAssembly module but not the one this version of posenc expects/);
  assert.equal(out.stillUsable, 12);
  assert.ok(out.figureNames.includes('alibi') && out.figureNames.length >= 20, out.figureNames.join());
  assert.deepEqual(out.alibiParams, ['heads', 'head', 'n', 'symmetric']);
  assert.equal(out.definedInNode, 'undefined');
});

test('Node CommonJS: require("posenc") works where Node can require ES modules, else says to use import()', () => {
  const r = run('node', ['cjs.cjs'], dir);
  assert.equal(r.status, 0, r.output);
  assertTables({ ...JSON.parse(r.stdout), sin: EXPECTED.sin }, 'require');
  const old = run('node', ['--no-experimental-require-module', 'cjs.cjs'], dir);   // as Node < 20.19 / 22.12
  assert.notEqual(old.status, 0);
  assert.match(old.stderr, /PosencError\]?: require: posenc is an ES module .*await import\('posenc'\)/);
});

test("README's per-figure parameter tables are those describeFigure() gives (scripts/figure-docs.mjs --check)", () => {
  const r = run('node', ['scripts/figure-docs.mjs', '--check'], repo);
  assert.equal(r.status, 0, r.output);
});

// TypeScript 7 (the repository's) and 5.9 (the one attw runs on), on the package's own .d.ts files (no skipLibCheck):
// ES modules with the DOM library (bundler, nodenext), a Node project (no DOM, @types/node), a bare one (ES2022 only),
// and CommonJS under node16 (require.cts: the .d.cts typings).
const TSC = { 7: join(repo, 'node_modules/typescript/bin/tsc'), 5.9: join(dirname(createRequire(join(repo, 'node_modules/@arethetypeswrong/core/package.json')).resolve('typescript/package.json')), 'bin/tsc') };
for (const [version, tsc] of Object.entries(TSC)) {
  for (const [config, what] of [['bundler', 'bundler, DOM'], ['nodenext', 'nodenext, DOM'], ['node', 'nodenext, Node without DOM'],
    ['bare', 'bundler, ES2022 only'], ['node16', 'CommonJS under node16']]) {
    if (version === '5.9' && config === 'nodenext') continue;   // (slow: 5.9 is checked with and without DOM elsewhere)
    test(`TypeScript ${version} --strict (${what}): the consumer type-checks and misuses are rejected`, () => {
      assert.equal(JSON.parse(readFileSync(join(dirname(tsc), '../package.json'), 'utf8')).version.split('.')[0], version.split('.')[0]);
      const r = run(tsc, ['-p', `tsconfig.${config}.json`], dir);
      assert.equal(r.status, 0, r.output);
    });
  }
}

test('attw (are the types wrong) and publint find no problem in the tarball', () => {
  const attw = run(join(repo, 'node_modules/.bin/attw'), [project.tarball, '--format', 'ascii'], dir);
  assert.equal(attw.status, 0, attw.output);
  assert.match(attw.output, /No problems found/);
  const publint = run(join(repo, 'node_modules/.bin/publint'), ['run', project.tarball, '--level', 'warning', '--strict'], dir);
  assert.equal(publint.status, 0, publint.output);
  assert.doesNotMatch(publint.output, /Warnings|Errors/, publint.output);
});

// ---- browsers ------------------------------------------------------------------------------------------------
const exec = promisify(execFile);
const build = (args, cwd) => exec(args[0], args.slice(1), { cwd: join(dir, cwd), encoding: 'utf8', timeout: 180000 })
  .then(({ stdout, stderr }) => `${stdout}\n${stderr}`, (e) => { throw new Error(`${args.join(' ')} failed:\n${e.stdout}\n${e.stderr}`); });
const copyWasm = (to) => { for (const f of readdirSync(join(pkg, 'dist')).filter((f) => f.endsWith('.wasm'))) cpSync(join(pkg, 'dist', f), join(dir, to, f)); };

/** A Vite dev server (the `vite` package at `path`) on the throw-away project's vite/ folder: no configuration. */
async function devServer(path, cacheDir) {
  const { createServer } = await import(join(repo, 'node_modules', path, 'dist/node/index.js'));
  const logged = [];
  const log = (m) => logged.push(m);
  const customLogger = { info() {}, warn: log, warnOnce: log, error: log, clearScreen() {}, hasErrorLogged: () => false, hasWarned: false };
  const server = await createServer({ root: join(dir, 'vite'), cacheDir: join(dir, 'vite', cacheDir), configFile: false,
    customLogger, server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  return { origin: server.resolvedUrls.local[0].replace(/\/$/, ''), logged, close: () => server.close() };
}

describe('in Chromium', () => {
  let browser, blog, cdn, vite, vite5dev, vite8dev, builds;
  before(async () => {
    builds = await Promise.all([
      build([bin('webpack'), '--mode', 'production'], 'webpack'),
      build([bin('esbuild'), '../src/main.js', '--bundle', '--outfile=dist/main.js'], 'esbuild'),   // its default: iife
      build([bin('esbuild'), '../src/main.js', '--bundle', '--format=esm', '--outfile=dist/main.js'], 'esbuild-esm'),
      // -d: posenc/figures loads the package lazily (a second chunk) when no worker can start
      build([bin('rollup'), '../src/main.js', '-p', 'node-resolve', '-f', 'es', '-d', 'dist'], 'rollup'),
      build([bin('vite'), 'build'], 'vite'),
    ]);
    // esbuild and Rollup leave assets to the user (the README's copy step): the whole dist/ folder next to the bundle.
    for (const b of ['esbuild', 'esbuild-esm', 'rollup']) cpSync(join(pkg, 'dist'), join(dir, b, 'dist'), { recursive: true, force: false });
    [blog, vite] = await Promise.all([serve(modes(dir)), serve(files(join(dir, 'vite/dist')))]);
    // The CDN: another origin serving the unpacked tarball under /npm/posenc@VERSION/, with CORS as public CDNs send it.
    const prefix = `/npm/posenc@${version}/`;
    cdn = await serve((p) => (p.startsWith(prefix)
      ? { ...files(pkg)(p.slice(prefix.length - 1)), headers: { 'access-control-allow-origin': '*' } } : null));
    cdn.base = `${cdn.origin}${prefix.slice(0, -1)}`;
    // Vite dev servers: 5 pre-bundles posenc/figures into its cache folder with esbuild, 8 with Rolldown.
    vite5dev = await devServer('vite5', 'cache5');
    vite8dev = await devServer('vite', 'cache8');
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    for (const s of [blog, cdn, vite]) s?.server.close();
    await Promise.all([vite5dev?.close(), vite8dev?.close()]);
  });

  /**
   * Opens a page (a fresh browser context: cold cache), waits for its <body data-result>, returns it parsed, with the
   * page's console errors and the .wasm requests it made.
   */
  async function resultOf(url) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = [], warnings = [], wasm = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
      if (m.type() === 'warning') warnings.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (req) => { if (/\.wasm(\?|$)/.test(req.url())) wasm.push(req.url()); });
    page.on('response', (res) => { if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) errors.push(`HTTP ${res.status()} ${res.url()}`); });
    try {
      await page.goto(url);
      const handle = await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 30000 })
        .catch((e) => { throw new Error(`${url}: ${e.message}; ${errors.join(' | ')}`); });
      const r = JSON.parse(await handle.jsonValue());
      // posenc/figures says on the console when it computes on the main thread because no worker could start
      return { ...r, errors, warnings, wasm, figureWorker: !warnings.some((w) => /posenc figures: no worker/.test(w)) };
    } finally {
      await context.close();
    }
  }

  test('webpack 5, esbuild, Rollup and Vite bundle it without configuration or warnings', () => {
    const [webpack, esbuild, esbuildEsm, rollup, viteOut] = builds;
    // webpack's only remark is its advisory size hint: the SIMD .wasm (≈300 KiB) is over its 244 KiB default.
    const webpackWarnings = webpack.split('\n').filter((l) => /WARNING/.test(l) && !/size limit|performance/.test(l));
    assert.deepEqual(webpackWarnings, [], webpack);
    assert.ok(readdirSync(join(dir, 'webpack/dist')).filter((f) => f.endsWith('.wasm')).length === 2, 'webpack emitted the two .wasm');
    for (const out of [esbuild, esbuildEsm]) assert.doesNotMatch(out, /warning|error/i, out);
    assert.doesNotMatch(rollup, /\(!\)|warning/i, rollup);
    assert.doesNotMatch(viteOut, /warn|\(!\)|doesn't exist|node:/i, viteOut);
    // Each .wasm once: the worker gets the module the page compiled, so its bundle references no .wasm of its own.
    assert.deepEqual(readdirSync(join(dir, 'vite/dist/assets')).filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/[-.][\w-]{8}\.wasm$/, '')).sort(),
      ['posenc-scalar', 'posenc-simd'], 'Vite emitted each .wasm once');
    for (const b of ['webpack', 'esbuild', 'esbuild-esm', 'rollup']) {
      assert.doesNotMatch(readFileSync(join(dir, b, 'dist/main.js'), 'utf8'), /["']node:/, `${b} bundled the Node entry`);
    }
  });

  for (const [name, path] of [['webpack', '/plain/webpack/'], ['esbuild (default iife format)', '/plain/esbuild/'],
    ['esbuild (esm format)', '/plain/esbuild-esm/'], ['Rollup', '/plain/rollup/']]) {
    test(`${name} build runs in Chromium: the figure computes in its worker, one .wasm fetch`, async () => {
      const r = await resultOf(blog.origin + path);
      assertTables(r, name);
      assertFigure(r.figure, name);
      assert.ok(r.figureWorker, r.warnings.join(' | '));
      assert.equal(r.wasm.length, 1, r.wasm.join(' '));
      assert.deepEqual(r.errors, []);
    });
  }

  test('Vite build runs in Chromium', async () => {
    const r = await resultOf(`${vite.origin}/`);
    assertTables(r, 'vite');
    assertFigure(r.figure, 'vite');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.equal(r.wasm.length, 1, r.wasm.join(' '));
    assert.deepEqual(r.errors, []);
  });

  for (const [name, server] of [['Vite 5', () => vite5dev], ['Vite 8', () => vite8dev]]) {
    test(`${name} dev server (dependencies pre-bundled), no configuration: the figure computes in its worker`, async () => {
      const r = await resultOf(`${server().origin}/`);
      assertTables(r, name);
      assertFigure(r.figure, name);
      assert.ok(r.figureWorker, r.warnings.join(' | '));
      assert.equal(r.wasm.length, 1, r.wasm.join(' '));
      assert.deepEqual(r.errors, []);
      assert.deepEqual(server().logged, [], `${name} dev server's log`);
    });
  }

  test('plain HTML page without a bundler, from a sub-path', async () => {
    const r = await resultOf(`${blog.origin}/plain/site/blog/posts/rope/`);
    assertTables(r, 'plain page');
    assertFigure(r.figure, 'plain page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.equal(r.simd, true);
    assert.equal(r.wasm.length, 1, r.wasm.join(' '));
    assert.deepEqual(r.errors, []);
  });

  test('a post with four figures: one .wasm fetch, and the first figure paints soon after it scrolls into view', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });   // fresh: a cold cache
    const page = await context.newPage();
    const errors = [], wasm = [], requests = [];
    page.on('console', (m) => { if (m.type() === 'error' || /posenc/.test(m.text())) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('request', (req) => { requests.push(req.url()); if (/\.wasm$/.test(req.url())) wasm.push(req.url()); });
    try {
      await page.goto(`${blog.origin}/plain/site/blog/posts/rope/many.html`, { waitUntil: 'networkidle' });
      assert.deepEqual(wasm, [], 'nothing is fetched before a figure comes near the viewport');
      // From the scroll to the first figure's paint: the worker script, the .wasm (compiled once), the computation.
      const ms = await page.evaluate(async () => {
        const el = document.getElementById('first'), t0 = performance.now();
        el.scrollIntoView();
        await customElements.whenDefined('posenc-figure');
        await new Promise((r) => requestAnimationFrame(r));
        await el.ready;
        return performance.now() - t0;
      });
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const engines = await page.$$eval('posenc-figure', (els) => Promise.all(els.map((el) => el.ready.then(() => el.engine))));
      console.log(`[pack] first figure painted ${ms.toFixed(0)} ms after scrolling into view (cold cache, local server); ` +
        `${requests.length} requests in all`);
      assert.deepEqual(engines, ['worker', 'worker', 'worker', 'worker']);
      // toPNG: scale is device pixels per CSS pixel, 0 < scale ≤ 8, default 2; anything else is a PosencError naming it
      const png = await page.$eval('#first', async (el) => {
        const width = async (o) => (await createImageBitmap(await el.toPNG(o))).width;
        const bad = await Promise.all([0, -1, 'x', 50, NaN, Infinity, 8.5].map((scale) => el.toPNG({ scale }).then(() => 'no error', (e) => `${e.name}: ${e.message}`)));
        return { one: await width({ scale: 1 }), byDefault: await width(), eight: await width({ scale: 8 }), bad };
      });
      assert.equal(png.byDefault, 2 * png.one);
      assert.equal(png.eight, 8 * png.one);
      for (const e of png.bad) assert.match(e, /^PosencError: scale: must be a number in \(0, 8\] — device pixels per CSS pixel, default 2 \(got /);
      assert.equal(wasm.length, 1, wasm.join(' '));
      assert.ok(ms < 3000, `first paint ${ms} ms`);   // a bound for a loaded 2-core CI machine; the note reports the measurement
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('plain page loading the package from a second origin (CDN)', async () => {
    const r = await resultOf(`${blog.origin}/plain/site/blog/posts/rope/cdn.html?cdn=${encodeURIComponent(cdn.base)}`);
    assertTables(r, 'CDN page');
    assertFigure(r.figure, 'CDN page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.equal(r.wasm.length, 1, r.wasm.join(' '));
    assert.deepEqual(r.errors, []);
  });

  test("page under Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; …", async () => {
    const r = await resultOf(`${blog.origin}/csp/site/blog/posts/rope/`);
    assertTables(r, 'CSP page');
    assertFigure(r.figure, 'CSP page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.equal(r.wasm.length, 1, r.wasm.join(' '));
    assert.deepEqual(r.errors, []);
  });

  test('module worker', async () => {
    const r = await resultOf(`${blog.origin}/plain/site/blog/posts/rope/worker.html`);
    assertTables(r, 'worker');
    assert.deepEqual(r.errors, []);
  });

  test("a CSP without 'wasm-unsafe-eval' rejects with a PosencError that says what to allow", async () => {
    const r = await resultOf(`${blog.origin}/csp-nowasm/site/blog/posts/rope/`);
    assert.match(r.error, /^PosencError: wasm: the page's Content-Security-Policy forbids compiling WebAssembly: add 'wasm-unsafe-eval' to script-src/);
  });

  test('a missing .wasm (HTTP 404) rejects with a PosencError that says where the file belongs', async () => {
    const r = await resultOf(`${blog.origin}/missing/site/blog/posts/rope/`);
    assert.match(r.error, /^PosencError: wasm: could not load http:\/\/127\.0\.0\.1:\d+\/missing\/site\/blog\/vendor\/posenc\/dist\/posenc-simd\.wasm \(HTTP 404\)\. .*copy both files next to the JavaScript/);
  });

  test('an HTML page served in place of the .wasm rejects with a PosencError', async () => {
    const r = await resultOf(`${blog.origin}/html/site/blog/posts/rope/`);
    assert.match(r.error, /^PosencError: wasm: http:\S+posenc-simd\.wasm is not a WebAssembly file \(\d+ bytes, starting "<!doctype html>.*HTML fallback page/);
  });
});
