#!/usr/bin/python3
"""Writes tests/fixtures/gguf/*.gguf with llama.cpp's own GGUF writer (gguf-py's GGUFWriter), as a cross-check of the
hand port in scripts/gguf-fixtures.mjs: the same six configs, the same add_* calls the converter (convert_hf_to_gguf.py)
makes for the RoPE-relevant keys, and the rope tensors computed as the converter computes them. No torch, no weights.

gguf-py is not vendored: put a copy of its `gguf` package on PYTHONPATH (see tests/fixtures/gguf/README.md), e.g.
  PYTHONPATH=/tmp/gguf-py /usr/bin/python3 scripts/gguf-fixtures-gguf-py.py [OUT_DIR]   (default: tests/fixtures/gguf)
"""
import json
import math
import sys
from pathlib import Path

import numpy as np

if 'sentencepiece' not in sys.modules:
    try:
        import sentencepiece  # noqa: F401
    except ImportError:   # gguf/__init__ imports vocab.py, which imports sentencepiece; no tokenizer is written here
        import types
        sys.modules['sentencepiece'] = types.SimpleNamespace(SentencePieceProcessor=None)
import gguf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
f32 = np.float32


def cfg(name):
    return json.loads((ROOT / 'tests/fixtures/configs' / f'{name}.json').read_text())


def base(w, c):
    """TextModel.set_gguf_parameters, RoPE-relevant part (same order as the converter)."""
    w.add_context_length(c['max_position_embeddings'])
    w.add_embedding_length(c['hidden_size'])
    w.add_block_count(c['num_hidden_layers'])
    w.add_head_count(c['num_attention_heads'])
    w.add_head_count_kv(c.get('num_key_value_heads', c['num_attention_heads']))
    if 'rope_theta' in c:
        w.add_rope_freq_base(c['rope_theta'])
    if 'head_dim' in c:
        w.add_key_length(c['head_dim'])
        w.add_value_length(c['head_dim'])


def llama3_factors(c):
    """LlamaModel's rope_freqs for rope_type llama3. The converter runs this loop on torch float32 0-d tensors; torch's
    `scalar / t` is `t.reciprocal() * scalar` and every op rounds to float32, which the numpy float32 ops below mirror."""
    r = c['rope_scaling']
    base_ = c.get('rope_theta', 10000.0)
    dim = c.get('head_dim', c['hidden_size'] // c['num_attention_heads'])
    freqs = f32(1) / np.power(f32(base_), np.arange(0, dim, 2, dtype=f32) / f32(dim))
    factor = r.get('factor', 8.0)
    lo, hi = r.get('low_freq_factor', 1.0), r.get('high_freq_factor', 4.0)
    old = c.get('original_max_position_embeddings', 8192)   # the converter reads the top-level hparam (default 8192)
    lo_wave, hi_wave = old / lo, old / hi
    out = []
    for freq in freqs:
        wave = (f32(1) / freq) * f32(2 * math.pi)
        if wave < hi_wave:
            out.append(1)
        elif wave > lo_wave:
            out.append(factor)
        else:
            smooth = ((f32(1) / wave) * f32(old) - f32(lo)) / f32(hi - lo)
            out.append(f32(1) / ((f32(1) - smooth) / f32(factor) + smooth))
    return np.array(out, dtype=f32)


def llama(w, c):   # LlamaModel
    base(w, c)
    w.add_rope_dimension_count(c['hidden_size'] // c['num_attention_heads'])
    w.add_tensor('rope_freqs.weight', llama3_factors(c))


def phi3(w, c):    # Phi3MiniModel
    orig = c['original_max_position_embeddings']
    scale = c['max_position_embeddings'] / orig
    n = c['hidden_size'] // c['num_attention_heads'] // 2
    base(w, c)
    w.add_rope_dimension_count(2 * n)
    w.add_rope_scaling_attn_factors(1.0 if scale <= 1.0 else math.sqrt(1 + math.log(scale) / math.log(orig)))
    w.add_rope_scaling_orig_ctx_len(orig)
    w.add_tensor('rope_factors_long.weight', np.array(c['rope_scaling']['long_factor'], dtype=f32))
    w.add_tensor('rope_factors_short.weight', np.array(c['rope_scaling']['short_factor'], dtype=f32))


def deepseek2(w, c):   # DeepseekV2Model
    r = c['rope_scaling']
    a = w.arch
    base(w, c)
    # add_key_length / add_value_length (absorbed MLA) and add_key_length_mla / add_value_length_mla; the _mla writers
    # postdate some gguf-py copies, so the key (constants.py: Keys.Attention.KEY_LENGTH_MLA) is spelled out here.
    w.add_key_length(c['kv_lora_rank'] + c['qk_rope_head_dim'])
    w.add_value_length(c['kv_lora_rank'])
    w.add_uint32(f'{a}.attention.key_length_mla', c['qk_nope_head_dim'] + c['qk_rope_head_dim'])
    w.add_uint32(f'{a}.attention.value_length_mla', c['v_head_dim'])
    w.add_rope_dimension_count(c['qk_rope_head_dim'])
    w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
    w.add_rope_scaling_factor(r['factor'])
    w.add_rope_scaling_orig_ctx_len(r['original_max_position_embeddings'])
    w.add_rope_scaling_yarn_log_mul(0.1 * r['mscale_all_dim'])


def gemma3(w, raw):    # Gemma3Model (Gemma3TextConfig defaults filled in)
    c = {'num_attention_heads': 8, 'num_key_value_heads': 4, 'head_dim': 256, 'rope_theta': 1e6,
         'max_position_embeddings': 131072, **raw['text_config']}
    base(w, c)
    w.add_sliding_window(c['sliding_window'])
    w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
    w.add_rope_scaling_factor(c['rope_scaling']['factor'])


def qwen2vl(w, c):     # Qwen2VLModel: add_rope_dimension_sections = add_array(Keys.Rope.DIMENSION_SECTIONS, ...)
    base(w, c)
    w.add_array(f'{w.arch}.rope.dimension_sections', c['rope_scaling']['mrope_section'] + [0])


FIXTURES = {
    'Llama-3.1-8B': ('llama', llama), 'Phi-3-mini-128k-instruct': ('phi3', phi3), 'DeepSeek-V3': ('deepseek2', deepseek2),
    'gemma-3-4b-it': ('gemma3', gemma3), 'Qwen2.5-VL-7B-Instruct': ('qwen2vl', qwen2vl), 'Qwen3-8B': ('qwen3', base),
}

out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / 'tests/fixtures/gguf'
out.mkdir(parents=True, exist_ok=True)
for name, (arch, make) in FIXTURES.items():
    w = gguf.GGUFWriter(out / f'{name}.gguf', arch)
    make(w, cfg(name))
    w.add_name(name)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
print(f'[gguf-fixtures-gguf-py] wrote {len(FIXTURES)} files to {out}')
