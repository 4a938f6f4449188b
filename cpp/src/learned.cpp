#include "posenc/learned.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "posenc/absolute.hpp"
#include "posenc/error.hpp"

namespace posenc {
namespace {

// ---- a small JSON reader (enough for safetensors headers: objects, arrays, strings, numbers) ----
struct Json {
  enum Kind { null, boolean, number, string, array, object } kind = null;
  double num = 0;
  bool b = false;
  std::string str;
  std::vector<Json> items;                              // array
  std::vector<std::pair<std::string, Json>> members;    // object, in file order
};

class JsonReader {
 public:
  JsonReader(const char* s, std::size_t n) : s_(s), n_(n) {}
  Json document() {
    Json v = value(0);
    ws();
    if (i_ != n_) bad("trailing characters after the JSON header");
    return v;
  }

 private:
  const char* s_;
  std::size_t n_, i_ = 0;
  [[noreturn]] void bad(const std::string& what) {
    detail::fail("safetensors", "malformed JSON header: " + what + " (at byte " + std::to_string(i_) + ")");
  }
  void ws() {
    while (i_ < n_ && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < n_ && s_[i_] == c) return ++i_, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) bad(std::string("expected '") + c + "'");
  }
  bool word(const char* w) {
    const std::size_t l = std::strlen(w);
    if (n_ - i_ >= l && std::memcmp(s_ + i_, w, l) == 0) return i_ += l, true;
    return false;
  }
  static void utf8(std::string& o, unsigned cp) {
    if (cp < 0x80) o += char(cp);
    else if (cp < 0x800) o += char(0xC0 | (cp >> 6)), o += char(0x80 | (cp & 0x3F));
    else if (cp < 0x10000) o += char(0xE0 | (cp >> 12)), o += char(0x80 | ((cp >> 6) & 0x3F)), o += char(0x80 | (cp & 0x3F));
    else
      o += char(0xF0 | (cp >> 18)), o += char(0x80 | ((cp >> 12) & 0x3F)), o += char(0x80 | ((cp >> 6) & 0x3F)),
          o += char(0x80 | (cp & 0x3F));
  }
  unsigned hex4() {
    if (n_ - i_ < 4) bad("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else bad("bad \\u escape");
    }
    return v;
  }
  std::string str() {
    expect('"');
    std::string o;
    while (true) {
      if (i_ >= n_) bad("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return o;
      if (static_cast<unsigned char>(c) < 0x20) bad("control character in string");
      if (c != '\\') {
        o += c;
        continue;
      }
      if (i_ >= n_) bad("unterminated escape");
      const char e = s_[i_++];
      switch (e) {
        case '"': case '\\': case '/': o += e; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'n': o += '\n'; break;
        case 'r': o += '\r'; break;
        case 't': o += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && n_ - i_ >= 6 && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            const unsigned lo = hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(o, cp);
          break;
        }
        default: bad("bad escape");
      }
    }
  }
  Json value(int depth) {
    if (depth > 16) bad("nesting deeper than 16");
    ws();
    if (i_ >= n_) bad("unexpected end");
    Json v;
    const char c = s_[i_];
    if (c == '{') {
      v.kind = Json::object;
      ++i_;
      if (eat('}')) return v;
      do {
        ws();
        std::string k = str();
        expect(':');
        v.members.emplace_back(std::move(k), value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      v.kind = Json::array;
      ++i_;
      if (eat(']')) return v;
      do v.items.push_back(value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::string;
      v.str = str();
    } else if (word("true")) {
      v.kind = Json::boolean;
      v.b = true;
    } else if (word("false")) {
      v.kind = Json::boolean;
    } else if (word("null")) {
      v.kind = Json::null;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t b = i_;
      while (i_ < n_ && std::strchr("+-0123456789.eE", s_[i_])) ++i_;
      const std::string t(s_ + b, i_ - b);
      char* end = nullptr;
      v.kind = Json::number;
      v.num = std::strtod(t.c_str(), &end);
      if (end != t.c_str() + t.size()) bad("bad number '" + t + "'");
    } else {
      bad(std::string("unexpected character '") + c + "'");
    }
    return v;
  }
};

std::uint64_t le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

struct StEntry {
  SafetensorsInfo info;
  std::uint64_t begin = 0, end = 0;
};

std::vector<StEntry> st_entries(const std::uint8_t* bytes, std::size_t n, std::size_t& data_start) {
  if (!bytes || n < 8) detail::fail("safetensors", "file too short: needs an 8-byte header length (got " + std::to_string(n) + " bytes)");
  const std::uint64_t hl = le64(bytes);
  if (hl > n - 8) {
    detail::fail("safetensors", "header length " + std::to_string(hl) + " exceeds the " + std::to_string(n - 8) +
                                    " bytes after it (not a safetensors file?)");
  }
  if (hl > 100000000ULL) detail::fail("safetensors", "header length " + std::to_string(hl) + " exceeds 100 MB");
  data_start = 8 + static_cast<std::size_t>(hl);
  const Json doc = JsonReader(reinterpret_cast<const char*>(bytes + 8), static_cast<std::size_t>(hl)).document();
  if (doc.kind != Json::object) detail::fail("safetensors", "header must be a JSON object");
  const std::uint64_t data_len = n - data_start;
  std::vector<StEntry> out;
  for (const auto& [name, t] : doc.members) {
    if (name == "__metadata__") continue;
    const std::string where = "tensor '" + name + "': ";
    if (t.kind != Json::object) detail::fail("safetensors", where + "entry must be an object");
    StEntry e;
    e.info.name = name;
    bool has_dtype = false, has_shape = false, has_off = false;
    for (const auto& [k, v] : t.members) {
      if (k == "dtype") {
        if (v.kind != Json::string) detail::fail("safetensors", where + "dtype must be a string");
        e.info.dtype = v.str;
        has_dtype = true;
      } else if (k == "shape") {
        if (v.kind != Json::array) detail::fail("safetensors", where + "shape must be an array");
        for (const auto& s : v.items) {
          if (s.kind != Json::number || s.num < 0 || s.num > 9007199254740991.0 || std::floor(s.num) != s.num)
            detail::fail("safetensors", where + "shape entries must be non-negative integers");
          e.info.shape.push_back(static_cast<long long>(s.num));
        }
        has_shape = true;
      } else if (k == "data_offsets") {
        if (v.kind != Json::array || v.items.size() != 2) detail::fail("safetensors", where + "data_offsets must be [begin, end]");
        for (const auto& s : v.items)
          if (s.kind != Json::number || s.num < 0 || s.num > 9007199254740991.0 || std::floor(s.num) != s.num)
            detail::fail("safetensors", where + "data_offsets must be non-negative integers");
        e.begin = static_cast<std::uint64_t>(v.items[0].num);
        e.end = static_cast<std::uint64_t>(v.items[1].num);
        has_off = true;
      }
    }
    if (!has_dtype || !has_shape || !has_off) detail::fail("safetensors", where + "needs dtype, shape and data_offsets");
    if (e.begin > e.end || e.end > data_len) {
      detail::fail("safetensors", where + "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                                      "] lie outside the " + std::to_string(data_len) + " data bytes (truncated file?)");
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::size_t dtype_size(const std::string& dt) {
  if (dt == "F32") return 4;
  if (dt == "F64") return 8;
  if (dt == "F16" || dt == "BF16") return 2;
  return 0;
}

std::string shape_str(const std::vector<long long>& s) {
  std::string o = "[";
  for (std::size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
  return o + "]";
}

Table make_table(long long rows, long long cols, const char* who) {
  if (rows < 1 || rows > kMaxSeqLen || cols < 1 || cols > kMaxHeadDim) {
    detail::fail(who, "table shape [" + std::to_string(rows) + ", " + std::to_string(cols) +
                          "] must have rows in [1, 1048576] and cols in [1, 8192]");
  }
  detail::require_output_cap(who, rows * cols);
  Table t;
  t.rows = static_cast<int>(rows);
  t.cols = static_cast<int>(cols);
  t.data.resize(static_cast<std::size_t>(rows * cols));
  return t;
}

// Reads the value after `key:` in a NumPy header dict literal; returns the position after the key's colon.
std::size_t npy_key(const std::string& h, const char* key) {
  for (const char q : {'\'', '"'}) {
    const std::string k = std::string(1, q) + key + q;
    const std::size_t p = h.find(k);
    if (p == std::string::npos) continue;
    std::size_t i = p + k.size();
    while (i < h.size() && h[i] == ' ') ++i;
    if (i >= h.size() || h[i] != ':') break;
    ++i;
    while (i < h.size() && h[i] == ' ') ++i;
    return i;
  }
  detail::fail("npy", std::string("header lacks the key '") + key + "'");
}
}  // namespace

float half_to_float(std::uint16_t h) {
  const unsigned sign = (h >> 15) & 1, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  float v;
  if (e == 0) v = std::ldexp(float(m), -24);                                      // zero, subnormal
  else if (e == 31) v = m ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  else v = std::ldexp(float(m | 0x400), int(e) - 25);
  return sign ? -v : v;
}

float bfloat16_to_float(std::uint16_t b) {
  const std::uint32_t bits = std::uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

Table table_from_npy(const std::uint8_t* b, std::size_t n) {
  static const std::uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (!b || n < 10 || std::memcmp(b, magic, 6) != 0) detail::fail("npy", "not a .npy file (missing the \\x93NUMPY magic)");
  const int major = b[6];
  std::size_t hlen, off;
  if (major == 1) {
    hlen = std::size_t(b[8]) | (std::size_t(b[9]) << 8);
    off = 10;
  } else if (major == 2 || major == 3) {
    if (n < 12) detail::fail("npy", "file too short for a version " + std::to_string(major) + " header");
    hlen = std::size_t(b[8]) | (std::size_t(b[9]) << 8) | (std::size_t(b[10]) << 16) | (std::size_t(b[11]) << 24);
    off = 12;
  } else {
    detail::fail("npy", "unsupported format version " + std::to_string(major) + " (expected 1, 2 or 3)");
  }
  if (hlen > n - off) detail::fail("npy", "header length " + std::to_string(hlen) + " runs past the end of the file");
  const std::string h(reinterpret_cast<const char*>(b + off), hlen);
  const std::size_t data = off + hlen;
  // descr
  std::size_t i = npy_key(h, "descr");
  if (i >= h.size() || (h[i] != '\'' && h[i] != '"')) detail::fail("npy", "descr must be a string (structured dtypes are not supported)");
  const std::size_t e = h.find(h[i], i + 1);
  if (e == std::string::npos) detail::fail("npy", "unterminated descr");
  const std::string descr = h.substr(i + 1, e - i - 1);
  std::size_t item = 0;
  if (descr == "<f4" || descr == "=f4" || descr == "|f4") item = 4;
  else if (descr == "<f8" || descr == "=f8" || descr == "|f8") item = 8;
  else if (descr == ">f4" || descr == ">f8") detail::fail("npy", "big-endian data ('" + descr + "') is not supported; save as little-endian");
  else detail::fail("npy", "dtype '" + descr + "' is not supported (expected '<f4' or '<f8')");
  // fortran_order
  i = npy_key(h, "fortran_order");
  if (h.compare(i, 4, "True") == 0) detail::fail("npy", "fortran_order True is not supported (save a C-order array)");
  if (h.compare(i, 5, "False") != 0) detail::fail("npy", "fortran_order must be True or False");
  // shape
  i = npy_key(h, "shape");
  if (i >= h.size() || h[i] != '(') detail::fail("npy", "shape must be a tuple");
  const std::size_t close = h.find(')', i);
  if (close == std::string::npos) detail::fail("npy", "unterminated shape tuple");
  std::vector<long long> shape;
  {
    std::size_t k = i + 1;
    while (k < close) {
      while (k < close && (h[k] == ' ' || h[k] == ',')) ++k;
      if (k >= close) break;
      if (h[k] < '0' || h[k] > '9') detail::fail("npy", "shape entries must be non-negative integers");
      long long v = 0;
      while (k < close && h[k] >= '0' && h[k] <= '9') {
        v = v * 10 + (h[k] - '0');
        if (v > (1LL << 40)) detail::fail("npy", "shape entry too large");
        ++k;
      }
      while (k < close && (h[k] == 'L' || h[k] == ' ')) ++k;
      shape.push_back(v);
    }
  }
  if (shape.size() != 2) detail::fail("npy", "array must be 2-D [positions, dim] (got shape " + shape_str(shape) + ")");
  Table t = make_table(shape[0], shape[1], "npy");
  const std::size_t need = t.data.size() * item, have = n - data;
  if (have != need) {
    detail::fail("npy", "data holds " + std::to_string(have) + " bytes but shape " + shape_str(shape) + " of '" + descr +
                            "' needs " + std::to_string(need) + (have < need ? " (truncated file?)" : ""));
  }
  const std::uint8_t* p = b + data;
  for (std::size_t k = 0; k < t.data.size(); ++k) {
    if (item == 4) {
      std::uint32_t u = std::uint32_t(p[4 * k]) | std::uint32_t(p[4 * k + 1]) << 8 | std::uint32_t(p[4 * k + 2]) << 16 |
                        std::uint32_t(p[4 * k + 3]) << 24;
      std::memcpy(&t.data[k], &u, 4);
    } else {
      const std::uint64_t u = le64(p + 8 * k);
      double d;
      std::memcpy(&d, &u, 8);
      t.data[k] = static_cast<float>(d);
    }
  }
  return t;
}

std::vector<SafetensorsInfo> safetensors_list(const std::uint8_t* bytes, std::size_t n) {
  std::size_t ds = 0;
  std::vector<SafetensorsInfo> out;
  for (auto& e : st_entries(bytes, n, ds)) out.push_back(std::move(e.info));
  return out;
}

Table table_from_safetensors(const std::uint8_t* bytes, std::size_t n, const std::string& name) {
  std::size_t ds = 0;
  const auto entries = st_entries(bytes, n, ds);
  std::string names;
  for (const auto& e : entries) names += (names.empty() ? "" : ", ") + ("'" + e.info.name + "'");
  if (entries.empty()) detail::fail("safetensors", "file holds no tensors");
  const StEntry* hit = nullptr;
  if (name.empty()) {
    if (entries.size() != 1) detail::fail("name", "required: the file holds " + std::to_string(entries.size()) + " tensors (" + names + ")");
    hit = &entries[0];
  } else {
    for (const auto& e : entries)
      if (e.info.name == name) hit = &e;
    if (!hit) detail::fail("name", "no tensor '" + name + "' in the file (it holds " + names + ")");
  }
  const auto& info = hit->info;
  const std::size_t item = dtype_size(info.dtype);
  if (!item) detail::fail("safetensors", "tensor '" + info.name + "' has dtype " + info.dtype + " (supported: F32, F64, F16, BF16)");
  if (info.shape.size() != 2)
    detail::fail("safetensors", "tensor '" + info.name + "' must be 2-D [positions, dim] (got shape " + shape_str(info.shape) + ")");
  Table t = make_table(info.shape[0], info.shape[1], "safetensors");
  const std::uint64_t need = t.data.size() * item, have = hit->end - hit->begin;
  if (have != need) {
    detail::fail("safetensors", "tensor '" + info.name + "' spans " + std::to_string(have) + " bytes but shape " +
                                    shape_str(info.shape) + " of " + info.dtype + " needs " + std::to_string(need));
  }
  const std::uint8_t* p = bytes + ds + hit->begin;
  for (std::size_t k = 0; k < t.data.size(); ++k) {
    if (item == 4) {
      const std::uint32_t u = std::uint32_t(p[4 * k]) | std::uint32_t(p[4 * k + 1]) << 8 |
                              std::uint32_t(p[4 * k + 2]) << 16 | std::uint32_t(p[4 * k + 3]) << 24;
      std::memcpy(&t.data[k], &u, 4);
    } else if (item == 8) {
      const std::uint64_t u = le64(p + 8 * k);
      double d;
      std::memcpy(&d, &u, 8);
      t.data[k] = static_cast<float>(d);
    } else {
      const std::uint16_t u = std::uint16_t(p[2 * k] | (p[2 * k + 1] << 8));
      t.data[k] = info.dtype == "F16" ? half_to_float(u) : bfloat16_to_float(u);
    }
  }
  return t;
}

void table_check(int rows, int cols, std::size_t size) {
  detail::require_int_range("rows", rows, 1, kMaxSeqLen);
  detail::require_int_range("cols", cols, 1, kMaxHeadDim);
  detail::require_output_cap("rows*cols", 1LL * rows * cols);
  detail::require_size("table", size, static_cast<std::size_t>(rows) * cols);
}

std::vector<float> table_lookup(const float* table, int rows, int cols, const double* positions, std::size_t n,
                                bool clamp) {
  detail::require_int_range("rows", rows, 1, kMaxSeqLen);
  detail::require_int_range("cols", cols, 1, kMaxHeadDim);
  detail::require_int_range("positions (count)", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("positions*cols", static_cast<long long>(n) * cols);
  std::vector<std::size_t> idx(n);
  for (std::size_t r = 0; r < n; ++r) {
    const double p = positions[r];
    if (!std::isfinite(p) || std::floor(p) != p || std::fabs(p) > kMaxAbsPosition)
      detail::fail("positions", "every position must be an integer with |position| <= 2147483647 (index " + std::to_string(r) + ")");
    long long q = static_cast<long long>(p);
    if (q < 0 || q >= rows) {
      if (!clamp) {
        detail::fail("positions", "position " + std::to_string(q) + " at index " + std::to_string(r) +
                                      " is outside the table's rows [0, " + std::to_string(rows - 1) +
                                      "] (pass clamp: true to clamp)");
      }
      q = std::clamp<long long>(q, 0, rows - 1);
    }
    idx[r] = static_cast<std::size_t>(q);
  }
  const std::size_t C = static_cast<std::size_t>(cols);
  std::vector<float> out(n * C);
  for (std::size_t r = 0; r < n; ++r) std::memcpy(out.data() + r * C, table + idx[r] * C, C * sizeof(float));
  return out;
}

std::vector<float> table_similarity(const float* table, int rows, int cols, Similarity kind) {
  detail::require_int_range("rows", rows, 1, kMaxSeqLen);
  detail::require_int_range("cols", cols, 1, kMaxHeadDim);
  detail::require_output_cap("rows*rows", 1LL * rows * rows);
  if (kind != Similarity::cosine && kind != Similarity::dot) detail::fail("metric", "must be cosine or dot");
  const std::size_t R = static_cast<std::size_t>(rows), C = static_cast<std::size_t>(cols);
  std::vector<float> s(R * R);
  kernels::dot_rows_simd(table, R, table, R, C, 1.f, s.data());
  if (kind == Similarity::cosine) {
    std::vector<double> norm(R);
    for (std::size_t r = 0; r < R; ++r) {
      double a = 0;
      for (std::size_t c = 0; c < C; ++c) a += double(table[r * C + c]) * table[r * C + c];
      norm[r] = std::sqrt(a);
    }
    for (std::size_t a = 0; a < R; ++a)
      for (std::size_t b = 0; b < R; ++b) {
        const double den = norm[a] * norm[b];
        s[a * R + b] = den > 0 ? static_cast<float>(double(s[a * R + b]) / den) : 0.f;
      }
  }
  return s;
}
}  // namespace posenc
