// posenc — a language model's hyperparameters: from a GGUF file's `llama.*` keys (names as llama.cpp's
// LLM_KV_* keys), checked against the caps of posenc/model.hpp before any weight is read.
#include <cmath>

#include "model_io.hpp"
#include "model_positions.hpp"
#include "posenc/error.hpp"

namespace posenc {
namespace {
using detail::fail;

void in_range(const char* field, long long v, long long lo, long long hi) {
  if (v < lo || v > hi) {
    fail("model", std::string(field) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (got " +
                      std::to_string(v) + ")");
  }
}
}  // namespace

void lm_check_hparams(const LmHparams& hp) {
  in_range("n_layer", hp.n_layer, 1, 256);
  in_range("n_embd", hp.n_embd, 1, 16384);
  in_range("n_head", hp.n_head, 1, 1024);
  in_range("n_head_kv", hp.n_head_kv, 1, hp.n_head);
  if (hp.n_head % hp.n_head_kv) {
    fail("model", "n_head (" + std::to_string(hp.n_head) + ") must be a multiple of n_head_kv (" + std::to_string(hp.n_head_kv) + ")");
  }
  in_range("head_dim", hp.head_dim, 2, 512);
  in_range("n_ff", hp.n_ff, 1, 16384);
  in_range("n_vocab", hp.n_vocab, 2, 262144);
  if (hp.position == LmPosition::rope || hp.position == LmPosition::xpos) {
    in_range("rotary_dim", hp.rotary_dim, 2, hp.head_dim);
    if (hp.rotary_dim % 2) fail("model", "rotary_dim must be even (got " + std::to_string(hp.rotary_dim) + ")");
  }
  detail::lm::check_position_hparams(hp);
  in_range("n_ctx_train", hp.n_ctx_train, 1, 1LL << 24);
  if (!(hp.rms_eps > 0 && hp.rms_eps < 1)) fail("model", "rms_eps must be in (0, 1) (got " + detail::format_number(hp.rms_eps) + ")");
  if (!(hp.rope_theta > 1 && std::isfinite(hp.rope_theta)))
    fail("model", "rope_theta must be a finite number > 1 (got " + detail::format_number(hp.rope_theta) + ")");
  const long long per_layer = 2LL * hp.n_embd + 1LL * hp.n_embd * hp.head_dim * (2LL * hp.n_head + 2LL * hp.n_head_kv) +
                              3LL * hp.n_embd * hp.n_ff;
  const long long total = per_layer * hp.n_layer + 2LL * hp.n_vocab * hp.n_embd + hp.n_embd;
  if (total > kLmMaxWeights) {
    fail("model", "the weights need " + std::to_string(total) + " floats, over the cap of 2^28 (1 GiB); posenc runs small models");
  }
}

namespace detail {
const GgufValue* gguf_find(const GgufHeader& h, const std::string& key) {
  for (const auto& kv : h.kv)
    if (kv.key == key) return &kv.value;
  return nullptr;
}

double gguf_number(const GgufHeader& h, const std::string& key, const double* fallback) {
  const GgufValue* v = gguf_find(h, key);
  if (!v) {
    if (fallback) return *fallback;
    fail("gguf", "key '" + key + "' is missing (the model needs it)");
  }
  switch (v->type) {
    case GgufType::u64: return double(v->u64);
    case GgufType::i64: return double(v->i64);
    case GgufType::string: case GgufType::array: fail("gguf", "key '" + key + "' must be a number (got " + gguf_type_name(v->type) + ")");
    default: return v->num;
  }
}

LmHparams hparams_from_gguf(const GgufHeader& h) {
  const GgufValue* a = gguf_find(h, "general.architecture");
  if (!a || a->type != GgufType::string) fail("gguf", "key 'general.architecture' is missing or not a string");
  if (a->str != "llama") {
    fail("model", "architecture '" + a->str.substr(0, 40) + "' is not supported (posenc runs the Llama family: 'llama')");
  }
  LmHparams hp;
  const std::string p = "llama.";
  auto integer = [&](const std::string& key, const double* fb = nullptr) {
    const double v = gguf_number(h, p + key, fb);
    if (!(v >= 0 && v <= 2147483647.0 && std::floor(v) == v)) fail("gguf", "key '" + p + key + "' must be a non-negative integer");
    return static_cast<int>(v);
  };
  hp.n_layer = integer("block_count");
  hp.n_embd = integer("embedding_length");
  hp.n_head = integer("attention.head_count");
  const double nh = hp.n_head;
  hp.n_head_kv = integer("attention.head_count_kv", &nh);
  hp.n_ff = integer("feed_forward_length");
  hp.n_ctx_train = integer("context_length");
  if (hp.n_head < 1) fail("gguf", "key 'llama.attention.head_count' must be ≥ 1");
  const double hd = hp.n_embd / hp.n_head;
  hp.head_dim = integer("attention.key_length", &hd);
  const double rd = hp.head_dim;
  hp.rotary_dim = integer("rope.dimension_count", &rd);
  const double eps = 1e-5, theta = 10000;
  hp.rms_eps = gguf_number(h, p + "attention.layer_norm_rms_epsilon", &eps);
  hp.rope_theta = gguf_number(h, p + "rope.freq_base", &theta);
  hp.interleaved = true;  // ggml's NORM rope on the converter's permuted q/k rows (llama.cpp: LLAMA_ROPE_TYPE_NORM)
  return hp;
}
}  // namespace detail
}  // namespace posenc
