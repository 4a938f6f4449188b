// Embind bindings of learned absolute position tables: .npy/.safetensors parsing, lookup, similarity.
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val table_js(const Table& t) {
  val o = val::object();
  o.set("rows", t.rows);
  o.set("cols", t.cols);
  o.set("data", f32(t.data));
  return o;
}

val table_from_npy_js(val bytes) {
  return guarded([&] {
    const auto b = from_js<std::uint8_t>(bytes);
    return table_js(table_from_npy(b.data(), b.size()));
  });
}

val table_from_safetensors_js(val bytes, std::string name) {
  return guarded([&] {
    const auto b = from_js<std::uint8_t>(bytes);
    return table_js(table_from_safetensors(b.data(), b.size(), name));
  });
}

val safetensors_list_js(val bytes) {
  return guarded([&] {
    const auto b = from_js<std::uint8_t>(bytes);
    val arr = val::array();
    for (const auto& e : safetensors_list(b.data(), b.size())) {
      val o = val::object();
      o.set("name", e.name);
      o.set("dtype", e.dtype);
      val shape = val::array();
      for (long long s : e.shape) shape.call<void>("push", double(s));
      o.set("shape", shape);
      arr.call<void>("push", o);
    }
    return arr;
  });
}

// Zero-copy entries (common.hpp): the table [rows, cols] and positions by address, the result written at `out`.
val table_lookup_js(std::uintptr_t data, int rows, int cols, std::uintptr_t positions, int n, bool clamp, std::uintptr_t out) {
  return guarded([&] {
    return write_to(out, table_lookup(at<const float>(data), rows, cols, at<const double>(positions), static_cast<std::size_t>(n), clamp));
  });
}

val table_similarity_js(std::uintptr_t data, int rows, int cols, int metric, std::uintptr_t out) {
  return guarded([&] {
    if (metric != 0 && metric != 1) detail::fail("metric", "must be cosine or dot");
    return write_to(out, table_similarity(at<const float>(data), rows, cols, static_cast<Similarity>(metric)));
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_learned) {
  emscripten::function("tableFromNpy", &table_from_npy_js);
  emscripten::function("tableFromSafetensors", &table_from_safetensors_js);
  emscripten::function("safetensorsList", &safetensors_list_js);
  emscripten::function("tableLookup", &table_lookup_js);
  emscripten::function("tableSimilarity", &table_similarity_js);
}
