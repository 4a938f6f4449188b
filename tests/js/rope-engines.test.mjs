// pe.ropeEngines and `posenc inspect --engines`: one model under transformers, vLLM, llama.cpp and MLX — each cell
// against that engine's own reading (ropeFromConfig with the engine) and compareRope against transformers'.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import init from 'posenc';
import { close, theta } from './config-helpers.mjs';

const pe = await init();
const path = (f) => new URL(`../fixtures/configs/${f}`, import.meta.url).pathname;
const text = (f) => readFileSync(path(f), 'utf8');
const cli = new URL('../../dist/cli.js', import.meta.url).pathname;

test('ropeEngines (Phi-3 128k): every engine\'s reading and context; only MLX (long factors at every length) differs', async () => {
  // llama.cpp by default: llama-cli / llama-server's -c 0, the trained 131072 > 4096 → long factors, as MLX
  const dflt = await pe.ropeEngines(text('Phi-3-mini-128k-instruct.json'));
  assert.deepEqual([dflt.contexts['llama.cpp'].length, dflt.matrix[0].cells['llama.cpp'].longrope_factors], [131072, 'long']);
  // at the library's llama_context_default_params n_ctx (512): short
  const m = await pe.ropeEngines(text('Phi-3-mini-128k-instruct.json'), { n_ctx: 512 });
  assert.equal(m.source, 'config');
  for (const e of ['transformers', 'vllm', 'llama.cpp', 'mlx']) {
    const own = pe.ropeFromConfig(text('Phi-3-mini-128k-instruct.json'), { engine: e, ...(e === 'llama.cpp' ? { n_ctx: 512 } : {}) });
    close(m.engines[e].inv_freq, own.inv_freq, 0, e);
    assert.deepEqual(m.contexts[e], own.context);
  }
  assert.deepEqual([m.contexts.vllm.length, m.contexts['llama.cpp'].length, m.contexts.mlx.length], [4096, 512, null]);
  assert.equal(m.matrix.length, 1);
  const row = m.matrix[0].cells;
  assert.deepEqual(['transformers', 'vllm', 'llama.cpp', 'mlx'].map((e) => row[e].longrope_factors), ['short', 'short', 'short', 'long']);
  assert.deepEqual(['transformers', 'vllm', 'llama.cpp', 'mlx'].map((e) => row[e].agrees), [true, true, true, false]);
  assert.equal(m.agree, false);
  assert.match(m.verdict, /^MLX: full_attention — inv_freq: every pair differs/);
  // with the long context everywhere (vLLM and llama.cpp at 131072, transformers at a sequence past 4096), all four agree
  const all = await pe.ropeEngines(text('Phi-3-mini-128k-instruct.json'), { seq_len: 8192, n_ctx: 131072, max_model_len: 131072 });
  assert.equal(all.agree, true, all.verdict);
  assert.equal(all.verdict, 'transformers, vLLM, llama.cpp and MLX run the same RoPE on every layer kind');
});

test('ropeEngines per layer kind (gpt-oss): llama.cpp and MLX floor YaRN\'s range on both kinds; an engine without the model says why', async () => {
  const m = await pe.ropeEngines(JSON.parse(text('gpt-oss-120b.json')));
  const s = m.matrix.find((r) => r.layer_type === 'sliding_attention');
  assert.equal(s.layers, 18);
  assert.deepEqual(['transformers', 'vllm', 'llama.cpp', 'mlx'].map((e) => s.cells[e].agrees), [true, true, false, false]);
  assert.equal(m.matrix.find((r) => r.layer_type === 'full_attention').cells['llama.cpp'].agrees, false);
  assert.match(m.verdict, /^llama\.cpp: sliding_attention — inv_freq: \d+ of 32 pairs differ/);
  const bert = await pe.ropeEngines(text('ModernBERT-large-zeroshot-v2.0.json'));
  assert.match(bert.engines.mlx.error, /mlx-lm has no model file for model_type 'modernbert'/);
  assert.equal(bert.contexts.mlx, null);
  assert.equal(bert.agree, true); // the engines that read it agree
  assert.match(bert.verdict, /^MLX: engine: mlx-lm has no model file/);
  // a config no engine can read is transformers' error
  await assert.rejects(pe.ropeEngines(text('not-rope/gpt2.json')), /model_type: 'gpt2' uses learned absolute positions/);
  await assert.rejects(pe.ropeEngines({ rope_theta: 1e4 }, { n_ctx: -1 }), /^PosencError: n_ctx: /);
});

test('ropeEngines on a .gguf: the llama.cpp column at its default context, the others pointing at the config', async () => {
  const f = new URL('../fixtures/gguf/Phi-3-mini-128k-instruct.gguf', import.meta.url).pathname;
  const m = await pe.ropeEngines(f);
  assert.equal(m.source, 'gguf');
  assert.equal(m.engines['llama.cpp'].longrope_factors, 'long');   // -c 0: context_length 131072 > 4096
  assert.equal(m.contexts['llama.cpp'].length, 131072);
  assert.equal((await pe.ropeEngines(f, { n_ctx: 512 })).engines['llama.cpp'].longrope_factors, 'short');
  assert.match(m.engines.vllm.error, /a \.gguf is what llama\.cpp runs/);
  assert.equal((await pe.ropeEngines(f, { n_ctx: 4097 })).engines['llama.cpp'].longrope_factors, 'long'); // 4352 > 4096
  const cfg = pe.ropeFromConfig(text('Phi-3-mini-128k-instruct.json'), { engine: 'llama.cpp', n_ctx: 4097 });
  close((await pe.ropeEngines(f, { n_ctx: 4097 })).engines['llama.cpp'].inv_freq, cfg.inv_freq, 1e-6, 'gguf vs config under llama.cpp');
});

test('posenc inspect --engines: the matrix, each context, the verdict; exit 1 where engines differ, 0 where all agree', () => {
  const r = spawnSync('node', [cli, 'inspect', path('Phi-3-mini-128k-instruct.json'), '--engines'], { encoding: 'utf8' });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /layer kind +transformers +vllm +llama\.cpp +mlx/);
  assert.match(r.stdout, /full_attention +longrope \(short\), base 10000, ×1\.19024, half_split +longrope \(short\).* longrope \(long\), base 10000, ×1\.19024, half_split ≠/);
  assert.match(r.stdout, /context, vllm: 4096 — vLLM's default for LongRoPE models/);
  assert.match(r.stdout, /context, llama\.cpp: 131072 — default: the trained context n_ctx_train = 131072, padded to a multiple of 256 — what llama-cli and llama-server run with/);
  assert.match(r.stdout, /the library's llama_context_default_params has 512: pass n_ctx: 512/);
  const ok = spawnSync('node', [cli, 'inspect', path('Qwen3-8B.json'), '--engines'], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /run the same RoPE on every layer kind/);
  const j = JSON.parse(execFileSync('node', [cli, 'inspect', path('Qwen3-8B.json'), '--engines', '--json'], { encoding: 'utf8' }));
  assert.equal(j.agree, true);
  assert.equal(j.matrix[0].cells.mlx.effective_base, 1000000);
  close(pe.ropeFromConfig(text('Qwen3-8B.json'), { engine: 'mlx' }).inv_freq, theta(1e6, 128), 1e-12, 'qwen3 mlx');
});

test('ropeFromGGUF states its context: llama-cli\'s -c 0 (context_length), or n_ctx padded to 256, or a current length; not both', async () => {
  const f = new URL('../fixtures/gguf/Phi-3-mini-128k-instruct.gguf', import.meta.url).pathname;
  const d = await pe.ropeFromGGUF(f);
  assert.deepEqual([d.longrope_factors, d.context.length, d.seq_len], ['long', 131072, null]);
  assert.match(d.context.source, /trained context n_ctx_train = 131072.*llama-cli and llama-server/);
  const lib = await pe.ropeFromGGUF(f, { n_ctx: 512 });
  assert.deepEqual([lib.longrope_factors, lib.context.length], ['short', 512]);
  const l = await pe.ropeFromGGUF(f, { n_ctx: 4097 });
  assert.deepEqual([l.longrope_factors, l.context.length], ['long', 4352]);
  assert.deepEqual([(await pe.ropeFromGGUF(f, { n_ctx: 4096 })).longrope_factors, (await pe.ropeFromGGUF(f, { seq_len: 4097 })).longrope_factors], ['short', 'long']);
  await assert.rejects(pe.ropeFromGGUF(f, { n_ctx: 4096, seq_len: 1 }), /^PosencError: n_ctx: give n_ctx \(llama\.cpp's context\) or seq_len/);
  const r = spawnSync('node', [cli, 'inspect', f, '--n-ctx', '8192'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /rope_type +longrope/);
  assert.match(r.stdout, /longrope factors +long\n  context assumed +8192 — options\.n_ctx = 8192/);
});
