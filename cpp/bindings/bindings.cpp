// Embind bindings of the foundation (RoPE, sinusoidal, attention). cpp/bindings/ is the only folder that
// includes Emscripten; each file registers its own EMSCRIPTEN_BINDINGS block of terse raw functions.
// Conventions: inputs arrive as JS typed arrays and are copied into wasm memory; results are copied
// out into fresh JS-owned typed arrays (nothing to .delete()). A C++ posenc::Error (or any
// std::exception) is caught here and returned as a string; the TypeScript layer throws it as a
// PosencError, so the module stays usable after bad input.
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

val rope_tables_js(val inv_freq, val positions) {
  return guarded([&] {
    const auto inv = from_js<double>(inv_freq);
    const auto pos = from_js<double>(positions);
    detail::require_output_cap("positions*inv_freq", static_cast<long long>(pos.size() * inv.size()));
    std::vector<float> c(pos.size() * inv.size()), s(c.size());
    rope_tables(inv, pos.data(), pos.size(), c.data(), s.data());
    return cos_sin(c, s);
  });
}

RopeShape shape_of(int seq, int heads, int head_dim, int rotary_dim, std::size_t got) {
  RopeShape s{seq, heads, head_dim, rotary_dim};
  detail::require_int_range("seq", seq, 0, kMaxSeqLen);
  detail::require_int_range("heads", heads, 1, kMaxHeads);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  detail::require_output_cap("seq*heads*head_dim", 1LL * seq * heads * head_dim);
  detail::require_size("x", got, static_cast<std::size_t>(seq) * heads * head_dim);
  return s;
}

// The RoPE-apply and attention-score entry points return a view of `scratch` (valid until the next call), not a
// copy: the TS layer copies it at once into the caller's `out` or a fresh array, so a large call makes one JS copy,
// not two, and none into a fresh array when the caller passes `out`.
std::vector<float> scratch;

val rope_apply_js(val x, int seq, int heads, int head_dim, int rotary_dim, int layout, val cos_t, val sin_t) {
  return guarded([&] {
    scratch = from_js<float>(x);
    auto& v = scratch;
    const RopeShape s = shape_of(seq, heads, head_dim, rotary_dim, v.size());
    const auto c = from_js<float>(cos_t), sn = from_js<float>(sin_t);
    const std::size_t half = static_cast<std::size_t>(rotary_dim == 0 ? head_dim : rotary_dim) / 2;
    detail::require_size("cos", c.size(), static_cast<std::size_t>(seq) * half);
    detail::require_size("sin", sn.size(), static_cast<std::size_t>(seq) * half);
    rope_apply(v.data(), v.data(), s, static_cast<RopeLayout>(layout), c.data(), sn.data());
    return val(emscripten::typed_memory_view(v.size(), v.data()));
  });
}

val rope_apply_positions_js(val x, int seq, int heads, int head_dim, int rotary_dim, int layout, double theta,
                            val positions) {
  return guarded([&] {
    scratch = from_js<float>(x);
    auto& v = scratch;
    const RopeShape s = shape_of(seq, heads, head_dim, rotary_dim, v.size());
    const auto pos = positions_or_range(positions, seq);
    detail::require_size("positions", pos.size(), static_cast<std::size_t>(seq));
    rope_apply_positions(v.data(), v.data(), s, static_cast<RopeLayout>(layout), theta, pos.data());
    return val(emscripten::typed_memory_view(v.size(), v.data()));
  });
}

val sinusoidal_js(val positions, int n, int d, double base, int layout) {
  return guarded([&] {
    const auto pos = table_positions(positions, n, d);
    std::vector<float> out(static_cast<std::size_t>(n) * d);
    sinusoidal_table(pos.data(), pos.size(), d, base, static_cast<SinusoidalLayout>(layout), out.data());
    return f32(out);
  });
}

val attention_scores_js(val q, val k, int seq, int head_dim, bool rope, double theta, int rotary_dim, int layout,
                        bool causal, bool softmax) {
  return guarded([&] {
    detail::require_int_range("seq", seq, 1, 8192);
    detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
    const auto qv = from_js<float>(q), kv = from_js<float>(k);
    detail::require_size("q", qv.size(), static_cast<std::size_t>(seq) * head_dim);
    detail::require_size("k", kv.size(), static_cast<std::size_t>(seq) * head_dim);
    AttentionOptions o;
    o.rope = rope;
    o.rope_theta = theta;
    o.rotary_dim = rotary_dim;
    o.layout = static_cast<RopeLayout>(layout);
    o.causal = causal;
    o.softmax = softmax;
    scratch.resize(static_cast<std::size_t>(seq) * seq);
    attention_scores(qv.data(), kv.data(), seq, head_dim, o, scratch.data());
    return val(emscripten::typed_memory_view(scratch.size(), scratch.data()));  // a view: see `scratch`
  });
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
  emscripten::function("textQK", &text_qk_js);
  emscripten::function("buildInfo", &build_info_js);
  emscripten::function("memoryBytes", &memory_bytes_js);
}
