// Every verbatim config.json in tests/fixtures/configs (sources in SOURCES.md beside them) is read without error, and
// its key numbers match closed forms computed here from the file's own values (Hugging Face modeling_rope_utils.py:
// default θ_i = b^(−2i/d); linear θ_i/f; YaRN ramp between the correction dims d·ln(L/(2πβ))/(2 ln b) and
// attention factor 0.1·ln f + 1; llama3 bands at L/low_freq_factor and L/high_freq_factor; LongRoPE θ_i/factor_i with
// √(1 + ln f / ln L)) and the layer schedules of the HF model classes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import init from 'posenc';

const pe = await init();
const dir = new URL('../fixtures/configs/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const sources = readFileSync(new URL('SOURCES.md', dir), 'utf8');
const text = (f) => readFileSync(new URL(f, dir), 'utf8');
const REL = 1e-12; // float64 closed forms evaluated in another order

const base = (b, d) => Array.from({ length: d / 2 }, (_, i) => b ** (-(2 * i) / d));
const mscale = (s, m = 1) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
function close(got, want, msg) {
  assert.equal(got.length, want.length, `${msg}: length`);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= REL * Math.abs(want[i]), `${msg}[${i}]: ${got[i]} vs ${want[i]}`);
}
/** HF _compute_yarn_parameters: inv_freq blended by a linear ramp between the correction dims, and the ramp's ends. */
function yarn({ b, d, factor, orig, beta_fast = 32, beta_slow = 1, truncate = true }) {
  const dim = (beta) => (d * Math.log(orig / (beta * 2 * Math.PI))) / (2 * Math.log(b));
  let low = dim(beta_fast), high = dim(beta_slow);
  if (truncate) [low, high] = [Math.floor(low), Math.ceil(high)];
  [low, high] = [Math.max(low, 0), Math.min(high, d - 1)];
  const top = low === high ? high + 0.001 : high;
  const inv = base(b, d).map((th, i) => {
    const extrapolate = 1 - Math.min(1, Math.max(0, (i - low) / (top - low)));
    return (th / factor) * (1 - extrapolate) + th * extrapolate;
  });
  return { inv, low, high };
}
/** HF _compute_llama3_parameters. */
function llama3({ b, d, factor, low_freq_factor, high_freq_factor, orig }) {
  const lo = orig / low_freq_factor, hi = orig / high_freq_factor;
  const inv = base(b, d).map((th) => {
    const wl = (2 * Math.PI) / th;
    if (wl < hi) return th;
    if (wl > lo) return th / factor;
    const s = (orig / wl - low_freq_factor) / (high_freq_factor - low_freq_factor);
    return (1 - s) * (th / factor) + s * th;
  });
  return { inv, lo, hi };
}
/** Layer-type counts and RoPE-layer count of a schedule. */
function census(layers) {
  const types = {};
  for (const l of layers) types[l.type] = (types[l.type] ?? 0) + 1;
  return { types, rope: layers.filter((l) => l.rope).length };
}

// The files given their own key numbers below; the others are flat, legacy, single-RoPE configs checked generically.
const NAMED = ['DeepSeek-V3.json', 'gpt-oss-120b.json', 'Qwen2.5-VL-7B-Instruct.json', 'Devstral-Small-2-24B-Instruct.json',
  'Qwen3.5-9B.json', 'EXAONE-4.0-32B.json', 'Olmo-3.1-32B-Instruct.json', 'phi-1.json', 'gemma-3-4b-it.json', 'gemma-3-27b-it.json',
  'LFM2.5-VL-1.6B.json', 'ModernBERT-large-zeroshot-v2.0.json'];

test('the fixture set: at least 20 real configs, each listed in SOURCES.md, each read (text or object) without error', () => {
  assert.ok(files.length >= 20, `${files.length} fixtures`);
  for (const f of [...files, 'not-rope/gpt2.json']) assert.ok(sources.includes(`| ${f} |`), `${f} is listed in SOURCES.md`);
  for (const f of NAMED) assert.ok(files.includes(f), f);
  for (const f of files) {
    const a = pe.ropeFromConfig(text(f)), b = pe.ropeFromConfig(JSON.parse(text(f)));
    assert.deepEqual(a.inv_freq, b.inv_freq, f);
    assert.ok(a.inv_freq.every((x) => Number.isFinite(x) && x > 0), `${f}: inv_freq finite, positive`);
  }
});

for (const f of files.filter((x) => !NAMED.includes(x))) {
  test(`${f}: rope_type, head_dim, rotary_dim, theta, scaling and inv_freq from the file's values`, () => {
    const t = text(f);
    const c = JSON.parse(t);
    const r = pe.ropeFromConfig(t);
    const head = c.qk_rope_head_dim ?? c.head_dim ?? Math.floor(c.hidden_size / c.num_attention_heads);
    assert.equal(r.head_dim, head);
    assert.equal(r.rotary_dim, head);
    assert.equal(r.rope_theta, c.rope_theta ?? 10000);
    assert.equal(r.max_position_embeddings, c.max_position_embeddings);
    assert.equal(r.layers, null);
    assert.deepEqual(Object.keys(r.layer_types), ['full_attention']);
    assert.equal(r.mla === null, c.qk_rope_head_dim === undefined);
    const d = r.rotary_dim, b = r.rope_theta;
    const s = c.rope_scaling;
    let want = base(b, d), att = 1;
    if (s && (s.rope_type ?? s.type) === 'llama3') {
      const l = llama3({ b, d, ...s, orig: s.original_max_position_embeddings });
      want = l.inv;
      assert.deepEqual([r.llama3_bands.high_freq_wavelen, r.llama3_bands.low_freq_wavelen], [l.hi, l.lo]);
    } else if (s && (s.rope_type ?? s.type) === 'longrope') {
      // original length: the top-level one (Phi-3) before the dict's; factor = max / original
      const orig = c.original_max_position_embeddings ?? s.original_max_position_embeddings;
      const factor = c.max_position_embeddings / orig;
      att = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(orig));
      want = base(b, d).map((th, i) => th / s.short_factor[i]);
      assert.equal(r.longrope_factors, 'short');
      const l = pe.ropeFromConfig(t, { seq_len: orig + 1 });
      assert.equal(l.longrope_factors, 'long');
      close(l.inv_freq, base(b, d).map((th, i) => th / s.long_factor[i]), 'long');
    } else {
      assert.equal(s ?? null, null);
    }
    assert.equal(r.rope_type, s ? (s.rope_type ?? s.type) : 'default');
    close(r.inv_freq, want, 'inv_freq');
    assert.ok(Math.abs(r.attention_scaling - att) < 1e-15);
  });
}

test('DeepSeek-V3: MLA rotary head 64 (not 7168/128 = 56), YaRN x40 with its correction range, mscale² softmax factor', () => {
  const r = pe.ropeFromConfig(text('DeepSeek-V3.json'));
  assert.deepEqual([r.rope_type, r.head_dim, r.rotary_dim, r.rope_theta, r.factor, r.original_max_position_embeddings], ['yarn', 64, 64, 10000, 40, 4096]);
  assert.equal(163840 / 4096, 40); // HF: factor = max_position_embeddings / original_max_position_embeddings when both are set
  const y = yarn({ b: 1e4, d: 64, factor: 40, orig: 4096 });
  close(r.inv_freq, y.inv, 'yarn');
  assert.deepEqual([r.yarn_correction_range.low, r.yarn_correction_range.high], [y.low, y.high]);
  assert.deepEqual([y.low, y.high], [10, 23]);
  // mscale == mscale_all_dim == 1: the cos/sin factor get_mscale(40, 1) / get_mscale(40, 1) is 1; the softmax gets the square
  assert.equal(r.attention_scaling, 1);
  const m2 = mscale(40) ** 2;
  assert.deepEqual([r.mla.qk_rope_head_dim, r.mla.qk_nope_head_dim, r.mla.qk_head_dim, r.mla.v_head_dim, r.mla.rope_interleave], [64, 128, 192, 128, true]);
  assert.ok(Math.abs(r.mla.softmax_scale_factor - m2) < 1e-14);
  assert.ok(Math.abs(r.mla.softmax_scale - m2 / Math.sqrt(192)) < 1e-15);
  assert.equal(r.layout, 'interleaved');
  assert.equal(r.layers, null);
});

test('gpt-oss-120b: YaRN x32 on both layer types, truncate false (fractional ramp ends), attention factor 0.1·ln 32 + 1', () => {
  const r = pe.ropeFromConfig(text('gpt-oss-120b.json'));
  const y = yarn({ b: 150000, d: 64, factor: 32, orig: 4096, truncate: false });
  for (const t of ['full_attention', 'sliding_attention']) {
    const l = r.layer_types[t];
    assert.deepEqual([l.rope_type, l.head_dim, l.rope_theta], ['yarn', 64, 150000]);
    close(l.inv_freq, y.inv, t);
    assert.ok(Math.abs(l.attention_scaling - mscale(32)) < 1e-15);
  }
  assert.ok(!Number.isInteger(y.low) && Math.abs(r.yarn_correction_range.low - y.low) < 1e-12 && Math.abs(r.yarn_correction_range.high - y.high) < 1e-12);
  assert.deepEqual(census(r.layers), { types: { sliding_attention: 18, full_attention: 18 }, rope: 36 });
  assert.deepEqual(r.layers.slice(0, 2).map((l) => l.type), ['sliding_attention', 'full_attention']);
});

test('Qwen2.5-VL-7B: M-RoPE [16, 24, 24] over 64 pairs of head 128; vision tower 2-D RoPE 80; ids of an image + text', () => {
  const r = pe.ropeFromConfig(text('Qwen2.5-VL-7B-Instruct.json'));
  assert.deepEqual([r.rope_type, r.head_dim, r.rope_theta, r.mrope_interleaved], ['default', 3584 / 28, 1e6, false]);
  assert.deepEqual(r.mrope_section, [16, 24, 24]);
  assert.equal(16 + 24 + 24, r.rotary_dim / 2);
  close(r.inv_freq, base(1e6, 128), 'inv_freq');
  assert.deepEqual([r.vision_rope.variant, r.vision_rope.rotary_dim], ['qwen2_vl', 1280 / 16]);
  // text, <vision_start>, a 1 x 4 x 6 patch grid merged 2 x 2 (6 tokens, 2 rows x 3 columns), <vision_end>, text
  const IMG = 151655, START = 151652, END = 151653;
  const input_ids = [9, START, ...Array(6).fill(IMG), END, 7];
  const { position_ids: p, rope_deltas } = pe.mropePositionIds({ config: text('Qwen2.5-VL-7B-Instruct.json'), input_ids, image_grid_thw: [[1, 4, 6]] });
  const L = input_ids.length;
  const row = (k) => Array.from(p.subarray(k * L, (k + 1) * L));
  // get_rope_index: the image starts at the next text position 2; t fixed, h = 2 + row, w = 2 + column; text resumes at 2 + 3
  assert.deepEqual(row(0), [0, 1, 2, 2, 2, 2, 2, 2, 5, 6]);
  assert.deepEqual(row(1), [0, 1, 2, 2, 2, 3, 3, 3, 5, 6]);
  assert.deepEqual(row(2), [0, 1, 2, 3, 4, 2, 3, 4, 5, 6]);
  assert.equal(rope_deltas, 6 + 1 - L);
});

test('Devstral-Small-2 (v5 rope_parameters in text_config): YaRN x48 at theta 1e8; llama_4_scaling_beta query scale; Pixtral', () => {
  const r = pe.ropeFromConfig(text('Devstral-Small-2-24B-Instruct.json'));
  assert.deepEqual([r.source, r.rope_type, r.head_dim, r.rope_theta, r.factor], ['text_config.rope_parameters', 'yarn', 128, 1e8, 48]);
  assert.equal(393216 / 8192, 48);
  close(r.inv_freq, yarn({ b: 1e8, d: 128, factor: 48, orig: 8192 }).inv, 'yarn');
  assert.equal(r.attention_scaling, 1); // mscale == mscale_all_dim
  assert.deepEqual(r.warnings, []);
  // HF Ministral3Attention: queries × 1 + beta·ln(1 + ⌊p / original_max_position_embeddings⌋) at position p = seq_len − 1
  assert.deepEqual(r.attn_temperature, { floor_scale: 8192, attn_scale: 0.1, form: 'ministral3', scale_at_seq_len: null });
  for (const p of [0, 8191, 8192, 3 * 8192, 100000, 393215]) {
    const s = pe.ropeFromConfig(text('Devstral-Small-2-24B-Instruct.json'), { seq_len: p + 1 }).attn_temperature.scale_at_seq_len;
    assert.ok(Math.abs(s - (1 + 0.1 * Math.log(1 + Math.floor(p / 8192)))) < 1e-15, `p = ${p}: ${s}`);
  }
  assert.deepEqual(r.vision_rope, { variant: 'pixtral', rotary_dim: 64, rope_theta: 10000, max_patches_per_side: Math.floor(1540 / 14) });
});

test('Qwen3.5-9B (v5): interleaved M-RoPE [11, 11, 10] on a quarter of head 256; every 4th layer full attention', () => {
  const r = pe.ropeFromConfig(text('Qwen3.5-9B.json'));
  assert.deepEqual([r.source, r.head_dim, r.rotary_dim, r.partial_rotary_factor, r.rope_theta], ['text_config.rope_parameters', 256, 64, 0.25, 1e7]);
  assert.deepEqual([r.mrope_section, r.mrope_interleaved], [[11, 11, 10], true]);
  close(r.inv_freq, base(1e7, 64), 'inv_freq');
  assert.equal(r.layer_types.linear_attention, false);
  assert.deepEqual(census(r.layers), { types: { linear_attention: 24, full_attention: 8 }, rope: 8 });
  r.layers.forEach((l, i) => assert.equal(l.rope, (i + 1) % 4 === 0, `layer ${i}`));
});

test('EXAONE-4.0-32B: llama3 x16 bands at 8192 and 2048 tokens on the 48 sliding layers; the 16 global layers are NoPE', () => {
  const r = pe.ropeFromConfig(text('EXAONE-4.0-32B.json'));
  assert.equal(r.layer_type, 'sliding_attention');
  assert.equal(r.layer_types.full_attention, false);
  const l = llama3({ b: 1e6, d: 128, factor: 16, low_freq_factor: 1, high_freq_factor: 4, orig: 8192 });
  close(r.inv_freq, l.inv, 'llama3');
  assert.deepEqual([r.llama3_bands.low_freq_wavelen, r.llama3_bands.high_freq_wavelen], [8192, 2048]);
  assert.deepEqual(census(r.layers), { types: { sliding_attention: 48, full_attention: 16 }, rope: 48 });
});

test('Olmo-3.1-32B: YaRN x8 with the given attention_factor on full layers; sliding layers unscaled at the same theta', () => {
  const r = pe.ropeFromConfig(text('Olmo-3.1-32B-Instruct.json'));
  assert.deepEqual([r.layer_type, r.rope_type, r.head_dim, r.attention_scaling], ['full_attention', 'yarn', 5120 / 40, 1.2079441541679836]);
  close(r.inv_freq, yarn({ b: 500000, d: 128, factor: 8, orig: 8192 }).inv, 'full');
  const s = r.layer_types.sliding_attention;
  assert.deepEqual([s.rope_type, s.attention_scaling, s.rope_theta], ['default', 1, 500000]);
  close(s.inv_freq, base(500000, 128), 'sliding');
  assert.deepEqual(census(r.layers), { types: { sliding_attention: 48, full_attention: 16 }, rope: 64 });
});

test('phi-1: partial rotary, 32 of 64 channels (partial_rotary_factor 0.5, rotary_dim 32 agree)', () => {
  const r = pe.ropeFromConfig(text('phi-1.json'));
  assert.deepEqual([r.rope_type, r.head_dim, r.rotary_dim, r.rope_theta], ['default', 2048 / 32, 32, 10000]);
  assert.equal(r.rotary_dim, 64 * 0.5);
  close(r.inv_freq, base(1e4, 32), 'inv_freq');
});

for (const [f, n, head] of [['gemma-3-4b-it.json', 34, 256], ['gemma-3-27b-it.json', 62, 128]]) {
  test(`${f}: text_config; global layers linear x8 at 1e6, local layers 1e4 unscaled; 5 local : 1 global`, () => {
    const r = pe.ropeFromConfig(text(f));
    assert.deepEqual([r.layer_type, r.source, r.rope_type, r.head_dim, r.rope_theta, r.factor], ['full_attention', 'text_config.rope_scaling', 'linear', head, 1e6, 8]);
    close(r.inv_freq, base(1e6, head).map((x) => x / 8), 'global');
    const l = r.layer_types.sliding_attention;
    assert.deepEqual([l.rope_type, l.rope_theta, l.source], ['default', 1e4, 'text_config.rope_local_base_freq']);
    close(l.inv_freq, base(1e4, head), 'local');
    const full = Math.floor(n / 6);
    assert.deepEqual(census(r.layers), { types: { sliding_attention: n - full, full_attention: full }, rope: n });
    r.layers.forEach((x, i) => assert.equal(x.type, (i + 1) % 6 === 0 ? 'full_attention' : 'sliding_attention'));
    assert.ok(r.warnings.some((w) => /rope_local_base_freq = 10000.*defaults of HF's gemma3_text/.test(w)), r.warnings.join('\n'));
  });
}

test('LFM2.5-VL-1.6B (v5 text_config): 6 attention layers rotate at theta 1e6, 10 short-convolution layers have no RoPE', () => {
  const r = pe.ropeFromConfig(text('LFM2.5-VL-1.6B.json'));
  assert.deepEqual([r.source, r.rope_type, r.head_dim, r.rope_theta], ['text_config.rope_parameters', 'default', 2048 / 32, 1e6]);
  close(r.inv_freq, base(1e6, 64), 'inv_freq');
  assert.equal(r.layer_types.conv, false);
  assert.deepEqual(census(r.layers), { types: { conv: 10, full_attention: 6 }, rope: 6 });
});

test('ModernBERT-large: every 3rd layer global at 160000 (10 of 28), the others local at 10000', () => {
  const r = pe.ropeFromConfig(text('ModernBERT-large-zeroshot-v2.0.json'));
  assert.deepEqual([r.layer_type, r.head_dim, r.rope_theta, r.source], ['full_attention', 1024 / 16, 160000, 'global_rope_theta']);
  close(r.inv_freq, base(160000, 64), 'global');
  close(r.layer_types.sliding_attention.inv_freq, base(1e4, 64), 'local');
  assert.deepEqual(census(r.layers), { types: { full_attention: 10, sliding_attention: 18 }, rope: 28 });
  r.layers.forEach((x, i) => assert.equal(x.type, i % 3 === 0 ? 'full_attention' : 'sliding_attention'));
});

test('not-rope/gpt2.json: a model without RoPE is an error naming model_type, not an invented RoPE', () => {
  assert.throws(() => pe.ropeFromConfig(text('not-rope/gpt2.json')),
    (e) => e.name === 'PosencError' && /^model_type: 'gpt2' uses learned absolute positions, not RoPE/.test(e.message));
});
