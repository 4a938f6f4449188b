// The forward pass of every position scheme (issue 36): posenc's own tiny models (web/models/<scheme>, trained by
// scripts/train/train.py) run by the core through pe.loadModel, checked against the training script's own PyTorch
// forward pass (scripts/train/model.py, run here with Debian's python3-torch) on the same held-out window of 1,024
// characters, 8× the trained 128: every position's loss, i.e. the log-softmax of the logits at the target.
// Tolerance NLL_MAX: 1e-3 nats at any position (measured ≤ 2.2e-4, RoPE; both sides float32, the core folds 1/√d into q, adds biases after the
// scores and sums in another order), NLL_MEAN 5e-5 over the window (measured ≤ 8.4e-6).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import init, { PosencError } from 'posenc';

const NLL_MAX = 1e-3, NLL_MEAN = 5e-5, LENGTH = 1024;
const repo = fileURLToPath(new URL('../..', import.meta.url));
const PY = '/usr/bin/python3', MODELS = join(repo, 'web/models');
const SCHEMES = ['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'nope', 'xpos', 'kerple'];
const torch = existsSync(PY) && spawnSync(PY, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
const skip = torch ? false : `torch is absent (${PY} -c "import torch" failed): install Debian's python3-torch`;
const pe = await init();
const load = (scheme) => pe.loadModel({ config: join(MODELS, scheme, 'config.json'), safetensors: join(MODELS, scheme, 'model.safetensors') });

test('each scheme loads with its own hyperparameters, parameter count and character tokenizer', async () => {
  const rotary = { rope: 24, xpos: 24 };
  for (const scheme of SCHEMES) {
    const m = await load(scheme);
    const card = readFileSync(join(MODELS, scheme, 'README.md'), 'utf8');
    const params = Number(/\| Parameters \| ([0-9,]+) \|/.exec(card)[1].replace(/,/g, ''));
    assert.equal(m.n_params, params, `${scheme}: parameters vs the card`);
    assert.equal(m.hparams.position, scheme);
    assert.equal(m.hparams.rotary_dim, rotary[scheme] ?? 0, scheme);
    assert.equal(m.hparams.interleaved, scheme === 'xpos', scheme);
    assert.equal(m.trained_context, 128);
    assert.equal(m.tokenizer.kind, 'char');
    const text = 'In the beginning God created the heaven and the earth.';
    assert.equal(m.decode(m.encode(text)), text);
    assert.equal(m.encode(text).length, text.length);
    m.free();
  }
});

test('the core’s loss at every position equals the training script’s forward pass, for every scheme, to 8× the trained length', { skip }, async () => {
  const r = spawnSync(PY, [join(repo, 'scripts/train/train.py'), '--nll', ...SCHEMES.map((s) => join(MODELS, s)), '--length', String(LENGTH)],
    { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const ref = JSON.parse(r.stdout);
  assert.equal(ref.text.length, LENGTH + 1);
  const inRange = {}, past = {};
  for (const scheme of SCHEMES) {
    const m = await load(scheme);
    const ev = await m.evaluate({ ids: m.encode(ref.text) });
    const want = ref[join(MODELS, scheme)];
    let max = 0, sum = 0;
    want.forEach((x, t) => { const d = Math.abs(ev.nll[t] - x); max = Math.max(max, d); sum += d; });
    assert.ok(max <= NLL_MAX, `${scheme}: max |Δnll| ${max}`);
    assert.ok(sum / want.length <= NLL_MEAN, `${scheme}: mean |Δnll| ${sum / want.length}`);
    inRange[scheme] = ev.nll.slice(0, 128).reduce((a, b) => a + b, 0) / 128;
    past[scheme] = ev.nll.slice(512).reduce((a, b) => a + b, 0) / (LENGTH - 512);
    m.free();
  }
  // what the models show (the models' README): ALiBi and KERPLE hold past the trained length, learned and sinusoidal
  // tables and RoPE do not
  for (const s of ['alibi', 'kerple']) assert.ok(past[s] < inRange[s] + 0.1, `${s}: ${past[s]} vs ${inRange[s]}`);
  for (const s of ['learned', 'sinusoidal', 'rope']) assert.ok(past[s] > inRange[s] + 0.5, `${s}: ${past[s]} vs ${inRange[s]}`);
});

test('the run options of a rotary model are refused by name for the other schemes; xPos takes a rope dict', async () => {
  const alibi = await load('alibi'), xpos = await load('xpos');
  const ids = alibi.encode('And the LORD spake unto Moses, saying,');
  await assert.rejects(alibi.evaluate({ ids, rope: { rope_type: 'linear', factor: 2 } }), (e) => e instanceof PosencError && /^rope: .*alibi, not rotary/.test(e.message));
  await assert.rejects(alibi.evaluate({ ids, rerope: { window: 16 } }), /^PosencError: rerope: /);
  await assert.rejects(alibi.evaluate({ ids, pairing: 'swapped' }), /pairing: .*not rotary/);
  assert.throws(() => alibi.rope(null, 16), /rope: this model's positions are alibi/);
  const ev = await alibi.evaluate({ ids, logn: true });   // log-n scaling of the query applies to any scheme
  assert.equal(ev.rope.rope_type, 'none');
  // a factor-1 linear dict is the model's own RoPE: the same losses
  const own = await xpos.evaluate({ ids }), pi1 = await xpos.evaluate({ ids, rope: { rope_type: 'linear', factor: 1 } });
  assert.deepEqual(Array.from(pi1.nll), Array.from(own.nll));
  const swapped = await xpos.evaluate({ ids, pairing: 'swapped' });
  assert.ok(swapped.nll.reduce((a, b) => a + b) > own.nll.reduce((a, b) => a + b), 'the wrong pairing costs loss');
  alibi.free(), xpos.free();
});

test('a posenc-tiny config with a bad position_encoding is refused by name', async () => {
  const dir = join(MODELS, 'alibi');
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const st = readFileSync(join(dir, 'model.safetensors'));
  const bad = async (pe_, re) => assert.rejects(pe.loadModel({ config: new TextEncoder().encode(JSON.stringify({ ...cfg, position_encoding: pe_ })), safetensors: st }), re);
  await bad({ type: 'fire' }, /config\.position_encoding\.type: must be one of rope, learned/);
  await bad({ type: 'kerple', kernel: 'power' }, /position_encoding\.kernel/);
  await bad({ type: 't5', bidirectional: true }, /bidirectional/);
  await bad({ type: 'learned' }, /position_encoding\.num_positions: must be a number/);
  await bad({ type: 'learned', num_positions: 128 }, /tensor 'model\.embed_positions\.weight' is missing/);
  await assert.rejects(load('alibi').then((m) => m.encode('naïve')), /character "ï" at 2 is not in the model's vocabulary/);
});

test('npx posenc eval runs a tiny model folder (no tokenizer.json) and prints the API’s numbers by bucket', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-tiny-eval-'));
  const text = join(dir, 'verses.txt');
  const verses = 'And God said, Let there be light: and there was light.\nAnd God saw the light, that it was good.\n';
  writeFileSync(text, verses.repeat(12));
  const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
  const run = (...args) => spawnSync('node', [cli, 'eval', join(MODELS, 't5'), '--text', text, ...args], { encoding: 'utf8', timeout: 120000 });
  const j = run('--ctx', '512', '--json');
  assert.equal(j.status, 0, j.stderr);
  const out = JSON.parse(j.stdout);
  assert.equal(out.tokens, 512);
  assert.equal(out.trained_context, 128);
  assert.equal(out.rope.rope_type, 'none');
  const m = await load('t5');
  const ev = await m.evaluate({ ids: m.encode(verses.repeat(12)).subarray(0, 512) });
  const mean = (a, b) => ev.nll.slice(a, b).reduce((x, y) => x + y, 0) / (b - a);
  assert.deepEqual(out.buckets.map((b) => [b.start, b.end]), [[0, 128], [128, 256], [256, 512]]);
  assert.ok(Math.abs(out.buckets[2].nll - mean(255, 511)) < 1e-6);
  const t = run('--ctx', '300');
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /positions: t5 \(not rotary\); 300 tokens/);
  assert.match(t.stdout, /128–256 .* past the trained length/);
  assert.match(run('--rope', '{"rope_type":"linear","factor":2}').stderr, /rope: this model's positions are t5, not rotary/);
  m.free();
});
