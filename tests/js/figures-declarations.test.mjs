// The declarations of posenc/figures and posenc/widget are tsc's output from the JSDoc of web/src/figures (no
// hand-kept .d.ts), and they declare exactly the values the modules export at run time: each runtime export of
// dist/figures.js, dist/widget.js (imported in Node, where figures.js defines nothing) is checked against the
// declarations by TypeScript itself, for import (figures.d.ts) and require() (figures.d.cts). Needs a build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsc = join(root, 'node_modules/.bin/tsc');
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));

test('no hand-kept declarations: the only .d.ts under web/src/figures declares the build\'s virtual modules', () => {
  const dts = walk(join(root, 'web/src/figures')).filter((f) => /\.d\.[cm]?ts$/.test(f)).map((f) => relative(root, f));
  assert.deepEqual(dts, ['web/src/figures/ambient-virtual.d.ts']);
  assert.doesNotMatch(readFileSync(join(root, 'web/src/figures/ambient-virtual.d.ts'), 'utf8'), /posenc\/figures|PosencFigure|describeFigure/);
});

test('dist/figures/ is what tsc emitted from web/src/figures (byte for byte), and figures.d.ts carries the module comment', () => {
  const shipped = walk(join(root, 'dist/figures')).map((f) => relative(join(root, 'dist'), f));
  assert.ok(shipped.includes('figures/index.d.ts') && shipped.includes('figures/element.d.ts') && shipped.includes('figures/widget.d.ts'), shipped.join());
  for (const f of shipped) assert.equal(readFileSync(join(root, 'dist', f), 'utf8'), readFileSync(join(root, 'build/figures-types', f), 'utf8'), f);
  const top = readFileSync(join(root, 'dist/figures.d.ts'), 'utf8');
  assert.match(top, /^\/\*\*\n \* posenc\/figures — every figure of the posenc explainer as a custom element/);
  assert.match(top, /Content-Security-Policy/);
  assert.match(top, /export \* from '\.\/figures\/index\.js';/);
  assert.equal(readFileSync(join(root, 'web/src/figures/index.js'), 'utf8').includes(' * posenc/figures — every figure of the posenc explainer'), true);
});

/** Compiles `files` ({name: text}) in a folder inside the repository (so 'posenc/…' resolves to this package). */
function compile(files, options) {
  const dir = join(root, 'build/declarations-test');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2022', 'DOM'], target: 'ES2022', ...options }, files: Object.keys(files) }));
  const r = spawnSync(tsc, ['-p', dir], { cwd: root, encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
  return r;
}

const keys = (names) => `{ ${names.map((k) => `${JSON.stringify(k)}: true`).join(', ')} }`;

test('every runtime export of posenc/figures and posenc/widget is declared, and nothing else (import and require)', async () => {
  const figures = Object.keys(await import(pathToFileURL(join(root, 'dist/figures.js')).href)).sort();
  const widget = await import(pathToFileURL(join(root, 'dist/widget.js')).href);
  // what the hand-kept figures.d.ts declared (its last version): still there
  for (const k of ['figureNames', 'describeFigure', 'figureHTML', 'figureSVG', 'pngWithAlt', 'FigureError', 'PosencFigure', 'PeHeatmap', 'PeLines', 'PeVec2']) assert.ok(figures.includes(k), k);
  assert.deepEqual(Object.keys(widget), ['default', 'standaloneText']);
  // standaloneText: the tarball's one copy of figures-standalone.js (package.json "files" leaves the file out)
  assert.equal(widget.standaloneText, readFileSync(join(root, 'dist/figures-standalone.js'), 'utf8'));
  assert.deepEqual(Object.keys(widget.default), ['render']);
  // `satisfies Record<K, true>`: a declared value missing at run time is a missing property, a runtime export that
  // is not declared an excess property; both are type errors
  const esm = `import * as F from 'posenc/figures';\nimport * as W from 'posenc/widget';\n`
    + `export const figures = ${keys(figures)} satisfies Record<keyof typeof F, true>;\n`
    + `export const widget = ${keys(Object.keys(widget))} satisfies Record<keyof typeof W, true>;\n`
    + `export const render = ${keys(Object.keys(widget.default))} satisfies Record<keyof typeof W.default, true>;\n`;
  const r = compile({ 'esm.ts': esm }, { module: 'ESNext', moduleResolution: 'bundler' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const cjs = `import F = require('posenc/figures');\nimport W = require('posenc/widget');\n`
    + `export const figures = ${keys(figures)} satisfies Record<keyof typeof F, true>;\n`
    + `export const render = ${keys(Object.keys(widget.default))} satisfies Record<keyof typeof W.default, true>;\n`;
  const c = compile({ 'cjs.cts': cjs }, { module: 'Node16', moduleResolution: 'Node16' });
  assert.equal(c.status, 0, c.stdout + c.stderr);
  // and the check can fail: a name the module does not export is reported
  const bad = compile({ 'bad.ts': `import * as F from 'posenc/figures';\nexport const f = ${keys([...figures, 'figureTable'])} satisfies Record<keyof typeof F, true>;\n` }, { module: 'ESNext', moduleResolution: 'bundler' });
  assert.notEqual(bad.status, 0);
  assert.match(bad.stdout, /figureTable/);
});

test('the declared types: the descriptions, the elements by tag name, toSVG overloads, widget model (misuses rejected)', () => {
  const src = `import { describeFigure, figureNames, figureHTML, FigureError } from 'posenc/figures';
import type { Bilingual, FigureDescription, FigureParam, PosencFigure, PeHeatmap, PeLines, PeVec2 } from 'posenc/figures';
import widget, { type WidgetModel } from 'posenc/widget';
export async function use(model: WidgetModel): Promise<number> {
  const d: FigureDescription = describeFigure(figureNames[0]);
  const p: FigureParam = d.params[0];
  const t: Bilingual = d.takeaway;
  const kind: 'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2' = p.type;
  const el: PosencFigure = document.createElement('posenc-figure');
  const h: PeHeatmap = document.createElement('pe-heatmap'), l: PeLines = document.createElement('pe-lines'), v: PeVec2 = document.createElement('pe-vec2');
  h.update({ data: new Float32Array(4), rows: 2, cols: 2 });
  l.update({ series: [{ y: [1, 2], kind: 'bar' }] });
  v.vectors = [{ id: 'q', x: 1, y: 0, label: 'q' }];
  const svg: string = el.toSVG(), wide: Promise<string> = el.toSVG({ width: 680 }), png: Blob = await (await el.ready).toPNG({ scale: 2, width: 680 });
  const e = new FigureError({ en: 'x', zh: 'x' }, 'figure'), attr: string = e.attribute, text: Bilingual = e.text;
  const page: string = figureHTML({ figure: 'alibi', script: 'posenc', lang: 'zh', theme: 'dark' });
  const stop: () => void = widget.render({ model, el: document.body });
  // @ts-expect-error: toSVG takes no scale
  el.toSVG({ scale: 2 });
  // @ts-expect-error: lang is en or zh
  figureHTML({ figure: 'alibi', script: 'posenc', lang: 'fr' });
  // @ts-expect-error: a heatmap needs rows and cols
  h.update({ data: [1] });
  // @ts-expect-error: engine is read-only
  el.engine = 'main';
  stop();
  return svg.length + (await wide).length + png.size + t.en.length + kind.length + attr.length + text.zh.length + page.length;
}
`;
  const r = compile({ 'use.ts': src }, { module: 'ESNext', moduleResolution: 'bundler' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
