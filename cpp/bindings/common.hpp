// Helpers shared by the binding files of cpp/bindings/ (each file registers its own
// EMSCRIPTEN_BINDINGS block). Inputs are copied in from JS typed arrays; results are copied out into
// fresh JS-owned typed arrays; exceptions become a returned message string (see index.ts/validate.ts).
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>
#include <vector>

namespace posenc::bindings {
using emscripten::val;

template <class T>
std::vector<T> from_js(const val& a) {
  return emscripten::convertJSArrayToNumberVector<T>(a);
}

inline val f32(const std::vector<float>& v) {
  return val::global("Float32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}
inline val f64(const std::vector<double>& v) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
}
inline val i32(const std::vector<int>& v) {
  return val::global("Int32Array").new_(emscripten::typed_memory_view(v.size(), v.data()));
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

/// JS null/undefined → 0 … n−1; else the given positions.
inline std::vector<double> positions_or_range(const val& positions, int n) {
  if (positions.isNull() || positions.isUndefined()) {
    std::vector<double> p(static_cast<std::size_t>(std::max(n, 0)));
    for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
    return p;
  }
  return from_js<double>(positions);
}
}  // namespace posenc::bindings
