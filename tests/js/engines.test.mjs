// ropeFromConfig(config, { engine }): each engine's reading against a closed form of that engine's code, and against the
// numbers reported in the issues (vLLM #48621: Ministral 3's YaRN cache multiplier 1.2772588722239782 where
// transformers has 1.0).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { badConfig, close, theta } from './config-helpers.mjs';

const pe = await init();
const cfg = (f) => JSON.parse(readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8'));
const REL = 1e-12;

// transformers' Ministral3Config defaults (the reproduction of vLLM #48621)
const ministral3 = {
  model_type: 'ministral3', head_dim: 128, num_attention_heads: 32, hidden_size: 4096, max_position_embeddings: 262144,
  rope_parameters: { rope_type: 'yarn', rope_theta: 1e6, factor: 16, original_max_position_embeddings: 16384, beta_fast: 32, beta_slow: 1,
    mscale: 1, mscale_all_dim: 1, llama_4_scaling_beta: 0.1 },
};

test('transformers is the default and the reference; a result read with an engine says whose reading it is', () => {
  const hf = pe.ropeFromConfig(ministral3);
  assert.equal(hf.engine, undefined);
  const t = pe.ropeFromConfig(ministral3, { engine: 'transformers' });
  assert.equal(t.engine, 'transformers');
  assert.deepEqual(t.engine_notes, []);
  assert.deepEqual(t.inv_freq, hf.inv_freq);
  assert.equal(pe.ropeFromConfig(ministral3, { engine: 'vllm' }).engine, 'vllm');
});

test('vLLM YaRN: 1 + 0.1·ln(factor), not transformers\' mscale ratio — Ministral 3 1.2772588722239782 vs 1.0 (vLLM #48621)', () => {
  const hf = pe.ropeFromConfig(ministral3), v = pe.ropeFromConfig(ministral3, { engine: 'vllm' });
  assert.equal(hf.attention_scaling, 1); // get_mscale(16, 1) / get_mscale(16, 1)
  assert.ok(Math.abs(v.attention_scaling - 1.2772588722239782) <= 1e-15, String(v.attention_scaling));
  assert.deepEqual(v.inv_freq, hf.inv_freq); // frequencies are the same YaRN ramp
  assert.match(v.engine_notes[0], /attention_scaling 1\.27726 \(transformers: 1\).*vllm-project\/vllm@07b12f1b.*#48621/);
  // compareRope states it: every score × 1.2773² = 1.6314
  const c = pe.compareRope(hf, v, { positions: 16384 });
  assert.match(c.verdict, /^attention_scaling 1 vs 1\.277: every rotated score × 1\.631/);
  assert.ok(Math.abs(c.score_error_ones[0] - (1.2772588722239782 ** 2 - 1)) <= 1e-12);
  // Devstral 2 (factor 48): 1 + 0.1·ln 48
  const d = pe.ropeFromConfig(cfg('Devstral-Small-2-24B-Instruct.json'), { engine: 'vllm' });
  assert.ok(Math.abs(d.attention_scaling - (1 + 0.1 * Math.log(48))) <= 1e-15);
});

test('vLLM DeepSeek (MLA): deepseek_yarn keeps the mscale ratio, so cos/sin and the mscale² softmax factor equal transformers\'', () => {
  const c = cfg('DeepSeek-V3.json');
  const hf = pe.ropeFromConfig(c), v = pe.ropeFromConfig(c, { engine: 'vllm' });
  assert.equal(v.attention_scaling, hf.attention_scaling);
  assert.equal(v.attention_scaling, 1); // get_mscale(40, 1) / get_mscale(40, 1)
  assert.ok(Math.abs(v.mla.softmax_scale_factor - (0.1 * Math.log(40) + 1) ** 2) <= 1e-14); // mscale², 1.3689…
  assert.deepEqual(v.engine_notes, []);
});

test('dynamic NTK: transformers rescales past max_position_embeddings; vLLM one static base; llama.cpp (no GGUF form) none', () => {
  const c = { model_type: 'llama', head_dim: 128, num_attention_heads: 8, hidden_size: 1024, rope_theta: 10000, max_position_embeddings: 4096,
    rope_scaling: { rope_type: 'dynamic', factor: 4 } };
  const L = 16384, f = 4, d = 128;
  const hf = pe.ropeFromConfig(c, { seq_len: L });
  const base = 10000 * ((f * L) / 4096 - (f - 1)) ** (d / (d - 2));
  assert.ok(Math.abs(hf.effective_base - base) <= REL * base);
  // vLLM (vllm-project/vllm@50feac95 dynamic_ntk_scaling_rope.py): max_len = 4096·4, base·(4·max_len/4096 − 3)^(d/(d−2)) = base·13^(128/126),
  // the same at every position and every seq_len
  const vbase = 10000 * 13 ** (d / (d - 2));
  for (const seq_len of [1, 4096, L]) {
    const v = pe.ropeFromConfig(c, { seq_len, engine: 'vllm' });
    assert.ok(Math.abs(v.effective_base - vbase) <= REL * vbase, `${seq_len}: ${v.effective_base}`);
    close(v.inv_freq, theta(vbase, d), REL, `vllm ${seq_len}`);
    assert.match(v.engine_notes[0], /max_len = max_position_embeddings·factor = 16384.*vllm@50feac95/);
  }
  const l = pe.ropeFromConfig(c, { seq_len: L, engine: 'llama.cpp' });
  close(l.inv_freq, theta(10000, d), REL, 'llama.cpp');
  assert.match(l.engine_notes[0], /no GGUF form/);
  // MLX (DynamicNTKScalingRoPE): transformers' formula at the current length
  close(pe.ropeFromConfig(c, { seq_len: L, engine: 'mlx' }).inv_freq, hf.inv_freq, REL, 'mlx');
});

test('LongRoPE (Phi-3 128k): each engine\'s default context decides the factors — and every result says which it assumed', () => {
  const c = cfg('Phi-3-mini-128k-instruct.json');
  const { long_factor, short_factor } = c.rope_scaling;
  const th = theta(10000, 96), long = th.map((t, i) => t / long_factor[i]), short = th.map((t, i) => t / short_factor[i]);
  const scale = Math.sqrt(1 + Math.log(131072 / 4096) / Math.log(4096));
  const hf = pe.ropeFromConfig(c); // seq_len 0: short
  close(hf.inv_freq, short, REL, 'hf short');
  close(pe.ropeFromConfig(c, { seq_len: 4097 }).inv_freq, long, REL, 'hf 4097: long');
  // llama.cpp: llama-cli / llama-server's -c 0 = n_ctx_train (max_position_embeddings 131072) > 4096 → long; the
  // library's llama_context_default_params n_ctx = 512 → short; n_ctx_seq padded to 256: 4097 → 4352 > 4096 → long
  const lc = pe.ropeFromConfig(c, { engine: 'llama.cpp' });
  close(lc.inv_freq, long, REL, 'llama.cpp default (trained context) long');
  assert.deepEqual([lc.context.length, /llama-cli and llama-server/.test(lc.context.source)], [131072, true]);
  assert.match(lc.engine_notes[0], /n_ctx_seq = 131072 > n_ctx_orig = 4096: long/);
  const lib = pe.ropeFromConfig(c, { engine: 'llama.cpp', n_ctx: 512 });
  close(lib.inv_freq, short, REL, 'llama.cpp n_ctx 512 (the library default) short');
  assert.match(lib.engine_notes[0], /n_ctx_seq = 512 ≤ n_ctx_orig = 4096: short/);
  assert.equal(pe.ropeFromConfig(c, { engine: 'llama.cpp', n_ctx: 0 }).context.length, 131072);   // -c 0
  close(pe.ropeFromConfig(c, { engine: 'llama.cpp', n_ctx: 4096 }).inv_freq, short, REL, 'n_ctx 4096: short');
  const l2 = pe.ropeFromConfig(c, { engine: 'llama.cpp', n_ctx: 4000 + 97 });
  close(l2.inv_freq, long, REL, 'n_ctx 4097 → 4352: long');
  assert.equal(l2.context.length, 4352);
  assert.ok(Math.abs(l2.attention_scaling - scale) <= REL);
  // vLLM: max_model_len defaults to original_max_position_embeddings for LongRoPE models (model_arch_config_convertor.py) → short
  const v = pe.ropeFromConfig(c, { engine: 'vllm' });
  close(v.inv_freq, short, REL, 'vllm default short');
  assert.equal(v.context.length, 4096);
  assert.match(v.context.source, /original_max_position_embeddings.*vllm@ee92a6f3/);
  close(pe.ropeFromConfig(c, { engine: 'vllm', max_model_len: 131072 }).inv_freq, long, REL, 'vllm 131072: long');
  // MLX (SuScaledRoPE): long_factor at every length
  const m = pe.ropeFromConfig(c, { engine: 'mlx' });
  close(m.inv_freq, long, REL, 'mlx long');
  assert.ok(Math.abs(m.attention_scaling - scale) <= REL);
  assert.equal(m.context.length, null);
  // a short prompt: transformers short, MLX long — compareRope names the pairs
  const cmp = pe.compareRope(hf, m, { positions: 4096 });
  assert.equal(cmp.pairs_differing, short_factor.filter((s, i) => s !== long_factor[i]).length);
  assert.equal(cmp.agree, false);
  // transformers states its context too
  assert.deepEqual(pe.ropeFromConfig(c, { engine: 'transformers', seq_len: 100 }).context.length, 100);
});

test('llama.cpp llama3: the F32 rope_freqs divisors — θ_i / fround(θ_i/θ\'_i)', () => {
  const hf = pe.ropeFromConfig(cfg('Llama-3.1-8B.json')), lc = pe.ropeFromConfig(cfg('Llama-3.1-8B.json'), { engine: 'llama.cpp' });
  const th = theta(500000, 128);
  close(lc.inv_freq, th.map((t, i) => t / Math.fround(t / hf.inv_freq[i])), REL, 'rope_freqs');
  const rel = lc.inv_freq.map((x, i) => Math.abs(x / hf.inv_freq[i] - 1));
  assert.ok(Math.max(...rel) < 6e-8 && Math.max(...rel) > 0, String(Math.max(...rel)));
  assert.ok(pe.compareRope(hf, lc, { positions: 131072 }).max_score_error_random < 1e-5); // float32 rounding of the divisors
});

test('llama.cpp per layer type: OLMo 3\'s and Gemma 3\'s sliding layers keep their own RoPE; other families inherit the full layers\' scaling', () => {
  // OLMo 3: olmo2.cpp's is_swa branch rotates with freq_scale 1, ext_factor 0, attn_factor 1 at the full layers' base (llama.cpp 6c8dcaa)
  const o = cfg('Olmo-3.1-32B-Instruct.json');
  const hf = pe.ropeFromConfig(o), lc = pe.ropeFromConfig(o, { engine: 'llama.cpp' });
  close(lc.layer_types.sliding_attention.inv_freq, theta(500000, 128), REL, 'olmo 3 sliding: plain');
  assert.deepEqual([lc.layer_types.sliding_attention.rope_type, lc.layer_types.sliding_attention.attention_scaling], ['default', 1]);
  assert.ok(pe.compareRope(hf, lc, { positions: 65536 }).agree);
  const g = cfg('gemma-3-27b-it.json');
  const gh = pe.ropeFromConfig(g), gl = pe.ropeFromConfig(g, { engine: 'llama.cpp' });
  close(gl.layer_types.sliding_attention.inv_freq, gh.layer_types.sliding_attention.inv_freq, 0, 'gemma 3 sliding');
  assert.deepEqual(gl.engine_notes, []);
  // a family without such code: the file holds one scaling, the sliding layers rotate with it at their own base
  const h = { model_type: 'qwen2', head_dim: 64, num_attention_heads: 8, hidden_size: 512, num_hidden_layers: 4, max_position_embeddings: 32768,
    layer_types: ['sliding_attention', 'full_attention', 'sliding_attention', 'full_attention'],
    rope_parameters: { full_attention: { rope_type: 'yarn', rope_theta: 1e6, factor: 4, original_max_position_embeddings: 8192 },
      sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } };
  const x = pe.ropeFromConfig(h, { engine: 'llama.cpp' }).layer_types.sliding_attention;
  const want = pe.ropeInvFreqScaled({ rope_type: 'yarn', rope_theta: 1e4, rotary_dim: 64, factor: 4, original_max_position_embeddings: 8192 });
  close(x.inv_freq, want.inv_freq, REL, 'inherited yarn at base 1e4');
  assert.equal(x.attention_scaling, want.attention_scaling);
});

test('llama.cpp YaRN: truncate false is not honoured — ggml floors/ceils the correction range (gpt-oss)', () => {
  const c = cfg('gpt-oss-120b.json');
  const lc = pe.ropeFromConfig(c, { engine: 'llama.cpp' });
  const want = pe.ropeInvFreqScaled({ rope_type: 'yarn', rope_theta: 150000, rotary_dim: 64, factor: 32, original_max_position_embeddings: 4096, truncate: true });
  close(lc.inv_freq, want.inv_freq, REL, 'floored range');
  assert.deepEqual([lc.yarn_correction_range.low, lc.yarn_correction_range.high], [Math.floor(lc.yarn_correction_range.low_raw), Math.ceil(lc.yarn_correction_range.high_raw)]);
  assert.ok(lc.engine_notes.some((n) => /truncate: false is not honoured.*ggml_rope_yarn_corr_dims/.test(n)));
  assert.equal(pe.compareRope(pe.ropeFromConfig(c), lc).agree, false);
});

test('engine options: known engines only, n_ctx / max_model_len only with their engine', () => {
  badConfig(pe, ministral3, /^engine: must be one of/, { engine: 'sglang' });
  badConfig(pe, ministral3, /^n_ctx: only with engine 'llama\.cpp' \(got engine 'transformers'\)/, { n_ctx: 4096 });
  badConfig(pe, ministral3, /^max_model_len: only with engine 'vllm'/, { engine: 'llama.cpp', max_model_len: 4096 });
  badConfig(pe, ministral3, /^n_ctx: must be an integer/, { engine: 'llama.cpp', n_ctx: -1 });
});

test('vLLM\'s derived max_model_len (model_arch_config_convertor.py): max_position_embeddings, × factor for scaled types, YaRN from the original', () => {
  const ctx = (f) => pe.ropeFromConfig(cfg(f), { engine: 'vllm' }).context;
  assert.equal(ctx('Qwen3-8B.json').length, 40960);                   // default: max_position_embeddings
  assert.equal(ctx('Llama-3.1-8B.json').length, 131072);              // llama3 is not multiplied
  assert.equal(ctx('gpt-oss-120b.json').length, 4096 * 32);           // yarn: original_max_position_embeddings × factor
  assert.equal(ctx('gemma-3-27b-it.json').length, 131072 * 8);        // linear: max_position_embeddings × factor
  assert.match(ctx('gpt-oss-120b.json').source, /original_max_position_embeddings × factor.*vllm@ee92a6f3/);
  assert.deepEqual(pe.ropeFromConfig(cfg('Qwen3-8B.json'), { engine: 'vllm', max_model_len: 8192 }).context.length, 8192);
});
