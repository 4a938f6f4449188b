// ropeFromConfig(config, { engine: 'mlx' }) and Llama 4 in every engine: each reading against a closed form written
// from the engine's code — mlx-lm at d78bf58e (mlx_lm/models/rope_utils.py, model files), transformers' Llama 4
// (modeling_llama4.py apply_rotary_emb: view_as_complex of consecutive channels; configuration_llama4.py defaults),
// vLLM's Llama4Attention (vllm@0121c95e) and llama.cpp's models/llama4.cpp (6c8dcaa).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { close, theta } from './config-helpers.mjs';

const pe = await init();
const cfg = (f) => JSON.parse(readFileSync(new URL(`../fixtures/configs/${f}`, import.meta.url), 'utf8'));
const REL = 1e-12;

/** mlx-lm YarnRoPE's frequencies (rope_utils.py), written out: 1/_freqs. */
function mlxYarn({ d, base, factor, orig = 4096, beta_fast = 32, beta_slow = 1 }) {
  const corr = (rot) => (d * Math.log(orig / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(Math.floor(corr(beta_fast)), 0), high0 = Math.min(Math.ceil(corr(beta_slow)), d - 1);
  const high = low === high0 ? high0 + 0.001 : high0;
  return Float64Array.from({ length: d / 2 }, (_, i) => {
    const extra = base ** ((2 * i) / d), inter = factor * extra;
    const mask = 1 - Math.min(Math.max((i - low) / (high - low), 0), 1);
    return 1 / ((inter * extra) / (inter * mask + extra * (1 - mask)));
  });
}

test('MLX YaRN (gpt-oss): truncate: false is not read — YarnRoPE floors/ceils the correction range; transformers does not', () => {
  const c = cfg('gpt-oss-120b.json');
  const hf = pe.ropeFromConfig(c), m = pe.ropeFromConfig(c, { engine: 'mlx' });
  close(m.inv_freq, mlxYarn({ d: 64, base: 150000, factor: 32 }), 1e-12, 'mlx yarn');
  assert.ok(Math.abs(m.attention_scaling - (1 + 0.1 * Math.log(32))) <= REL);
  assert.ok(m.engine_notes.some((n) => /truncate: false is not read.*mlx-lm@d78bf58e/.test(n)), m.engine_notes.join('\n'));
  // transformers' unrounded range moves the ramp: some pairs differ
  assert.ok(pe.compareRope(hf, m).pairs_differing > 0);
  assert.equal(m.engine, 'mlx');
});

test('MLX YaRN (DeepSeek-V3, OLMo 3): mscale ratio kept, attention_factor not read; MLA pairs interleaved as transformers', () => {
  const ds = pe.ropeFromConfig(cfg('DeepSeek-V3.json'), { engine: 'mlx' });
  close(ds.inv_freq, mlxYarn({ d: 64, base: 10000, factor: 40 }), 1e-12, 'deepseek');
  assert.equal(ds.attention_scaling, 1); // get_mscale(40, 1)/get_mscale(40, 1)
  assert.equal(ds.layout, 'interleaved');
  const olmo = cfg('Olmo-3.1-32B-Instruct.json');
  const o = pe.ropeFromConfig(olmo, { engine: 'mlx' });
  // OLMo 3 writes attention_factor 1.2079…; YarnRoPE computes get_mscale(8, 1)/get_mscale(8, 0) = 1 + 0.1·ln 8 = 1.2079441541679836
  assert.ok(Math.abs(o.attention_scaling - (1 + 0.1 * Math.log(8))) <= REL);
  close(o.inv_freq, mlxYarn({ d: 128, base: 500000, factor: 8, orig: 8192 }), 1e-12, 'olmo');
});

test('MLX: YaRN and llama3 defaults where a key is missing (4096, 8192), not transformers\' max_position_embeddings', () => {
  const base = { model_type: 'llama', head_dim: 128, num_attention_heads: 32, hidden_size: 4096, rope_theta: 10000, max_position_embeddings: 65536 };
  const y = pe.ropeFromConfig({ ...base, rope_scaling: { rope_type: 'yarn', factor: 4 } }, { engine: 'mlx' });
  close(y.inv_freq, mlxYarn({ d: 128, base: 10000, factor: 4, orig: 4096 }), 1e-12, 'yarn orig 4096');
  assert.ok(y.engine_notes.some((n) => /original_max_position_embeddings: missing — YarnRoPE's default 4096 \(transformers: max_position_embeddings = 65536\)/.test(n)));
  const hf3 = pe.ropeFromConfig({ ...base, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4, original_max_position_embeddings: 8192 } });
  const m3 = pe.ropeFromConfig({ ...base, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 } }, { engine: 'mlx' });
  close(m3.inv_freq, hf3.inv_freq, REL, 'llama3 at 8192');
  assert.ok(m3.engine_notes.some((n) => /Llama3RoPE uses 8192/.test(n)));
});

test('MLX: model files that build a plain nn.RoPE ignore the scaling dict (Qwen3-MoE with YaRN as Qwen documents it)', () => {
  const c = cfg('Qwen3-30B-A3B.json');
  const withYarn = { ...c, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
  const m = pe.ropeFromConfig(withYarn, { engine: 'mlx' });
  close(m.inv_freq, theta(c.rope_theta, c.head_dim), REL, 'unscaled');
  assert.equal(m.attention_scaling, 1);
  assert.match(m.engine_notes[0], /rope_type 'yarn' is not read.*mlx_lm\/models\/qwen3_moe\.py/);
  assert.notDeepEqual(pe.ropeFromConfig(withYarn).inv_freq, m.inv_freq);
});

test('MLX: a model type mlx-lm has no file for is a PosencError naming it, never a guess', () => {
  assert.throws(() => pe.ropeFromConfig(cfg('ModernBERT-large-zeroshot-v2.0.json'), { engine: 'mlx' }),
    (e) => e.name === 'PosencError' && /^engine: mlx-lm has no model file for model_type 'modernbert'/.test(e.message));
  assert.equal(pe.ropeFromConfig(cfg('Qwen3-8B.json'), { engine: 'mlx' }).engine_notes.length, 0); // plain RoPE: as transformers
});

// Llama 4 Scout's text config as transformers' Llama4TextConfig reads it (rope_scaling as in the model's config.json)
const scout = {
  model_type: 'llama4', text_config: {
    model_type: 'llama4_text', head_dim: 128, hidden_size: 5120, num_attention_heads: 40, num_hidden_layers: 48, rope_theta: 500000,
    max_position_embeddings: 10485760, attention_chunk_size: 8192, no_rope_layers: [],
    rope_scaling: { rope_type: 'llama3', factor: 16, low_freq_factor: 1, high_freq_factor: 1, original_max_position_embeddings: 8192 },
  },
};

test('Llama 4: consecutive pairs in every engine; NoPE-layer temperature on by the config class default', () => {
  for (const engine of ['transformers', 'vllm', 'llama.cpp', 'mlx']) {
    const r = pe.ropeFromConfig(scout, { engine, seq_len: 65536 });
    assert.equal(r.layout, 'interleaved', engine);
    assert.equal(r.layer_types.full_attention, false, engine); // the NoPE layers
    assert.equal(r.layers.filter((l) => !l.rope).length, 12, engine); // every 4th of 48
    // 1 + 0.1·ln(1 + ⌊65536/8192⌋) at the last position 65535
    assert.ok(Math.abs(r.attn_temperature.scale_at_seq_len - (1 + 0.1 * Math.log(1 + 8))) <= 1e-12, engine);
  }
  assert.ok(pe.ropeFromConfig(scout).warnings.some((w) => /attn_temperature_tuning = true.*llama4_text config class/.test(w)));
  // attn_temperature_tuning: false — transformers and vLLM (`self.nope and config.attn_temperature_tuning`) turn it off;
  // llama.cpp (models/llama4.cpp: fixed in load_arch_hparams) and mlx-lm keep scaling
  const off = { ...scout, text_config: { ...scout.text_config, attn_temperature_tuning: false } };
  assert.equal(pe.ropeFromConfig(off).attn_temperature, null);
  assert.equal(pe.ropeFromConfig(off, { engine: 'vllm' }).attn_temperature, null);
  for (const engine of ['llama.cpp', 'mlx']) {
    const r = pe.ropeFromConfig(off, { engine, seq_len: 8192 });
    assert.deepEqual([r.attn_temperature.floor_scale, r.attn_temperature.attn_scale], [8192, 0.1]);
    assert.ok(Math.abs(r.attn_temperature.scale_at_seq_len - (1 + 0.1 * Math.log(2))) <= 1e-12);
    assert.ok(r.engine_notes.some((n) => /attn_temperature: NoPE layers' queries × 1 \+ 0\.1·ln/.test(n)), engine);
  }
});
