// Embind bindings of the attention engine, linear attention, decay sweeps and frequency analytics.
// Conventions as bindings.cpp: typed arrays in, fresh typed arrays out, errors returned as strings.
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

std::uint64_t seed_of(double seed) {
  if (!(seed >= 0 && seed <= 9007199254740991.0 && std::floor(seed) == seed))
    detail::fail("seed", "must be an integer in [0, 2^53 - 1]");
  return static_cast<std::uint64_t>(seed);
}

/// s: {type, base, learned_table (Float32Array|null), learned_rows, max_relative_position, num_buckets, max_distance,
///     position_buckets, max_relative_positions, rope (see rope_scaling_from_js), layout, scale_base, gamma}
SchemeParams scheme_from_js(const val& s) {
  SchemeParams p;
  p.type = attention_scheme_from_name(s["type"].as<std::string>());
  p.base = s["base"].as<double>();
  if (!s["learned_table"].isNull()) p.learned_table = from_js<float>(s["learned_table"]);
  p.learned_rows = s["learned_rows"].as<int>();
  p.max_relative_position = s["max_relative_position"].as<int>();
  p.num_buckets = s["num_buckets"].as<int>();
  p.max_distance = s["max_distance"].as<int>();
  p.position_buckets = s["position_buckets"].as<int>();
  p.max_relative_positions = s["max_relative_positions"].as<int>();
  p.rope = rope_scaling_from_js(s["rope"]);
  p.layout = static_cast<RopeLayout>(s["layout"].as<int>());
  p.scale_base = s["scale_base"].as<double>();
  p.gamma = s["gamma"].as<double>();
  return p;
}

// q, k, v: addresses of [seq, heads, head_dim] floats each (common.hpp); the result is a fresh object.
val attention_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, int seq, int heads, int head_dim, val scheme, bool causal,
                 double seed) {
  return guarded([&] {
    const auto r = attention(at<const float>(q), at<const float>(k), at<const float>(v), seq, heads, head_dim,
                             scheme_from_js(scheme), causal, seed_of(seed));
    val terms = val::object(), order = val::array();
    for (const auto& [name, m] : r.terms) {
      terms.set(name, f32(m));
      order.call<void>("push", val(name));
    }
    val o = val::object();
    o.set("terms", terms);
    o.set("termOrder", order);
    o.set("scores", f32(r.scores));
    o.set("probs", f32(r.probs));
    o.set("output", f32(r.output));
    return o;
  });
}

val text_qkv_js(std::string text, int heads, int head_dim, double seed) {
  return guarded([&] {
    const auto r = text_qkv(text, heads, head_dim, seed_of(seed));
    val o = val::object();
    o.set("tokens", strings(r.tokens));
    o.set("q", f32(r.q));
    o.set("k", f32(r.k));
    o.set("v", f32(r.v));
    return o;
  });
}

val permutation_change_js(std::string text, int i, int j, int heads, int head_dim, val scheme, bool causal, double seed) {
  return guarded([&] { return val(permutation_change(text, i, j, heads, head_dim, scheme_from_js(scheme), causal, seed_of(seed))); });
}

// q, k: addresses of [seq, d] floats, v of [seq, dv] (common.hpp).
val linear_attention_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, int seq, int d, int dv, bool causal, double theta,
                        int form) {
  return guarded([&] {
    const auto r = linear_attention_rope(at<const float>(q), at<const float>(k), at<const float>(v), seq, d, dv, causal, theta,
                                         LinearForm(form));
    val o = val::object();
    o.set("output", f32(r.output));
    o.set("denominator", f32(r.denominator));
    return o;
  });
}

val inner_product_sweep_js(std::uintptr_t q, std::uintptr_t k, int head_dim, int rotary_dim, int layout,
                           std::uintptr_t inv_freq, int n_inv, double q_position, double k_start, double count,
                           std::uintptr_t out) {
  return guarded([&] {
    detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
    const std::vector<double> inv(at<const double>(inv_freq), at<const double>(inv_freq) + n_inv);
    const auto r = rope_inner_product_sweep(at<const float>(q), at<const float>(k), head_dim, rotary_dim, RopeLayout(layout),
                                            inv, (long long)q_position, (long long)k_start, (long long)count);
    std::copy(r.begin(), r.end(), at<float>(out));
    return val::undefined();
  });
}

val decay_bound_js(std::uintptr_t inv_freq, int n_inv, double count, std::uintptr_t out) {
  return guarded([&] {
    return write_to(out, rope_decay_bound(std::vector<double>(at<const double>(inv_freq), at<const double>(inv_freq) + n_inv),
                                          (long long)count));
  });
}

val envelope_js(std::uintptr_t values, double n, int width) {
  return guarded([&] {
    const auto e = envelope(at<const float>(values), static_cast<std::size_t>(n), width);
    val o = val::object();
    o.set("min", f32(std::vector<float>(e.begin(), e.begin() + width)));
    o.set("max", f32(std::vector<float>(e.begin() + width, e.end())));
    return o;
  });
}

val frequency_analysis_js(val inv_freq, double training_length) {
  return guarded([&] {
    const auto a = rope_frequency_analysis(from_js<double>(inv_freq), training_length);
    val o = val::object();
    o.set("wavelength", f64(a.wavelength));
    o.set("rotations", f64(a.rotations));
    o.set("first_incomplete", a.first_incomplete);
    return o;
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_engine) {
  emscripten::function("attention", &attention_js);
  emscripten::function("textQKV", &text_qkv_js);
  emscripten::function("permutationChange", &permutation_change_js);
  emscripten::function("linearAttentionRope", &linear_attention_js);
  emscripten::function("ropeInnerProductSweep", &inner_product_sweep_js);
  emscripten::function("ropeDecayBound", &decay_bound_js);
  emscripten::function("envelope", &envelope_js);
  emscripten::function("ropeFrequencyAnalysis", &frequency_analysis_js);
}
