// Embind bindings of ALiBi. Conventions as bindings.cpp.
#include <algorithm>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val alibi_slopes_js(int n) {
  return guarded([&] { return f64(alibi_slopes(n)); });
}

val alibi_bias_js(std::uintptr_t slopes, int n_heads, int q_len, int k_len, int mode, std::uintptr_t out) {
  return guarded([&] {
    const std::vector<double> sl(at<const double>(slopes), at<const double>(slopes) + std::max(n_heads, 0));
    detail::require_int_range("num_heads", static_cast<long long>(sl.size()), 1, kMaxHeads);
    detail::require_int_range("k_len", k_len, 1, kMaxSeqLen);
    detail::require_int_range("q_len", q_len, 1, k_len);
    detail::require_output_cap("heads*q_len*k_len", static_cast<long long>(sl.size()) * q_len * k_len);
    alibi_bias(sl, q_len, k_len, static_cast<AlibiMode>(mode), at<float>(out));
    return val::undefined();
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_alibi) {
  emscripten::function("alibiSlopes", &alibi_slopes_js);
  emscripten::function("alibiBias", &alibi_bias_js);
}
