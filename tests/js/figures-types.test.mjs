// The figure layer is type-checked: every .js under web/src/figures (defs, blocks, standalone included) starts with
// `// @ts-check` and the whole layer passes tsc under web/src/figures/tsconfig.json (strict: noImplicitAny and
// strictNullChecks on; JSDoc types; #wasm, #instance and posenc as the package's TypeScript sources) — the check
// scripts/build.sh runs before it emits the declarations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(root, 'web/src/figures');
const walk = (d) => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
const tsc = (project) => spawnSync(join(root, 'node_modules/.bin/tsc'), ['-p', project, '--noEmit'], { cwd: root, encoding: 'utf8' });

test('every figure module carries // @ts-check, and the layer type-checks strictly', () => {
  const js = walk(dir).filter((f) => f.endsWith('.js'));
  assert.ok(js.length >= 60, `${js.length} files`);
  for (const f of js) assert.match(readFileSync(f, 'utf8'), /^\/\/ @ts-check\n/, f);
  const cfg = readFileSync(join(dir, 'tsconfig.json'), 'utf8');
  assert.match(cfg, /"strict": true/);
  assert.doesNotMatch(cfg, /noImplicitAny|strictNullChecks|skipDefaultLibCheck|"checkJs": false/);
  const r = tsc(join(dir, 'tsconfig.json'));
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test('the check fails on a type error in a figure definition (a wrong option name in a pe call)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'posenc-figtypes-'));
  try {
    writeFileSync(join(tmp, 'bad.js'), `// @ts-check\nimport { L } from '${dir}/params.js';\n/** @type {import('${dir}/params.js').FigureDef} */\nexport default { name: 'bad', title: L('a', 'a'), description: L('a', 'a'), takeaway: L('a', 'a'), params: {},\n`
      + `  panels: () => [], compute: (pe) => pe.ropeTables({ rotary_dim: 8, positions: 3, rope_base: 10000 }), render: () => ({}) };\n`);
    writeFileSync(join(tmp, 'tsconfig.json'), JSON.stringify({ extends: join(dir, 'tsconfig.json'), compilerOptions: { rootDir: '/', outDir: join(tmp, 'out'),
      paths: { '#wasm': [join(root, 'web/src/wasm.ts')], '#instance': [join(root, 'web/src/instance.ts')], posenc: [join(root, 'web/src/index.ts')] } }, include: [join(tmp, 'bad.js'), join(dir, 'ambient-virtual.d.ts')], exclude: [] }));
    const r = tsc(join(tmp, 'tsconfig.json'));
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /rope_base/);
  } finally { rmSync(tmp, { recursive: true, force: true }); }
});
