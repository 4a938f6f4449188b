// The header-only .gguf fixtures (tests/fixtures/gguf, converter logic of llama.cpp, see its README): each is read by
// @huggingface/gguf identically, and pe.ropeFromGGUF agrees with pe.ropeFromConfig on the source config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gguf as hfGguf } from '@huggingface/gguf';
import { builds } from './helpers.mjs';

const [[, pe]] = builds;
const dir = new URL('../fixtures/', import.meta.url);
const F32_REL = 2 ** -23;  // factors and attention factors stored as float32

// name → [config layout, gguf layout, relative tolerance of inv_freq, attention_scaling tolerance]
const CASES = {
  'Llama-3.1-8B': ['half_split', 'interleaved', 4 * F32_REL, 0],
  'Phi-3-mini-128k-instruct': ['half_split', 'half_split', F32_REL, F32_REL],
  'DeepSeek-V3': ['interleaved', 'interleaved', 1e-13, 1e-6],
  'gemma-3-4b-it': ['half_split', 'half_split', 1e-13, 0],
  'Qwen2.5-VL-7B-Instruct': ['half_split', 'half_split', 1e-13, 0],
  'Qwen3-8B': ['half_split', 'half_split', 1e-13, 0],
};

for (const [name, [cfgLayout, ggufLayout, rel, attnTol]] of Object.entries(CASES)) {
  test(`gguf fixture ${name}: @huggingface/gguf reads the same header; ropeFromGGUF matches ropeFromConfig`, async () => {
    const path = fileURLToPath(new URL(`gguf/${name}.gguf`, dir));
    const config = JSON.parse(readFileSync(new URL(`configs/${name}.json`, dir), 'utf8'));
    const h = await pe.ggufHeader(path);
    const hf = await hfGguf(path, { allowLocalFile: true });
    for (const kv of h.kv) assert.deepEqual(kv.value, hf.metadata[kv.key], kv.key);
    assert.deepEqual(h.tensors.map((t) => [t.name, Number(t.offset)]), hf.tensorInfos.map((t) => [t.name, Number(t.offset)]));
    for (const seq_len of [0, 131072]) {
      const g = await pe.ropeFromGGUF(path, { seq_len }), c = pe.ropeFromConfig(config, { seq_len });
      assert.equal(c.layout, cfgLayout);
      assert.equal(g.layout, ggufLayout);
      assert.equal(g.rope_type, c.rope_type === 'default' && c.mrope_section ? 'default' : c.rope_type);
      assert.deepEqual([g.rotary_dim, g.rope_theta], [c.rotary_dim, c.rope_theta]);
      for (let i = 0; i < c.inv_freq.length; i++) {
        assert.ok(Math.abs(g.inv_freq[i] - c.inv_freq[i]) <= rel * c.inv_freq[i], `${name} seq ${seq_len} inv_freq[${i}]: ${g.inv_freq[i]} vs ${c.inv_freq[i]}`);
      }
      assert.ok(Math.abs(g.attention_scaling - c.attention_scaling) <= attnTol * c.attention_scaling, `attention_scaling ${g.attention_scaling} vs ${c.attention_scaling}`);
      assert.equal(g.longrope_factors, c.longrope_factors);
      assert.deepEqual(g.mrope_section, c.mrope_section);
      if (c.mla) {
        for (const k of ['qk_rope_head_dim', 'qk_nope_head_dim', 'qk_head_dim', 'v_head_dim']) assert.equal(g.mla[k], c.mla[k], k);
        assert.ok(Math.abs(g.mla.softmax_scale / c.mla.softmax_scale - 1) < 1e-6);
      }
      if (c.layer_types.sliding_attention) {
        const a = g.layer_types.sliding_attention, b = c.layer_types.sliding_attention;
        for (let i = 0; i < b.inv_freq.length; i++) assert.ok(Math.abs(a.inv_freq[i] - b.inv_freq[i]) <= 1e-13 * b.inv_freq[i]);
        assert.deepEqual(g.layers.map((l) => l.type), c.layers.map((l) => l.type));
      }
    }
  });
}

test('gguf fixture Llama-3.1-8B: rope_freqs holds the converter\'s float32 bytes (torch 2.11 running its llama3 loop)', async () => {
  // The 6 smoothed factors (pairs 29..34) as written by convert_hf_to_gguf.py's LlamaModel loop on torch float32 tensors
  // (run with torch 2.11.0 on this config; gguf-py's writer gives the same bytes, scripts/gguf-fixtures-gguf-py.py).
  // A float64 evaluation rounded once at the end differs in the last bit for pairs 29, 33 and 34.
  const smoothed = [0x3f9a8ed5, 0x3fc6d64a, 0x4001af1d, 0x402c732e, 0x406bcace, 0x40a83c06];
  const path = fileURLToPath(new URL('gguf/Llama-3.1-8B.gguf', dir));
  const hf = await hfGguf(path, { allowLocalFile: true });
  const t = hf.tensorInfos.find((x) => x.name === 'rope_freqs.weight');
  const bytes = readFileSync(path);
  const start = hf.tensorDataOffset + BigInt(t.offset);
  const bits = [...new Uint32Array(bytes.buffer.slice(bytes.byteOffset + Number(start), bytes.byteOffset + Number(start) + 256))];
  assert.deepEqual(bits, [...Array(29).fill(0x3f800000), ...smoothed, ...Array(29).fill(0x41000000)]);
});
