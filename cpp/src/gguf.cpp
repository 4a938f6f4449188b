// posenc — the GGUF header reader (see posenc/gguf.hpp for the layout, the checks and the caps).
#include "posenc/gguf.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "learned_io.hpp"
#include "posenc/error.hpp"
#include "posenc/learned.hpp"

namespace posenc {
namespace {
using detail::fail;

struct NeedMore {
  std::uint64_t bytes;
};

std::size_t fixed_size(GgufType t) {
  switch (t) {
    case GgufType::u8: case GgufType::i8: case GgufType::boolean: return 1;
    case GgufType::u16: case GgufType::i16: return 2;
    case GgufType::u32: case GgufType::i32: case GgufType::f32: return 4;
    case GgufType::u64: case GgufType::i64: case GgufType::f64: return 8;
    default: return 0;
  }
}

class Reader {
 public:
  Reader(const std::uint8_t* b, std::size_t n, std::uint64_t file_size, std::uint64_t max_items)
      : b_(b), n_(n), size_(file_size), max_items_(max_items) {}
  std::uint64_t pos = 0;
  bool v1 = false;

  [[noreturn]] void bad(const std::string& m) const { fail("gguf", m + " (at byte " + std::to_string(pos) + ")"); }

  // The next k bytes must be in the file (else a clear error) and in the window (else NeedMore).
  void need(std::uint64_t k, const char* what) {
    if (k > size_ - pos) {
      bad(std::string(what) + " needs " + std::to_string(k) + " bytes but the file has " + std::to_string(size_ - pos) +
          " left (truncated file?)");
    }
    if (pos + k > kGgufMaxHeader) bad("header longer than the 256 MiB cap");
    if (pos + k > n_) throw NeedMore{pos + k};
  }
  std::uint64_t uint(int bytes, const char* what) {
    need(bytes, what);
    std::uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | b_[pos + k];
    pos += bytes;
    return v;
  }
  std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(uint(4, what)); }
  // A count or length: uint32 in version 1, uint64 after.
  std::uint64_t count(const char* what) { return uint(v1 ? 4 : 8, what); }
  // Skips k bytes that must lie in the file (they need not be in the window yet).
  void skip(std::uint64_t k, const char* what) {
    if (k > size_ - pos) bad(std::string(what) + " of " + std::to_string(k) + " bytes runs past the end of the file");
    pos += k;
  }
  std::string str(std::uint64_t cap, const char* what, bool* skipped = nullptr, std::uint64_t* length = nullptr) {
    const std::uint64_t len = count(what);
    if (length) *length = len;
    if (len > size_ - pos) bad(std::string(what) + " length " + std::to_string(len) + " runs past the end of the file");
    if (len > cap) {
      if (!skipped) bad(std::string(what) + " length " + std::to_string(len) + " exceeds " + std::to_string(cap) + " bytes");
      *skipped = true;
      skip(len, what);
      return {};
    }
    need(len, what);
    std::string s(reinterpret_cast<const char*>(b_ + pos), static_cast<std::size_t>(len));
    pos += len;
    return s;
  }
  GgufType type(const char* what) {
    const std::uint32_t t = u32(what);
    if (t > 12) {
      pos -= 4;
      bad(std::string(what) + " " + std::to_string(t) + " is not a GGUF value type (0–12)");
    }
    return static_cast<GgufType>(t);
  }
  void scalar(GgufValue& v) {
    const std::size_t sz = fixed_size(v.type);
    const std::uint64_t u = uint(static_cast<int>(sz), "value");
    switch (v.type) {
      case GgufType::u8: case GgufType::u16: case GgufType::u32: v.num = double(u); break;
      case GgufType::i8: v.num = double(std::int8_t(u)); break;
      case GgufType::i16: v.num = double(std::int16_t(u)); break;
      case GgufType::i32: v.num = double(std::int32_t(u)); break;
      case GgufType::boolean:
        if (u > 1) pos -= 1, bad("bool value " + std::to_string(u) + " is not 0 or 1");
        v.num = double(u);
        break;
      case GgufType::f32: {
        float f;
        const std::uint32_t w = static_cast<std::uint32_t>(u);
        std::memcpy(&f, &w, 4);
        v.num = f;
        break;
      }
      case GgufType::f64: std::memcpy(&v.num, &u, 8); break;
      case GgufType::u64: v.u64 = u; break;
      case GgufType::i64: v.i64 = static_cast<std::int64_t>(u); break;
      default: break;
    }
  }
  // One value of type v.type; arrays longer than kGgufMaxItems (or whose parent is skipped) are walked, not stored.
  void value(GgufValue& v, int depth, bool store) {
    if (v.type == GgufType::string) {
      bool skipped = !store;
      v.str = str(store ? kGgufMaxString : 0, "string", &skipped, &v.length);
      v.skipped = skipped;
      return;
    }
    if (v.type != GgufType::array) {
      if (store) return scalar(v);
      return skip(fixed_size(v.type), "value");
    }
    if (depth >= kGgufMaxDepth) bad("arrays nested deeper than " + std::to_string(kGgufMaxDepth));
    v.elem = type("array element type");
    v.length = count("array length");
    const std::size_t sz = fixed_size(v.elem);
    // smallest element: fixed size, 8 (a string's length; 4 in v1), 12 (an empty array: type + length; 8 in v1)
    const std::uint64_t least = sz ? sz : v.elem == GgufType::string ? (v1 ? 4 : 8) : (v1 ? 8 : 12);
    if (v.length > (size_ - pos) / least) {
      bad("array of " + std::to_string(v.length) + " " + gguf_type_name(v.elem) + " runs past the end of the file");
    }
    v.skipped = !store || v.length > max_items_;
    if (v.skipped && sz) return skip(v.length * sz, "array");
    if (!v.skipped) v.items.reserve(static_cast<std::size_t>(v.length));  // ≤ kGgufMaxItems, each backed by bytes
    for (std::uint64_t k = 0; k < v.length; ++k) {
      GgufValue e;
      e.type = v.elem;
      value(e, depth + 1, !v.skipped);
      if (!v.skipped) v.items.push_back(std::move(e));
    }
  }

 private:
  const std::uint8_t* b_;
  std::size_t n_;
  std::uint64_t size_, max_items_;
};

GgufHeader parse(Reader& r) {
  GgufHeader h;
  r.need(4, "magic");
  const std::uint64_t m = r.uint(4, "magic");
  if (m != 0x46554747u) {
    r.pos = 0;
    r.bad("not a GGUF file (the first 4 bytes are not \"GGUF\")");
  }
  h.version = r.u32("version");
  if ((h.version & 0xFFFFu) == 0 && (h.version >> 16) != 0) {
    r.pos = 4;
    r.bad("big-endian GGUF (version bytes 00 00 00 " + std::to_string(h.version >> 24) +
          "): only little-endian files are read (gguf-py's gguf_convert_endian.py converts)");
  }
  if (h.version < 1 || h.version > 3) {
    r.pos = 4;
    r.bad("version " + std::to_string(h.version) + " is not supported (1, 2 or 3)");
  }
  r.v1 = h.version == 1;
  const std::uint64_t n_tensors = r.count("tensor count"), n_kv = r.count("key-value count");
  if (n_tensors > kGgufMaxCount || n_kv > kGgufMaxCount) {
    r.bad("counts " + std::to_string(n_tensors) + " tensors, " + std::to_string(n_kv) + " key-values exceed the cap of 2^20");
  }
  std::unordered_set<std::string> keys, names;  // duplicates found in O(1) each (2^20 entries compared pairwise would hang)
  for (std::uint64_t i = 0; i < n_kv; ++i) {
    GgufKV kv;
    const std::uint64_t at = r.pos;
    kv.key = r.str(kGgufMaxKey, "key");
    if (!keys.insert(kv.key).second) r.pos = at, r.bad("key '" + kv.key.substr(0, 80) + "' appears twice");
    kv.value.type = r.type("value type");
    r.value(kv.value, 0, true);
    if (kv.key == "general.alignment") {
      if (kv.value.type != GgufType::u32) r.bad("general.alignment must be a uint32 (got " + std::string(gguf_type_name(kv.value.type)) + ")");
      const auto a = static_cast<std::uint64_t>(kv.value.num);
      if (a == 0 || (a & (a - 1)) != 0) r.bad("general.alignment must be a power of two (got " + std::to_string(a) + ")");
      h.alignment = a;
    }
    h.kv.push_back(std::move(kv));
  }
  for (std::uint64_t i = 0; i < n_tensors; ++i) {
    GgufTensorInfo t;
    const std::uint64_t at = r.pos;
    t.name = r.str(kGgufMaxName, "tensor name");
    const std::uint32_t nd = r.u32("n_dims");
    if (nd > static_cast<std::uint32_t>(kGgufMaxDims)) r.bad("tensor '" + t.name + "' has " + std::to_string(nd) + " dims (at most 4)");
    std::uint64_t elements = 1;
    for (std::uint32_t d = 0; d < nd; ++d) {
      const std::uint64_t ne = r.count("dim");
      if (ne > 0x7FFFFFFFFFFFFFFFull || (ne && elements > 0x7FFFFFFFFFFFFFFFull / ne))
        r.bad("tensor '" + t.name + "': dims overflow int64");
      elements *= ne;
      t.dims.push_back(ne);
    }
    t.type = r.u32("tensor type");
    t.offset = r.uint(8, "tensor offset");
    if (t.offset % h.alignment != 0) {
      r.bad("tensor '" + t.name + "' offset " + std::to_string(t.offset) + " is not a multiple of the alignment " + std::to_string(h.alignment));
    }
    if (!names.insert(t.name).second) r.pos = at, r.bad("tensor '" + t.name + "' appears twice");
    h.tensors.push_back(std::move(t));
  }
  h.data_offset = (r.pos + h.alignment - 1) / h.alignment * h.alignment;
  return h;
}
}  // namespace

const char* gguf_type_name(GgufType t) {
  static const char* names[] = {"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array",
                                "uint64", "int64", "float64"};
  const auto k = static_cast<std::uint32_t>(t);
  return k < 13 ? names[k] : "unknown";
}

GgufRead gguf_read_header(const std::uint8_t* bytes, std::size_t n, std::uint64_t file_size, std::uint64_t max_items) {
  if (n > file_size) fail("bytes", "window of " + std::to_string(n) + " bytes is larger than the file (" + std::to_string(file_size) + ")");
  if (!bytes && n) fail("bytes", "null");
  Reader r(bytes, n, file_size, std::min(max_items, kGgufMaxVocab));
  GgufRead out;
  try {
    out.header = parse(r);
  } catch (const NeedMore& m) {
    out.need = m.bytes;
  }
  return out;
}

std::vector<double> gguf_tensor_values(const std::uint8_t* bytes, std::size_t n, std::uint32_t type, std::uint64_t count) {
  const std::size_t item = type == 0 ? 4 : (type == 1 || type == 30) ? 2 : 0;
  if (!item) fail("gguf", "tensor type " + std::to_string(type) + " is not F32 (0), F16 (1) or BF16 (30)");
  if (count > kGgufMaxItems || count * item > n) {
    fail("gguf", "tensor of " + std::to_string(count) + " elements needs " + std::to_string(count * item) + " bytes (got " +
                     std::to_string(n) + "; at most 4096 elements)");
  }
  std::vector<double> out(static_cast<std::size_t>(count));
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = detail::element(bytes, k, item, type == 30, "gguf");
  return out;
}
}  // namespace posenc
