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

// Zero-copy: n positions and centred positions by address (0 = 0 … n−1; centred 0 = torchscale's centring of the
// positions), tables written at cos/sin.
val xpos_tables_js(int rotary_dim, std::uintptr_t positions, std::uintptr_t centred, int n, bool downscale, double scale_base,
                   double gamma, double theta, std::uintptr_t cos_out, std::uintptr_t sin_out) {
  return guarded([&] {
    XposOptions o;
    o.scale_base = scale_base;
    o.gamma = gamma;
    o.rope_theta = theta;
    std::vector<double> range;
    xpos_tables(rotary_dim, o, positions_at(positions, n, range), centred ? at<const double>(centred) : nullptr,
                static_cast<std::size_t>(n), downscale, at<float>(cos_out), at<float>(sin_out));
    return val::undefined();
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
