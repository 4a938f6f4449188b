// libFuzzer target: bytes → the model loader (lm_from_gguf; lm_from_safetensors with hyperparameters picked by the first
// byte, the position scheme too) and, for a model it accepts, a short session. Invariants: only posenc::Error escapes (no crash, no read past
// the input: ASan); an accepted model's losses on a few tokens are finite, or the session refuses with an Error (the
// loader refuses non-finite weights; the forward pass, logits that overflow float32).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "posenc/model.hpp"
#include "posenc/error.hpp"

namespace {
void run(std::shared_ptr<const posenc::LmModel> m, std::uint8_t seed) {
  posenc::LmRope r;
  r.interleaved = m->hp.position == posenc::LmPosition::xpos || (seed & 1);
  r.rerope_window = seed & 2 ? 2 : 0;
  for (int i = 0; i < m->hp.rotary_dim / 2; ++i) r.inv_freq.push_back(std::pow(m->hp.rope_theta, -2.0 * i / m->hp.rotary_dim));
  posenc::LmSession s(m, r, 6);
  int ids[6], tg[6];
  for (int t = 0; t < 6; ++t) ids[t] = (seed + 7 * t) % m->hp.n_vocab, tg[t] = t < 5 ? (seed + 7 * t + 7) % m->hp.n_vocab : -1;
  float nll[6];
  s.feed(ids, 6, tg, nll, nullptr, nullptr);
  for (int t = 0; t < 5; ++t)
    if (!std::isfinite(nll[t])) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace posenc;
  if (size > (1u << 20)) return 0;
  try {
    auto m = std::make_shared<const LmModel>(lm_from_gguf(data, size));
    if (m->hp.n_embd * m->hp.n_layer <= 4096) run(m, size ? data[size - 1] : 0);
  } catch (const Error&) {
  }
  if (size > 1) {
    LmHparams hp;  // small shapes picked by the first byte
    hp.n_layer = 1 + (data[0] & 1), hp.n_head = 2, hp.n_head_kv = 1 + ((data[0] >> 1) & 1), hp.head_dim = 4, hp.rotary_dim = 4;
    hp.n_embd = 8, hp.n_ff = 8 + 4 * ((data[0] >> 2) & 1), hp.n_vocab = 16, hp.n_ctx_train = 16;
    hp.position = static_cast<LmPosition>((data[0] >> 3) & 7);
    hp.interleaved = hp.position == LmPosition::xpos;
    if (hp.position != LmPosition::rope && hp.position != LmPosition::xpos) hp.rotary_dim = 0;
    hp.n_positions = 4, hp.t5_num_buckets = 4, hp.t5_max_distance = 8;
    try {
      auto m = std::make_shared<const LmModel>(lm_from_safetensors(data + 1, size - 1, hp));
      run(m, data[0]);
    } catch (const Error&) {
    }
  }
  return 0;
}
