// Embind bindings of the GGUF header reader (cpp/src/gguf.cpp). The TS layer (web/src/gguf.ts) passes a window of
// the file's first bytes and grows it while the reader answers {need}; 64-bit integers come back as BigInt (made from
// their decimal digits) so that no value is rounded on the way.
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/gguf.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val value_js(const GgufValue& v) {
  switch (v.type) {
    case GgufType::string: return v.skipped ? val::null() : val(v.str);
    case GgufType::boolean: return val(v.num != 0);
    case GgufType::u64: return val::global("BigInt")(std::to_string(v.u64));
    case GgufType::i64: return val::global("BigInt")(std::to_string(v.i64));
    case GgufType::array: {
      if (v.skipped) return val::null();
      val a = val::array();
      for (const auto& e : v.items) a.call<void>("push", value_js(e));
      return a;
    }
    default: return val(v.num);
  }
}

val read_header_js(val bytes, double file_size) {
  return guarded([&] {
    const auto b = from_js<std::uint8_t>(bytes);
    const GgufRead r = gguf_read_header(b.data(), b.size(), static_cast<std::uint64_t>(as_count("file_size", file_size)));
    val o = val::object();
    if (r.need) {
      o.set("need", double(r.need));
      return o;
    }
    const GgufHeader& h = r.header;
    o.set("version", h.version);
    o.set("alignment", double(h.alignment));
    o.set("data_offset", double(h.data_offset));
    val kv = val::array();
    for (const auto& e : h.kv) {
      val k = val::object();
      k.set("key", e.key);
      k.set("type", std::string(gguf_type_name(e.value.type)));
      if (e.value.type == GgufType::array) k.set("elem", std::string(gguf_type_name(e.value.elem)));
      if (e.value.type == GgufType::array || e.value.type == GgufType::string) k.set("length", double(e.value.length));
      k.set("skipped", e.value.skipped);
      k.set("value", value_js(e.value));
      kv.call<void>("push", k);
    }
    o.set("kv", kv);
    val ts = val::array();
    for (const auto& t : h.tensors) {
      val x = val::object();
      x.set("name", t.name);
      val dims = val::array();
      for (auto d : t.dims) dims.call<void>("push", double(d));
      x.set("dims", dims);
      x.set("type", t.type);
      x.set("offset", double(t.offset));
      ts.call<void>("push", x);
    }
    o.set("tensors", ts);
    return o;
  });
}

val tensor_values_js(val bytes, int type, double count) {
  return guarded([&] {
    const auto b = from_js<std::uint8_t>(bytes);
    return f64(gguf_tensor_values(b.data(), b.size(), static_cast<std::uint32_t>(type), as_count("count", count)));
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_gguf) {
  emscripten::function("ggufReadHeader", &read_header_js);
  emscripten::function("ggufTensorValues", &tensor_values_js);
}
