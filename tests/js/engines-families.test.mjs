// Config reader completeness, one test per family: HunYuan's dynamic NTK alpha (static base θ·α^(d/(d−2)), vLLM
// dynamic_ntk_alpha_rope.py), the values HF config classes use for omitted keys (Ernie4_5Config, Olmo3Config,
// PhimoeConfig default_theta; Qwen3NextConfig's layer pattern), interleaved pairing (GLM, Ernie 4.5), DeepSeek-V3.2 read
// as V3, vLLM-internal names, documented types posenc does not compute, and finite in → finite out at the extremes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { REL, badConfig, close, theta } from './config-helpers.mjs';

const pe = await init();
const cfg = (f) => JSON.parse(readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8'));

test('HunYuan: dynamic NTK with alpha — a fixed base θ·α^(d/(d−2)) at every length, the same in every engine', () => {
  // Hunyuan-A13B-Instruct's position keys
  const c = { model_type: 'hunyuan_v1_moe', head_dim: 128, num_attention_heads: 32, hidden_size: 4096, rope_theta: 10000, max_position_embeddings: 32768,
    rope_scaling: { alpha: 1000.0, beta_fast: 32, beta_slow: 1, factor: 1.0, mscale: 1.0, mscale_all_dim: 1.0, type: 'dynamic' } };
  const base = 10000 * 1000 ** (128 / 126);
  for (const seq_len of [0, 1e6]) {
    const r = pe.ropeFromConfig(c, { seq_len });
    assert.equal(r.rope_type, 'dynamic');
    assert.equal(r.ntk_alpha, 1000);
    assert.ok(Math.abs(r.effective_base - base) <= REL * base);
    close(r.inv_freq, theta(base, 128), REL, `seq_len ${seq_len}`);
  }
  for (const engine of ['vllm', 'llama.cpp']) assert.deepEqual(pe.ropeFromConfig(c, { engine }).engine_notes, [], engine);
  badConfig(pe, { ...c, rope_scaling: { type: 'dynamic', alpha: -2 } }, /^rope_scaling\.alpha: must be a finite number in \[1, 1e12\]/);
});

test('omitted keys take the HF config class\'s values: Ernie 4.5 (500000, head_dim 128), OLMo 3 (500000), PhiMoE (1e6)', () => {
  const e = pe.ropeFromConfig({ model_type: 'ernie4_5', hidden_size: 1024, num_attention_heads: 16 });
  assert.equal(e.rope_theta, 500000);
  assert.equal(e.head_dim, 128);
  close(e.inv_freq, theta(500000, 128), REL, 'ernie');
  assert.ok(e.warnings.some((w) => /rope_theta = 500000.*ernie4_5 config class/.test(w)), e.warnings.join('\n'));
  assert.equal(pe.ropeFromConfig({ model_type: 'olmo3', hidden_size: 1024, num_attention_heads: 8 }).rope_theta, 500000);
  assert.equal(pe.ropeFromConfig({ model_type: 'phimoe', hidden_size: 4096, num_attention_heads: 32 }).rope_theta, 1e6);
  // a class without a default_theta: PreTrainedConfig's 10000
  assert.equal(pe.ropeFromConfig({ model_type: 'llama', hidden_size: 1024, num_attention_heads: 8 }).rope_theta, 10000);
});

test('interleaved pairing: GLM-4 and Ernie 4.5 (GLM rotate_half), compareRope tells them from half_split', () => {
  const glm = pe.ropeFromConfig({ model_type: 'glm4', head_dim: 128, partial_rotary_factor: 0.5, rope_theta: 10000 });
  assert.equal(glm.layout, 'interleaved');
  assert.equal(glm.rotary_dim, 64);
  assert.equal(pe.ropeFromConfig({ model_type: 'ernie4_5_moe', head_dim: 128 }).layout, 'interleaved');
  const half = pe.ropeFromConfig({ model_type: 'llama', head_dim: 128, partial_rotary_factor: 0.5, rope_theta: 10000 });
  assert.match(pe.compareRope(glm, half, { positions: 64 }).verdict, /^layout interleaved vs half_split/);
});

test('Qwen3-Next: without layer_types, every full_attention_interval-th layer rotates (the rest are linear attention)', () => {
  const c = { model_type: 'qwen3_next', head_dim: 256, partial_rotary_factor: 0.25, rope_theta: 10000000, num_hidden_layers: 8, full_attention_interval: 4 };
  const r = pe.ropeFromConfig(c);
  assert.deepEqual(r.layers.map((l) => l.rope), [false, false, false, true, false, false, false, true]);
  assert.equal(r.layer_types.linear_attention, false);
  assert.equal(r.rotary_dim, 64);
  assert.deepEqual(pe.ropeFromConfig({ ...c, full_attention_interval: undefined }).layers.map((l) => l.rope), [false, false, false, true, false, false, false, true]);
});

test('DeepSeek-V3.2 reads as V3 (MLA + YaRN); vLLM\'s internal deepseek_yarn reads as yarn', () => {
  const v3 = cfg('DeepSeek-V3.json');
  const v32 = pe.ropeFromConfig({ ...v3, model_type: 'deepseek_v32', index_head_dim: 128, index_n_heads: 64, index_topk: 2048 });
  const r3 = pe.ropeFromConfig(v3);
  assert.deepEqual(v32.inv_freq, r3.inv_freq);
  assert.equal(v32.mla.softmax_scale_factor, r3.mla.softmax_scale_factor);
  const alias = pe.ropeFromConfig({ ...v3, rope_scaling: { ...v3.rope_scaling, type: 'deepseek_yarn' } });
  assert.deepEqual(alias.inv_freq, r3.inv_freq);
  assert.equal(alias.rope_type, 'yarn');
});

test('documented types posenc does not compute: a PosencError naming the type and key', () => {
  badConfig(pe, { head_dim: 128, rope_scaling: { rope_type: 'xdrope', alpha: 1000, xdrope_section: [16, 16, 16, 16] } },
    /^rope_scaling\.rope_type: rope_type 'xdrope' \(vLLM's XD-RoPE for HunYuan-VL/);
  badConfig(pe, { head_dim: 128, rope_scaling: { type: 'openpangu' } }, /^rope_scaling\.type: rope_type 'openpangu'.*is not supported by posenc/);
  badConfig(pe, { head_dim: 128, rope_scaling: { rope_type: 'ntk', factor: 2, mixed_b: 0.5 } }, /^rope_scaling\.mixed_b: vLLM's mixed NTK/);
  badConfig(pe, { head_dim: 128, rope_scaling: { rope_type: 'foo' } }, /^rope_scaling\.rope_type: must be one of 'default', 'linear'/);
  // DeepSeek-V4: compressed layers rotate with compress_rope_theta (a second RoPE in one layer type)
  badConfig(pe, { ...cfg('DeepSeek-V3.json'), model_type: 'deepseek_v4', compress_rope_theta: 160000, compress_ratios: [4, 128] },
    /^compress_rope_theta: DeepSeek-V4's compressed-attention RoPE .* is not supported by posenc/);
});

test('finite in, finite out at the extremes: refused with the key, never ±Infinity', () => {
  badConfig(pe, { head_dim: 8, rope_theta: 5e-324 }, /^rope_theta: must be >= 1, the base of θ_i/);
  badConfig(pe, { head_dim: 8, rope_parameters: { rope_type: 'default', rope_theta: 0.5 } }, /^rope_parameters\.rope_theta: must be >= 1/);
  badConfig(pe, { head_dim: 8, max_position_embeddings: 64, rope_scaling: { rope_type: 'yarn', factor: 4, attention_factor: 1.7e308, original_max_position_embeddings: 16 } },
    /^rope_scaling\.attention_factor: gives attention_scaling 1\.7e\+308, must be at most 1000000000000000/);
  badConfig(pe, { head_dim: 8, max_position_embeddings: 64, rope_scaling: { rope_type: 'yarn', factor: 4, mscale: 1e308, mscale_all_dim: 1e-300, original_max_position_embeddings: 16 } },
    /^rope_scaling\.mscale: gives attention_scaling/);
  badConfig(pe, { head_dim: 8, max_position_embeddings: 64, rope_scaling: { rope_type: 'dynamic', factor: 1e300 } }, /^rope_scaling\.factor: the scaled base overflows float64 at seq_len = 1000000000/, { seq_len: 1e9 });
  // the largest accepted values stay finite everywhere
  const r = pe.ropeFromConfig({ head_dim: 8, rope_theta: 1e308, max_position_embeddings: 64, rope_scaling: { rope_type: 'yarn', factor: 4, attention_factor: 1e15, original_max_position_embeddings: 16 } });
  assert.ok(r.inv_freq.every(Number.isFinite) && Number.isFinite(r.attention_scaling));
});

// Issue 26 item 7: shipped variants read or refused by name.
test('TeleChat3\'s telechat3-yarn: YaRN frequencies, magnitude 1 + 0.07·ln(factor) (vLLM\'s class); MLX reads it as YaRN (0.1·ln)', () => {
  const c = { model_type: 'telechat3', head_dim: 128, num_attention_heads: 32, hidden_size: 4096, rope_theta: 1e6, max_position_embeddings: 131072,
    rope_scaling: { rope_type: 'telechat3-yarn', factor: 4, original_max_position_embeddings: 32768, beta_fast: 32, beta_slow: 1 } };
  const yarn = pe.ropeFromConfig({ ...c, rope_scaling: { ...c.rope_scaling, rope_type: 'yarn' } });
  for (const engine of ['transformers', 'vllm']) {
    const t = pe.ropeFromConfig(c, { engine });
    assert.equal(t.rope_type, 'yarn');
    assert.deepEqual(t.inv_freq, yarn.inv_freq);
    assert.ok(Math.abs(t.attention_scaling - (1 + 0.07 * Math.log(4))) <= 1e-15, `${engine} ${t.attention_scaling}`);
  }
  assert.ok(Math.abs(pe.ropeFromConfig(c, { engine: 'mlx' }).attention_scaling - (1 + 0.1 * Math.log(4))) <= 1e-15);
  // attn_factor multiplies it (TeleChat3RoPEScaledRotaryEmbedding: get_mscale(factor)·attn_factor)
  const a = pe.ropeFromConfig({ ...c, rope_scaling: { ...c.rope_scaling, attn_factor: 0.5 } });
  assert.ok(Math.abs(a.attention_scaling - 0.5 * (1 + 0.07 * Math.log(4))) <= 1e-15);
});

test('Grok\'s extra_method and transformers\' audio / indexed-image M-RoPE layouts: a PosencError naming the key', () => {
  const base = { model_type: 'grok-1', head_dim: 128, num_attention_heads: 48, hidden_size: 6144, rope_theta: 208533496 };
  badConfig(pe, { ...base, rope_scaling: { extra_method: 'yarn_log', scaling_factor: 16 } }, /^rope_scaling\.extra_method: Grok's YaRN variant \(extra_method 'yarn_log'/);
  for (const layout of ['indexed_images', 'audio_chunked', 'audio_merged']) {
    badConfig(pe, { ...base, model_type: 'qwen3_omni', rope_scaling: { rope_type: 'default', mrope_section: [16, 24, 24], mrope_layout: layout } },
      new RegExp(`^rope_scaling\\.mrope_layout: M-RoPE layout '${layout}'`));
  }
});

test('DeepSeek-V3.2\'s indexer RoPE: NeoX halves unless indexer_rope_interleave, beside the MLA heads\' consecutive pairs', () => {
  const v3 = JSON.parse(readFileSync(new URL('../fixtures/configs/DeepSeek-V3.json', import.meta.url), 'utf8'));
  const v32 = { ...v3, model_type: 'deepseek_v32', index_topk: 2048, index_head_dim: 128, index_n_heads: 64 };
  const r = pe.ropeFromConfig(v32);
  assert.deepEqual([r.layout, r.mla.indexer_layout], ['interleaved', 'half_split']);
  assert.equal(pe.ropeFromConfig({ ...v32, indexer_rope_interleave: true }).mla.indexer_layout, 'interleaved');
  assert.equal(pe.ropeFromConfig(v3).mla.indexer_layout, null);
});
