// Embind bindings of ALiBi. Conventions as bindings.cpp.
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

val alibi_bias_js(val slopes, int q_len, int k_len, int mode) {
  return guarded([&] {
    const auto sl = from_js<double>(slopes);
    detail::require_int_range("num_heads", static_cast<long long>(sl.size()), 1, kMaxHeads);
    detail::require_int_range("k_len", k_len, 1, kMaxSeqLen);
    detail::require_int_range("q_len", q_len, 1, k_len);
    detail::require_output_cap("heads*q_len*k_len", static_cast<long long>(sl.size()) * q_len * k_len);
    std::vector<float> out(sl.size() * static_cast<std::size_t>(q_len) * static_cast<std::size_t>(k_len));
    alibi_bias(sl, q_len, k_len, static_cast<AlibiMode>(mode), out.data());
    return f32(out);
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_alibi) {
  emscripten::function("alibiSlopes", &alibi_slopes_js);
  emscripten::function("alibiBias", &alibi_bias_js);
}
