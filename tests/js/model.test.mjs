// pe.loadModel on the two real trained models (tests/js/real-models.mjs): the published loss, RoPE's exact identities,
// what the scaling methods do past the trained length (the real-model study's measurements as bounds), bad input.
// Tolerances: NLL_EXACT (1e-6) where the same floats must come out (prefill chunking; factor-1 dicts); NLL_OFFSET
// (1e-3 max, 1e-4 mean) for a position offset, whose angles round differently in float64 and whose cos/sin in float32.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init, { PosencError, lossByPosition } from 'posenc';
import { GGUF_260K, SOURCE_656K, mean, ppl, stream } from './real-models.mjs';
import { T, ggufFile } from './gguf-writer.mjs';

const NLL_EXACT = 1e-6, NLL_OFFSET_MAX = 1e-3, NLL_OFFSET_MEAN = 1e-4;
const pe = await init();
const m260 = await pe.loadModel(GGUF_260K, { trained_context: 512 });
const m656 = await pe.loadModel(SOURCE_656K);
const maxDiff = (a, b) => a.reduce((m, x, k) => Math.max(m, Math.abs(x - b[k])), 0);

test('stories260K loads from its .gguf: shape, parameters, pairing, vocabulary', () => {
  assert.deepEqual({ ...m260.hparams }, { arch: 'llama', n_layer: 5, n_embd: 64, n_head: 8, n_head_kv: 4, head_dim: 8, n_ff: 172,
    n_vocab: 512, rotary_dim: 8, rms_eps: m260.hparams.rms_eps, rope_theta: 10000, n_ctx_train: 2048, interleaved: true, position: 'rope' });
  assert.equal(m260.n_params, 292800);   // the study's count: 48 tensors, norms included
  assert.equal(m260.trained_context, 512);
  assert.equal(m260.format, 'gguf');
  assert.equal(m260.tokenizer.kind, 'spm');
  assert.equal(m260.tokenizer.tokens.length, 512);
  const ids = m260.encode('Once upon a time, there was a cat.');
  assert.equal(ids[0], m260.tokenizer.bos);
  assert.equal(m260.decode(ids), 'Once upon a time, there was a cat.');
});

test('TinyStories-656K loads from safetensors + config.json + tokenizer.json: 656,000 parameters, tied head', () => {
  assert.equal(m656.n_params, 656000);
  assert.equal(m656.tied, true);
  assert.equal(m656.hparams.interleaved, false);
  assert.equal(m656.hparams.head_dim, 16);
  assert.equal(m656.trained_context, 512);
  const s = 'Spot. Spot saw the shiny car and said, "Wow, Kitty, your car is so bright and clean!"';
  const ids = m656.encode(s);
  assert.equal(ids[0], 1);   // <|start_story|>, its tokenizer_config's bos
  assert.equal(m656.decode(ids), s);
});

test('stories260K: mean loss on 512-token windows of TinyStories validation text lies in [1.20, 1.35] (published 1.297)', async () => {
  const ids = stream(m260, 24 * 512);
  const losses = [];
  for (let w = 0; w < 24; w++) {
    const ev = await m260.evaluate({ ids: ids.subarray(w * 512, (w + 1) * 512) });
    losses.push(mean(ev.nll));
  }
  const m = mean(losses);
  assert.ok(m >= 1.20 && m <= 1.35, `mean loss ${m}`);
});

test('prefill = step-by-step decode: the same losses whatever the chunk (1, 7, 256 tokens)', async () => {
  const ids = stream(m260, 300);
  const a = await m260.evaluate({ ids, chunk: 256 });
  for (const chunk of [1, 7]) {
    const b = await m260.evaluate({ ids, chunk });
    assert.ok(maxDiff(a.nll, b.nll) <= NLL_EXACT, `chunk ${chunk}: ${maxDiff(a.nll, b.nll)}`);
    assert.deepEqual(b.hit, a.hit);
  }
});

test('RoPE is relative: a constant position offset changes no loss (both models)', async () => {
  for (const lm of [m260, m656]) {
    const ids = stream(lm, 400, { eos: lm === m656 });
    const a = await lm.evaluate({ ids }), b = await lm.evaluate({ ids, position_offset: 1000 });
    const d = a.nll.map((x, k) => Math.abs(x - b.nll[k]));
    assert.ok(Math.max(...d) <= NLL_OFFSET_MAX && mean(d) <= NLL_OFFSET_MEAN, `max ${Math.max(...d)}, mean ${mean(d)}`);
  }
});

test('every method at factor 1 (and ReRoPE with a window past the sequence) is the original', async () => {
  const ids = stream(m656, 300, { eos: true });
  const base = await m656.evaluate({ ids });
  for (const rope of [{ rope_type: 'linear', factor: 1 }, { rope_type: 'dynamic', factor: 1 }, { rope_type: 'yarn', factor: 1 },
    { rope_type: 'dynamic', alpha: 1 }, { rope_theta: 10000 }]) {
    const ev = await m656.evaluate({ ids, rope });
    assert.ok(maxDiff(base.nll, ev.nll) <= NLL_EXACT, `${JSON.stringify(rope)}: ${maxDiff(base.nll, ev.nll)}`);
  }
  const re = await m656.evaluate({ ids, rerope: { window: 300 } });
  assert.ok(maxDiff(base.nll, re.nll) <= NLL_EXACT);
});

test('past the trained length: the original breaks, ReRoPE holds, YaRN and NTK recover most (TinyStories-656K, 2048)', async () => {
  const ids = stream(m656, 2048, { eos: true });
  const run = async (o) => {
    const ev = await m656.evaluate({ ids, ...o });
    return { inside: ppl(ev.nll, 0, 512), far: ppl(ev.nll, 1024, 2048) };
  };
  const orig = await run({}), rerope = await run({ rerope: { window: 256 } }), yarn = await run({ rope: { rope_type: 'yarn', factor: 4 } });
  const ntk = await run({ rope: { rope_type: 'dynamic', alpha: 4 } });
  const seedNtk = await run({ rope: { rope_theta: 10000 * 4 ** (2 / 16) } });   // seed 000's base·s^(2/d)
  const logn = await run({ logn: true });
  assert.ok(orig.far / orig.inside > 4, `original ${orig.far} vs ${orig.inside}`);
  assert.ok(rerope.far / rerope.inside < 1.8, `ReRoPE ${rerope.far} vs ${rerope.inside}`);
  assert.ok(yarn.far < orig.far / 3 && ntk.far < orig.far / 2, `YaRN ${yarn.far}, NTK ${ntk.far}, original ${orig.far}`);
  assert.ok(Math.abs(seedNtk.far / orig.far - 1) < 0.15, `seed's NTK ${seedNtk.far} vs original ${orig.far}`);
  assert.ok(Math.abs(logn.far / orig.far - 1) < 0.15, `log-n ${logn.far} vs original ${orig.far}`);
});

test('the seeds\' "rotate_half and rotate_every_two are equivalent" holds only with the weights permuted: swapped pairing ×10 in-range perplexity', async () => {
  for (const lm of [m260, m656]) {
    const ids = stream(lm, 512, { eos: lm === m656 });
    const a = await lm.evaluate({ ids }), b = await lm.evaluate({ ids, pairing: 'swapped' });
    assert.ok(ppl(b.nll, 0, 512) > 10 * ppl(a.nll, 0, 512), `${ppl(b.nll, 0, 512)} vs ${ppl(a.nll, 0, 512)}`);
  }
});

test('attention rows and gauges: rows are distributions over past keys; past 512 the second layer\'s mass moves far', async () => {
  const ids = stream(m656, 2048, { eos: true });
  const ev = await m656.evaluate({ ids, attention: { layer: 1, head: 0, rows: [2000, 2048] }, gauges: { rows: [1536, 2048] } });
  const { rows, row_end, row_begin } = ev.attention;
  for (let r = 0; r < row_end - row_begin; r++) {
    const row = rows.subarray(r * row_end, (r + 1) * row_end);
    assert.ok(Math.abs(row.reduce((s, x) => s + x, 0) - 1) < 1e-4);
    for (let j = row_begin + r + 1; j < row_end; j++) assert.equal(row[j], 0);
  }
  const H = m656.hparams.n_head, l1 = (a) => mean(a, H, 2 * H);
  const fixed = await m656.evaluate({ ids, rerope: { window: 256 }, gauges: { rows: [1536, 2048] } });
  assert.ok(l1(ev.gauges.far) > 0.6 && l1(fixed.gauges.far) < 0.35, `far mass ${l1(ev.gauges.far)} → ${l1(fixed.gauges.far)}`);
  assert.ok(l1(fixed.gauges.near) > 2 * l1(ev.gauges.near), `near mass ${l1(ev.gauges.near)} → ${l1(fixed.gauges.near)}`);
});

test('generate: greedy continuation is deterministic and readable; lossByPosition buckets', async () => {
  const prompt = m260.encode('Once upon a time');
  const a = await m260.generate({ ids: prompt, max_new_tokens: 30 }), b = await m260.generate({ ids: prompt, max_new_tokens: 30 });
  assert.deepEqual(a.ids, b.ids);
  assert.match(a.text, /^[ ,.a-zA-Z'"!\n]+$/);
  const ev = await m260.evaluate({ ids: stream(m260, 600) });
  const bk = lossByPosition(ev, [0, 128, 512, 600]);
  assert.deepEqual(bk.map((x) => x.tokens), [127, 384, 88]);
  assert.ok(Math.abs(bk[1].nll - mean(ev.nll, 127, 511)) < 1e-9);
});

test('progress and cancellation between chunks; the model stays usable', async () => {
  const ids = stream(m260, 1000);
  const seen = [];
  await m260.evaluate({ ids, chunk: 250, onProgress: (d, t) => seen.push([d, t]) });
  assert.deepEqual(seen, [[250, 1000], [500, 1000], [750, 1000], [1000, 1000]]);
  const signal = { aborted: false };
  await assert.rejects(m260.evaluate({ ids, chunk: 250, signal, onProgress: () => { signal.aborted = true; } }), /cancelled/);
  assert.equal((await m260.evaluate({ ids: ids.subarray(0, 10) })).nll.length, 9);
});

test('bad input: a PosencError naming what and why, and the module stays usable', async () => {
  const bytes = readFileSync(GGUF_260K);
  await assert.rejects(pe.loadModel(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])), (e) => e instanceof PosencError && /not a \.gguf file/.test(e.message));
  await assert.rejects(pe.loadModel(bytes.subarray(0, bytes.length - 1000)), /tensor '.*' needs bytes .* \(truncated file\?\)/);
  // a header that claims a 10 GB tensor
  const huge = ggufFile({ kv: [['general.architecture', T.str, 'llama'], ['llama.block_count', T.u32, 1], ['llama.embedding_length', T.u32, 64],
    ['llama.attention.head_count', T.u32, 8], ['llama.feed_forward_length', T.u32, 172], ['llama.context_length', T.u32, 512]],
  tensors: [{ name: 'token_embd.weight', dims: [64, 40000000], type: 0, data: new Uint8Array(32) }] });
  await assert.rejects(pe.loadModel(huge), /token_embd\.weight.*(over 2\^28|needs bytes)/);
  const gpt2 = ggufFile({ kv: [['general.architecture', T.str, 'gpt2']] });
  await assert.rejects(pe.loadModel(gpt2), /architecture 'gpt2' is not supported/);
  await assert.rejects(pe.loadModel({ config: { model_type: 'llama' }, safetensors: new Uint8Array(16) }), /config\.num_attention_heads: required/);
  await assert.rejects(m260.evaluate({ ids: [1, 600] }), /ids\[1\]: must be a token id in \[0, 512\)/);
  await assert.rejects(m260.evaluate({ ids: [1, 2], rope: { rope_type: 'yarn', factr: 4 } }), /factr/);
  await assert.rejects(m260.evaluate({ ids: [1, 2], rerope: { window: 0 } }), /rerope\.window/);
  await assert.rejects(m260.evaluate({ ids: [1, 2], attention: { layer: 9, head: 0, rows: [0, 1] } }), /attention\.layer/);
  const lm = await pe.loadModel(bytes);
  lm.free();
  await assert.rejects(lm.evaluate({ ids: [1, 2] }), /used after free/);
  assert.equal((await m260.evaluate({ ids: [1, 2, 3] })).nll.length, 2);
});

test('the threads build (init({ threads: true })) gives the same losses: its parts compute whole rows with the serial code', async () => {
  const many = await init({ threads: true });
  const lm = await many.loadModel(GGUF_260K, { trained_context: 512 });
  const ids = stream(m260, 700);
  const [a, b] = [await m260.evaluate({ ids, rerope: { window: 128 } }), await lm.evaluate({ ids, rerope: { window: 128 } })];
  assert.ok(maxDiff(a.nll, b.nll) <= NLL_EXACT, `${maxDiff(a.nll, b.nll)}`);
  lm.free();
});

test('npx posenc eval: the loss by position bucket, text and JSON; bad arguments exit 2', async () => {
  const { spawnSync } = await import('node:child_process');
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'posenc-eval-'));
  const text = join(dir, 'stories.txt');
  const ids = stream(m260, 1100);
  writeFileSync(text, m260.decode(ids));
  const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
  const run = (...args) => spawnSync('node', [cli, 'eval', GGUF_260K, '--text', text, ...args], { encoding: 'utf8', timeout: 120000 });
  const j = run('--ctx', '1024', '--trained', '512', '--rope', '{"rope_type":"yarn","factor":4}', '--json');
  assert.equal(j.status, 0, j.stderr);
  const out = JSON.parse(j.stdout);
  assert.equal(out.tokens, 1024);
  assert.equal(out.rope.rope_type, 'yarn');
  assert.deepEqual(out.buckets.map((b) => [b.start, b.end]), [[0, 128], [128, 256], [256, 512], [512, 768], [768, 1024]]);
  // the same numbers as the API's
  const ev = await m260.evaluate({ ids: m260.encode(m260.decode(ids)).subarray(0, 1024), rope: { rope_type: 'yarn', factor: 4 } });
  assert.ok(Math.abs(out.buckets[3].nll - mean(ev.nll, 511, 767)) < 1e-6);
  const t = run('--ctx', '600', '--trained', '512');
  assert.equal(t.status, 0, t.stderr);
  assert.match(t.stdout, /512–600 .* past the trained length/);
  assert.equal(run('--ctx', 'x').status, 2);
  assert.match(run('--rope', '{bad').stderr, /--rope: not JSON/);
  assert.match(spawnSync('node', [cli, 'eval', GGUF_260K], { encoding: 'utf8' }).stderr, /--text <file> is required/);
});
