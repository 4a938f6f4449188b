// Embind bindings of learned absolute position tables: .npy/.safetensors parsing, lookup, similarity.
#include <algorithm>
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

// The first n bytes of a JS Uint8Array, copied into wasm memory.
std::vector<std::uint8_t> head_of(const val& bytes, std::size_t n) {
  return from_js<std::uint8_t>(bytes.call<val>("subarray", 0.0, double(n)));
}

// A file is checked from its header before the whole of it is copied into wasm memory, so that a refused file (say
// 1 GB with a bad header) costs a copy of its first bytes only: step 1 reads the header's length from the first
// kTableHeaderProbe bytes, step 2 checks the header itself (the same checks and words as the full read).
template <class Length, class Check>
std::size_t check_header_first(const val& bytes, Length length, Check check) {
  const auto total = static_cast<std::size_t>(bytes["length"].as<double>());
  const auto probe = head_of(bytes, std::min(total, kTableHeaderProbe));
  const std::size_t len = length(probe.data(), probe.size(), total);
  const auto prefix = head_of(bytes, std::max(len, probe.size()));  // the header, and never less than the probe
  check(prefix.data(), prefix.size(), total);
  return total;
}

val table_from_npy_js(val bytes) {
  return guarded([&] {
    check_header_first(bytes, npy_header_length, npy_check_header);
    const auto b = from_js<std::uint8_t>(bytes);
    return table_js(table_from_npy(b.data(), b.size()));
  });
}

val table_from_safetensors_js(val bytes, std::string name) {
  return guarded([&] {
    check_header_first(bytes, safetensors_header_length, [&](const std::uint8_t* p, std::size_t n, std::size_t total) {
      safetensors_check_header(p, n, total, &name);
    });
    const auto b = from_js<std::uint8_t>(bytes);
    return table_js(table_from_safetensors(b.data(), b.size(), name));
  });
}

// The tensor list needs the header only: the data is never copied.
val safetensors_list_js(val bytes) {
  return guarded([&] {
    std::vector<SafetensorsInfo> list;
    check_header_first(bytes, safetensors_header_length, [&](const std::uint8_t* p, std::size_t n, std::size_t total) {
      list = safetensors_check_header(p, n, total, nullptr);
    });
    val arr = val::array();
    for (const auto& e : list) {
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
