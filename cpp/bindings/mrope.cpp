// Embind bindings of M-RoPE (Qwen2-VL) and 2D axial RoPE. Conventions as bindings.cpp.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

// Zero-copy entries (common.hpp): frequencies and n positions per stream by address, tables written at cos/sin.
val mrope_tables_js(std::uintptr_t inv_freq, int n_inv, int s_t, int s_h, int s_w, std::uintptr_t pt, std::uintptr_t ph,
                    std::uintptr_t pw, int n, bool interleaved, std::uintptr_t cos_out, std::uintptr_t sin_out) {
  return guarded([&] {
    const std::vector<double> inv(at<const double>(inv_freq), at<const double>(inv_freq) + n_inv);
    mrope_tables(inv, std::array<int, 3>{s_t, s_h, s_w}, at<const double>(pt), at<const double>(ph), at<const double>(pw),
                 static_cast<std::size_t>(n), at<float>(cos_out), at<float>(sin_out), interleaved);
    return val::undefined();
  });
}

std::vector<std::array<long long, 3>> grids(const val& flat, const char* name) {
  const auto v = from_js<double>(flat);
  if (v.size() % 3) detail::fail(name, "must be a list of [t, h, w] triples");
  std::vector<std::array<long long, 3>> g(v.size() / 3);
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (!(std::floor(v[k]) == v[k] && std::fabs(v[k]) <= 1e15)) detail::fail(name, "every entry must be an integer");
    g[k / 3][k % 3] = static_cast<long long>(v[k]);
  }
  return g;
}

// o: {image_token_id, video_token_id, vision_start_token_id, spatial_merge_size, tokens_per_second (NaN = none),
// split_video_frames}; grids flattened [t, h, w, t, h, w, …].
val mrope_position_ids_js(val input_ids, val image_grid, val video_grid, val seconds, val o) {
  return guarded([&] {
    const auto raw = from_js<double>(input_ids);
    std::vector<long long> ids(raw.size());
    for (std::size_t k = 0; k < raw.size(); ++k) {
      if (!(std::floor(raw[k]) == raw[k] && std::fabs(raw[k]) <= 1e15))
        detail::fail("input_ids", "every token id must be an integer (index " + std::to_string(k) + ")");
      ids[k] = static_cast<long long>(raw[k]);
    }
    MropeIdsOptions opt;
    opt.image_token_id = static_cast<long long>(o["image_token_id"].as<double>());
    opt.video_token_id = static_cast<long long>(o["video_token_id"].as<double>());
    opt.vision_start_token_id = static_cast<long long>(o["vision_start_token_id"].as<double>());
    opt.spatial_merge_size = o["spatial_merge_size"].as<int>();
    opt.tokens_per_second = o["tokens_per_second"].as<double>();
    opt.split_video_frames = o["split_video_frames"].as<bool>();
    const auto r = mrope_position_ids(ids, grids(image_grid, "image_grid_thw"), grids(video_grid, "video_grid_thw"),
                                      from_js<double>(seconds), opt);
    val out = val::object();
    out.set("position_ids", i32(std::vector<int>(r.position_ids.begin(), r.position_ids.end())));
    out.set("rope_deltas", static_cast<double>(r.rope_deltas));
    return out;
  });
}

val axial2d_tables_js(int rotary_dim, double theta, std::uintptr_t ph, std::uintptr_t pw, int n, int variant,
                      std::uintptr_t cos_out, std::uintptr_t sin_out) {
  return guarded([&] {
    detail::require_int_range("variant", variant, 0, 1);
    axial2d_tables(rotary_dim, theta, at<const double>(ph), at<const double>(pw), static_cast<std::size_t>(n), at<float>(cos_out),
                   at<float>(sin_out), static_cast<Axial2dVariant>(variant));
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
  emscripten::function("mropePositionIds", &mrope_position_ids_js);
  emscripten::function("axial2dGrid", &axial2d_grid_js);
}
