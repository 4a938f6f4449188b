// The command line: `posenc inspect` run directly (node dist/cli.js) and as a user gets it (the packed tarball installed
// offline into a temp project, run through node_modules/.bin/posenc). Exit status 0 / 1 / 2, the numbers it prints
// against pe.compareRope's, and the JSON form.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import init from 'posenc';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (f) => join(repo, 'tests/fixtures/configs', f);
const cli = (args, bin = [join(repo, 'dist/cli.js')]) => {
  const r = spawnSync('node', [...bin, ...args], { encoding: 'utf8', timeout: 60000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
};
const pe = await init();

test('inspect one config: the summary, exit 0', () => {
  const r = cli(['inspect', fixture('Llama-3.1-8B.json')]);
  assert.equal(r.status, 0, r.err);
  assert.match(r.out, /rope_type +llama3, factor 8/);
  assert.match(r.out, /rope_theta +500000/);
  assert.match(r.out, /context +131072 \(original 8192\)/);
});

test('--compare: two files that disagree exit 1 and print the verdict and the numbers compareRope computes', () => {
  const r = cli(['inspect', fixture('Llama-3.1-8B.json'), '--compare', fixture('Llama-3.2-3B.json'), '--positions', '32768']);
  assert.equal(r.status, 1, r.err);
  const want = pe.compareRope(pe.ropeFromConfig(JSON.parse(execFileSync('cat', [fixture('Llama-3.1-8B.json')], { encoding: 'utf8' }))),
    pe.ropeFromConfig(JSON.parse(execFileSync('cat', [fixture('Llama-3.2-3B.json')], { encoding: 'utf8' }))), { positions: 32768 });
  assert.ok(r.out.includes(want.verdict), r.out);
  assert.match(r.out, new RegExp(`score error \\(of \\|q\\|·\\|k\\|\\) ${Number(want.max_score_error_ones.toPrecision(6))} all-ones`));
  assert.match(r.out, /DISAGREE beyond tolerance 0\.001/);
  // a loose enough tolerance makes them agree: exit 0
  const loose = cli(['inspect', fixture('Llama-3.1-8B.json'), '--compare', fixture('Llama-3.2-3B.json'), '--positions', '32768', '--tolerance', '0.9']);
  assert.equal(loose.status, 0, loose.err);
  assert.match(loose.out, /agree within tolerance 0\.9/);
});

test('--compare-engine: one config as two engines read it (Ministral 3-like YaRN: vLLM #48621), and --json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-cli-'));
  try {
    const f = join(dir, 'config.json');
    writeFileSync(f, JSON.stringify({ model_type: 'ministral3', head_dim: 128, max_position_embeddings: 262144,
      rope_parameters: { rope_type: 'yarn', rope_theta: 1e6, factor: 16, original_max_position_embeddings: 16384, mscale: 1, mscale_all_dim: 1 } }));
    const r = cli(['inspect', f, '--compare-engine', 'vllm']);
    assert.equal(r.status, 1);
    assert.match(r.out, /attention_scaling 1 vs 1\.277: every rotated score × 1\.631/);
    assert.match(r.out, /engine: rope_parameters: attention_scaling 1\.27726 \(transformers: 1\)/);
    const j = cli(['inspect', f, '--compare-engine', 'vllm', '--json']);
    assert.equal(j.status, 1);
    const o = JSON.parse(j.out);
    assert.equal(o.a.engine, 'transformers');
    assert.equal(o.b.engine, 'vllm');
    assert.ok(Math.abs(o.b.attention_scaling - 1.2772588722239782) < 1e-15);
    assert.equal(o.comparison.agree, false);
    assert.equal(o.comparison.attention_scaling[1], o.b.attention_scaling);
    assert.equal(o.a.inv_freq.length, 64);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a .gguf beside its config.json (the converter\'s header): the same RoPE within the tolerance, exit 0', async () => {
  const gguf = join(repo, 'tests/fixtures/gguf/Llama-3.1-8B.gguf');
  const one = cli(['inspect', gguf]);
  assert.equal(one.status, 0, one.err);
  assert.match(one.out, /Llama-3\.1-8B\.gguf \(GGUF, llama\)/);
  assert.match(one.out, /rope_theta +500000/);
  const r = cli(['inspect', fixture('Llama-3.1-8B.json'), '--compare', gguf, '--engine', 'llama.cpp']);
  assert.equal(r.status, 0, r.out + r.err);
  assert.match(r.out, /agree within tolerance 0\.001/);
  // the numbers are compareRope's on the two readings
  const g = await pe.ropeFromGGUF(gguf);
  const c = pe.compareRope(pe.ropeFromConfig(readFileSync(fixture('Llama-3.1-8B.json'), 'utf8'), { engine: 'llama.cpp' }), g);
  assert.ok(r.out.includes(c.verdict), r.out);
  const j = JSON.parse(cli(['inspect', gguf, '--json']).out);
  assert.equal(j.gguf.architecture, 'llama');
  assert.equal(j.inv_freq.length, 64);
});

test('bad arguments and files: exit 2 with a message', () => {
  for (const [args, re] of [[[], /no command/], [['inspect'], /a config\.json or \.gguf file is required/], [['inspect', 'a', 'b'], /one file \(got 2\)/],
    [['inspect', fixture('Llama-3.1-8B.json'), '--engin', 'vllm'], /unknown option --engin/],
    [['inspect', fixture('Llama-3.1-8B.json'), '--engine', 'sglang'], /engine: must be one of 'transformers', 'vllm', 'llama\.cpp'/],
    [['inspect', fixture('Llama-3.1-8B.json'), '--compare'], /--compare: needs a value/],
    [['inspect', fixture('Llama-3.1-8B.json'), '--compare', fixture('Llama-3.1-8B.json'), '--tolerance', 'x'], /--tolerance: must be a number/],
    [['inspect', join(repo, 'no-such.json')], /no-such\.json: no such file/],
    [['inspect', fixture('not-rope/gpt2.json')], /./]]) {
    const r = cli(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.out}`);
    assert.match(r.err, re, args.join(' '));
  }
  assert.equal(cli(['--help']).status, 0);
});

test('from the packed tarball: npx-style bin runs in a fresh project', { timeout: 180000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-bin-'));
  try {
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: repo, encoding: 'utf8' }))[0];
    assert.ok(packed.files.some((f) => f.path === 'dist/cli.js'), 'dist/cli.js in the tarball');
    // no dist/figures-standalone.js: posenc/figures finds its text as widget.js's standaloneText (dist/site, the
    // self-contained explainer, holds its own hashed copy)
    assert.ok(!packed.files.some((f) => f.path === 'dist/figures-standalone.js'), 'no dist/figures-standalone.js in the tarball');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], { cwd: dir, encoding: 'utf8' });
    const bin = join(dir, 'node_modules/.bin/posenc');
    // Qwen2.5 7B and Qwen3 8B: head_dim 128 (3584/28 and 128), rope_theta 1e6, no scaling — the same RoPE
    const same = spawnSync(bin, ['inspect', fixture('Qwen2.5-7B.json'), '--compare', fixture('Qwen3-8B.json')], { encoding: 'utf8', timeout: 60000 });
    assert.equal(same.status, 0, same.stderr);
    assert.match(same.stdout, /identical: same frequencies, scaling and layout/);
    const differ = spawnSync(bin, ['inspect', fixture('Llama-3.1-8B.json'), '--compare', fixture('Llama-3.2-3B.json'), '--positions', '4096'], { encoding: 'utf8', timeout: 60000 });
    assert.equal(differ.status, 1, differ.stderr);
    assert.match(differ.stdout, /inv_freq: 35 of 64 pairs differ/);
    // a diffusers config read per axis (Wan: t 44, h = w = 2·⌊128/6⌋ = 42 channels; cli-axes.test.mjs checks the numbers)
    const wan = spawnSync(bin, ['inspect', fixture('diffusion/wan-t2v-class-defaults.json')], { encoding: 'utf8', timeout: 60000 });
    assert.equal(wan.status, 0, wan.stderr);
    assert.match(wan.stdout, /\n {4}t +44 +10000 +0…21 .*\n {4}h +42 +10000 +22…42 /);
    // a single-file figure from the installed package: its inlined script is the built figures-standalone.js
    const page = spawnSync(bin, ['figure', 'rope-decay', 'base=500000', '--html'], { encoding: 'utf8', timeout: 60000, maxBuffer: 1 << 24 });
    assert.equal(page.status, 0, page.stderr);
    const { scriptText } = await import(join(repo, 'web/src/figures/html.js'));
    assert.equal(/<script id="posenc-standalone">([^]*?)<\/script>/.exec(page.stdout)?.[1], scriptText(readFileSync(join(repo, 'dist/figures-standalone.js'), 'utf8')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
