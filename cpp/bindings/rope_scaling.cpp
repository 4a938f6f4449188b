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



// p: see rope_scaling_from_js in common.hpp.
val rope_inv_freq_scaled_js(val p, double seq_len) {
  return guarded([&] {
    const RopeScaling s = rope_scaling_from_js(p);
    const auto r = rope_inv_freq_scaled(s, as_count("seq_len", seq_len));
    val o = val::object();
    o.set("invFreq", f64(r.inv_freq));
    o.set("attentionScaling", r.attention_scaling);
    return o;
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
  emscripten::function("rotaryDimFor", &rotary_dim_for_js);
  emscripten::function("ropeTablesScaled", &rope_tables_scaled_js);
  emscripten::function("ropeFreqsCis", &rope_freqs_cis_js);
}
