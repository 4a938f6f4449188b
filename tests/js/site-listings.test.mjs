// Every code listing on the explainer runs as pasted and prints what the page shows under it (issue 35, Deliver 1).
// The listings are read from the site's sources (web/site/index.html and web/site/sections/*.html): each
// <pre class="listing" data-run="python|node"> is followed by <pre class="listing-out"><samp>…</samp></pre>, the output
// the page prints beside it. Python listings run with Debian's python3 (python3-numpy, python3-torch: scripts/setup.sh);
// node listings are written inside the repository, where `import … from 'posenc'` resolves to the built package
// (dist/, scripts/build.sh). Then the printed numbers are checked against values computed here, independently: the
// rotation in float64 by its definition, and the rope-worked figure's own compute (the numbers it draws).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import init from 'posenc';
import ropeWorked from '../../web/src/figures/defs/rope-worked.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SITE = join(ROOT, 'web/site');
const files = ['index.html', ...readdirSync(join(SITE, 'sections')).filter((f) => f.endsWith('.html')).map((f) => `sections/${f}`)];
const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

/** Every listing of the site: { file, id, lang, code, expected }, and every <pre class="listing"> that is not one. */
function listings() {
  const out = [], bare = [];
  for (const f of files) {
    const html = readFileSync(join(SITE, f), 'utf8').replace(/<!--[\s\S]*?-->/g, (c) => ' '.repeat(c.length));   // comments may name the markup
    for (const m of html.matchAll(/<pre class="listing"([^>]*)>([\s\S]*?)<\/pre>(\s*<pre class="listing-out"><samp>([\s\S]*?)<\/samp><\/pre>)?/g)) {
      const attrs = m[1], run = /data-run="(python|node)"/.exec(attrs)?.[1];
      if (/id="cite-bibtex"/.test(attrs)) continue;   // BibTeX to copy, not code to run
      if (!run || m[3] === undefined) { bare.push(`${f}: ${m[2].slice(0, 60)}`); continue; }
      const id = /id="([^"]+)"/.exec(html.slice(html.lastIndexOf('<figure', m.index), m.index))?.[1] ?? `${f}@${m.index}`;
      out.push({ file: f, id, lang: run, code: unescape(m[2].replace(/^<code>|<\/code>$/g, '')), expected: unescape(m[4]) });
    }
  }
  return { out, bare };
}

/** A python3 with numpy and torch: Debian's first (pyenv or a venv may shadow it on PATH). */
function python() {
  for (const p of ['/usr/bin/python3', 'python3']) {
    try { execFileSync(p, ['-c', 'import numpy, torch'], { stdio: 'ignore' }); return p; } catch { /* next */ }
  }
  throw new Error('no python3 with numpy and torch: apt-get install python3-numpy python3-torch (scripts/setup.sh)');
}

const { out: all, bare } = listings();
const printed = new Map();   // id → stdout

test('every listing on the page is runnable and has its output beside it', () => {
  assert.deepEqual(bare, [], 'a <pre class="listing"> without data-run and a <pre class="listing-out"> after it');
  assert.ok(all.length >= 8, `${all.length} listings`);
  assert.ok(all.some((l) => l.lang === 'node') && all.some((l) => l.lang === 'python' && /import torch/.test(l.code)) && all.some((l) => /import numpy/.test(l.code)));
  assert.equal(new Set(all.map((l) => l.id)).size, all.length, 'ids are unique');
});

test('each listing, run as pasted, prints exactly what the page shows', () => {
  const py = python();
  const tmp = join(tmpdir(), `posenc-listings-${process.pid}`), inRepo = join(ROOT, 'build', `listings-${process.pid}`);
  mkdirSync(tmp, { recursive: true }); mkdirSync(inRepo, { recursive: true });
  try {
    for (const l of all) {
      let stdout;
      if (l.lang === 'python') {
        const f = join(tmp, `${l.id}.py`); writeFileSync(f, l.code);
        stdout = execFileSync(py, [f], { encoding: 'utf8', cwd: tmp, timeout: 120_000 });
      } else {
        const f = join(inRepo, `${l.id}.mjs`); writeFileSync(f, l.code);   // inside the package: 'posenc' is the build
        stdout = execFileSync(process.execPath, [f], { encoding: 'utf8', cwd: inRepo, timeout: 60_000 });
      }
      assert.equal(stdout.trimEnd(), l.expected.trimEnd(), `${l.file} #${l.id}`);
      printed.set(l.id, stdout);
    }
  } finally { rmSync(tmp, { recursive: true, force: true }); rmSync(inRepo, { recursive: true, force: true }); }
});

// ── the printed numbers against values computed here ──
const nums = (s) => [...s.matchAll(/-?\d+\.\d+/g)].map((m) => Number(m[0]));
const out = (id) => { const l = all.find((x) => x.id === id); assert.ok(l, id); return l.expected; };
/** RoPE of x at position p in float64, by definition: pairs (a_i, b_i) turned by p·base^(−2i/r), r rotated channels. */
function rope(x, p, pairs, r = x.length, base = 10000) {
  const y = [...x];
  for (let i = 0; i < r / 2; i++) {
    const [a, b] = pairs(i), t = p * base ** (-2 * i / r);
    y[a] = x[a] * Math.cos(t) - x[b] * Math.sin(t); y[b] = x[a] * Math.sin(t) + x[b] * Math.cos(t);
  }
  return y;
}
const inter = (i) => [2 * i, 2 * i + 1], half = (d) => (i) => [i, i + d / 2];
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

test('the d = 4 listings print the rope-worked figure\'s scores (its default, and its two tries)', async () => {
  const pe = await init();
  const p0 = Object.fromEntries(Object.entries(ropeWorked.params).map(([k, v]) => [k, v.default]));
  const q = [...p0.q01, ...p0.q23], k = [...p0.k01, ...p0.k23];
  assert.deepEqual([q, k, p0.base], [[1, 0.5, -0.5, 1], [0.5, 1, 1, 0.5], 10000]);   // the listings' inputs are the figure's
  const drawn = [[1, 3], [11, 13], [3, 1]].map(([m, n]) => ropeWorked.compute(pe, { ...p0, m, n }).dot);
  const mine = [[1, 3], [11, 13], [3, 1]].map(([m, n]) => dot(rope(q, m, inter), rope(k, n, inter)));
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(drawn[i] - mine[i]) < 1e-6, `${drawn[i]} vs ${mine[i]}`);
  assert.deepEqual(nums(out('code-worked-numpy')), mine.map((v) => Number(v.toFixed(4))));
  assert.deepEqual(nums(out('code-worked-numpy')), [-1.0731, -1.0731, 0.2408]);
  // the figure's tries quote the same two numbers
  assert.match(ropeWorked.tries[0].look.en, /−1\.0731/); assert.match(ropeWorked.tries[1].look.en, /0\.2408/);
  // the trap: half-split pairs on the same numbers, then after the permutation (q0, q2, q1, q3)
  const P = (v) => [v[0], v[2], v[1], v[3]];
  const trap = [dot(rope(q, 1, half(4)), rope(k, 3, half(4))), dot(rope(P(q), 1, half(4)), rope(P(k), 3, half(4)))];
  assert.deepEqual(nums(out('code-trap-torch')), trap.map((v) => Number(v.toFixed(4))));
  assert.deepEqual(nums(out('code-trap-torch')), [-0.1218, -1.0731]);
  assert.deepEqual(nums(out('code-trap-js')), [mine[0], trap[0]].map((v) => Number(v.toFixed(4))));
});

test('the layout listings print q = 1…8 at m = 7 as each layout defines it; the interleaved ones agree', () => {
  const q = [1, 2, 3, 4, 5, 6, 7, 8];
  const want = { hf: rope(q, 7, half(8)), meta: rope(q, 7, inter), gptj: rope(q, 7, inter), glm: rope(q, 7, inter, 4) };
  for (const [id, v] of Object.entries(want)) {
    const got = nums(out(`code-layout-${id}`));
    assert.equal(got.length, 8, id);
    got.forEach((g, i) => assert.ok(Math.abs(g - v[i]) <= 5e-5 + 1e-12, `${id}[${i}]: ${g} vs ${v[i]}`));
  }
  assert.deepEqual(nums(out('code-layout-meta')), nums(out('code-layout-gptj')));
  assert.notDeepEqual(nums(out('code-layout-hf')), nums(out('code-layout-meta')));
  assert.deepEqual(nums(out('code-layout-glm')).slice(4), [5, 6, 7, 8]);   // the unrotated half passes through
  const js = out('code-layout-js').split('\n').map(nums);
  assert.deepEqual(js, [nums(out('code-layout-hf')), nums(out('code-layout-meta')), nums(out('code-layout-glm'))]);
});

test('the KV-cache listing: continuing positions and a common shift change no score; restarting at 0 does', () => {
  const d = 8, T = 12, pos = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
  const row = (f, r) => Array.from({ length: d }, (_, c) => f(r * d + c));
  const q = Array.from({ length: T }, (_, r) => row((t) => Math.sin(0.7 * t), r)), k = Array.from({ length: T }, (_, r) => row((t) => Math.cos(1.3 * t), r));
  const rot = (x, p) => x.map((v, r) => rope(v, p[r], half(d)));
  const scores = (qs, ks) => qs.map((a) => ks.map((b) => dot(a, b)));
  const maxDiff = (a, b) => Math.max(...a.flatMap((r, i) => r.map((v, j) => Math.abs(v - b[i][j]))));
  const full = scores(rot(q, pos(0, T)), rot(k, pos(0, T)));
  const cache = rot(k.slice(0, 8), pos(0, 8));
  const right = scores(rot(q.slice(8), pos(8, 12)), [...cache, ...rot(k.slice(8), pos(8, 12))]);
  const wrong = scores(rot(q.slice(8), pos(0, 4)), [...cache, ...rot(k.slice(8), pos(0, 4))]);
  const shifted = scores(rot(q, pos(5, 17)), rot(k, pos(5, 17)));
  const mine = [maxDiff(right, full.slice(8)), maxDiff(wrong, full.slice(8)), maxDiff(shifted, full)];
  assert.ok(mine[0] < 1e-9 && mine[2] < 1e-9 && mine[1] > 1, String(mine));
  // the page prints "8-11" and "0-3" in its labels: take the number after "max |diff|"
  const printed = [...out('code-kv-cache').matchAll(/max \|diff\| (\d+\.\d+)/g)].map((m) => Number(m[1]));
  assert.deepEqual(printed, mine.map((v) => Number(v.toFixed(4))));
});
