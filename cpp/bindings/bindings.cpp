// Embind bindings of the foundation (RoPE, sinusoidal, attention). cpp/bindings/ is the only folder that
// includes Emscripten; each file registers its own EMSCRIPTEN_BINDINGS block of terse raw functions.
// Conventions (common.hpp): array arguments are addresses in wasm memory sized by the TS layer, or JS typed
// arrays copied in; a C++ posenc::Error (or any std::exception) is caught here and returned as a string; the
// TypeScript layer throws it as a PosencError, so the module stays usable after bad input.
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val rope_inv_freq_js(int rotary_dim, double theta) {
  return guarded([&] { return f64(rope_inv_freq(rotary_dim, theta)); });
}

// Zero-copy entries (see common.hpp): addresses of arrays the TS layer has sized; results written at `out`.

val rope_tables_js(std::uintptr_t inv_freq, int n_inv, double scale, std::uintptr_t positions, int n_positions,
                   bool duplicate, std::uintptr_t cos_out, std::uintptr_t sin_out) {
  return guarded([&] {
    const std::vector<double> inv(at<const double>(inv_freq), at<const double>(inv_freq) + n_inv);
    std::vector<double> range;
    const double* pos = positions_at(positions, n_positions, range);
    if (scale == 1.0)
      rope_tables(inv, pos, static_cast<std::size_t>(n_positions), at<float>(cos_out), at<float>(sin_out));
    else
      rope_tables_scaled(inv, scale, pos, static_cast<std::size_t>(n_positions), at<float>(cos_out), at<float>(sin_out));
    if (duplicate) {
      duplicate_rows(at<float>(cos_out), static_cast<std::size_t>(n_positions), inv.size());
      duplicate_rows(at<float>(sin_out), static_cast<std::size_t>(n_positions), inv.size());
    }
    return val::undefined();
  });
}

RopeShape shape_of(int seq, int heads, int head_dim, int rotary_dim) {
  detail::require_int_range("seq", seq, 0, kMaxSeqLen);
  detail::require_int_range("heads", heads, 1, kMaxHeads);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  detail::require_output_cap("seq*heads*head_dim", 1LL * seq * heads * head_dim);
  return RopeShape{seq, heads, head_dim, rotary_dim};
}

val rope_apply_js(std::uintptr_t x, std::uintptr_t out, int seq, int heads, int head_dim, int rotary_dim, int layout,
                  std::uintptr_t cos_t, std::uintptr_t sin_t) {
  return guarded([&] {
    rope_apply(at<const float>(x), at<float>(out), shape_of(seq, heads, head_dim, rotary_dim), static_cast<RopeLayout>(layout),
               at<const float>(cos_t), at<const float>(sin_t));
    return val::undefined();
  });
}

val rope_apply_positions_js(std::uintptr_t x, std::uintptr_t out, int seq, int heads, int head_dim, int rotary_dim,
                            int layout, double theta, std::uintptr_t positions) {
  return guarded([&] {
    const RopeShape s = shape_of(seq, heads, head_dim, rotary_dim);
    rope_apply_positions(at<const float>(x), at<float>(out), s, static_cast<RopeLayout>(layout), theta,
                         positions == 0 ? nullptr : at<const double>(positions));
    return val::undefined();
  });
}

val sinusoidal_js(std::uintptr_t positions, int n, int d, double base, int layout, std::uintptr_t out) {
  return guarded([&] {
    detail::require_int_range("n_positions", n, 0, kMaxSeqLen);
    sinusoidal_table(positions == 0 ? nullptr : at<const double>(positions), static_cast<std::size_t>(n), d, base,
                     static_cast<SinusoidalLayout>(layout), at<float>(out));
    return val::undefined();
  });
}

val attention_scores_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t out, int seq, int head_dim, bool rope,
                        double theta, int rotary_dim, int layout, bool causal, bool softmax) {
  return guarded([&] {
    detail::require_int_range("seq", seq, 1, 8192);
    detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
    AttentionOptions o;
    o.rope = rope;
    o.rope_theta = theta;
    o.rotary_dim = rotary_dim;
    o.layout = static_cast<RopeLayout>(layout);
    o.causal = causal;
    o.softmax = softmax;
    attention_scores(at<const float>(q), at<const float>(k), seq, head_dim, o, at<float>(out));
    return val::undefined();
  });
}

// [batch, seq, heads, d] at src → [batch, heads, seq, d] at dst (a head's rows contiguous, for per-head kernels).
val heads_first_js(std::uintptr_t src, std::uintptr_t dst, int batch, int seq, int heads, int d) {
  const float* s = at<const float>(src);
  float* o = at<float>(dst);
  const std::size_t D = static_cast<std::size_t>(d);
  for (std::size_t b = 0; b < std::size_t(batch); ++b)
    for (std::size_t t = 0; t < std::size_t(seq); ++t)
      for (std::size_t h = 0; h < std::size_t(heads); ++h)
        std::copy_n(s + ((b * seq + t) * heads + h) * D, D, o + ((b * heads + h) * seq + t) * D);
  return val::undefined();
}

val text_qk_js(std::string text, int head_dim, double seed) {
  return guarded([&] {
    if (!(seed >= 0 && seed <= 9007199254740991.0 && std::floor(seed) == seed))
      detail::fail("seed", "must be an integer in [0, 2^53 - 1]");
    const auto r = text_qk(text, head_dim, static_cast<std::uint64_t>(seed));
    val o = val::object();
    o.set("tokens", strings(r.tokens));
    o.set("q", f32(r.q));
    o.set("k", f32(r.k));
    return o;
  });
}

val build_info_js() {
  val o = val::object();
  o.set("arch", std::string(kernels::simd_arch_name()));
  o.set("lanes", static_cast<int>(kernels::simd_float_lanes()));
  o.set("threads", static_cast<int>(kernels::thread_count()));
  return o;
}

double memory_bytes_js() { return double(__builtin_wasm_memory_size(0)) * 65536.0; }
}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  emscripten::function("ropeInvFreq", &rope_inv_freq_js);
  emscripten::function("ropeTables", &rope_tables_js);
  emscripten::function("ropeApply", &rope_apply_js);
  emscripten::function("ropeApplyPositions", &rope_apply_positions_js);
  emscripten::function("sinusoidal", &sinusoidal_js);
  emscripten::function("attentionScores", &attention_scores_js);
  emscripten::function("headsFirst", &heads_first_js);
  emscripten::function("textQK", &text_qk_js);
  emscripten::function("buildInfo", &build_info_js);
  emscripten::function("memoryBytes", &memory_bytes_js);
}
