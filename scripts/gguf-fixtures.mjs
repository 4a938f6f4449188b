// Writes tests/fixtures/gguf/*.gguf: the header (and the small rope tensors) that llama.cpp's converter,
// convert_hf_to_gguf.py, writes for six real configs of tests/fixtures/configs. No weights: each file holds the
// RoPE-relevant key–values and tensors only. The mapping below is the converter's, ported by hand from ggml-org/llama.cpp
// (convert_hf_to_gguf.py at a458664fc83b6513baea7adafcb0ef0626b006f8; key names gguf-py/gguf/constants.py); the bytes are
// written by tests/js/gguf-writer.mjs and every fixture is read back by @huggingface/gguf in tests/js/gguf-fixtures.test.mjs.
//   node scripts/gguf-fixtures.mjs      (deterministic: re-running rewrites identical files)
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { T, ggufFile, f32Bytes } from '../tests/js/gguf-writer.mjs';

const root = new URL('../', import.meta.url);
const cfg = (name) => JSON.parse(readFileSync(new URL(`tests/fixtures/configs/${name}.json`, root), 'utf8'));
const out = new URL('tests/fixtures/gguf/', root);
mkdirSync(out, { recursive: true });

/** TextModel.set_gguf_parameters: the keys every text model gets. */
function base(arch, c, extra = []) {
  const kv = [['general.architecture', T.str, arch], [`${arch}.context_length`, T.u32, c.max_position_embeddings],
    [`${arch}.embedding_length`, T.u32, c.hidden_size], [`${arch}.block_count`, T.u32, c.num_hidden_layers],
    [`${arch}.attention.head_count`, T.u32, c.num_attention_heads], [`${arch}.attention.head_count_kv`, T.u32, c.num_key_value_heads ?? c.num_attention_heads]];
  if (c.rope_theta !== undefined) kv.push([`${arch}.rope.freq_base`, T.f32, c.rope_theta]);
  if (c.head_dim !== undefined) kv.push([`${arch}.attention.key_length`, T.u32, c.head_dim], [`${arch}.attention.value_length`, T.u32, c.head_dim]);
  return [...kv, ...extra];
}

/**
 * LlamaModel.generate_extra_tensors for rope_type llama3: the per-pair divisors of the base frequencies (1 for high
 * frequencies, factor for low, the smooth blend between). The converter loops over torch float32 0-d tensors, so every
 * operation rounds to float32, and torch's `scalar / t` is `t.reciprocal() * scalar`: mirrored here with Math.fround
 * (checked against torch 2.11 running the converter's loop, and against scripts/gguf-fixtures-gguf-py.py).
 */
function llama3Factors(c) {
  const f = Math.fround, r = c.rope_scaling, dim = c.head_dim ?? c.hidden_size / c.num_attention_heads, b = c.rope_theta;
  const factor = r.factor ?? 8, lo = r.low_freq_factor ?? 1, hi = r.high_freq_factor ?? 4;
  const old = c.original_max_position_embeddings ?? 8192;   // the converter reads the top-level hparam (default 8192)
  const loWave = old / lo, hiWave = old / hi;
  return Array.from({ length: dim / 2 }, (_, i) => {
    const freq = f(1 / f(f(b) ** f(f(2 * i) / dim)));
    const wave = f(f(1 / freq) * f(2 * Math.PI));
    if (wave < hiWave) return 1;
    if (wave > loWave) return factor;
    const smooth = f(f(f(f(1 / wave) * f(old)) - f(lo)) / f(hi - lo));
    return f(1 / f(f(f(1 - smooth) / f(factor)) + smooth));
  });
}

const FIXTURES = {
  // LlamaModel: rope dimension = head size; llama3 scaling only as the rope_freqs tensor (no scaling keys)
  'Llama-3.1-8B': (c) => ({
    kv: base('llama', c, [['llama.rope.dimension_count', T.u32, c.hidden_size / c.num_attention_heads]]),
    tensors: [{ name: 'rope_freqs.weight', dims: [c.hidden_size / c.num_attention_heads / 2], type: 0, data: f32Bytes(llama3Factors(c)) }],
  }),
  // Phi3MiniModel: rope dims = n_embd / n_head, original context, attn_factor = sqrt(1 + ln(scale) / ln(orig)),
  // LongRoPE factors as rope_factors_long / rope_factors_short (F32)
  'Phi-3-mini-128k-instruct': (c) => {
    const orig = c.original_max_position_embeddings, scale = c.max_position_embeddings / orig;
    const attn = scale <= 1 ? 1 : Math.sqrt(1 + Math.log(scale) / Math.log(orig));
    const n = c.hidden_size / c.num_attention_heads / 2;
    return {
      kv: base('phi3', c, [['phi3.rope.dimension_count', T.u32, 2 * n], ['phi3.rope.scaling.attn_factor', T.f32, attn],
        ['phi3.rope.scaling.original_context_length', T.u32, orig]]),
      tensors: [{ name: 'rope_factors_long.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.long_factor) },
        { name: 'rope_factors_short.weight', dims: [n], type: 0, data: f32Bytes(c.rope_scaling.short_factor) }],
    };
  },
  // DeepseekV2Model: MLA lengths (key_length = kv_lora_rank + qk_rope_head_dim for the absorbed form), rope dims =
  // qk_rope_head_dim, YaRN keys from the scaling dict, yarn_log_multiplier = 0.1 · mscale_all_dim
  'DeepSeek-V3': (c) => {
    const r = c.rope_scaling;
    return {
      kv: base('deepseek2', c, [['deepseek2.attention.key_length', T.u32, c.kv_lora_rank + c.qk_rope_head_dim],
        ['deepseek2.attention.value_length', T.u32, c.kv_lora_rank], ['deepseek2.attention.key_length_mla', T.u32, c.qk_nope_head_dim + c.qk_rope_head_dim],
        ['deepseek2.attention.value_length_mla', T.u32, c.v_head_dim], ['deepseek2.rope.dimension_count', T.u32, c.qk_rope_head_dim],
        ['deepseek2.rope.scaling.type', T.str, 'yarn'], ['deepseek2.rope.scaling.factor', T.f32, r.factor],
        ['deepseek2.rope.scaling.original_context_length', T.u32, r.original_max_position_embeddings],
        ['deepseek2.rope.scaling.yarn_log_multiplier', T.f32, 0.1 * r.mscale_all_dim]]),
    };
  },
  // Gemma3Model: the text config's keys with Gemma3TextConfig's defaults (head_dim 256, 8 heads, rope_theta 1e6,
  // context 131072), linear scaling of the global layers, sliding_window; the local base 10000 is llama.cpp's (in code)
  'gemma-3-4b-it': (raw) => {
    const c = { num_attention_heads: 8, num_key_value_heads: 4, head_dim: 256, rope_theta: 1e6, max_position_embeddings: 131072, ...raw.text_config };
    return {
      kv: base('gemma3', c, [['gemma3.attention.sliding_window', T.u32, c.sliding_window], ['gemma3.rope.scaling.type', T.str, 'linear'],
        ['gemma3.rope.scaling.factor', T.f32, c.rope_scaling.factor]]),
    };
  },
  // Qwen2VLModel (Qwen2.5-VL): rope.dimension_sections = mrope_section padded to 4
  'Qwen2.5-VL-7B-Instruct': (c) => ({
    kv: base('qwen2vl', c, [['qwen2vl.rope.dimension_sections', T.arr, [T.i32, [...c.rope_scaling.mrope_section, 0]]]]),
  }),
  // Qwen3Model: plain RoPE, head_dim as key_length
  'Qwen3-8B': (c) => ({ kv: base('qwen3', c) }),
};

for (const [name, make] of Object.entries(FIXTURES)) {
  const f = make(cfg(name));
  writeFileSync(new URL(`${name}.gguf`, out), ggufFile({ kv: [...f.kv, ['general.name', T.str, name]], tensors: f.tensors ?? [] }));
}
console.log(`[gguf-fixtures] wrote ${Object.keys(FIXTURES).length} files to tests/fixtures/gguf/`);
