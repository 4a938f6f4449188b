#!/usr/bin/python3
"""An independent float64 reference for a Hugging Face Llama checkpoint, written from transformers' own code and not
from posenc: huggingface/transformers@v4.46.0 src/transformers/models/llama/modeling_llama.py (LlamaRMSNorm,
rotate_half, apply_rotary_pos_emb, repeat_kv, LlamaAttention with a causal mask, LlamaMLP, LlamaForCausalLM with
tie_word_embeddings) and src/transformers/modeling_rope_utils.py (_compute_default_rope_parameters,
_compute_linear_scaling_rope_parameters, _compute_dynamic_ntk_parameters, _compute_yarn_parameters). numpy only
(Debian's python3-numpy); the safetensors file is read by its published layout (8-byte header length, JSON, data).

    llama_hf.py <config.json> <model.safetensors>  < {"ids": [...], "rope_scaling": {...} | null}
prints {"nll": [...]} — nll[t] = -log softmax(logits_t)[ids[t+1]] in float64.
"""
import json
import math
import struct
import sys

import numpy as np


def load_safetensors(path):
    with open(path, 'rb') as f:
        raw = f.read()
    n = struct.unpack('<Q', raw[:8])[0]
    header = json.loads(raw[8:8 + n])
    data = raw[8 + n:]
    out = {}
    for name, t in header.items():
        if name == '__metadata__':
            continue
        assert t['dtype'] in ('F32', 'F16'), t['dtype']
        a, b = t['data_offsets']
        dt = np.float32 if t['dtype'] == 'F32' else np.float16
        out[name] = np.frombuffer(data[a:b], dtype=dt).reshape(t['shape']).astype(np.float64)
    return out


def rope_inv_freq(cfg, scaling, seq_len):
    """(inv_freq, attention_scaling) as modeling_rope_utils computes them."""
    base = cfg.get('rope_theta', 10000.0)
    head_dim = cfg.get('head_dim') or cfg['hidden_size'] // cfg['num_attention_heads']
    dim = int(head_dim * cfg.get('partial_rotary_factor', 1.0))
    default = 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim))
    if not scaling:
        return default, 1.0
    kind = scaling.get('rope_type', scaling.get('type'))
    factor = scaling.get('factor', 1.0)
    max_pos = cfg['max_position_embeddings']
    if kind == 'linear':
        return default / factor, 1.0
    if kind == 'dynamic':
        if seq_len > max_pos:
            base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
        return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)), 1.0
    if kind == 'yarn':
        original = scaling.get('original_max_position_embeddings') or max_pos
        attention_factor = scaling.get('attention_factor')
        if attention_factor is None:
            attention_factor = 0.1 * math.log(factor) + 1.0 if factor > 1 else 1.0
        beta_fast, beta_slow = scaling.get('beta_fast', 32), scaling.get('beta_slow', 1)

        def correction_dim(num_rotations):
            return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

        low = max(math.floor(correction_dim(beta_fast)), 0)
        high = min(math.ceil(correction_dim(beta_slow)), dim - 1)
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(dim // 2, dtype=np.float64) - low) / (high - low), 0, 1)
        extrapolation_factor = 1 - ramp
        pos_freqs = base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
        inv = (1 / (factor * pos_freqs)) * (1 - extrapolation_factor) + (1 / pos_freqs) * extrapolation_factor
        return inv, attention_factor
    raise SystemExit(f'reference: rope_type {kind!r} not implemented here')


def rms_norm(x, w, eps):
    return w * (x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps))


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def forward(cfg, W, ids, scaling):
    T = len(ids)
    H, KV = cfg['num_attention_heads'], cfg.get('num_key_value_heads', cfg['num_attention_heads'])
    D = cfg.get('head_dim') or cfg['hidden_size'] // H
    eps = cfg['rms_norm_eps']
    embed = W.get('model.embed_tokens.weight', W.get('lm_head.weight'))
    head = W.get('lm_head.weight', embed)
    inv_freq, attention_scaling = rope_inv_freq(cfg, scaling, T)
    freqs = np.outer(np.arange(T, dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb) * attention_scaling, np.sin(emb) * attention_scaling
    h = embed[ids]
    mask = np.triu(np.full((T, T), -np.inf), 1)
    for il in range(cfg['num_hidden_layers']):
        p = f'model.layers.{il}.'
        x = rms_norm(h, W[p + 'input_layernorm.weight'], eps)
        q = (x @ W[p + 'self_attn.q_proj.weight'].T).reshape(T, H, D).transpose(1, 0, 2)
        k = (x @ W[p + 'self_attn.k_proj.weight'].T).reshape(T, KV, D).transpose(1, 0, 2)
        v = (x @ W[p + 'self_attn.v_proj.weight'].T).reshape(T, KV, D).transpose(1, 0, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k, v = np.repeat(k, H // KV, axis=0), np.repeat(v, H // KV, axis=0)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(D) + mask
        s = np.exp(s - s.max(axis=-1, keepdims=True))
        s /= s.sum(axis=-1, keepdims=True)
        o = (s @ v).transpose(1, 0, 2).reshape(T, H * D)
        h = h + o @ W[p + 'self_attn.o_proj.weight'].T
        x = rms_norm(h, W[p + 'post_attention_layernorm.weight'], eps)
        g = x @ W[p + 'mlp.gate_proj.weight'].T
        u = x @ W[p + 'mlp.up_proj.weight'].T
        h = h + ((g / (1 + np.exp(-g))) * u) @ W[p + 'mlp.down_proj.weight'].T
    h = rms_norm(h, W['model.norm.weight'], eps)
    logits = h @ head.T
    m = logits.max(axis=-1, keepdims=True)
    logp = logits - m - np.log(np.exp(logits - m).sum(axis=-1, keepdims=True))
    return [float(-logp[t, ids[t + 1]]) for t in range(T - 1)]


def main():
    cfg = json.load(open(sys.argv[1]))
    W = load_safetensors(sys.argv[2])
    req = json.load(sys.stdin)
    json.dump({'nll': forward(cfg, W, req['ids'], req.get('rope_scaling'))}, sys.stdout)


if __name__ == '__main__':
    main()
