// `npm run bench`: what the npm package weighs — the tarball `npm pack` makes, every .js/.wasm file in it raw and
// gzipped (zlib level 9, as static hosts and CDNs serve it), and what a browser app ships: the package's browser
// entry, and posenc/figures with the package's JS it loads, bundled and minified by esbuild, gzipped (the .wasm apart).
// Prints one JSON line per file, then a summary with the goals of issue 11 (each wasm ≤ 150 KiB gz, figures.js ≤ 60 KiB gz).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const gz = (bytes) => gzipSync(bytes, { level: 9 }).length;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const emit = (o) => console.log(JSON.stringify(o));

const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
const files = pack.files.map((f) => f.path).filter((p) => /\.(m?js|cjs|wasm)$/.test(p)).map((path) => {
  const bytes = readFileSync(`${root}${path}`);
  return { path, bytes: bytes.length, gzip: gz(bytes) };
});
for (const f of files) emit({ kind: 'size', file: f.path, bytes: f.bytes, gzip_bytes: f.gzip });
emit({ kind: 'size', file: pack.filename, bytes: pack.size, unpacked_bytes: pack.unpackedSize, files: pack.entryCount });

// What an app ships: each browser entry bundled and minified (the .wasm stays a separate file).
const bundles = [];
for (const [name, entry] of [['posenc', 'dist/index.js'], ['posenc/figures + posenc', 'dist/figures.js']]) {
  if (!existsSync(`${root}${entry}`)) continue;
  const out = await build({ entryPoints: [`${root}${entry}`], bundle: true, minify: true, format: 'esm', write: false,
    logLevel: 'silent' });
  const js = out.outputFiles[0].contents;
  bundles.push({ name, bytes: js.length, gzip: gz(js) });
  emit({ kind: 'bundle', entry: name, minified_bytes: js.length, gzip_bytes: gz(js) });
}

const GOALS = { 'dist/posenc-simd.wasm': 150 * 1024, 'dist/posenc-scalar.wasm': 150 * 1024, 'dist/figures.js': 60 * 1024 };
const goal = (limit, n) => (limit ? `${n <= limit ? 'met' : 'NOT met'} (≤ ${kib(limit)})` : '');
const pad = (s, n) => `${s} `.padEnd(n);
console.log(`\n[bench sizes] npm tarball ${pack.filename}: ${kib(pack.size)} (${kib(pack.unpackedSize)} unpacked, ${pack.entryCount} files)`);
console.log(pad('file', 44) + pad('raw', 13) + pad('gzip', 13) + 'goal');
for (const f of [...files].sort((a, b) => b.gzip - a.gzip)) {
  console.log(pad(f.path, 44) + pad(kib(f.bytes), 13) + pad(kib(f.gzip), 13) + goal(GOALS[f.path], f.gzip));
}
for (const b of bundles) console.log(pad(`${b.name} (esbuild -minify)`, 44) + pad(kib(b.bytes), 13) + kib(b.gzip));
