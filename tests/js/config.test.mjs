// pe.ropeFromConfig on today's config formats and model families. Each config below writes out the position-related
// values of the named model as published in its config.json (or the HF config class defaults it relies on); expected
// numbers are closed forms computed here, and the layer schedules follow the HF config classes' rules.
import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';
import { REL, badConfig, close, theta } from './config-helpers.mjs';

const pe = await init();
const bad = (cfg, re, opts) => badConfig(pe, cfg, re, opts);
const mscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
/** Pair index whose wavelength 2π·b^(2i/d) equals `wl`. */
const dimOf = (wl, d, b) => (d * Math.log(wl / (2 * Math.PI))) / (2 * Math.log(b));

// google/gemma-3-4b-it: the text_config lists only what differs from Gemma3TextConfig (head_dim 256, 8 heads,
// rope_theta 1e6, rope_local_base_freq 1e4, sliding_window_pattern 6 are that class's defaults)
const GEMMA3_4B = {
  architectures: ['Gemma3ForConditionalGeneration'], model_type: 'gemma3', mm_tokens_per_image: 256,
  text_config: { hidden_size: 2560, intermediate_size: 10240, model_type: 'gemma3_text', num_hidden_layers: 34,
    rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024 },
  vision_config: { model_type: 'siglip_vision_model', patch_size: 14 },
};
const gemmaTypes = (n, p) => Array.from({ length: n }, (_, i) => ((i + 1) % p ? 'sliding_attention' : 'full_attention'));

test('Gemma 3 (legacy, text_config, class defaults): global layers linear x8 at 1e6, local layers 1e4 unscaled', () => {
  const r = pe.ropeFromConfig(GEMMA3_4B);
  assert.equal(r.layer_type, 'full_attention');
  assert.equal(r.rope_type, 'linear');
  assert.equal(r.head_dim, 256);
  close(r.inv_freq, theta(1e6, 256).map((f) => f / 8), REL, 'global');
  const local = r.layer_types.sliding_attention;
  assert.equal(local.rope_type, 'default');
  assert.equal(local.source, 'text_config.rope_local_base_freq');
  close(local.inv_freq, theta(1e4, 256), REL, 'local');
  assert.deepEqual(r.layers.map((l) => l.type), gemmaTypes(34, 6));
  assert.ok(r.layers.every((l) => l.rope));
  assert.match(r.warnings.join('\n'), /head_dim = 256.*defaults of HF's gemma3_text config class/);
});

test('one meaning, four formats: legacy, v5 flat, v5 per layer type, text_config nesting give identical RoPEs', () => {
  const base = { hidden_size: 2560, num_attention_heads: 8, head_dim: 256, num_hidden_layers: 12, max_position_embeddings: 131072 };
  const legacy = { ...base, model_type: 'gemma3_text', rope_theta: 1e6, rope_local_base_freq: 1e4, sliding_window_pattern: 6,
    rope_scaling: { type: 'linear', factor: 8 } };
  const perType = { ...base, layer_types: gemmaTypes(12, 6),
    rope_parameters: { full_attention: { rope_type: 'linear', factor: 8, rope_theta: 1e6 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } };
  const nested = { model_type: 'gemma3', text_config: perType };
  const results = [legacy, perType, nested].map((c) => pe.ropeFromConfig(c));
  for (const r of results.slice(1)) {
    assert.deepEqual(r.layers, results[0].layers);
    for (const t of ['full_attention', 'sliding_attention']) {
      assert.deepEqual(r.layer_types[t].inv_freq, results[0].layer_types[t].inv_freq);
      assert.equal(r.layer_types[t].attention_scaling, results[0].layer_types[t].attention_scaling);
    }
  }
  // flat: rope_theta + rope_scaling (legacy) = rope_parameters with rope_theta inside (v5) = nested in text_config
  const flatA = { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1e6,
    rope_scaling: { type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } };
  const flatB = { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768,
    rope_parameters: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768, rope_theta: 1e6 } };
  const flatC = { model_type: 'qwen2_5_vl', text_config: flatB };
  const [a, b, c] = [flatA, flatB, flatC].map((x) => pe.ropeFromConfig(x));
  assert.deepEqual(b.inv_freq, a.inv_freq);
  assert.deepEqual(c.inv_freq, a.inv_freq);
  assert.equal(b.attention_scaling, a.attention_scaling);
  assert.equal(a.layers, null);
  assert.deepEqual(Object.keys(a.layer_types), ['full_attention']);
});

// meta-llama/Llama-4-Scout-17B-16E-Instruct text_config (position keys)
const LLAMA4_SCOUT = {
  model_type: 'llama4',
  text_config: { model_type: 'llama4_text', head_dim: 128, hidden_size: 5120, num_attention_heads: 40, num_hidden_layers: 48,
    max_position_embeddings: 10485760, rope_theta: 500000.0, attention_chunk_size: 8192, no_rope_layers: [],
    attn_temperature_tuning: true, floor_scale: 8192, attn_scale: 0.1,
    rope_scaling: { factor: 16.0, high_freq_factor: 1.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: 'llama3' } },
};

test('Llama 4 Scout: iRoPE (every 4th layer NoPE), chunked layers rotate with a llama3 step, temperature tuning', () => {
  const r = pe.ropeFromConfig(LLAMA4_SCOUT, { seq_len: 16384 });
  assert.equal(r.layer_type, 'chunked_attention');
  assert.equal(r.layer_types.full_attention, false);
  assert.equal(r.layers.length, 48);
  r.layers.forEach((l, i) => {
    assert.equal(l.rope, (i + 1) % 4 !== 0, `layer ${i}`);
    assert.equal(l.type, l.rope ? 'chunked_attention' : 'full_attention');
  });
  const want = theta(5e5, 128).map((f) => ((2 * Math.PI) / f > 8192 ? f / 16 : f));
  close(r.inv_freq, want, REL, 'step');
  assert.equal(r.llama3_bands.n_smoothed, 0);
  assert.equal(r.llama3_bands.n_scaled, want.filter((f, i) => f !== theta(5e5, 128)[i]).length);
  assert.deepEqual(r.attn_temperature, { floor_scale: 8192, attn_scale: 0.1, form: 'llama4', scale_at_seq_len: 1 + 0.1 * Math.log(1 + 2) });
  assert.match(r.warnings.join('\n'), /no_rope_layers: empty or not set/);
});

// deepseek-ai/DeepSeek-V3 (config.json has no head_dim: hidden_size/heads would be 56)
const DEEPSEEK_V3 = {
  architectures: ['DeepseekV3ForCausalLM'], model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, num_hidden_layers: 61,
  kv_lora_rank: 512, q_lora_rank: 1536, qk_nope_head_dim: 128, qk_rope_head_dim: 64, v_head_dim: 128, max_position_embeddings: 163840,
  rope_theta: 10000, rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0,
    original_max_position_embeddings: 4096, type: 'yarn' },
};

test('DeepSeek-V3 (MLA): rotary head = qk_rope_head_dim 64, YaRN range, mscale² softmax correction', () => {
  const r = pe.ropeFromConfig(DEEPSEEK_V3);
  assert.equal(r.head_dim, 64);
  assert.equal(r.rotary_dim, 64);
  assert.equal(r.attention_scaling, 1); // mscale = mscale_all_dim cancel
  assert.equal(r.layout, 'interleaved');
  const lo = dimOf(4096 / 32, 64, 1e4), hi = dimOf(4096 / 1, 64, 1e4);
  assert.deepEqual(r.yarn_correction_range, { low: Math.floor(lo), high: Math.ceil(hi), low_raw: r.yarn_correction_range.low_raw, high_raw: r.yarn_correction_range.high_raw });
  assert.ok(Math.abs(r.yarn_correction_range.low_raw - lo) < 1e-12 && Math.abs(r.yarn_correction_range.high_raw - hi) < 1e-12);
  assert.equal(r.mla.qk_head_dim, 192);
  assert.ok(Math.abs(r.mla.softmax_scale_factor - mscale(40) ** 2) < 1e-15);
  assert.ok(Math.abs(r.mla.softmax_scale - mscale(40) ** 2 / Math.sqrt(192)) < 1e-15);
  // inv_freq: the ramp between θ_i (i ≤ low) and θ_i/40 (i ≥ high)
  const t = theta(1e4, 64);
  for (let i = 0; i < 32; i++) {
    const ramp = Math.min(1, Math.max(0, (i - Math.floor(lo)) / (Math.ceil(hi) - Math.floor(lo))));
    assert.ok(Math.abs(r.inv_freq[i] - (t[i] / 40) * ramp - t[i] * (1 - ramp)) <= 1e-12 * t[i], `i=${i}`);
  }
});

// openai/gpt-oss-20b
const GPT_OSS_20B = {
  architectures: ['GptOssForCausalLM'], model_type: 'gpt_oss', head_dim: 64, hidden_size: 2880, num_attention_heads: 64,
  num_hidden_layers: 24, max_position_embeddings: 131072, rope_theta: 150000, sliding_window: 128,
  layer_types: Array.from({ length: 24 }, (_, i) => (i % 2 ? 'full_attention' : 'sliding_attention')),
  rope_scaling: { beta_fast: 32.0, beta_slow: 1.0, factor: 32.0, original_max_position_embeddings: 4096, rope_type: 'yarn', truncate: false },
};

test('GPT-OSS: both layer types share YaRN with truncate false (fractional ramp ends)', () => {
  const r = pe.ropeFromConfig(GPT_OSS_20B);
  assert.equal(r.layers.length, 24);
  assert.deepEqual(r.layer_types.sliding_attention.inv_freq, r.layer_types.full_attention.inv_freq);
  const y = r.yarn_correction_range;
  assert.ok(Math.abs(y.low - dimOf(4096 / 32, 64, 150000)) < 1e-12);
  assert.ok(Math.abs(y.high - dimOf(4096, 64, 150000)) < 1e-12);
  assert.notEqual(y.low, Math.floor(y.low));
  assert.ok(Math.abs(r.attention_scaling - mscale(32)) < 1e-15);
});

test('SmolLM3: no_rope_layers lists the NoPE layers (0 = no RoPE)', () => {
  const flags = Array.from({ length: 36 }, (_, i) => ((i + 1) % 4 ? 1 : 0));
  const r = pe.ropeFromConfig({ model_type: 'smollm3', hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 36,
    max_position_embeddings: 65536, rope_theta: 5000000.0, rope_scaling: null, no_rope_layer_interval: 4, no_rope_layers: flags });
  assert.deepEqual(r.layers.map((l) => l.rope), flags.map(Boolean));
  close(r.inv_freq, theta(5e6, 128), REL, 'inv_freq');
});

test('Gemma 4: proportional RoPE on global layers (global_head_dim 512, a quarter of the frequencies non-zero)', () => {
  const r = pe.ropeFromConfig({ model_type: 'gemma4_text', head_dim: 256, global_head_dim: 512, hidden_size: 2560,
    num_attention_heads: 8, num_hidden_layers: 10, max_position_embeddings: 131072,
    layer_types: gemmaTypes(10, 5),
    rope_parameters: { full_attention: { partial_rotary_factor: 0.25, rope_theta: 1000000.0, rope_type: 'proportional' },
      sliding_attention: { rope_theta: 10000.0, rope_type: 'default' } } });
  assert.equal(r.rope_type, 'proportional');
  assert.equal(r.head_dim, 512);
  assert.equal(r.rotary_dim, 512);
  close(r.inv_freq.slice(0, 64), theta(1e6, 512).slice(0, 64), REL, 'rotated');
  assert.ok(r.inv_freq.slice(64).every((f) => f === 0));
  assert.equal(r.layer_types.sliding_attention.head_dim, 256);
  close(r.layer_types.sliding_attention.inv_freq, theta(1e4, 256), REL, 'local');
});

test('ModernBERT: every 3rd layer global (160000), the others local (10000)', () => {
  const r = pe.ropeFromConfig({ model_type: 'modernbert', hidden_size: 768, num_attention_heads: 12, num_hidden_layers: 22,
    max_position_embeddings: 8192, global_rope_theta: 160000.0, local_rope_theta: 10000.0, global_attn_every_n_layers: 3, local_attention: 128 });
  r.layers.forEach((l, i) => assert.equal(l.type, i % 3 === 0 ? 'full_attention' : 'sliding_attention'));
  close(r.inv_freq, theta(160000, 64), REL, 'global');
  close(r.layer_types.sliding_attention.inv_freq, theta(1e4, 64), REL, 'local');
});

test('Cohere2: RoPE only on sliding layers (every 4th is global NoPE), interleaved pairs', () => {
  const r = pe.ropeFromConfig({ model_type: 'cohere2', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 8,
    max_position_embeddings: 8192, rope_theta: 50000.0, sliding_window: 4096, sliding_window_pattern: 4 });
  assert.equal(r.layer_type, 'sliding_attention');
  assert.equal(r.layer_types.full_attention, false);
  assert.deepEqual(r.layers.map((l) => l.rope), [true, true, true, false, true, true, true, false]);
  assert.equal(r.layout, 'interleaved');
});

test('EXAONE 4: with a sliding window the global layers are NoPE (HF: "global NoPE for hybrid attention")', () => {
  const cfg = { model_type: 'exaone4', hidden_size: 5120, num_attention_heads: 40, head_dim: 128, num_hidden_layers: 8, rope_theta: 1e6,
    max_position_embeddings: 131072, sliding_window: 4096, layer_types: gemmaTypes(8, 4) };
  const r = pe.ropeFromConfig(cfg);
  assert.equal(r.layer_type, 'sliding_attention');
  assert.equal(r.layer_types.full_attention, false);
  assert.deepEqual(r.layers.map((l) => l.rope), [true, true, true, false, true, true, true, false]);
  // without a sliding window every layer rotates
  const all = pe.ropeFromConfig({ ...cfg, sliding_window: null, layer_types: Array(8).fill('full_attention') });
  assert.ok(all.layers.every((l) => l.rope));
});

test('OLMo 3: sliding layers use the default RoPE (same theta, no scaling); full layers the YaRN one', () => {
  const yarn = { rope_type: 'yarn', factor: 8.0, original_max_position_embeddings: 8192, attention_factor: 1.2 };
  const base = { model_type: 'olmo3', hidden_size: 4096, num_attention_heads: 32, num_hidden_layers: 4, max_position_embeddings: 65536,
    sliding_window: 4096, layer_types: gemmaTypes(4, 4) };
  const legacy = pe.ropeFromConfig({ ...base, rope_theta: 500000, rope_scaling: yarn });
  const v5 = pe.ropeFromConfig({ ...base, rope_parameters: { ...yarn, rope_theta: 500000 } });
  for (const r of [legacy, v5]) {
    const local = r.layer_types.sliding_attention;
    assert.deepEqual([local.rope_type, local.attention_scaling, r.rope_type, r.attention_scaling], ['default', 1, 'yarn', 1.2]);
    close(local.inv_freq, theta(500000, 128), REL, 'sliding');
  }
  assert.deepEqual([legacy.layer_types.sliding_attention.source, v5.layer_types.sliding_attention.source], ['rope_theta', 'rope_parameters']);
});

test('GPT-J rotary_dim, GPT-NeoX rotary_pct, StableLM partial_rotary_factor', () => {
  const j = pe.ropeFromConfig({ model_type: 'gptj', n_embd: 4096, n_head: 16, rotary_dim: 64, n_positions: 2048 });
  assert.deepEqual([j.head_dim, j.rotary_dim, j.layout, j.max_position_embeddings], [256, 64, 'interleaved', 2048]);
  close(j.inv_freq, theta(1e4, 64), REL, 'gptj');
  const n = pe.ropeFromConfig({ model_type: 'gpt_neox', hidden_size: 2048, num_attention_heads: 8, rotary_pct: 0.25, rotary_emb_base: 10000, max_position_embeddings: 2048 });
  assert.deepEqual([n.head_dim, n.rotary_dim, n.layout], [256, 64, 'half_split']);
  const s = pe.ropeFromConfig({ model_type: 'stablelm', hidden_size: 2560, num_attention_heads: 32, partial_rotary_factor: 0.25, rope_theta: 10000, max_position_embeddings: 4096 });
  assert.equal(s.rotary_dim, 20);
});

test('LongRoPE with partial rotary (Phi-4-mini shape): factor set switches past the original length', () => {
  const sf = Array.from({ length: 48 }, (_, i) => 1 + i / 47), lf = Array.from({ length: 48 }, (_, i) => 1 + (31 * i) / 47);
  const cfg = { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 24, partial_rotary_factor: 0.75, max_position_embeddings: 131072,
    original_max_position_embeddings: 4096, rope_theta: 10000.0, rope_scaling: { long_factor: lf, short_factor: sf, type: 'longrope' } };
  const s = pe.ropeFromConfig(cfg, { seq_len: 4096 }), l = pe.ropeFromConfig(cfg, { seq_len: 4097 });
  assert.equal(s.rotary_dim, 96);
  assert.equal(s.longrope_factors, 'short');
  assert.equal(l.longrope_factors, 'long');
  close(s.inv_freq, theta(1e4, 96).map((f, i) => f / sf[i]), REL, 'short');
  close(l.inv_freq, theta(1e4, 96).map((f, i) => f / lf[i]), REL, 'long');
  assert.ok(Math.abs(s.attention_scaling - Math.sqrt(1 + Math.log(32) / Math.log(4096))) < 1e-15);
  assert.equal(s.factor, 32);
});

test('dynamic NTK: base at 2x max_position_embeddings is b·3^(d/(d−2)); the cache behaviour is in warnings', () => {
  const cfg = { hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 10000, rope_scaling: { type: 'dynamic', factor: 2 } };
  assert.equal(pe.ropeFromConfig(cfg).effective_base, 10000);
  const r = pe.ropeFromConfig(cfg, { seq_len: 8192 });
  assert.ok(Math.abs(r.effective_base / (1e4 * 3 ** (128 / 126)) - 1) < 1e-15);
  close(r.inv_freq, theta(r.effective_base, 128), REL, 'inv_freq');
  assert.match(r.warnings.join('\n'), /recomputes inv_freq from seq_len = max position \+ 1 each time it exceeds/);
  assert.equal(pe.dynamicNtkBase({ rotary_dim: 128, rope_theta: 1e4, factor: 2, max_position_embeddings: 4096, seq_len: 8192 }), r.effective_base);
});

test('getters: yarnCorrectionRange, llama3Bands (wavelength and dimension), "required" without the original length', () => {
  const y = pe.yarnCorrectionRange({ rotary_dim: 128, rope_theta: 1e6, original_max_position_embeddings: 32768 });
  assert.ok(Math.abs(2 * Math.PI * 1e6 ** ((2 * y.low_raw) / 128) - 32768 / 32) < 1e-9);
  assert.deepEqual([y.low, y.high], [23, 40]);
  const b = pe.llama3Bands({ rotary_dim: 128, rope_theta: 500000, original_max_position_embeddings: 8192, low_freq_factor: 1, high_freq_factor: 4 });
  assert.deepEqual([b.high_freq_wavelen, b.low_freq_wavelen], [2048, 8192]);
  assert.ok(Math.abs(b.high_freq_dim - dimOf(2048, 128, 5e5)) < 1e-12 && Math.abs(b.low_freq_dim - dimOf(8192, 128, 5e5)) < 1e-12);
  const wl = theta(5e5, 128).map((f) => (2 * Math.PI) / f);
  assert.deepEqual([b.n_kept, b.n_smoothed, b.n_scaled],
    [wl.filter((w) => w < 2048).length, wl.filter((w) => w >= 2048 && w <= 8192).length, wl.filter((w) => w > 8192).length]);
  assert.throws(() => pe.llama3Bands({ rotary_dim: 128, rope_theta: 5e5 }), /PosencError: original_max_position_embeddings: is required for rope_type 'llama3'/);
  assert.throws(() => pe.ropeInvFreqScaled({ rope_type: 'llama3', rotary_dim: 128, factor: 8 }), /original_max_position_embeddings: is required/);
  assert.throws(() => pe.llama3Bands({ rotary_dim: 128, rope_base: 5e5 }), /PosencError: llama3Bands: unknown option 'rope_base' \(did you mean 'rope_theta'\?\)/);
});

test('bad configs: PosencError naming the key path and the rule; nothing partial; the module stays usable', () => {
  const ok = pe.ropeFromConfig(GPT_OSS_20B);
  bad('{"rope_theta": 1e4,', /^config: not valid JSON/);
  bad([1, 2], /^config: must be an object/);
  bad({ ...GPT_OSS_20B, rope_theta: '150000' }, /^rope_theta: must be a finite number \(got '150000' \(a string\)\)/);
  // a top-level near-miss of a position key is reported (the family may have its own key), inside a scaling dict it is an error
  assert.match(pe.ropeFromConfig({ ...GPT_OSS_20B, rope_thetaa: 1e4 }).warnings.join('\n'), /^rope_thetaa: ignored; did you mean 'rope_theta'\?/m);
  bad({ ...GPT_OSS_20B, rope_scaling: { ...GPT_OSS_20B.rope_scaling, beta_fats: 16 } }, /^rope_scaling\.beta_fats: unknown key for rope_type 'yarn' \(did you mean 'beta_fast'\?\)/);
  bad({ ...GPT_OSS_20B, head_dim: 7 }, /^head_dim: rotary_dim = int\(head_dim \* partial_rotary_factor\) must be even \(got 7/);
  bad({ ...GPT_OSS_20B, rope_scaling: { ...GPT_OSS_20B.rope_scaling, rope_type: 'ntk-by-parts' } }, /^rope_scaling\.rope_type: must be one of 'default', 'linear', 'ntk', 'dynamic', 'yarn', 'longrope', 'llama3', 'proportional'/);
  const v5 = { ...GPT_OSS_20B, rope_scaling: undefined, rope_parameters: { full_attention: { rope_type: 'linear', factor: 0, rope_theta: 1e4 }, sliding_attention: { rope_type: 'default', rope_theta: 1e4 } } };
  bad(v5, /^rope_parameters\.full_attention\.factor: must be a finite number >= 1 \(got 0\)/);
  bad({ ...v5, rope_parameters: { full_attention: { rope_type: 'default' } } }, /^rope_parameters: has no entry for layer type 'sliding_attention'/);
  bad({ hidden_size: 4096, num_attention_heads: 32, rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 1, high_freq_factor: 4 } },
    /^rope_scaling\.original_max_position_embeddings: required for rope_type 'llama3'/);
  bad({ ...GPT_OSS_20B, layer_types: ['full_attention'] }, /^layer_types: length must equal num_hidden_layers = 24 \(got 1\)/);
  // a base outside any scaling dict is named by its own key
  bad({ ...GPT_OSS_20B, rope_theta: -1 }, /^rope_theta: must be a finite number > 0 \(got -1\)/);
  bad({ ...GEMMA3_4B, text_config: { ...GEMMA3_4B.text_config, rope_local_base_freq: -1 } }, /^text_config\.rope_local_base_freq: must be a finite number > 0/);
  bad(GPT_OSS_20B, /^seq_len: must be an integer/, { seq_len: -1 });
  bad(GPT_OSS_20B, /^ropeFromConfig: unknown option 'seqlen'/, { seqlen: 5 });
  const again = pe.ropeFromConfig(GPT_OSS_20B);
  assert.deepEqual(again.inv_freq, ok.inv_freq);
  // YaRN configs with keys no rope_type reads (e.g. "finetuned") are accepted, the key reported as ignored
  const yarnExtra = pe.ropeFromConfig({ ...GPT_OSS_20B, rope_scaling: { ...GPT_OSS_20B.rope_scaling, finetuned: true } });
  assert.deepEqual(yarnExtra.inv_freq, ok.inv_freq);
  assert.match(yarnExtra.warnings.join('\n'), /rope_scaling\.finetuned: ignored/);
});

test('Qwen3-Next (hybrid): linear_attention layers have no RoPE; full layers rotate a quarter of head_dim 256', () => {
  const types = Array.from({ length: 8 }, (_, i) => ((i + 1) % 4 ? 'linear_attention' : 'full_attention'));
  const r = pe.ropeFromConfig({ model_type: 'qwen3_next', head_dim: 256, hidden_size: 2048, num_attention_heads: 16, num_hidden_layers: 8,
    partial_rotary_factor: 0.25, rope_theta: 10000000, max_position_embeddings: 262144, layer_types: types });
  assert.deepEqual(r.layers.map((l) => l.rope), types.map((t) => t === 'full_attention'));
  assert.equal(r.layer_types.linear_attention, false);
  assert.deepEqual([r.head_dim, r.rotary_dim], [256, 64]);
  close(r.inv_freq, theta(1e7, 64), REL, 'inv_freq');
});
