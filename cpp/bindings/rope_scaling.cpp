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

val table_pair(const std::vector<float>& c, const std::vector<float>& s) {
  val r = val::object();
  r.set("cos", f32(c));
  r.set("sin", f32(s));
  return r;
}

long long as_count(const char* name, double v) {
  if (!(std::isfinite(v) && v >= 0 && v <= 1099511627776.0 && std::floor(v) == v))
    detail::fail(name, "must be an integer in [0, 2^40]");
  return static_cast<long long>(v);
}

// p: {rope_type, rope_theta, rotary_dim, factor, max_position_embeddings, original_max_position_embeddings,
//     attention_factor, beta_fast, beta_slow, mscale, mscale_all_dim, truncate, short_factor, long_factor,
//     low_freq_factor, high_freq_factor} — all present (the TS layer fills defaults; NaN = unset).
val rope_inv_freq_scaled_js(val p, double seq_len) {
  return guarded([&] {
    RopeScaling s;
    s.rope_type = rope_type_from_name(p["rope_type"].as<std::string>());
    s.rope_theta = p["rope_theta"].as<double>();
    s.rotary_dim = p["rotary_dim"].as<int>();
    s.factor = p["factor"].as<double>();
    s.max_position_embeddings = as_count("max_position_embeddings", p["max_position_embeddings"].as<double>());
    s.original_max_position_embeddings =
        as_count("original_max_position_embeddings", p["original_max_position_embeddings"].as<double>());
    s.attention_factor = p["attention_factor"].as<double>();
    s.beta_fast = p["beta_fast"].as<double>();
    s.beta_slow = p["beta_slow"].as<double>();
    s.mscale = p["mscale"].as<double>();
    s.mscale_all_dim = p["mscale_all_dim"].as<double>();
    s.truncate = p["truncate"].as<bool>();
    s.short_factor = from_js<double>(p["short_factor"]);
    s.long_factor = from_js<double>(p["long_factor"]);
    s.low_freq_factor = p["low_freq_factor"].as<double>();
    s.high_freq_factor = p["high_freq_factor"].as<double>();
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
    return table_pair(c, s);
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
