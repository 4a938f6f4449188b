// Embind bindings of M-RoPE (Qwen2-VL) and 2D axial RoPE. Conventions as bindings.cpp.
#include <array>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val mrope_tables_js(val inv_freq, int s_t, int s_h, int s_w, val pt, val ph, val pw) {
  return guarded([&] {
    const auto inv = from_js<double>(inv_freq);
    const auto t = from_js<double>(pt), h = from_js<double>(ph), w = from_js<double>(pw);
    detail::require_size("positions_h", h.size(), t.size());
    detail::require_size("positions_w", w.size(), t.size());
    detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(t.size() * inv.size()));
    std::vector<float> c(t.size() * inv.size()), s(c.size());
    mrope_tables(inv, std::array<int, 3>{s_t, s_h, s_w}, t.data(), h.data(), w.data(), t.size(), c.data(), s.data());
    return cos_sin(c, s);
  });
}

val axial2d_tables_js(int rotary_dim, double theta, val ph, val pw) {
  return guarded([&] {
    const auto h = from_js<double>(ph), w = from_js<double>(pw);
    detail::require_size("positions_w", w.size(), h.size());
    detail::require_int_range("rotary_dim", rotary_dim, 4, kMaxHeadDim);
    detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(h.size()) * (rotary_dim / 2));
    std::vector<float> c(h.size() * static_cast<std::size_t>(rotary_dim / 2)), s(c.size());
    axial2d_tables(rotary_dim, theta, h.data(), w.data(), h.size(), c.data(), s.data());
    return cos_sin(c, s);
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
