// Context extension from real config.json data. Expected values: a float64 re-implementation of the HF formulas
// written here, and closed forms.
import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';

const pe = await init();
const REL = 1e-12; // float64 formulas evaluated in a different order

function close(got, want, rel, msg) {
  assert.equal(got.length, want.length, `${msg}: length`);
  for (let i = 0; i < want.length; i++) {
    assert.ok(Math.abs(got[i] - want[i]) <= rel * Math.abs(want[i]), `${msg}[${i}]: ${got[i]} vs ${want[i]}`);
  }
}
const theta = (b, d) => Array.from({ length: d / 2 }, (_, i) => 1 / b ** ((2 * i) / d));

const LLAMA31_8B = {
  architectures: ['LlamaForCausalLM'], hidden_size: 4096, num_attention_heads: 32, num_key_value_heads: 8,
  max_position_embeddings: 131072, rope_theta: 500000.0, model_type: 'llama',
  rope_scaling: { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' },
};
const QWEN2_7B = {
  architectures: ['Qwen2ForCausalLM'], hidden_size: 3584, num_attention_heads: 28, num_key_value_heads: 4,
  max_position_embeddings: 32768, rope_theta: 1000000.0, rope_scaling: null, model_type: 'qwen2',
};
const QWEN25_7B_YARN = { ...QWEN2_7B, rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' } };
const DEEPSEEK_V3 = {
  architectures: ['DeepseekV3ForCausalLM'], hidden_size: 7168, num_attention_heads: 128, qk_rope_head_dim: 64, qk_nope_head_dim: 128,
  max_position_embeddings: 163840, rope_theta: 10000,
  rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' },
};
const PHI3_LONG = [1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968, 1.2299998998641968,
  1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525, 1.8999998569488525, 2.859999895095825, 3.68999981880188,
  5.419999599456787, 5.489999771118164, 5.489999771118164, 9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
  15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203, 32.35000228881836, 32.590003967285156,
  35.56000518798828, 39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672, 59.29000473022461, 59.77000427246094,
  59.920005798339844, 61.190006256103516, 61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086, 63.48000717163086,
  63.66000747680664, 63.850006103515625, 64.08000946044922, 64.760009765625, 64.80001068115234, 64.81001281738281, 64.81001281738281];
const PHI3_SHORT = [1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004, 1.4500000000000004,
  1.5500000000000005, 1.8500000000000008, 1.9000000000000008, ...Array(19).fill(2.000000000000001), 2.1000000000000005, 2.1000000000000005, 2.2,
  2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3999999999999995, 2.3999999999999995, 2.6499999999999986,
  2.6999999999999984, 2.8999999999999977, 2.9499999999999975, 3.049999999999997, 3.049999999999997, 3.049999999999997];
// Phi3ForCausalLM 128k text config (as published with Phi-3-vision-128k-instruct; legacy type "su")
const PHI3_128K = {
  architectures: ['Phi3ForCausalLM'], hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 131072,
  original_max_position_embeddings: 4096, rope_theta: 10000.0, model_type: 'phi3',
  rope_scaling: { long_factor: PHI3_LONG, short_factor: PHI3_SHORT, type: 'su' },
};

test('Phi-3 factor lists have rotary_dim/2 = 48 entries', () => {
  assert.equal(PHI3_LONG.length, 48);
  assert.equal(PHI3_SHORT.length, 48);
});

test('Qwen2 (no rope_scaling): default frequencies, head_dim from hidden_size/heads', () => {
  const r = pe.ropeFromConfig(QWEN2_7B);
  assert.equal(r.rope_type, 'default');
  assert.equal(r.head_dim, 128);
  assert.equal(r.rotary_dim, 128);
  assert.equal(r.attention_scaling, 1);
  close(r.inv_freq, theta(1e6, 128), REL, 'inv_freq');
  // also accepted as JSON text
  close(pe.ropeFromConfig(JSON.stringify(QWEN2_7B)).inv_freq, theta(1e6, 128), REL, 'json');
});

test('Llama 3.1 8B: llama3 bands', () => {
  const r = pe.ropeFromConfig(LLAMA31_8B);
  assert.equal(r.rope_type, 'llama3');
  const want = theta(500000, 128).map((f) => {
    const wl = (2 * Math.PI) / f;
    if (wl < 8192 / 4) return f;
    if (wl > 8192) return f / 8;
    const s = (8192 / wl - 1) / (4 - 1);
    return (1 - s) * (f / 8) + s * f;
  });
  close(r.inv_freq, want, REL, 'inv_freq');
  assert.equal(r.attention_scaling, 1);
});

function hfYarn(base, dim, factor, orig, bf, bs, truncate) {
  const cdim = (rot) => (dim * Math.log(orig / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  let lo = cdim(bf), hi = cdim(bs);
  if (truncate) { lo = Math.floor(lo); hi = Math.ceil(hi); }
  lo = Math.max(lo, 0); hi = Math.min(hi, dim - 1);
  if (lo === hi) hi += 0.001;
  return Array.from({ length: dim / 2 }, (_, i) => {
    const pf = base ** ((2 * i) / dim);
    const ramp = Math.min(1, Math.max(0, (i - lo) / (hi - lo)));
    const e = 1 - ramp;
    return (1 / (factor * pf)) * (1 - e) + (1 / pf) * e;
  });
}

test('Qwen2.5 with the yarn block: HF yarn, attention 0.1·ln 4 + 1', () => {
  const r = pe.ropeFromConfig(QWEN25_7B_YARN);
  assert.equal(r.rope_type, 'yarn');
  close(r.inv_freq, hfYarn(1e6, 128, 4, 32768, 32, 1, true), REL, 'inv_freq');
  assert.ok(Math.abs(r.attention_scaling - (0.1 * Math.log(4) + 1)) < 1e-15);
});

test('DeepSeek-V3: yarn with mscale = mscale_all_dim → attention scaling 1', () => {
  const r = pe.ropeFromConfig(DEEPSEEK_V3);
  assert.equal(r.rotary_dim, 64);
  close(r.inv_freq, hfYarn(10000, 64, 40, 4096, 32, 1, true), REL, 'inv_freq');
  assert.equal(r.attention_scaling, 1);
});

test('Phi-3 128k longrope: short factors at init, long past 4096, attention sqrt(1 + ln32/ln4096)', () => {
  const base = theta(10000, 96);
  const att = Math.sqrt(1 + Math.log(32) / Math.log(4096));
  const s = pe.ropeFromConfig(PHI3_128K);
  assert.equal(s.rope_type, 'longrope');
  close(s.inv_freq, base.map((f, i) => f / PHI3_SHORT[i]), REL, 'short');
  assert.ok(Math.abs(s.attention_scaling - att) < 1e-15);
  const l = pe.ropeFromConfig(PHI3_128K, { seq_len: 5000 });
  close(l.inv_freq, base.map((f, i) => f / PHI3_LONG[i]), REL, 'long');
});

test('flat options: linear, ntk, dynamic; rope_parameters (v5) and GPT-NeoX rotary_pct', () => {
  close(pe.ropeInvFreqScaled({ rope_type: 'linear', rotary_dim: 64, factor: 2 }).inv_freq, theta(1e4, 64).map((f) => f / 2), REL, 'linear');
  close(pe.ropeInvFreqScaled({ rope_type: 'ntk', rotary_dim: 64, factor: 4 }).inv_freq, theta(1e4 * 4 ** (64 / 62), 64), REL, 'ntk');
  const dyn = { rope_type: 'dynamic', rotary_dim: 64, factor: 2, max_position_embeddings: 2048 };
  close(pe.ropeInvFreqScaled({ ...dyn, seq_len: 1000 }).inv_freq, theta(1e4, 64), REL, 'dynamic below');
  close(pe.ropeInvFreqScaled({ ...dyn, seq_len: 4096 }).inv_freq, theta(1e4 * 3 ** (64 / 62), 64), REL, 'dynamic above');
  const v5 = pe.ropeFromConfig({ hidden_size: 2048, num_attention_heads: 16, max_position_embeddings: 4096,
    rope_parameters: { rope_type: 'linear', factor: 2.0, rope_theta: 50000, partial_rotary_factor: 0.5 } });
  assert.equal(v5.rotary_dim, 64);
  close(v5.inv_freq, theta(50000, 64).map((f) => f / 2), REL, 'rope_parameters');
  const neox = pe.ropeFromConfig({ hidden_size: 1024, num_attention_heads: 16, rotary_pct: 0.25, rotary_emb_base: 10000, max_position_embeddings: 2048 });
  assert.equal(neox.rotary_dim, 16);
  close(neox.inv_freq, theta(1e4, 16), REL, 'neox');
});

test('scaled tables and freqs_cis', () => {
  const y = pe.ropeFromConfig(QWEN25_7B_YARN);
  const { cos, sin } = pe.ropeTablesScaled({ inv_freq: y.inv_freq, attention_scaling: y.attention_scaling, positions: [0, 1, 100000] });
  for (let p = 0; p < 3; p++) {
    for (let i = 0; i < 64; i++) {
      const a = [0, 1, 100000][p] * y.inv_freq[i];
      assert.ok(Math.abs(cos[p * 64 + i] - y.attention_scaling * Math.cos(a)) <= 2 ** -22);
      assert.ok(Math.abs(sin[p * 64 + i] - y.attention_scaling * Math.sin(a)) <= 2 ** -22);
    }
  }
  const z = pe.ropeFreqsCis({ rotary_dim: 8, positions: 3 });
  const seedRow1 = [0.5403, 0.8415, 0.9950, 0.0998, 0.9999, 0.0100, 1.0000, 0.0010];
  for (let k = 0; k < 8; k++) assert.ok(Math.abs(z[8 + k] - seedRow1[k]) <= 5e-5);
});

test('config errors name the key; the module stays usable', () => {
  const bad = (cfg, re) => assert.throws(() => pe.ropeFromConfig(cfg), (e) => e.name === 'PosencError' && re.test(e.message), String(re));
  bad({ ...QWEN2_7B, rope_scaling: { type: 'linear' } }, /^rope_scaling\.factor: required for rope_type 'linear'/);
  bad({ ...QWEN2_7B, rope_scaling: { type: 'linear', factr: 2 } }, /^rope_scaling\.factr: unknown key for rope_type 'linear' \(did you mean 'factor'\?\)/);
  bad({ ...QWEN2_7B, rope_scaling: { type: 'linear', factor: '2' } }, /^rope_scaling\.factor: must be a finite number/);
  bad({ ...QWEN2_7B, rope_scaling: { rope_type: 'xyz', factor: 2 } }, /^rope_scaling\.rope_type: must be one of 'default', 'linear'.*'proportional' \(got 'xyz'\)/);
  bad({ ...QWEN2_7B, rope_scaling: { type: 'linear', factor: 0.5 } }, /^rope_scaling\.factor: must be a finite number >= 1/);
  bad({ ...PHI3_128K, rope_scaling: { ...PHI3_128K.rope_scaling, long_factor: PHI3_LONG.slice(1) } }, /^rope_scaling\.long_factor: length must equal rotary_dim\/2 = 48 \(got 47\)/);
  bad({ num_attention_heads: 8 }, /^hidden_size: must be a positive integer/);
  bad({ ...QWEN2_7B, partial_rotary_factor: 0.3, head_dim: 10 }, /^partial_rotary_factor: rotary_dim = int\(head_dim \* partial_rotary_factor\) must be even \(got 3/);
  // a key no rope_type reads, and not a typo of one, is ignored with a warning (HF warns too)
  assert.match(pe.ropeFromConfig({ ...QWEN2_7B, rope_scaling: { type: 'linear', factor: 2, foo: 1 } }).warnings[0], /^rope_scaling\.foo: ignored/);
  bad('{not json', /^config: not valid JSON/);
  assert.throws(() => pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 63, factor: 2 }), /PosencError: rotary_dim: must be even \(got 63\)/);
  assert.throws(() => pe.rotaryDim({ head_dim: 64, partial_rotary_factor: 0 }), /PosencError: partial_rotary_factor:/);
  assert.equal(pe.ropeFromConfig(LLAMA31_8B).rotary_dim, 128);
});
