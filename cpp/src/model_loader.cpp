// posenc — the model loader: a whole .gguf or .safetensors file → LmModel (posenc/model.hpp). Every tensor the
// architecture needs is looked up by name, its shape checked against the hyperparameters and its bytes against the
// file before anything is decoded; linear layers are transposed to [in][out] for the kernels.
//
// Tensor types: GGUF F32 (0), F16 (1), Q8_0 (8: blocks of 32 weights, a float16 scale d then 32 int8 q, weight d·q —
// ggml-common.h block_q8_0), BF16 (30); safetensors F32, F16, BF16.
#include <cmath>
#include <cstring>
#include <functional>

#include "learned_io.hpp"
#include "model_io.hpp"
#include "posenc/error.hpp"
#include "posenc/learned.hpp"

namespace posenc {
namespace {
using detail::fail;

std::string dims_str(const std::vector<long long>& d) { return detail::shape_str(d); }

// count elements of the given kind from p (bytes checked by the caller).
enum class Kind { f32, f16, bf16, q8_0 };
std::vector<float> decode(const std::uint8_t* p, Kind kind, std::size_t count) {
  std::vector<float> out(count);
  switch (kind) {
    case Kind::f32: std::memcpy(out.data(), p, count * 4); break;  // little-endian hosts (x86, wasm)
    case Kind::f16: for (std::size_t k = 0; k < count; ++k) out[k] = half_to_float(std::uint16_t(p[2 * k] | p[2 * k + 1] << 8)); break;
    case Kind::bf16: for (std::size_t k = 0; k < count; ++k) out[k] = bfloat16_to_float(std::uint16_t(p[2 * k] | p[2 * k + 1] << 8)); break;
    case Kind::q8_0:
      for (std::size_t b = 0; b < count / 32; ++b) {
        const std::uint8_t* blk = p + 34 * b;
        const float d = half_to_float(std::uint16_t(blk[0] | blk[1] << 8));
        for (int k = 0; k < 32; ++k) out[32 * b + k] = d * float(static_cast<std::int8_t>(blk[2 + k]));
      }
      break;
  }
  return out;
}

std::size_t byte_size(Kind kind, std::size_t count) {
  return kind == Kind::f32 ? 4 * count : kind == Kind::q8_0 ? count / 32 * 34 : 2 * count;
}

// [rows][cols] → [cols][rows]
std::vector<float> transpose(const std::vector<float>& a, int rows, int cols) {
  std::vector<float> t(a.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) t[std::size_t(c) * rows + r] = a[std::size_t(r) * cols + c];
  return t;
}

void check_finite(const std::vector<float>& v, const std::string& name) {
  for (std::size_t k = 0; k < v.size(); ++k)
    if (!std::isfinite(v[k])) fail("model", "tensor '" + name + "' holds a non-finite value at element " + std::to_string(k));
}

// One tensor source: name → (shape as the file lists it, outermost first; kind; bytes).
struct Found {
  std::vector<long long> shape;
  Kind kind;
  const std::uint8_t* data;
  std::uint64_t ggml_type = 0;  // GGUF only: the tensor's type id, named when it is not one posenc reads
};
using Lookup = std::function<const Found*(const std::string&)>;

// The tensor `name`, required to have `shape` (outermost first), decoded.
std::vector<float> tensor(const Lookup& find, const std::string& name, const std::vector<long long>& shape) {
  const Found* f = find(name);
  if (!f) fail("model", "tensor '" + name + "' is missing");
  if (f->shape != shape) {
    fail("model", "tensor '" + name + "' has shape " + dims_str(f->shape) + ", the hyperparameters need " + dims_str(shape));
  }
  std::size_t count = 1;
  for (long long d : shape) count *= std::size_t(d);
  auto v = decode(f->data, f->kind, count);
  check_finite(v, name);
  return v;
}

// The model from named tensors. names[k]: token embedding, output norm, output head, then the per-layer names with
// "%" for the layer index: attn_norm, q, k, v, o, ffn_norm, gate, up, down.
struct Names {
  std::string embd, out_norm, output;
  std::string layer[9];
};
LmModel build(LmHparams hp, const Lookup& find, const Names& nm) {
  const Found* e = find(nm.embd);
  const Found* o = find(nm.output);
  const Found* vocab_src = e ? e : o;
  if (!vocab_src) fail("model", "tensor '" + nm.embd + "' is missing");
  if (vocab_src->shape.size() != 2) fail("model", "tensor '" + nm.embd + "' must be 2-D (got " + dims_str(vocab_src->shape) + ")");
  if (hp.n_vocab == 0) hp.n_vocab = static_cast<int>(std::min<long long>(vocab_src->shape[0], 1LL << 30));
  lm_check_hparams(hp);
  const long long V = hp.n_vocab, E = hp.n_embd, F = hp.n_ff, D = hp.head_dim;
  LmModel m;
  m.hp = hp;
  m.tok_embd = tensor(find, e ? nm.embd : nm.output, {V, E});
  m.out_norm = tensor(find, nm.out_norm, {E});
  m.tied = !o || !e;   // one matrix serves both (no output head, or no embedding: the 656K safetensors keeps only lm_head)
  m.output = transpose(o ? tensor(find, nm.output, {V, E}) : m.tok_embd, int(V), int(E));
  m.n_params = V * E * (m.tied || !e ? 1 : 2) + E;
  auto at = [&](int k, int il) {
    std::string s = nm.layer[k];
    return s.replace(s.find('%'), 1, std::to_string(il));
  };
  for (int il = 0; il < hp.n_layer; ++il) {
    LmLayer L;
    const long long Q = hp.n_head * D, KV = hp.n_head_kv * D;
    L.attn_norm = tensor(find, at(0, il), {E});
    L.wq = transpose(tensor(find, at(1, il), {Q, E}), int(Q), int(E));
    L.wk = transpose(tensor(find, at(2, il), {KV, E}), int(KV), int(E));
    L.wv = transpose(tensor(find, at(3, il), {KV, E}), int(KV), int(E));
    L.wo = transpose(tensor(find, at(4, il), {E, Q}), int(E), int(Q));
    L.ffn_norm = tensor(find, at(5, il), {E});
    L.w_gate = transpose(tensor(find, at(6, il), {F, E}), int(F), int(E));
    L.w_up = transpose(tensor(find, at(7, il), {F, E}), int(F), int(E));
    L.w_down = transpose(tensor(find, at(8, il), {E, F}), int(E), int(F));
    m.n_params += 2 * E + 2 * Q * E + 2 * KV * E + 3 * F * E;
    m.layers.push_back(std::move(L));
  }
  // posenc-tiny's position tensors (Hugging Face style names; a Llama file has none of these schemes)
  if (hp.position == LmPosition::learned) {
    m.pos_embd = tensor(find, "model.embed_positions.weight", {hp.n_positions, E});
    m.n_params += hp.n_positions * E;
  } else if (hp.position == LmPosition::t5) {
    m.rel_bias = tensor(find, "model.relative_attention_bias.weight", {hp.t5_num_buckets, hp.n_head});
    m.n_params += hp.t5_num_buckets * hp.n_head;
  } else if (hp.position == LmPosition::kerple) {
    for (int il = 0; il < hp.n_layer; ++il) {
      const std::string at = "model.layers." + std::to_string(il) + ".self_attn.kerple_";
      m.layers[il].kerple_r1 = tensor(find, at + "r1", {hp.n_head});
      m.layers[il].kerple_r2 = tensor(find, at + "r2", {hp.n_head});
      m.n_params += 2 * hp.n_head;
    }
  }
  return m;
}

LmVocab vocab_from_gguf(const GgufHeader& h) {
  LmVocab v;
  auto str = [&](const char* key) -> std::string {
    const GgufValue* x = detail::gguf_find(h, key);
    return x && x->type == GgufType::string ? x->str : std::string();
  };
  auto num = [&](const char* key) -> int {
    const GgufValue* x = detail::gguf_find(h, key);
    if (!x || x->type == GgufType::string || x->type == GgufType::array) return -1;
    const double d = x->type == GgufType::u64 ? double(x->u64) : x->type == GgufType::i64 ? double(x->i64) : x->num;
    return d >= 0 && d < 2147483647.0 ? int(d) : -1;
  };
  v.model = str("tokenizer.ggml.model");
  const GgufValue* toks = detail::gguf_find(h, "tokenizer.ggml.tokens");
  if (!toks) return v;
  if (toks->type != GgufType::array || toks->elem != GgufType::string || toks->skipped) {
    fail("gguf", "key 'tokenizer.ggml.tokens' must be an array of at most 262144 strings");
  }
  for (const auto& t : toks->items) {
    if (t.skipped) fail("gguf", "key 'tokenizer.ggml.tokens': a token is longer than 1 MiB");
    v.tokens.push_back(t.str);
  }
  auto numbers = [&](const char* key, auto& out) {
    const GgufValue* x = detail::gguf_find(h, key);
    if (!x) return;
    if (x->type != GgufType::array || x->skipped || x->length != v.tokens.size() || x->elem == GgufType::string ||
        x->elem == GgufType::array) {
      fail("gguf", std::string("key '") + key + "' must be an array of " + std::to_string(v.tokens.size()) + " numbers (one per token)");
    }
    for (const auto& e : x->items) out.push_back(static_cast<typename std::decay_t<decltype(out)>::value_type>(e.num));
  };
  numbers("tokenizer.ggml.scores", v.scores);
  numbers("tokenizer.ggml.token_type", v.types);
  v.bos = num("tokenizer.ggml.bos_token_id");
  v.eos = num("tokenizer.ggml.eos_token_id");
  v.unk = num("tokenizer.ggml.unknown_token_id");
  v.add_bos = num("tokenizer.ggml.add_bos_token");
  v.add_space_prefix = num("tokenizer.ggml.add_space_prefix");
  return v;
}
}  // namespace

LmModel lm_from_gguf(const std::uint8_t* bytes, std::size_t n) {
  const GgufRead r = gguf_read_header(bytes, n, n, kGgufMaxVocab);
  const GgufHeader& h = r.header;
  LmHparams hp = detail::hparams_from_gguf(h);
  std::vector<std::pair<std::string, Found>> found;
  for (const auto& t : h.tensors) {
    Kind kind;
    switch (t.type) {
      case 0: kind = Kind::f32; break;
      case 1: kind = Kind::f16; break;
      case 8: kind = Kind::q8_0; break;
      case 30: kind = Kind::bf16; break;
      default: kind = Kind::f32; break;
    }
    Found f{{}, kind, nullptr, std::uint64_t(t.type)};
    std::uint64_t count = 1;
    for (auto it = t.dims.rbegin(); it != t.dims.rend(); ++it) {
      f.shape.push_back(static_cast<long long>(std::min<std::uint64_t>(*it, 1ULL << 40)));
      count = *it && count > (1ULL << 40) / *it ? (1ULL << 41) : count * *it;
    }
    const bool known = t.type == 0 || t.type == 1 || t.type == 8 || t.type == 30;
    if (known && count > std::uint64_t(kLmMaxWeights)) fail("model", "tensor '" + t.name + "' has " + std::to_string(count) + " elements, over 2^28");
    if (known && kind == Kind::q8_0 && (t.dims.empty() || t.dims[0] % 32)) {
      fail("gguf", "tensor '" + t.name + "' is Q8_0 but its rows (" + std::to_string(t.dims.empty() ? 0 : t.dims[0]) + ") are not whole blocks of 32");
    }
    const std::uint64_t need = known ? byte_size(kind, count) : 0;
    const std::uint64_t start = h.data_offset + t.offset;
    if (known && (start > n || need > n - start)) {
      fail("gguf", "tensor '" + t.name + "' needs bytes [" + std::to_string(start) + ", " + std::to_string(start + need) +
                       ") but the file has " + std::to_string(n) + " (truncated file?)");
    }
    f.data = known ? bytes + start : nullptr;
    found.emplace_back(t.name, f);
  }
  const Lookup find = [&](const std::string& name) -> const Found* {
    for (const auto& [k, f] : found)
      if (k == name) {
        if (!f.data) {
          fail("model", "tensor '" + name + "' has ggml type " + std::to_string(f.ggml_type) +
                            "; posenc reads F32 (0), F16 (1), Q8_0 (8) and BF16 (30)");
        }
        return &f;
      }
    return nullptr;
  };
  Names nm{"token_embd.weight", "output_norm.weight", "output.weight",
           {"blk.%.attn_norm.weight", "blk.%.attn_q.weight", "blk.%.attn_k.weight", "blk.%.attn_v.weight",
            "blk.%.attn_output.weight", "blk.%.ffn_norm.weight", "blk.%.ffn_gate.weight", "blk.%.ffn_up.weight",
            "blk.%.ffn_down.weight"}};
  LmModel m = build(hp, find, nm);
  m.vocab = vocab_from_gguf(h);
  if (!m.vocab.tokens.empty() && m.vocab.tokens.size() != std::size_t(m.hp.n_vocab)) {
    fail("gguf", "the vocabulary has " + std::to_string(m.vocab.tokens.size()) + " tokens but token_embd has " +
                     std::to_string(m.hp.n_vocab) + " rows");
  }
  return m;
}

LmModel lm_from_safetensors(const std::uint8_t* bytes, std::size_t n, const LmHparams& hp) {
  const auto spans = safetensors_spans(bytes, n);
  std::vector<std::pair<std::string, Found>> found;
  for (const auto& s : spans) {
    const auto& dt = s.info.dtype;
    const Kind kind = dt == "F32" ? Kind::f32 : dt == "F16" ? Kind::f16 : Kind::bf16;
    Found f{s.info.shape, kind, nullptr};
    if (dt == "F32" || dt == "F16" || dt == "BF16") {
      std::uint64_t count = 1;
      for (long long d : s.info.shape) count = d && count > (1ULL << 40) / std::uint64_t(d) ? (1ULL << 41) : count * std::uint64_t(d);
      if (count <= std::uint64_t(kLmMaxWeights) && byte_size(kind, count) == s.end - s.begin) f.data = bytes + s.begin;
      else if (count <= std::uint64_t(kLmMaxWeights))
        fail("safetensors", "tensor '" + s.info.name.substr(0, 80) + "' spans " + std::to_string(s.end - s.begin) + " bytes but shape " +
                                dims_str(s.info.shape) + " of " + dt + " needs " + std::to_string(byte_size(kind, count)));
    }
    found.emplace_back(s.info.name, f);
  }
  const Lookup find = [&](const std::string& name) -> const Found* {
    for (const auto& [k, f] : found)
      if (k == name) {
        if (!f.data) fail("model", "tensor '" + name + "' is not F32, F16 or BF16 within 2^28 elements");
        return &f;
      }
    return nullptr;
  };
  Names nm{"model.embed_tokens.weight", "model.norm.weight", "lm_head.weight",
           {"model.layers.%.input_layernorm.weight", "model.layers.%.self_attn.q_proj.weight",
            "model.layers.%.self_attn.k_proj.weight", "model.layers.%.self_attn.v_proj.weight",
            "model.layers.%.self_attn.o_proj.weight", "model.layers.%.post_attention_layernorm.weight",
            "model.layers.%.mlp.gate_proj.weight", "model.layers.%.mlp.up_proj.weight", "model.layers.%.mlp.down_proj.weight"}};
  return build(hp, find, nm);
}
}  // namespace posenc
