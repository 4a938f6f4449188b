"""One small decoder-only transformer, eight ways to tell it where a token is.

Block (Llama-style, pre-norm): x += Attn(RMSNorm(x)); x += SwiGLU(RMSNorm(x)); final RMSNorm; output
head tied to the token embedding; no biases. Attention logits are q·k/sqrt(head_dim) + bias, causal.
Parameter names follow Hugging Face's Llama (model.layers.N.self_attn.q_proj.weight, ...).

The schemes, each written out below, with the paper and the reference code they follow:
  learned     GPT-2's learned position table added to the token embedding (Radford et al. 2019;
              openai/gpt-2 src/model.py `wpe` at c2dae27c). Positions past the table reuse its last row.
  sinusoidal  Vaswani et al. 2017, "Attention Is All You Need" §3.5: PE(p,2i)=sin(p/10000^(2i/d)),
              PE(p,2i+1)=cos(·), added to the token embedding scaled by sqrt(d) (§3.4).
  rope        Su et al. 2021, RoFormer (arXiv:2104.09864), in the half-split layout of Hugging Face
              transformers' Llama (`rotate_half`), theta = 10000.
  alibi       Press et al. 2022, "Train Short, Test Long" (arXiv:2108.12409): bias -m_h·(i-j), slopes
              from `get_slopes` in ofirpress/attention_with_linear_biases (fairseq/models/transformer.py
              at 3b7c2eca): for 4 heads 1/4, 1/16, 1/64, 1/256.
  t5          Raffel et al. 2020 (T5), §2.1: a learned scalar per head and log-spaced distance bucket,
              shared by all layers; buckets as `_relative_position_bucket` in transformers'
              modeling_t5.py at 6b8b757d (bidirectional=False, 32 buckets, max_distance 128).
  nope        No position information at all (Kazemnejad et al. 2023, arXiv:2305.19466); the causal
              mask is the only source of order.
  xpos        Sun et al. 2023, "A Length-Extrapolatable Transformer" (arXiv:2212.10554): rotary in the
              interleaved layout times per-pair scale zeta_i^(p/512) on q and its inverse on k, zeta_i =
              (2i + 0.4 d)/(1.4 d); as XPOS in microsoft/torchscale
              torchscale/component/xpos_relative_position.py at 776b070d (positions centred for scale).
  kerple      Chi et al. 2022, KERPLE (arXiv:2205.09921), the logarithmic kernel: bias
              -r1_h·log(1 + r2_h·|i-j|) per layer and head, r1 ~ U(0,2), r2 ~ U(0,1) at init and both
              clamped to >= 0.01, as ParallelKerpleLog in chijames/KERPLE (at 73f1ee2d).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

SCHEMES = ["learned", "sinusoidal", "rope", "alibi", "t5", "nope", "xpos", "kerple"]


# --- position codes, each a plain function of positions --------------------------------------
def sinusoid_table(n, d):
    p = torch.arange(n, dtype=torch.float32)[:, None]
    inv = 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float32) / d)
    pe = torch.zeros(n, d)
    pe[:, 0::2] = torch.sin(p * inv)
    pe[:, 1::2] = torch.cos(p * inv)
    return pe


def rope_half_split(x, theta):
    """x: [B, H, T, D]. Pair i = channels (i, i + D/2), angle p·theta^(-2i/D) (HF Llama layout)."""
    T, D = x.shape[-2], x.shape[-1]
    inv = theta ** (-torch.arange(0, D, 2, dtype=torch.float32) / D)
    ang = torch.arange(T, dtype=torch.float32)[:, None] * inv
    cos, sin = torch.cat([ang.cos()] * 2, -1), torch.cat([ang.sin()] * 2, -1)
    x1, x2 = x[..., : D // 2], x[..., D // 2:]
    return x * cos + torch.cat([-x2, x1], -1) * sin


def xpos(x, scale_base, downscale):
    """x: [B, H, T, D]. Interleaved pairs (2i, 2i+1), angle p·10000^(-2i/D), times zeta_i^(c/scale_base)
    (c = position centred on the window, as torchscale); q gets the scale, k its inverse."""
    T, D = x.shape[-2], x.shape[-1]
    zeta = (torch.arange(0, D, 2, dtype=torch.float32) + 0.4 * D) / (1.4 * D)
    lo = -(T // 2) if T % 2 == 0 else -(T // 2) - 1  # torchscale: min_pos = -(length) // 2
    c = torch.arange(lo, lo + T, dtype=torch.float32)[:, None]
    scale = zeta ** (c / scale_base)
    if downscale:
        scale = 1 / scale
    inv = 10000.0 ** (-torch.arange(0, D // 2, dtype=torch.float32) / (D // 2))
    ang = torch.arange(T, dtype=torch.float32)[:, None] * inv
    cos = (ang.cos() * scale).repeat_interleave(2, -1)
    sin = (ang.sin() * scale).repeat_interleave(2, -1)
    rot = torch.stack([-x[..., 1::2], x[..., 0::2]], -1).flatten(-2)
    return x * cos + rot * sin


def alibi_slopes(n):
    def pow2(n):
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return pow2(n)
    c = 2 ** math.floor(math.log2(n))
    return pow2(c) + alibi_slopes(2 * c)[0::2][: n - c]


def t5_bucket(rel, num_buckets, max_distance):
    """rel = key position - query position (<= 0 under the causal mask); unidirectional T5 buckets."""
    n = -torch.clamp(rel, max=0)
    max_exact = num_buckets // 2
    large = max_exact + (torch.log(n.float().clamp(min=1) / max_exact) / math.log(max_distance / max_exact)
                         * (num_buckets - max_exact)).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return torch.where(n < max_exact, n, large)


def distance(T):
    i = torch.arange(T)
    return (i[:, None] - i[None, :]).clamp(min=0).float()  # i - j for keys at or before the query


# --- the model ---------------------------------------------------------------------------------
class RMSNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(d)), eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, self.h = cfg["hidden_size"], cfg["num_attention_heads"]
        self.hd, self.pe = d // self.h, cfg["position_encoding"]
        self.q_proj, self.k_proj, self.v_proj, self.o_proj = (nn.Linear(d, d, bias=False) for _ in range(4))
        if self.pe["type"] == "kerple":
            self.kerple_r1 = nn.Parameter(torch.rand(self.h) * 2)
            self.kerple_r2 = nn.Parameter(torch.rand(self.h))

    def forward(self, x, shared_bias):
        B, T, _ = x.shape
        q, k, v = (p(x).view(B, T, self.h, self.hd).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        kind = self.pe["type"]
        if kind == "rope":
            q, k = rope_half_split(q, self.pe["theta"]), rope_half_split(k, self.pe["theta"])
        elif kind == "xpos":
            q, k = xpos(q, self.pe["scale_base"], False), xpos(k, self.pe["scale_base"], True)
        att = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        if kind == "kerple":
            with torch.no_grad():  # as the reference code: clamp the data, not the gradient
                self.kerple_r1.clamp_(min=0.01)
                self.kerple_r2.clamp_(min=0.01)
            att = att - self.kerple_r1[:, None, None] * torch.log1p(self.kerple_r2[:, None, None] * distance(T))
        if shared_bias is not None:
            att = att + shared_bias
        mask = torch.ones(T, T, dtype=torch.bool).triu(1)
        att = att.masked_fill(mask, float("-inf")).softmax(-1)
        return self.o_proj((att @ v).transpose(1, 2).reshape(B, T, -1))


class MLP(nn.Module):
    def __init__(self, d, i):
        super().__init__()
        self.gate_proj, self.up_proj = nn.Linear(d, i, bias=False), nn.Linear(d, i, bias=False)
        self.down_proj = nn.Linear(i, d, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        d, eps = cfg["hidden_size"], cfg["rms_norm_eps"]
        self.input_layernorm, self.post_attention_layernorm = RMSNorm(d, eps), RMSNorm(d, eps)
        self.self_attn, self.mlp = Attention(cfg), MLP(d, cfg["intermediate_size"])

    def forward(self, x, bias):
        x = x + self.self_attn(self.input_layernorm(x), bias)
        return x + self.mlp(self.post_attention_layernorm(x))


class Decoder(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg, d, pe = cfg, cfg["hidden_size"], cfg["position_encoding"]
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], d)
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg["num_hidden_layers"]))
        self.norm = RMSNorm(d, cfg["rms_norm_eps"])
        if pe["type"] == "learned":
            self.embed_positions = nn.Embedding(pe["num_positions"], d)
        if pe["type"] == "t5":
            self.relative_attention_bias = nn.Embedding(pe["num_buckets"], cfg["num_attention_heads"])
        if pe["type"] == "alibi":
            self.register_buffer("slopes", torch.tensor(alibi_slopes(cfg["num_attention_heads"])), persistent=False)
        for m in self.modules():
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, std=0.02)
        for blk in self.layers:  # GPT-2's scaled init of the residual projections
            for w in (blk.self_attn.o_proj.weight, blk.mlp.down_proj.weight):
                nn.init.normal_(w, std=0.02 / math.sqrt(2 * cfg["num_hidden_layers"]))

    def forward(self, ids):
        T, pe = ids.shape[1], self.cfg["position_encoding"]
        x = self.embed_tokens(ids)
        if pe["type"] == "learned":
            x = x + self.embed_positions(torch.arange(T).clamp(max=pe["num_positions"] - 1))
        elif pe["type"] == "sinusoidal":
            x = x * math.sqrt(self.cfg["hidden_size"]) + sinusoid_table(T, self.cfg["hidden_size"])
        bias = None
        if pe["type"] == "alibi":
            bias = -self.slopes[:, None, None] * distance(T)
        elif pe["type"] == "t5":
            i = torch.arange(T)
            b = t5_bucket(i[None, :] - i[:, None], pe["num_buckets"], pe["max_distance"])
            bias = self.relative_attention_bias(b).permute(2, 0, 1)
        for blk in self.layers:
            x = blk(x, bias)
        return self.norm(x) @ self.embed_tokens.weight.T


def state_for_file(model):
    """HF-Llama-style names (model.…); the tied output head is not stored (tie_word_embeddings)."""
    return {"model." + k: v for k, v in model.state_dict().items()}


def load_state(model, tensors):
    model.load_state_dict({k[len("model."):]: v for k, v in tensors.items()})
