// Embind bindings of the absolute encodings: t2t sinusoid, recursive sinusoid, multiplicative PE.
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

SinusoidalLayout layout_of(int layout) {
  if (layout != 0 && layout != 1) detail::fail("layout", "must be interleaved or concatenated");
  return static_cast<SinusoidalLayout>(layout);
}

// Zero-copy (common.hpp): positions by address (0 = 0 … n−1), the [n, d] table written at `out`.
val sinusoid_t2t_js(std::uintptr_t positions, int n, int d, double min_ts, double max_ts, std::uintptr_t out) {
  return guarded([&] {
    std::vector<double> range;
    sinusoid_t2t(positions_at(positions, n, range), static_cast<std::size_t>(n), d, min_ts, max_ts, at<float>(out));
    return val::undefined();
  });
}

val sinusoid_recursive_js(int n, int d, double base, int layout, std::uintptr_t out) {
  return guarded([&] {
    detail::require_int_range("n_positions", n, 0, kMaxSeqLen);
    return write_to(out, sinusoid_recursive(static_cast<std::size_t>(n), d, base, layout_of(layout)));
  });
}

val sinusoid_rotation_matrix_js(int d, double base, int layout) {
  return guarded([&] { return f64(sinusoid_rotation_matrix(d, base, layout_of(layout))); });
}

// Zero-copy (common.hpp): x, p and out are addresses of n floats.
val multiplicative_js(std::uintptr_t x, std::uintptr_t p, double n, std::uintptr_t out) {
  return guarded([&] {
    multiplicative_pe(at<const float>(x), at<const float>(p), static_cast<std::size_t>(n), at<float>(out));
    return val::undefined();
  });
}

val t2t_inv_timescales_js(int d, double min_ts, double max_ts) {
  return guarded([&] { return f64(t2t_inv_timescales(d, min_ts, max_ts)); });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_absolute) {
  emscripten::function("t2tInvTimescales", &t2t_inv_timescales_js);
  emscripten::function("sinusoidT2T", &sinusoid_t2t_js);
  emscripten::function("sinusoidRecursive", &sinusoid_recursive_js);
  emscripten::function("sinusoidRotationMatrix", &sinusoid_rotation_matrix_js);
  emscripten::function("multiplicativePE", &multiplicative_js);
}
