// No import cycles in web/src, at run time or at type level: every edge counts — `import`, `import type`,
// `export … from`, dynamic `import('…')` and JSDoc `import('…')` types — between the TypeScript sources, the figure
// layer's JavaScript and the package imports #wasm / #instance; and none in the declarations the package ships
// (dist/**/*.d.ts, what a consumer's TypeScript follows). Strongly connected components by Tarjan's algorithm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));

/** The module graph of the files under `dir`: file → files it imports (relative specifiers and `aliases`). */
function graph(dir, aliases = {}) {
  const files = walk(dir).filter((f) => /\.(?:[cm]?js|[cm]?ts)$/.test(f));
  const target = (from, spec) => {
    if (aliases[spec]) return join(dir, aliases[spec]);
    if (!spec.startsWith('.')) return null;
    const b = resolve(dirname(from), spec);
    const tries = [b, b.replace(/\.js$/, '.ts'), b.replace(/\.js$/, '.d.ts'), b.replace(/\.mjs$/, '.mts'), b.replace(/\.mjs$/, '.d.mts'), b.replace(/\.cjs$/, '.d.cts')];
    return tries.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
  };
  const g = new Map();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\brequire\(\s*)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    g.set(f, [...new Set(specs.map((s) => target(f, s)).filter(Boolean))]);
  }
  return g;
}

/** Cycles: strongly connected components of more than one file, or a file importing itself. */
function cycles(g) {
  let n = 0;
  const index = new Map(), low = new Map(), stack = [], on = new Set(), out = [];
  const visit = (v) => {
    index.set(v, n); low.set(v, n++); stack.push(v); on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const c = []; let w;
      do { w = stack.pop(); on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1 || (g.get(v) ?? []).includes(v)) out.push(c.map((f) => relative(root, f)).sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('the finder finds a cycle (two modules importing each other, one only for a type)', () => {
  const a = join(root, 'web/src/posenc.ts'), b = join(root, 'web/src/gpu/index.ts');
  assert.deepEqual(cycles(new Map([[a, [b]], [b, [a]]])), [[relative(root, b), relative(root, a)].sort()]);
  assert.deepEqual(cycles(new Map([[a, [b]], [b, []]])), []);
});

test('web/src has no import cycle (value or type edges; the figure layer included)', () => {
  const g = graph(join(root, 'web/src'), { '#wasm': 'wasm.ts', '#instance': 'instance.ts' });
  assert.ok(g.size > 100, `${g.size} files`);
  assert.deepEqual(cycles(g), []);
});

test('the shipped declarations (dist/**/*.d.ts) have no import cycle', () => {
  const g = graph(join(root, 'dist'));
  const dts = [...g.keys()].filter((f) => /\.d\.[cm]?ts$/.test(f));
  assert.ok(dts.length > 40 && dts.some((f) => f.endsWith('dist/figures/element.d.ts')), `${dts.length} declaration files`);
  assert.deepEqual(cycles(new Map(dts.map((f) => [f, g.get(f).filter((t) => /\.d\.[cm]?ts$/.test(t))]))), []);
});
