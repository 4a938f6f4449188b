// Embind bindings of xPos. Conventions as bindings.cpp.
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

// Zero-copy (see common.hpp): x and out are addresses of seq·heads·head_dim floats.
val xpos_apply_js(std::uintptr_t x, std::uintptr_t out, int seq, int heads, int head_dim, int rotary_dim, int offset,
                  bool downscale, double scale_base, double gamma, double theta, int layout) {
  return guarded([&] {
    detail::require_int_range("heads", heads, 1, kMaxHeads);
    detail::require_output_cap("seq*heads*head_dim", 1LL * seq * heads * head_dim);
    XposOptions o;
    o.scale_base = scale_base;
    o.gamma = gamma;
    o.rope_theta = theta;
    xpos_apply(at<const float>(x), at<float>(out), RopeShape{seq, heads, head_dim, rotary_dim}, offset, downscale, o,
               static_cast<RopeLayout>(layout));
    return val::undefined();
  });
}

val xpos_tables_js(int rotary_dim, val positions, val centred, bool downscale, double scale_base, double gamma,
                   double theta) {
  return guarded([&] {
    const auto pos = from_js<double>(positions);
    const auto cen = centred.isNull() || centred.isUndefined() ? pos : from_js<double>(centred);
    detail::require_size("centred", cen.size(), pos.size());
    detail::require_int_range("rotary_dim", rotary_dim, 2, kMaxHeadDim);
    detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(pos.size()) * (rotary_dim / 2));
    XposOptions o;
    o.scale_base = scale_base;
    o.gamma = gamma;
    o.rope_theta = theta;
    std::vector<float> c(pos.size() * static_cast<std::size_t>(rotary_dim / 2)), s(c.size());
    xpos_tables(rotary_dim, o, pos.data(), cen.data(), pos.size(), downscale, c.data(), s.data());
    return cos_sin(c, s);
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_xpos) {
  emscripten::function("xposApply", &xpos_apply_js);
  emscripten::function("xposTables", &xpos_tables_js);
}
