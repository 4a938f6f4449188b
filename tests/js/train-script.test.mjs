// The "train short, test long" models (issue 36): scripts/train/train.py and the weights it wrote under web/models/.
// (1) The script cannot rot: one scheme retrained for its first steps (seconds; real training never runs in tests)
//     reproduces the training losses its model card recorded, and its first loss is ln(vocabulary size) — a model at
//     its small random init predicts every character about equally.
// (2) Each committed model is what its card says: the safetensors file, parsed here in JS, is float16, ≤ 1 MB, and
//     holds exactly the card's parameter count; config.json names the scheme and the vocabulary; the script's own
//     evaluation of the committed weights reproduces the card's in-range validation loss.
// Needs Debian's python3-torch at /usr/bin/python3 (skips with a message when torch is absent) and the bible-kjv-text
// package for the text (scripts/setup.sh installs both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const PY = '/usr/bin/python3', SCRIPT = join(repo, 'scripts/train/train.py'), MODELS = join(repo, 'web/models');
const SCHEMES = ['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'nope', 'xpos', 'kerple'];
const torch = existsSync(PY) && spawnSync(PY, ['-c', 'import torch'], { encoding: 'utf8' }).status === 0;
const skip = torch ? false : `torch is absent (${PY} -c "import torch" failed): install Debian's python3-torch to run these checks`;
const trained = existsSync(MODELS) ? SCHEMES.filter((s) => existsSync(join(MODELS, s, 'model.safetensors'))) : [];

const LOSS_TOL = 2e-3;   // nats: the same deterministic float32 steps; room for another CPU's summation order
const VAL_TOL = 1e-3;    // nats: the card prints 4 decimals of the same evaluation of the same f16 weights

/** The numbers a model card records (scripts/train/card.py writes them). */
function card(scheme) {
  const text = readFileSync(join(MODELS, scheme, 'README.md'), 'utf8');
  const first = /First (\d+) training losses: ([0-9., ]+)/.exec(text);
  const params = /\| Parameters \| ([0-9,]+) \|/.exec(text);
  const steps = /\| Training \| (\d+) steps/.exec(text);
  assert.ok(first && params && steps, `${scheme}: the card lacks its losses, parameters or steps`);
  /** @type {Record<string, number>} */
  const val = {};
  for (const m of text.matchAll(/^\| (\d+) \((\d+)×\) \| ([0-9.]+) \|/gm)) val[m[1]] = Number(m[3]);
  return { first: first[2].split(',').map(Number), n: Number(first[1]), params: Number(params[1].replace(/,/g, '')), steps: Number(steps[1]), val };
}

/** safetensors, read independently of the Python writer: 8-byte length, JSON header, raw tensors. */
function safetensorsHeader(file) {
  const buf = readFileSync(file), n = Number(buf.readBigUInt64LE(0)), header = JSON.parse(buf.subarray(8, 8 + n).toString('utf8'));
  delete header.__metadata__;
  return { header, dataBytes: buf.length - 8 - n };
}

const run = (args) => {
  const r = spawnSync(PY, [SCRIPT, ...args], { cwd: repo, encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, `train.py ${args.join(' ')} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
};

test('the committed models are there (train them with scripts/train/train.py --all)', () => {
  assert.ok(trained.length > 0, `no trained model under ${MODELS}`);
});

test('retraining the first steps reproduces the card’s training losses', { skip }, () => {
  const scheme = trained.includes('alibi') ? 'alibi' : trained[0], c = card(scheme);
  const cfg = JSON.parse(readFileSync(join(MODELS, scheme, 'config.json'), 'utf8'));
  const r = run(['--scheme', scheme, '--steps', String(c.n), '--no-save', '--json']);
  assert.equal(r.first_losses.length, c.n);
  // independent of the card: at init (std 0.02) every character is about equally likely, loss ≈ ln(vocabulary size)
  assert.ok(Math.abs(r.first_losses[0] - Math.log(cfg.vocab_size)) < 0.1, `first loss ${r.first_losses[0]} vs ln ${cfg.vocab_size}`);
  assert.ok(r.first_losses[c.n - 1] < r.first_losses[0] - 0.3, 'the loss falls over the first steps');
  r.first_losses.forEach((x, i) => assert.ok(Math.abs(x - c.first[i]) <= LOSS_TOL, `${scheme} step ${i}: ${x} vs the card's ${c.first[i]}`));
  assert.equal(r.params, c.params);
});

test('each committed model: f16 safetensors ≤ 1 MB with the card’s parameter count, and its config', () => {
  for (const scheme of trained) {
    const file = join(MODELS, scheme, 'model.safetensors'), c = card(scheme);
    assert.ok(statSync(file).size <= 1 << 20, `${scheme}: ${statSync(file).size} bytes`);
    const { header, dataBytes } = safetensorsHeader(file);
    let count = 0;
    for (const [name, t] of Object.entries(header)) {
      assert.equal(t.dtype, 'F16', `${scheme} ${name}`);
      const n = t.shape.reduce((a, b) => a * b, 1);
      assert.equal(t.data_offsets[1] - t.data_offsets[0], 2 * n, `${scheme} ${name}: bytes`);
      count += n;
    }
    assert.equal(dataBytes, 2 * count, `${scheme}: the data section holds the tensors and nothing else`);
    assert.equal(count, c.params, `${scheme}: parameters in the file vs the card`);
    const cfg = JSON.parse(readFileSync(join(MODELS, scheme, 'config.json'), 'utf8'));
    assert.equal(cfg.position_encoding.type, scheme);
    assert.equal(cfg.tokenizer.vocab.length, cfg.vocab_size);
    assert.deepEqual(header['model.embed_tokens.weight'].shape, [cfg.vocab_size, cfg.hidden_size]);
    assert.equal(cfg.tie_word_embeddings, true);
    for (const k of ['hidden_size', 'num_hidden_layers', 'num_attention_heads', 'intermediate_size', 'max_position_embeddings', 'rms_norm_eps'])
      assert.ok(Number.isFinite(cfg[k]), `${scheme}: ${k}`);
    for (let l = 0; l < cfg.num_hidden_layers; l++) for (const p of ['q_proj', 'k_proj', 'v_proj', 'o_proj'])
      assert.deepEqual(header[`model.layers.${l}.self_attn.${p}.weight`].shape, [cfg.hidden_size, cfg.hidden_size]);
    // ALiBi's slopes for 4 heads, from the paper's rule (a geometric sequence starting at 2^(-8/n), ratio the same)
    if (scheme === 'alibi') assert.deepEqual(cfg.position_encoding.slopes, [2 ** -2, 2 ** -4, 2 ** -6, 2 ** -8]);
    // the same training steps for every scheme
    assert.equal(c.steps, card(trained[0]).steps);
  }
  // equal sizes but for each scheme's own position parameters: a learned table (positions × hidden), T5's bucket table
  // (buckets × heads), KERPLE's two numbers per layer and head; the others add none
  const base = trained.filter((s) => ['sinusoidal', 'rope', 'alibi', 'nope', 'xpos'].includes(s)).map((s) => card(s).params);
  assert.ok(new Set(base).size <= 1, `parameter counts differ: ${base}`);
});

test('the script’s evaluation of each committed model reproduces its card’s validation loss', { skip: skip || !trained.length }, () => {
  const r = run(['--eval', ...trained.map((s) => join(MODELS, s)), '--factors', '1', '--json']);
  for (const scheme of trained) {
    const c = card(scheme), got = r[join(MODELS, scheme)]['128'].loss;
    assert.ok(Math.abs(got - c.val['128']) <= VAL_TOL, `${scheme}: ${got} vs the card's ${c.val['128']}`);
    assert.ok(got > 0.5 && got < Math.log(JSON.parse(readFileSync(join(MODELS, scheme, 'config.json'), 'utf8')).vocab_size), `${scheme}: ${got} nats is no trained model`);
  }
});

test('the model folders hold what the cards describe and nothing else', () => {
  for (const scheme of trained) assert.deepEqual(readdirSync(join(MODELS, scheme)).sort(), ['README.md', 'config.json', 'model.safetensors']);
});
