// Embind bindings of the RoPE extras (rope scaling, partial rotary, freqs_cis). Conventions as bindings.cpp:
// typed arrays in, fresh typed arrays out, errors returned as strings.
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val yarn_js(const YarnCorrectionRange& y) {
  val o = val::object();
  o.set("low", y.low);
  o.set("high", y.high);
  o.set("low_raw", y.low_raw);
  o.set("high_raw", y.high_raw);
  return o;
}

val bands_js(const Llama3Bands& b) {
  val o = val::object();
  o.set("high_freq_wavelen", b.high_freq_wavelen);
  o.set("low_freq_wavelen", b.low_freq_wavelen);
  o.set("high_freq_dim", b.high_freq_dim);
  o.set("low_freq_dim", b.low_freq_dim);
  o.set("n_kept", b.n_kept);
  o.set("n_smoothed", b.n_smoothed);
  o.set("n_scaled", b.n_scaled);
  return o;
}

// p: see rope_scaling_from_js in common.hpp. Fields that do not apply to the rope_type are null.
val rope_inv_freq_scaled_js(val p, double seq_len) {
  return guarded([&] {
    const RopeScaling s = rope_scaling_from_js(p);
    const auto r = rope_inv_freq_scaled(s, as_count("seq_len", seq_len));
    val o = val::object();
    o.set("invFreq", f64(r.inv_freq));
    o.set("attentionScaling", r.attention_scaling);
    o.set("effectiveBase", r.effective_base);
    o.set("factor", std::isnan(r.factor) ? val::null() : val(r.factor));
    o.set("yarn", s.rope_type == RopeType::yarn ? yarn_js(r.yarn) : val::null());
    o.set("bands", s.rope_type == RopeType::llama3 ? bands_js(r.bands) : val::null());
    o.set("longropeFactors", r.longrope_factors.empty() ? val::null() : val(r.longrope_factors));
    o.set("softmaxScaleFactor", r.softmax_scale_factor);
    return o;
  });
}

val yarn_correction_range_js(val p) {
  return guarded([&] { return yarn_js(yarn_correction_range(rope_scaling_from_js(p))); });
}

val llama3_bands_js(val p) {
  return guarded([&] { return bands_js(llama3_bands(rope_scaling_from_js(p))); });
}

val dynamic_ntk_base_js(val p, double seq_len) {
  return guarded([&] { return val(dynamic_ntk_base(rope_scaling_from_js(p), as_count("seq_len", seq_len))); });
}

val llama4_attn_scales_js(val positions, double floor_scale, double attn_scale) {
  return guarded([&] {
    const auto pos = from_js<double>(positions);
    return f64(llama4_attn_scales(pos.data(), pos.size(), floor_scale, attn_scale));
  });
}

val rotary_dim_for_js(int head_dim, double factor) {
  return guarded([&] { return val(rotary_dim_for(head_dim, factor)); });
}

val rope_tables_scaled_js(val inv_freq, double scaling, val positions) {
  return guarded([&] {
    const auto inv = from_js<double>(inv_freq);
    const auto pos = from_js<double>(positions);
    detail::require_output_cap("positions*inv_freq", static_cast<long long>(pos.size() * inv.size()));
    std::vector<float> c(pos.size() * inv.size()), s(c.size());
    rope_tables_scaled(inv, scaling, pos.data(), pos.size(), c.data(), s.data());
    return cos_sin(c, s);
  });
}

val rope_freqs_cis_js(val inv_freq, val positions) {
  return guarded([&] {
    const auto inv = from_js<double>(inv_freq);
    const auto pos = from_js<double>(positions);
    return f32(rope_freqs_cis(inv, pos.data(), pos.size()));
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_rope_scaling) {
  emscripten::function("ropeInvFreqScaled", &rope_inv_freq_scaled_js);
  emscripten::function("yarnCorrectionRange", &yarn_correction_range_js);
  emscripten::function("llama3Bands", &llama3_bands_js);
  emscripten::function("dynamicNtkBase", &dynamic_ntk_base_js);
  emscripten::function("llama4AttnScales", &llama4_attn_scales_js);
  emscripten::function("rotaryDimFor", &rotary_dim_for_js);
  emscripten::function("ropeTablesScaled", &rope_tables_scaled_js);
  emscripten::function("ropeFreqsCis", &rope_freqs_cis_js);
}
