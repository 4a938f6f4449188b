// The npm package as a user gets it: `npm pack`, installed into a throw-away project (project.mjs), then used from
// Node (ESM, CommonJS), TypeScript (--strict, moduleResolution bundler and nodenext), webpack 5, esbuild, Rollup and
// Vite builds loaded in Chromium, and plain pages without a bundler (served from a sub-path, from a second origin as
// a CDN would, under a strict Content-Security-Policy, in a module worker) — plus each way loading can fail.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

test('the tarball holds the package (dist/, LICENSE, README) and no repository-internal names in its typings', () => {
  const paths = project.packed.files.map((f) => f.path);
  for (const p of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.js.map', 'dist/index.d.ts',
    'dist/node.js', 'dist/index.cjs', 'dist/glue-simd.mjs', 'dist/glue-scalar.mjs', 'dist/posenc-simd.wasm', 'dist/posenc-scalar.wasm',
    'dist/figures.js', 'dist/figures.d.ts', 'dist/figures-worker.js']) {
    assert.ok(paths.includes(p), `${p} missing from the tarball`);
  }
  assert.deepEqual(paths.filter((p) => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(p)), []);
  for (const f of paths.filter((p) => p.endsWith('.js'))) assert.ok(paths.includes(`${f}.map`), `${f}: no source map`);
  for (const f of paths.filter((p) => p.endsWith('.d.ts'))) {
    // source paths, C++ or TypeScript file names, the project's source documents (NNN_<hash>.txt); 'llama.cpp' is the
    // public project an engine option names (ropeFromConfig's engine: 'llama.cpp'), not a file
    const internal = readFileSync(join(pkg, f), 'utf8')
      .match(/\b(cpp|web|tests|scripts|seeds)\/|\w\.[ch]pp\b(?<!\bllama\.cpp)|\w+\.m?ts\b(?<!\.d\.ts)|\b\d{3}_[0-9a-f]{16}|\w\.txt\b/g);
    assert.equal(internal, null, `${f} mentions ${internal}`);
  }
  assert.match(readFileSync(join(pkg, 'LICENSE'), 'utf8'), /^MIT License/);
});

test('Node ESM: RoPE tables (SIMD and scalar builds), PosencErrors for bad bytes, posenc/figures importable', () => {
  const r = run('node', ['esm.mjs'], dir);
  assert.equal(r.status, 0, r.output);
  const out = JSON.parse(r.stdout);
  assert.equal(out.version, version);
  assert.equal(out.simd, true);
  assertTables(out, 'node simd');
  assert.deepEqual(out.scalarCos, out.cos);
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

for (const resolution of ['bundler', 'nodenext']) {
  test(`TypeScript --strict, moduleResolution ${resolution}: the consumer type-checks and a misuse is rejected`, () => {
    const r = run(bin('tsc'), ['-p', `tsconfig.${resolution}.json`], dir);
    assert.equal(r.status, 0, r.output);
  });
}

// ---- browsers ------------------------------------------------------------------------------------------------
const exec = promisify(execFile);
const build = (args, cwd) => exec(args[0], args.slice(1), { cwd: join(dir, cwd), encoding: 'utf8', timeout: 60000 })
  .then(({ stdout, stderr }) => `${stdout}\n${stderr}`, (e) => { throw new Error(`${args.join(' ')} failed:\n${e.stdout}\n${e.stderr}`); });
const copyWasm = (to) => { for (const f of readdirSync(join(pkg, 'dist')).filter((f) => f.endsWith('.wasm'))) cpSync(join(pkg, 'dist', f), join(dir, to, f)); };

describe('in Chromium', () => {
  let browser, blog, cdn, vite, builds;
  before(async () => {
    builds = await Promise.all([
      build([bin('webpack'), '--mode', 'production'], 'webpack'),
      build([bin('esbuild'), '../src/main.js', '--bundle', '--outfile=dist/main.js'], 'esbuild'),   // its default: iife
      // -d: posenc/figures loads the package lazily (a second chunk) when no worker can start
      build([bin('rollup'), '../src/main.js', '-p', 'node-resolve', '-f', 'es', '-d', 'dist'], 'rollup'),
      build([bin('vite'), 'build'], 'vite'),
    ]);
    // esbuild and Rollup leave assets to the user (the README's copy step): esbuild gets the two .wasm only (the figure
    // then computes on the main thread), Rollup the whole dist/ folder (the figures' worker included).
    copyWasm('esbuild/dist');
    cpSync(join(pkg, 'dist'), join(dir, 'rollup/dist'), { recursive: true, force: false });
    [blog, vite] = await Promise.all([serve(modes(dir)), serve(files(join(dir, 'vite/dist')))]);
    // The CDN: another origin serving the unpacked tarball under /npm/posenc@VERSION/, with CORS as public CDNs send it.
    const prefix = `/npm/posenc@${version}/`;
    cdn = await serve((p) => (p.startsWith(prefix)
      ? { ...files(pkg)(p.slice(prefix.length - 1)), headers: { 'access-control-allow-origin': '*' } } : null));
    cdn.base = `${cdn.origin}${prefix.slice(0, -1)}`;
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    for (const s of [blog, cdn, vite]) s?.server.close();
  });

  /** Opens a page, waits for its <body data-result>, returns it parsed, with the page's console errors. */
  async function resultOf(url) {
    const page = await browser.newPage();
    const errors = [], warnings = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
      if (m.type() === 'warning') warnings.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (res) => { if (res.status() >= 400 && !res.url().endsWith('/favicon.ico')) errors.push(`HTTP ${res.status()} ${res.url()}`); });
    try {
      await page.goto(url);
      const handle = await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 20000 })
        .catch((e) => { throw new Error(`${url}: ${e.message}; ${errors.join(' | ')}`); });
      const r = JSON.parse(await handle.jsonValue());
      // posenc/figures says on the console when it computes on the main thread because no worker could start
      return { ...r, errors, warnings, figureWorker: !warnings.some((w) => /posenc figures: no worker/.test(w)) };
    } finally {
      await page.close();
    }
  }

  test('webpack 5, esbuild, Rollup and Vite bundle it without configuration or warnings', () => {
    const [webpack, esbuild, rollup, viteOut] = builds;
    // webpack's only remark is its advisory size hint: the SIMD .wasm (≈300 KiB) is over its 244 KiB default.
    const webpackWarnings = webpack.split('\n').filter((l) => /WARNING/.test(l) && !/size limit|performance/.test(l));
    assert.deepEqual(webpackWarnings, [], webpack);
    assert.ok(readdirSync(join(dir, 'webpack/dist')).filter((f) => f.endsWith('.wasm')).length === 2, 'webpack emitted the two .wasm');
    assert.doesNotMatch(esbuild, /warning|error/i, esbuild);
    assert.doesNotMatch(rollup, /\(!\)|warning/i, rollup);
    assert.doesNotMatch(viteOut, /warn|\(!\)|doesn't exist|node:/i, viteOut);
    assert.equal(readdirSync(join(dir, 'vite/dist/assets')).filter((f) => f.endsWith('.wasm')).length, 2, 'Vite emitted the two .wasm');
    for (const b of ['webpack', 'esbuild', 'rollup']) {
      assert.doesNotMatch(readFileSync(join(dir, b, 'dist/main.js'), 'utf8'), /["']node:/, `${b} bundled the Node entry`);
    }
  });

  for (const [name, path] of [['webpack', '/plain/webpack/'], ['esbuild', '/plain/esbuild/'], ['Rollup', '/plain/rollup/']]) {
    test(`${name} build runs in Chromium`, async () => {
      const r = await resultOf(blog.origin + path);
      assertTables(r, name);
      assertFigure(r.figure, name);
      assert.equal(r.figureWorker, name !== 'esbuild', r.warnings.join(' | '));   // esbuild's iife has no import.meta
      assert.deepEqual(r.errors, []);
    });
  }

  test('Vite build runs in Chromium', async () => {
    const r = await resultOf(`${vite.origin}/`);
    assertTables(r, 'vite');
    assertFigure(r.figure, 'vite');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.deepEqual(r.errors, []);
  });

  test('plain HTML page without a bundler, from a sub-path', async () => {
    const r = await resultOf(`${blog.origin}/plain/site/blog/posts/rope/`);
    assertTables(r, 'plain page');
    assertFigure(r.figure, 'plain page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.equal(r.simd, true);
    assert.deepEqual(r.errors, []);
  });

  test('plain page loading the package from a second origin (CDN)', async () => {
    const r = await resultOf(`${blog.origin}/plain/site/blog/posts/rope/cdn.html?cdn=${encodeURIComponent(cdn.base)}`);
    assertTables(r, 'CDN page');
    assertFigure(r.figure, 'CDN page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
    assert.deepEqual(r.errors, []);
  });

  test("page under Content-Security-Policy: default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; …", async () => {
    const r = await resultOf(`${blog.origin}/csp/site/blog/posts/rope/`);
    assertTables(r, 'CSP page');
    assertFigure(r.figure, 'CSP page');
    assert.ok(r.figureWorker, r.warnings.join(' | '));
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
