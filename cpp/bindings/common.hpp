// Helpers shared by the binding files of cpp/bindings/ (each file registers its own
// EMSCRIPTEN_BINDINGS block). Two conventions:
// - zero-copy entries take addresses in wasm memory (std::uintptr_t) of arrays that the TS layer
//   (web/src/buffers.ts) has sized and checked: a user's wasm buffer, or data staged once into its reused
//   scratch; results are written to an address given by the caller and the entry returns undefined;
// - the others copy JS typed arrays in and return fresh typed arrays.
// Either way an exception becomes a returned message string (web/src/validate.ts throws it as PosencError).
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/rope_scaling.hpp"

namespace posenc::bindings {
using emscripten::val;

template <class T>
std::vector<T> from_js(const val& a) {
  return emscripten::convertJSArrayToNumberVector<T>(a);
}

inline val f32(const std::vector<float>& v) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}
inline val i32(const std::vector<int>& v) {
  return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}
inline val f64(const std::vector<double>& v) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}

/// {cos, sin} of two float tables.
inline val cos_sin(const std::vector<float>& c, const std::vector<float>& s) {
  val r = val::object();
  r.set("cos", f32(c));
  r.set("sin", f32(s));
  return r;
}

/// A JS array of strings.
inline val strings(const std::vector<std::string>& v) {
  val a = val::array();
  for (const auto& t : v) a.call<void>("push", val(t));
  return a;
}

/// Runs f; a thrown std::exception becomes its message as a JS string.
template <class F>
val guarded(F&& f) {
  try {
    return f();
  } catch (const std::exception& e) {
    return val(std::string(e.what()));
  }
}

/// An address in wasm memory passed from JS.
template <class T>
T* at(std::uintptr_t address) {
  return reinterpret_cast<T*>(address);
}

/// A result computed into a vector, copied to `address` (sized by the TS layer); returns undefined.
template <class T>
val write_to(std::uintptr_t address, const std::vector<T>& v) {
  std::copy(v.begin(), v.end(), at<T>(address));
  return val::undefined();
}

/// Positions at `address` (n entries), or 0 … n−1 when the address is 0 (materialised into `range`).
inline const double* positions_at(std::uintptr_t address, int n, std::vector<double>& range) {
  return detail::positions_or_range(address != 0 ? at<const double>(address) : nullptr,
                                    static_cast<std::size_t>(std::max(n, 0)), range);
}

/// Rows of `half` floats at t (n rows) spread in place to rows of 2·half, each row twice
/// ([c_0 … c_{h−1}, c_0 … c_{h−1}], Hugging Face's `torch.cat((freqs, freqs), -1)`).
inline void duplicate_rows(float* t, std::size_t n, std::size_t half) {
  for (std::size_t p = n; p-- > 0;) {
    std::copy_backward(t + p * half, t + (p + 1) * half, t + p * 2 * half + half);
    std::copy(t + p * 2 * half, t + p * 2 * half + half, t + p * 2 * half + half);
  }
}

/// A non-negative integer count ≤ 2^40 from a JS number.
inline long long as_count(const char* name, double v) {
  if (!(std::isfinite(v) && v >= 0 && v <= 1099511627776.0 && std::floor(v) == v))
    detail::fail(name, "must be an integer in [0, 2^40]");
  return static_cast<long long>(v);
}

/// RopeScaling from {rope_type, rope_theta, rotary_dim, factor, max_position_embeddings,
/// original_max_position_embeddings, attention_factor, beta_fast, beta_slow, mscale, mscale_all_dim, truncate,
/// short_factor, long_factor, low_freq_factor, high_freq_factor} — all present, plus partial_rotary_factor (proportional) (web/src/rope_config.ts
/// `rawScaling` fills the defaults; NaN = unset).
inline RopeScaling rope_scaling_from_js(const val& p) {
  RopeScaling s;
  s.rope_type = rope_type_from_name(p["rope_type"].as<std::string>());
  s.rope_theta = p["rope_theta"].as<double>();
  s.rotary_dim = p["rotary_dim"].as<int>();
  if (!p["partial_rotary_factor"].isUndefined()) s.partial_rotary_factor = p["partial_rotary_factor"].as<double>();
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
  return s;
}
}  // namespace posenc::bindings
