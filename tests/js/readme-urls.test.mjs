// The README's addresses, checked offline (no network here): it says at the top that the package is not on npm yet;
// every CDN address of posenc names this package.json's version (or a range holding it) and a file the tarball ships;
// links into GitHub repositories are permalinks (a commit, not a branch); every in-page link (#anchor) names a heading;
// `npm publish --dry-run` has nothing to correct in package.json (npm 11 silently dropped the bin "./dist/cli.js").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(`${root}README.md`, 'utf8');
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const urls = [...readme.matchAll(/https?:\/\/[^\s)`"'<>\]]+/g)].map((m) => m[0].replace(/[.,;:]+$/, ''));

test('the README says the package is not on npm yet, before its first install command', () => {
  const notice = readme.indexOf('**Not on npm yet.**'), install = readme.indexOf('```sh\nnpm install posenc');
  assert.ok(notice > 0 && notice < install, 'the notice comes first');
  assert.match(readme.slice(notice, install), /npm pack/);
  assert.match(readme.slice(notice, install), /Download HTML/);
});

test('CDN addresses of posenc: this version and a file the tarball ships', () => {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }))[0].files.map((f) => f.path);
  const cdn = urls.filter((u) => /cdn\.jsdelivr\.net\/npm\/posenc@|registry\.npmmirror\.com\/posenc\//.test(u));
  assert.ok(cdn.length >= 3, `CDN addresses found: ${cdn.length}`);
  for (const u of cdn) {
    const m = /posenc@([\w.-]+)\/(.+)$/.exec(u) ?? /posenc\/([\w.-]+)\/files\/(.+)$/.exec(u);
    assert.ok(m, u);
    const [, v, file] = m;
    assert.ok(pkg.version === v || pkg.version.startsWith(`${v}.`), `${u}: version ${v}, package.json has ${pkg.version}`);
    assert.ok(packed.includes(file), `${u}: ${file} is not in the tarball`);
  }
});

test('GitHub links are permalinks; in-page links name a heading', () => {
  for (const u of urls.filter((x) => /^https:\/\/github\.com\/[^/]+\/[^/]+\/(blob|tree)\//.test(x))) {
    assert.match(u, /\/(blob|tree)\/[0-9a-f]{7,40}\//, `${u}: a branch, not a commit`);
  }
  const slug = (h) => h.toLowerCase().replace(/[`*]/g, '').replace(/[^\p{L}\p{N}\s-]/gu, '').trim().replace(/\s/g, '-');
  const anchors = new Set([...readme.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
  const links = [...readme.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
  assert.ok(links.length >= 3);
  for (const a of links) assert.ok(anchors.has(a), `#${a}: no such heading`);
});

test('npm publish --dry-run: nothing to correct in package.json', () => {
  const r = spawnSync('npm', ['publish', '--dry-run'], { cwd: root, encoding: 'utf8' });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.doesNotMatch(out, /auto-corrected|errors corrected|was invalid and removed/, out);
  assert.match(out, /\+ posenc@0\.1\.0/);
  assert.match(out, /npm notice [\d.]+\w?B dist\/cli\.js/);
});
