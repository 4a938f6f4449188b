// pe.ropeFromGGUF: each llama.cpp RoPE form against its closed form (computed here in float64), the pairing table,
// sliding layers, MLA, and the result's shape being pe.ropeFromConfig's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds } from './helpers.mjs';
import { T, ggufFile, f32Bytes, f16Bytes } from './gguf-writer.mjs';

const [[, pe]] = builds;
const REL = 1e-13;  // float64 closed form vs the core's float64 frequencies

const defaultInv = (base, d) => Float64Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));
function assertClose(got, want, rel, label) {
  assert.equal(got.length, want.length, `${label}: length`);
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= rel * Math.abs(want[i]), `${label}[${i}]: ${got[i]} vs ${want[i]}`);
}
/** A GGUF with the usual head keys for `arch` plus `extra` key–values and tensors. */
function model(arch, extra = [], tensors = [], { heads = 32, embd = 4096, ctx = 8192, base = 10000, layers = 4 } = {}) {
  return ggufFile({
    kv: [['general.architecture', T.str, arch], [`${arch}.context_length`, T.u32, ctx], [`${arch}.embedding_length`, T.u32, embd],
      [`${arch}.block_count`, T.u32, layers], [`${arch}.attention.head_count`, T.u32, heads], [`${arch}.rope.freq_base`, T.f32, base], ...extra],
    tensors,
  });
}
// HF's YaRN (modeling_rope_utils._compute_yarn_parameters, truncate = true), written out here.
function yarnInv(base, d, factor, orig, betaFast = 32, betaSlow = 1) {
  const corr = (rot) => (d * Math.log(orig / (rot * 2 * Math.PI))) / (2 * Math.log(base));
  const low = Math.max(Math.floor(corr(betaFast)), 0), high = Math.min(Math.ceil(corr(betaSlow)), d - 1);
  return Float64Array.from({ length: d / 2 }, (_, i) => {
    const extra = base ** (-2 * i / d), inter = extra / factor;
    const ramp = Math.min(Math.max((i - low) / (high === low ? high - low + 0.001 : high - low), 0), 1);
    const extrapolation = 1 - ramp;
    return inter * (1 - extrapolation) + extra * extrapolation;
  });
}

test('ropeFromGGUF: plain RoPE, NORM architecture → interleaved, freq_base default 10000 warned', async () => {
  const r = await pe.ropeFromGGUF(model('llama', [], [], { base: 500000 }));
  assert.equal(r.rope_type, 'default');
  assert.equal(r.layout, 'interleaved');
  assert.equal(r.gguf.pairing, 'norm');
  assert.deepEqual([r.head_dim, r.rotary_dim, r.rope_theta, r.attention_scaling, r.max_position_embeddings], [128, 128, 500000, 1, 8192]);
  assertClose(r.inv_freq, defaultInv(500000, 128), REL, 'default');
  assert.ok(r.warnings.some((w) => /converter permutes the q\/k rows .*LlamaModel\.modify_tensors/.test(w)));
  const noBase = ggufFile({ kv: [['general.architecture', T.str, 'qwen2'], ['qwen2.attention.key_length', T.u32, 64]] });
  const q = await pe.ropeFromGGUF(noBase);
  assert.equal(q.layout, 'half_split');
  assertClose(q.inv_freq, defaultInv(10000, 64), REL, 'base 10000');
  assert.ok(q.warnings.some((w) => w.startsWith('qwen2.rope.freq_base: absent; llama.cpp uses 10000')));
});

test('ropeFromGGUF: Llama 3 scaling from rope_freqs (F32 and F16): inv_freq = base^(−2i/d) / rope_freqs[i]', async () => {
  const d = 8, base = 500000;
  const ff = [1, 1.5, 4.75, 8];
  for (const [type, bytes, values] of [[0, f32Bytes(ff), ff.map(Math.fround)], [1, f16Bytes(ff).bytes, f16Bytes(ff).exact]]) {
    const r = await pe.ropeFromGGUF(model('llama', [['llama.rope.dimension_count', T.u32, d], ['llama.attention.key_length', T.u32, d]],
      [{ name: 'rope_freqs.weight', dims: [d / 2], type, data: bytes }], { base }));
    assert.equal(r.rope_type, 'llama3');
    assert.equal(r.factor, 8);
    assertClose(r.inv_freq, defaultInv(base, d).map((x, i) => x / values[i]), REL, `rope_freqs type ${type}`);
    assert.deepEqual(Array.from(r.gguf.tensors.rope_freqs), values);
  }
  const wrong = model('llama', [['llama.attention.key_length', T.u32, 8]], [{ name: 'rope_freqs.weight', dims: [3], type: 0, data: f32Bytes([1, 2, 3]) }]);
  await assert.rejects(pe.ropeFromGGUF(wrong), /^PosencError: gguf: rope_freqs.weight has 3 values \(expected rotary_dim\/2 = 4\)/);
});

test('ropeFromGGUF: linear (rope.scaling.factor and the legacy rope.scale_linear) and YaRN', async () => {
  for (const key of ['rope.scaling.factor', 'rope.scale_linear']) {
    const r = await pe.ropeFromGGUF(model('qwen2', [[`qwen2.${key}`, T.f32, 4], ['qwen2.rope.scaling.type', T.str, 'linear']]));
    assert.equal(r.rope_type, 'linear');
    assertClose(r.inv_freq, defaultInv(10000, 128).map((x) => x / 4), REL, key);
  }
  const y = await pe.ropeFromGGUF(model('qwen2', [['qwen2.rope.scaling.type', T.str, 'yarn'], ['qwen2.rope.scaling.factor', T.f32, 4],
    ['qwen2.rope.scaling.original_context_length', T.u32, 32768]], [], { base: 1e6, ctx: 131072 }));
  assert.equal(y.rope_type, 'yarn');
  assert.equal(y.layout, 'half_split');
  assert.equal(y.original_max_position_embeddings, 32768);
  assertClose(y.inv_freq, yarnInv(1e6, 128, 4, 32768), REL, 'yarn');
  assert.ok(Math.abs(y.attention_scaling - (1 + 0.1 * Math.log(4))) < 1e-15);
  // YaRN keys as llama.cpp 6c8dcaa reads them: qwen2's loader reads no yarn_* key (betas 32 / 1, llama_hparams defaults),
  // and llama_context sets the cos/sin factor to 1 + 0.1·ln(factor) whatever yarn_attn_factor says (llama-context.cpp:194-229)
  const yk = [['qwen2.rope.scaling.type', T.str, 'yarn'], ['qwen2.rope.scaling.factor', T.f32, 4], ['qwen2.rope.scaling.original_context_length', T.u32, 32768],
    ['qwen2.rope.scaling.yarn_attn_factor', T.f32, 1.5], ['qwen2.rope.scaling.yarn_beta_fast', T.f32, 16]];
  const yq = await pe.ropeFromGGUF(model('qwen2', yk, [], { base: 1e6, ctx: 131072 }));
  assertClose(yq.inv_freq, yarnInv(1e6, 128, 4, 32768, 32, 1), REL, 'yarn, betas not read');
  assert.ok(Math.abs(yq.attention_scaling - (1 + 0.1 * Math.log(4))) < 1e-15);
  assert.ok(yq.warnings.some((w) => /yarn_beta_fast = 16: llama.cpp's qwen2 loader does not read it/.test(w)));
  assert.ok(yq.warnings.some((w) => /yarn_attn_factor = 1.5: not applied/.test(w)));
  // mistral3 reads the betas and the log multiplier (mistral3.cpp:7-9): factor get_mscale(f, 1) / get_mscale(f, log_mul)
  const m3 = await pe.ropeFromGGUF(model('mistral3', [...yk.map(([k, t, v]) => [k.replace('qwen2.', 'mistral3.'), t, v]),
    ['mistral3.rope.scaling.yarn_log_multiplier', T.f32, 2]], [], { base: 1e6, ctx: 131072 }));
  assertClose(m3.inv_freq, yarnInv(1e6, 128, 4, 32768, 16, 1), REL, 'mistral3 yarn, beta_fast read');
  assert.ok(Math.abs(m3.attention_scaling - (1 + 0.1 * Math.log(4)) / (1 + 0.2 * Math.log(4))) < 1e-7);
  await assert.rejects(pe.ropeFromGGUF(model('qwen2', [['qwen2.rope.scaling.type', T.str, 'dynamic']])),
    /^PosencError: gguf: qwen2.rope.scaling.type 'dynamic' is not one of 'none', 'linear', 'yarn', 'longrope'/);
});

test('ropeFromGGUF: LongRoPE from rope_factors_long/short, chosen by seq_len, attention factor from the file', async () => {
  const d = 8, long = [1, 2, 4, 8], short = [1, 1.25, 1.5, 2];
  const f = model('phi3', [['phi3.attention.key_length', T.u32, d], ['phi3.rope.scaling.original_context_length', T.u32, 4096],
    ['phi3.rope.scaling.attn_factor', T.f32, 1.25]], [
    { name: 'rope_factors_long.weight', dims: [4], type: 0, data: f32Bytes(long) },
    { name: 'rope_factors_short.weight', dims: [4], type: 0, data: f32Bytes(short) }], { ctx: 131072 });
  // at init (seq_len 0) HF's choice: short; by default llama.cpp's context, -c 0 = context_length 131072 > 4096: long
  const atInit = await pe.ropeFromGGUF(f, { seq_len: 0 }), longer = await pe.ropeFromGGUF(f, { seq_len: 8192 });
  assert.equal((await pe.ropeFromGGUF(f)).longrope_factors, 'long');
  assert.equal(atInit.rope_type, 'longrope');
  assert.equal(atInit.longrope_factors, 'short');
  assertClose(atInit.inv_freq, defaultInv(10000, d).map((x, i) => x / short[i]), REL, 'short');
  assert.equal(longer.longrope_factors, 'long');
  assertClose(longer.inv_freq, defaultInv(10000, d).map((x, i) => x / long[i]), REL, 'long');
  assert.equal(atInit.attention_scaling, 1.25);
  assert.ok(atInit.warnings.some((w) => /n_ctx per sequence/.test(w)));
});

test('ropeFromGGUF: DeepSeek MLA — rotary head, yarn_log_multiplier = 0.1·mscale_all_dim, softmax factor', async () => {
  const f = model('deepseek2', [['deepseek2.attention.key_length', T.u32, 576], ['deepseek2.attention.key_length_mla', T.u32, 192],
    ['deepseek2.attention.value_length_mla', T.u32, 128], ['deepseek2.rope.dimension_count', T.u32, 64],
    ['deepseek2.rope.scaling.type', T.str, 'yarn'], ['deepseek2.rope.scaling.factor', T.f32, 40],
    ['deepseek2.rope.scaling.original_context_length', T.u32, 4096], ['deepseek2.rope.scaling.yarn_log_multiplier', T.f32, 0.1]],
  [], { ctx: 163840, base: 10000, heads: 128, embd: 7168 });
  const r = await pe.ropeFromGGUF(f);
  assert.equal(r.layout, 'interleaved');
  assert.deepEqual([r.head_dim, r.rotary_dim], [64, 64]);
  assertClose(r.inv_freq, yarnInv(10000, 64, 40, 4096), REL, 'deepseek yarn');
  assert.ok(Math.abs(r.attention_scaling - 1) < 1e-6, `attention_scaling ${r.attention_scaling}`);  // f32 log multiplier
  const m = 1 + Math.fround(0.1) * Math.log(40);
  assert.deepEqual([r.mla.qk_rope_head_dim, r.mla.qk_nope_head_dim, r.mla.qk_head_dim, r.mla.v_head_dim], [64, 128, 192, 128]);
  assert.ok(Math.abs(r.mla.softmax_scale_factor - m * m) < 1e-12);
  assert.ok(Math.abs(r.mla.softmax_scale - m * m / Math.sqrt(192)) < 1e-12);
});

// The layer schedule: each expected pattern is the closed rule of llama.cpp 6c8dcaa's loader / graph for the
// architecture (llama_hparams::set_swa_pattern(period, dense_first): dense when il % period == period − 1, or
// il % period == 0 with dense_first; src/models/<arch>.cpp as cited), written out here per layer.
const kinds = (r) => r.layers.map((l) => (l.rope ? l.type[0] : l.type[0].toUpperCase())).join('');
const swaRule = (n, period, denseFirst = false) => Array.from({ length: n }, (_, il) => (denseFirst ? il % period !== 0 : il % period < period - 1));

test('ropeFromGGUF layers: sliding layers where the loader reads them — Gemma 3 in code, a pattern key, dense-first ModernBERT', async () => {
  const g = await pe.ropeFromGGUF(model('gemma3', [['gemma3.attention.sliding_window', T.u32, 1024], ['gemma3.attention.key_length', T.u32, 128],
    ['gemma3.rope.scaling.type', T.str, 'linear'], ['gemma3.rope.scaling.factor', T.f32, 8]], [], { base: 1e6, layers: 12 }));
  assert.equal(kinds(g), swaRule(12, 6).map((s) => (s ? 's' : 'f')).join(''));          // models/gemma3.cpp:7-9
  assert.equal(g.layer_types.sliding_attention.rope_type, 'default');
  assertClose(g.layer_types.sliding_attention.inv_freq, defaultInv(10000, 128), REL, 'gemma3 local');   // hparams default 10000, no scaling
  assertClose(g.layer_types.full_attention.inv_freq, defaultInv(1e6, 128).map((x) => x / 8), REL, 'gemma3 global');
  const g4 = await pe.ropeFromGGUF(model('gemma3', [['gemma3.attention.sliding_window', T.u32, 1024], ['gemma3.attention.sliding_window_pattern', T.u32, 4]],
    [], { layers: 8 }));
  assert.equal(kinds(g4), swaRule(8, 4).map((s) => (s ? 's' : 'f')).join(''));
  const noWin = await pe.ropeFromGGUF(model('gemma3', [], [], { layers: 12 }));       // gemma3.cpp:5: no window → no sliding layers
  assert.equal(noWin.layers, null);
  const mb = await pe.ropeFromGGUF(model('modern-bert', [['modern-bert.attention.sliding_window', T.u32, 128],
    ['modern-bert.rope.freq_base_swa', T.f32, 10000]], [], { base: 160000, layers: 7 }));
  assert.equal(kinds(mb), swaRule(7, 3, true).map((s) => (s ? 's' : 'f')).join(''));   // modern-bert.cpp:10 dense_first
  assertClose(mb.layer_types.sliding_attention.inv_freq, defaultInv(10000, 128), REL, 'modern-bert local');
  // gpt-oss reads a scalar period only: a per-layer list is ignored and the default period 2 applies (openai-moe.cpp:9-11)
  const go = await pe.ropeFromGGUF(model('gpt-oss', [['gpt-oss.attention.sliding_window', T.u32, 128],
    ['gpt-oss.attention.sliding_window_pattern', T.arr, [T.bool, [true, true, true, false]]]], [], { layers: 4 }));
  assert.equal(kinds(go), 'sfsf');
  assert.ok(go.warnings.some((w) => /does not read/.test(w) && /default period 2/.test(w)));
  // qwen2's loader reads no sliding keys: every layer is a full layer, said in a warning
  const q = await pe.ropeFromGGUF(model('qwen2', [['qwen2.attention.sliding_window_pattern', T.arr, [T.bool, [true, false, true, false]]]]));
  assert.equal(q.layers, null);
  assert.deepEqual(Object.keys(q.layer_types), ['full_attention']);
  assert.ok(q.warnings.some((w) => /qwen2 loader does not read it/.test(w)));
});

test('ropeFromGGUF layers: NoPE layers — EXAONE 4 globals, Llama 4 every 4th, SmolLM3 every 4th; Olmo 3 sliding layers plain', async () => {
  const ex = await pe.ropeFromGGUF(model('exaone4', [], [], { layers: 64 }));            // exaone4.cpp:4-9 (64 layers), :116
  assert.equal(kinds(ex), 'sssF'.repeat(16));
  assert.equal(ex.layer_types.full_attention, false);
  assert.ok(ex.layer_types.sliding_attention.inv_freq.length > 0);
  assert.equal((await pe.ropeFromGGUF(model('exaone4', [], [], { layers: 32 }))).layers, null);   // other sizes: no SWA, all RoPE
  const l4 = await pe.ropeFromGGUF(model('llama4', [], [], { layers: 8 }));               // llama4.cpp:13-21 chunked, :145 NoPE
  assert.equal(kinds(l4), 'cccFcccF');
  assert.equal(l4.layer_types.full_attention, false);
  // sliding_window = 0: n_no_rope_layer_step = n_layer (llama4.cpp:11), so (il + 1) % n_layer leaves the last layer unrotated
  assert.equal(kinds(await pe.ropeFromGGUF(model('llama4', [['llama4.attention.sliding_window', T.u32, 0]], [], { layers: 8 }))), 'fffffffF');
  const sm = await pe.ropeFromGGUF(model('smollm3', [], [], { layers: 8 }));              // smollm3.cpp:5, :69
  assert.deepEqual(sm.layers.map((l) => l.rope), [true, true, true, false, true, true, true, false]);
  assert.equal(sm.layer_types.full_attention.rope_type, 'default');   // the rotating layers keep the file's RoPE
  const ol = await pe.ropeFromGGUF(model('olmo2', [['olmo2.attention.sliding_window', T.u32, 4096], ['olmo2.rope.scaling.type', T.str, 'yarn'],
    ['olmo2.rope.scaling.factor', T.f32, 8], ['olmo2.rope.scaling.original_context_length', T.u32, 8192]], [], { base: 500000, ctx: 65536, layers: 8 }));
  assert.equal(kinds(ol), 'sssfsssf');                                                    // olmo2.cpp:9-11
  assertClose(ol.layer_types.sliding_attention.inv_freq, defaultInv(500000, 128), REL, 'olmo3 sliding');   // olmo2.cpp:120-133
  assert.equal(ol.layer_types.sliding_attention.attention_scaling, 1);
  assertClose(ol.layer_types.full_attention.inv_freq, yarnInv(500000, 128, 8, 8192), 1e-12, 'olmo3 full');
});

test('ropeFromGGUF layers: recurrent layers — Qwen3.5 by full_attention_interval or a list, LFM2 by head_count_kv = 0', async () => {
  const q = await pe.ropeFromGGUF(model('qwen35', [['qwen35.full_attention_interval', T.u32, 3]], [], { layers: 6 }));   // qwen35.cpp:21-25
  assert.equal(kinds(q), 'LLfLLf');
  assert.equal(q.layer_types.linear_attention, false);
  assert.equal(kinds(await pe.ropeFromGGUF(model('qwen35', [], [], { layers: 8 }))), 'LLLfLLLf');   // default interval 4
  const ql = await pe.ropeFromGGUF(model('qwen3next', [['qwen3next.attention.recurrent_layers', T.arr, [T.bool, [false, true, true, false]]]]));
  assert.equal(kinds(ql), 'fLLf');
  const lf = await pe.ropeFromGGUF(ggufFile({ kv: [['general.architecture', T.str, 'lfm2'], ['lfm2.block_count', T.u32, 5], ['lfm2.context_length', T.u32, 8192],
    ['lfm2.embedding_length', T.u32, 2048], ['lfm2.attention.head_count', T.u32, 32], ['lfm2.attention.head_count_kv', T.arr, [T.u32, [0, 0, 8, 0, 8]]]] }));
  assert.equal(kinds(lf), 'CCfCf');                                                       // lfm2.cpp:10
  assert.equal(lf.layer_types.conv, false);
});

test('ropeFromGGUF: architectures llama.cpp lists with a rope type but whose graph uses learned positions are refused', async () => {
  for (const arch of ['starcoder', 'bert']) {
    await assert.rejects(pe.ropeFromGGUF(model(arch)), new RegExp(`^PosencError: gguf: architecture '${arch}' uses learned absolute positions, not RoPE`));
  }
});

test('ropeFromGGUF: M-RoPE sections, interleaved M-RoPE, unknown and RoPE-less architectures', async () => {
  const mk = (arch) => model(arch, [[`${arch}.rope.dimension_sections`, T.arr, [T.i32, [16, 24, 24, 0]]]]);
  const q2 = await pe.ropeFromGGUF(mk('qwen2vl')), q3 = await pe.ropeFromGGUF(mk('qwen3vl'));
  assert.deepEqual([q2.gguf.pairing, q2.layout, q2.mrope_section, q2.mrope_interleaved], ['mrope', 'half_split', [16, 24, 24], false]);
  assert.deepEqual([q3.gguf.pairing, q3.mrope_interleaved], ['imrope', true]);
  assert.equal((await pe.ropeFromGGUF(mk('glm4'))).gguf.pairing, 'mrope');
  assert.equal((await pe.ropeFromGGUF(model('glm4'))).gguf.pairing, 'norm');
  const u = await pe.ropeFromGGUF(model('my-new-arch'));
  assert.equal(u.layout, null);
  assert.ok(u.warnings.some((w) => /'my-new-arch' is not in llama.cpp's llama_model_rope_type table/.test(w)));
  await assert.rejects(pe.ropeFromGGUF(model('gpt2')), /^PosencError: gguf: architecture 'gpt2' uses no RoPE in llama.cpp/);
  await assert.rejects(pe.ropeFromGGUF(ggufFile({ kv: [] })), /gguf: general.architecture is missing/);
});

test('ropeFromGGUF returns every field ropeFromConfig returns', async () => {
  const cfg = pe.ropeFromConfig({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32, rope_theta: 500000, max_position_embeddings: 8192 });
  const g = await pe.ropeFromGGUF(model('llama', [], [], { base: 500000 }));
  for (const k of Object.keys(cfg)) assert.ok(k in g, `missing ${k}`);
  for (const k of Object.keys(cfg.layer_types.full_attention ?? cfg)) if (k !== 'source') assert.ok(k in g.layer_types.full_attention, `layer ${k}`);
  assertClose(g.inv_freq, cfg.inv_freq, 0, 'same frequencies');
});

test('ropeFromGGUF options: a bad seq_len, an unknown key or a non-object rejects with a PosencError naming it', async () => {
  const f = ggufFile({ kv: [['general.architecture', T.str, 'qwen2'], ['qwen2.rope.dimension_count', T.u32, 64], ['qwen2.attention.key_length', T.u32, 64]] });
  for (const seq_len of ['x', -1, 1.5, NaN, 2 ** 41]) {
    await assert.rejects(pe.ropeFromGGUF(f, { seq_len }), /^PosencError: seq_len: must be an integer in \[0, 2\^40\]/, String(seq_len));
  }
  await assert.rejects(pe.ropeFromGGUF(f, { seqlen: 3 }), /^PosencError: ropeFromGGUF: unknown option 'seqlen' \(did you mean 'seq_len'\?\)/);
  for (const o of [5, null, 'x']) await assert.rejects(pe.ropeFromGGUF(f, o), /^PosencError: options: must be an options object/);
  assert.equal((await pe.ropeFromGGUF(f, { seq_len: 4096 })).rotary_dim, 64);   // still usable afterwards
});
