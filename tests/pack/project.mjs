// The throw-away consumer project: `npm pack` of the repository, installed with `npm install --offline` into a
// temp folder (as a user gets it: only the tarball's files), the bundlers linked from the repository's
// node_modules, and the fixtures laid out as each consumer expects them. Returns the paths and a `run` helper.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const BUNDLERS = ['webpack', 'webpack-cli', 'esbuild', '@rollup/wasm-node', '@rollup/plugin-node-resolve', 'vite', 'vite5', '@types/node'];

/** Runs a command; returns { status, stdout, stderr, output } (output = both, for assertion messages). */
export function run(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, output: `${r.stdout}\n${r.stderr}`.trim() };
}

const bin = (name) => join(repo, 'node_modules/.bin', name);
const fixture = (name) => readFileSync(join(fixtures, name), 'utf8');
function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export function createProject() {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-consumer-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }))[0];
  const tarball = join(dir, packed.filename);
  write(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], dir);
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.output}`);
  for (const name of BUNDLERS) {     // linked after the install (npm would prune them as extraneous)
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(repo, 'node_modules', name), join(dir, 'node_modules', name));
  }
  for (const f of ['esm.mjs', 'cjs.cjs', 'figures.ts', 'require.cts', 'tsconfig.bundler.json', 'tsconfig.nodenext.json',
    'tsconfig.node.json', 'tsconfig.bare.json', 'tsconfig.node16.json']) cpSync(join(fixtures, f), join(dir, f));
  cpSync(join(repo, 'tests/types/consumer.ts'), join(dir, 'consumer.ts'));
  const pkg = join(dir, 'node_modules/posenc');

  // Browser sources: `src/` for the bundlers; the blog page imports the package by a relative URL instead.
  for (const f of ['app.js', 'main.js', 'cdn.js', 'worker.js', 'worker-main.js']) cpSync(join(fixtures, f), join(dir, 'src', f));
  const blog = join(dir, 'site/blog/posts/rope');
  const relative = (f) => fixture(f).replace("from 'posenc'", "from '../../vendor/posenc/dist/index.js'")
    .replace("import 'posenc/figures'", "import '../../vendor/posenc/dist/figures.js'");
  for (const f of ['app.js', 'cdn.js', 'worker-main.js']) cpSync(join(fixtures, f), join(blog, f));
  for (const f of ['main.js', 'worker.js']) write(join(blog, f), relative(f));
  for (const [page, script] of [['index.html', 'main.js'], ['cdn.html', 'cdn.js'], ['worker.html', 'worker-main.js']]) {
    write(join(blog, page), fixture('page.html').replace('./main.js', `./${script}`));
  }
  write(join(blog, 'many.html'), fixture('many.html'));
  mkdirSync(join(dir, 'site/blog/vendor'), { recursive: true });
  symlinkSync(pkg, join(dir, 'site/blog/vendor/posenc'));

  // Bundled consumers: each folder gets an entry that imports the shared main.js and a page that loads the output.
  write(join(dir, 'webpack/src/index.js'), "import '../../src/main.js';\n");
  const classic = fixture('page.html').replace('<script type="module" src="./main.js">', '<script src="./dist/main.js">');
  write(join(dir, 'webpack/index.html'), classic);   // webpack's and esbuild's default output: a classic script
  write(join(dir, 'esbuild/index.html'), classic);
  write(join(dir, 'esbuild-esm/index.html'), fixture('page.html').replace('./main.js', './dist/main.js'));
  write(join(dir, 'rollup/index.html'), fixture('page.html').replace('./main.js', './dist/main.js'));
  write(join(dir, 'vite/main.js'), "import '../src/main.js';\n");
  write(join(dir, 'vite/index.html'), fixture('page.html'));

  return { dir, tarball, packed, pkg, bin, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
