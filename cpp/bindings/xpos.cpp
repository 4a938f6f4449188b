// Embind bindings of xPos. Conventions as bindings.cpp.
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val xpos_apply_js(val x, int seq, int heads, int head_dim, int rotary_dim, int offset, bool downscale,
                  double scale_base, double gamma, double theta, int layout) {
  return guarded([&] {
    auto v = from_js<float>(x);
    detail::require_int_range("seq", seq, 0, kMaxSeqLen);
    detail::require_int_range("heads", heads, 1, kMaxHeads);
    detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
    detail::require_output_cap("seq*heads*head_dim", 1LL * seq * heads * head_dim);
    detail::require_size("x", v.size(), static_cast<std::size_t>(seq) * heads * head_dim);
    XposOptions o;
    o.scale_base = scale_base;
    o.gamma = gamma;
    o.rope_theta = theta;
    xpos_apply(v.data(), v.data(), RopeShape{seq, heads, head_dim, rotary_dim}, offset, downscale, o,
               static_cast<RopeLayout>(layout));
    return f32(v);
  });
}

val xpos_tables_js(int rotary_dim, val positions, val centred, bool downscale, double scale_base, double gamma,
                   double theta) {
  return guarded([&] {
    const auto pos = from_js<double>(positions);
    const bool own = centred.isNull() || centred.isUndefined();  // torchscale's centring of the positions
    const auto cen = own ? std::vector<double>() : from_js<double>(centred);
    if (!own) detail::require_size("centred", cen.size(), pos.size());
    detail::require_int_range("rotary_dim", rotary_dim, 2, kMaxHeadDim);
    detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(pos.size()) * (rotary_dim / 2));
    XposOptions o;
    o.scale_base = scale_base;
    o.gamma = gamma;
    o.rope_theta = theta;
    std::vector<float> c(pos.size() * static_cast<std::size_t>(rotary_dim / 2)), s(c.size());
    xpos_tables(rotary_dim, o, pos.data(), own ? nullptr : cen.data(), pos.size(), downscale, c.data(), s.data());
    return cos_sin(c, s);
  });
}

val xpos_zeta_js(int rotary_dim, double gamma) {
  return guarded([&] { return f64(xpos_zeta(rotary_dim, gamma)); });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_xpos) {
  emscripten::function("xposZeta", &xpos_zeta_js);
  emscripten::function("xposApply", &xpos_apply_js);
  emscripten::function("xposTables", &xpos_tables_js);
}
