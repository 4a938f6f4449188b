// Embind bindings of M-RoPE (Qwen2-VL) and 2D axial RoPE. Conventions as bindings.cpp.
#include <array>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

// Zero-copy entries (common.hpp): frequencies and n positions per stream by address, tables written at cos/sin.
val mrope_tables_js(std::uintptr_t inv_freq, int n_inv, int s_t, int s_h, int s_w, std::uintptr_t pt, std::uintptr_t ph,
                    std::uintptr_t pw, int n, std::uintptr_t cos_out, std::uintptr_t sin_out) {
  return guarded([&] {
    const std::vector<double> inv(at<const double>(inv_freq), at<const double>(inv_freq) + n_inv);
    mrope_tables(inv, std::array<int, 3>{s_t, s_h, s_w}, at<const double>(pt), at<const double>(ph), at<const double>(pw),
                 static_cast<std::size_t>(n), at<float>(cos_out), at<float>(sin_out));
    return val::undefined();
  });
}

val axial2d_tables_js(int rotary_dim, double theta, std::uintptr_t ph, std::uintptr_t pw, int n, std::uintptr_t cos_out,
                      std::uintptr_t sin_out) {
  return guarded([&] {
    axial2d_tables(rotary_dim, theta, at<const double>(ph), at<const double>(pw), static_cast<std::size_t>(n), at<float>(cos_out),
                   at<float>(sin_out));
    return val::undefined();
  });
}

val axial2d_grid_js(int gh, int gw) {
  return guarded([&] {
    std::vector<double> h, w;
    axial2d_grid(gh, gw, h, w);
    val r = val::object();
    r.set("positions_h", f64(h));
    r.set("positions_w", f64(w));
    return r;
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_mrope) {
  emscripten::function("mropeTables", &mrope_tables_js);
  emscripten::function("axial2dTables", &axial2d_tables_js);
  emscripten::function("axial2dGrid", &axial2d_grid_js);
}
