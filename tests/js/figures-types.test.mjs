// Figure definitions that carry `// @ts-check` type-check strictly against the package's own TypeScript sources
// (tests/types/figures-tsconfig.json lists them; JSDoc types, pe as the Posenc class). Every def that opts in must be listed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('figure definitions with // @ts-check type-check (strict), and all of them are in the check', () => {
  const listed = JSON.parse(readFileSync(`${root}tests/types/figures-tsconfig.json`, 'utf8')).files.map((f) => f.split('/').pop());
  const dir = `${root}web/src/figures/defs/`;
  const opted = readdirSync(dir).filter((f) => f.endsWith('.js') && readFileSync(dir + f, 'utf8').startsWith('// @ts-check'));
  assert.deepEqual([...opted].sort(), [...listed].sort());
  const r = spawnSync(`${root}node_modules/.bin/tsc`, ['-p', 'tests/types/figures-tsconfig.json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

// The single-file figure, its page protocol, the anywidget module and the theme detection (// @ts-check, JSDoc):
// strict, against the package's TypeScript sources (#wasm, #instance mapped to web/src).
test('the embedding layer (html.js, to-html.js, widget.js, standalone/, theme.js) type-checks (strict)', () => {
  const cfg = JSON.parse(readFileSync(`${root}tests/types/figures-embed-tsconfig.json`, 'utf8'));
  for (const f of cfg.files.filter((x) => x.endsWith('.js'))) assert.match(readFileSync(`${root}tests/types/${f}`, 'utf8'), /^\/\/ @ts-check/, f);
  const r = spawnSync(`${root}node_modules/.bin/tsc`, ['-p', 'tests/types/figures-embed-tsconfig.json'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
