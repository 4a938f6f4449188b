// One model, one answer per engine: for every config fixture whose converter mapping is known (scripts/gguf-fixtures.mjs
// convertConfig, the hand port of llama.cpp's convert_hf_to_gguf.py), the .gguf the converter writes is read back with
// pe.ropeFromGGUF and must describe the same RoPE as pe.ropeFromConfig(config, { engine: 'llama.cpp' }) at every
// context: llama.cpp is the engine that runs .gguf files (transformers, vLLM and MLX read the config.json; ropeEngines
// says so for a .gguf, tests/js/rope-engines.test.mjs). The expected values that do not come from posenc are closed forms
// of the config (the trained context padded to 256; LongRoPE's base frequencies over the config's factor list) and the
// converter's source (which classes permute q/k).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertConfig } from '../../scripts/gguf-fixtures.mjs';
import { builds } from './helpers.mjs';

const [[, pe]] = builds;
const cfgDir = fileURLToPath(new URL('../fixtures/configs/', import.meta.url));
const files = [...readdirSync(cfgDir).filter((f) => f.endsWith('.json')), 'long-context/Qwen2.5-7B-Instruct-1M-assembled.json'].sort();
const tmp = mkdtempSync(join(tmpdir(), 'posenc-gguf-engines-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const F32 = 2 ** -23;
const pad256 = (n) => Math.ceil(n / 256) * 256;

/**
 * NORM (consecutive-pair) architectures among the fixtures and whether convert_hf_to_gguf.py (ggml-org/llama.cpp
 * a458664f) permutes their q/k rows: LlamaModel.modify_tensors does (undo_permute), Mistral3Model is a LlamaModel,
 * DeepseekV2Model never permutes (DeepSeek's checkpoints rotate adjacent pairs themselves: the config reads 'interleaved').
 */
const NORM_PERMUTED = { llama: true, mistral3: true, deepseek2: false };

/** The trained context the converter writes (context_length): max_position_embeddings of the (text) config. */
function trainedContext(config) {
  const c = config.text_config ?? config;
  if (config.model_type === 'gemma3') return c.max_position_embeddings ?? 131072;   // Gemma3TextConfig's default
  return c.max_position_embeddings ?? c.n_positions ?? c.n_ctx;
}

function sameRope(name, kind, c, g, permuted) {
  const at = `${name} ${kind}`;
  assert.equal(g.rotary_dim, c.rotary_dim, `${at}: rotary_dim`);
  assert.equal(g.inv_freq.length, c.inv_freq.length, `${at}: pairs`);
  // ≤ 4 float32 ulps: the file stores freq_base, factors and rope_freqs divisors as F32
  for (let i = 0; i < c.inv_freq.length; i++) {
    assert.ok(Math.abs(g.inv_freq[i] / c.inv_freq[i] - 1) <= 4 * F32, `${at}: inv_freq[${i}] gguf ${g.inv_freq[i]} vs config ${c.inv_freq[i]}`);
  }
  assert.ok(Math.abs(g.attention_scaling / c.attention_scaling - 1) <= 4 * F32, `${at}: attention_scaling ${g.attention_scaling} vs ${c.attention_scaling}`);
  assert.equal(g.longrope_factors, c.longrope_factors, `${at}: LongRoPE factor set`);
  if (permuted) assert.deepEqual([c.layout, g.layout], ['half_split', 'interleaved'], `${at}: a permuted checkpoint`);
  else assert.equal(g.layout, c.layout, `${at}: layout`);
}

for (const f of files) {
  const config = JSON.parse(readFileSync(join(cfgDir, f), 'utf8'));
  const bytes = convertConfig(config);
  if (!bytes) {
    test(`config = gguf under llama.cpp: ${f}`, { skip: `the converter port has no mapping for model_type '${config.model_type}'` }, () => {});
    continue;
  }
  test(`config = gguf under llama.cpp, at llama-cli's default context, n_ctx 0, 512 and around the original context: ${f}`, async () => {
    const file = join(tmp, f.replace(/\W+/g, '_') + '.gguf');
    writeFileSync(file, bytes);
    const trained = trainedContext(config);
    const orig = (config.text_config ?? config).original_max_position_embeddings ?? config.rope_scaling?.original_max_position_embeddings;
    const contexts = [undefined, 0, 512, 4096, 4097, ...(orig ? [orig, orig + 1] : []), trained];
    for (const n_ctx of contexts) {
      const o = n_ctx === undefined ? {} : { n_ctx };
      const c = pe.ropeFromConfig(config, { engine: 'llama.cpp', ...o });
      const g = await pe.ropeFromGGUF(file, o);
      const name = `${f} n_ctx ${n_ctx}`;
      // the context: given (> 0) padded to 256, else llama-cli / llama-server's -c 0 = the trained context padded
      const want = pad256(n_ctx > 0 ? n_ctx : trained);
      assert.deepEqual([c.context.length, g.context.length], [want, want], `${name}: context`);
      if (!(n_ctx > 0)) assert.match(g.context.source, /llama-cli and llama-server/);
      const permuted = NORM_PERMUTED[g.gguf.architecture] === true;
      assert.deepEqual(Object.keys(g.layer_types).sort(), Object.keys(c.layer_types).sort(), `${name}: layer kinds`);
      for (const [kind, x] of Object.entries(c.layer_types)) {
        if (x === false) assert.equal(g.layer_types[kind], false, `${name} ${kind}: not rotated`);
        else sameRope(name, kind, x, g.layer_types[kind], permuted);
      }
      assert.deepEqual(g.layers?.map((l) => [l.type, l.rope]) ?? null, c.layers?.map((l) => [l.type, l.rope]) ?? null, `${name}: layers`);
      assert.deepEqual(g.mrope_section, c.mrope_section, `${name}: mrope_section`);
      assert.equal(g.head_dim, c.head_dim, `${name}: head_dim`);
      assert.equal(g.mla === null, c.mla === null, `${name}: MLA or not`);
      if (c.mla) {
        for (const k of ['qk_rope_head_dim', 'qk_nope_head_dim', 'qk_head_dim', 'rope_interleave']) assert.equal(g.mla[k], c.mla[k], `${name}: mla.${k}`);
        assert.ok(Math.abs(g.mla.softmax_scale / c.mla.softmax_scale - 1) < 1e-6, `${name}: MLA softmax scale`);
      }
      assert.equal(g.attn_temperature === null, c.attn_temperature === null, `${name}: attn_temperature`);
      if (c.attn_temperature) {
        assert.equal(g.attn_temperature.floor_scale, c.attn_temperature.floor_scale);
        assert.equal(Math.fround(g.attn_temperature.attn_scale), Math.fround(c.attn_temperature.attn_scale));
        assert.deepEqual([g.attn_temperature.scale_at_seq_len, c.attn_temperature.scale_at_seq_len], [null, null], `${name}: no current length given`);
      }
    }
  });
}

test('Phi-3-mini-128k under llama.cpp by default: the trained 131072 > 4096 → rope_factors_long, as llama-cli -c 0 runs it', async () => {
  const config = JSON.parse(readFileSync(join(cfgDir, 'Phi-3-mini-128k-instruct.json'), 'utf8'));
  const file = join(tmp, 'phi3-default.gguf');
  writeFileSync(file, convertConfig(config));
  const d = 3072 / 32, theta = config.rope_theta;
  // closed form: θ^(−2i/d) / long_factor[i]
  const want = config.rope_scaling.long_factor.map((lf, i) => theta ** (-2 * i / d) / lf);
  for (const r of [pe.ropeFromConfig(config, { engine: 'llama.cpp' }), await pe.ropeFromGGUF(file)]) {
    assert.equal(r.context.length, 131072);
    assert.equal(r.longrope_factors, 'long');
    want.forEach((w, i) => assert.ok(Math.abs(r.inv_freq[i] / w - 1) < 1e-6, `pair ${i}`));
  }
  // the library's llama_context_default_params (512): one option away, short factors
  const lib = pe.ropeFromConfig(config, { engine: 'llama.cpp', n_ctx: 512 });
  assert.deepEqual([lib.context.length, lib.longrope_factors], [512, 'short']);
  assert.equal((await pe.ropeFromGGUF(file, { n_ctx: 512 })).longrope_factors, 'short');
});

test('the "converter permutes q/k" warning only for architectures whose converter class permutes (convert_hf_to_gguf.py a458664f)', async () => {
  for (const [f, arch] of [['Llama-3.1-8B.json', 'llama'], ['Devstral-Small-2-24B-Instruct.json', 'mistral3'], ['DeepSeek-V3.json', 'deepseek2']]) {
    const file = join(tmp, `warn-${arch}.gguf`);
    writeFileSync(file, convertConfig(JSON.parse(readFileSync(join(cfgDir, f), 'utf8'))));
    const g = await pe.ropeFromGGUF(file);
    assert.equal(g.gguf.architecture, arch);
    const w = g.warnings.find((x) => x.startsWith(`${arch}: llama.cpp rotates consecutive pairs`));
    assert.ok(w, `${arch}: the NORM pairing is stated`);
    assert.equal(/converter permutes/.test(w), NORM_PERMUTED[arch], `${arch}: ${w}`);
    if (!NORM_PERMUTED[arch]) assert.match(w, /unpermuted \(convert_hf_to_gguf\.py DeepseekV2Model/);
  }
  // a NEOX architecture has no pairing warning at all
  const q = join(tmp, 'warn-qwen3.gguf');
  writeFileSync(q, convertConfig(JSON.parse(readFileSync(join(cfgDir, 'Qwen3-8B.json'), 'utf8'))));
  assert.ok(!(await pe.ropeFromGGUF(q)).warnings.some((x) => /permut/.test(x)));
});
