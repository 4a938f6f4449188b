// posenc — reading a learned position table from a .npy file. The header is read as the Python dict literal it is
// (string keys, a repeated key keeping its last value as in numpy, strings as strings), checked before any data is
// read, and can be checked from the file's first bytes alone (npy_header_length, npy_check_header).
#include <algorithm>
#include <cctype>

#include "learned_io.hpp"

namespace posenc {
namespace {
using detail::check_shape;
using detail::shape_str;

// ---- the .npy header: a Python dict literal, read as ast.literal_eval reads it (for the literals numpy writes) ----
struct Py {
  enum Kind { str, boolean, none, integer, tuple, list } kind = none;
  std::string s;
  bool b = false;
  long long i = 0;
  std::vector<Py> items;
};

class PyReader : detail::HeaderCursor {
 public:
  PyReader(const char* s, std::size_t n) : HeaderCursor(s, n, "npy", "malformed header dict") {}
  // {key: value, …} with string keys; a repeated key keeps its last value, as a Python dict does.
  std::vector<std::pair<std::string, Py>> dict() {
    std::vector<std::pair<std::string, Py>> out;
    expect('{');
    while (!eat('}')) {
      ws();
      if (i_ >= n_ || (s_[i_] != '\'' && s_[i_] != '"')) bad("keys must be strings");
      std::string k = str();
      expect(':');
      Py v = value(0);
      auto hit = std::find_if(out.begin(), out.end(), [&](const auto& m) { return m.first == k; });
      if (hit != out.end()) hit->second = std::move(v);
      else out.emplace_back(std::move(k), std::move(v));
      if (!eat(',')) {
        expect('}');
        break;
      }
    }
    ws();
    if (i_ != n_) bad("trailing characters after the dict");
    return out;
  }

 private:
  // '…' or "…"; a backslash keeps the next character (numpy's headers hold no escapes).
  std::string str() {
    const char q = s_[i_++];
    std::string o;
    while (true) {
      if (i_ >= n_) bad("unterminated string");
      const char c = s_[i_++];
      if (c == q) return o;
      if (c == '\n') bad("newline in string");
      if (c == '\\') {
        if (i_ >= n_) bad("unterminated string");
        o += s_[i_++];
      } else {
        o += c;
      }
    }
  }
  Py value(int depth) {
    if (depth > 8) bad("nesting deeper than 8");
    ws();
    if (i_ >= n_) bad("unexpected end");
    Py v;
    const char c = s_[i_];
    if (c == '\'' || c == '"') {
      v.kind = Py::str;
      v.s = str();
    } else if (c == '(' || c == '[') {
      v.kind = c == '(' ? Py::tuple : Py::list;
      const char close = c == '(' ? ')' : ']';
      ++i_;
      while (!eat(close)) {
        v.items.push_back(value(depth + 1));
        if (!eat(',')) {
          expect(close);
          break;
        }
      }
      if (v.kind == Py::tuple && v.items.size() == 1 && s_[i_ - 2] != ',' && s_[i_ - 1] == ')') {
        // "(3)" is the integer 3 in Python, not a tuple; numpy writes one-element tuples as "(3,)".
        Py inner = std::move(v.items[0]);
        return inner;
      }
    } else if (word("True")) {
      v.kind = Py::boolean;
      v.b = true;
    } else if (word("False")) {
      v.kind = Py::boolean;
    } else if (word("None")) {
      v.kind = Py::none;
    } else if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
      const bool neg = c == '-';
      if (c == '-' || c == '+') ++i_;
      if (i_ >= n_ || s_[i_] < '0' || s_[i_] > '9') bad("expected digits");
      v.kind = Py::integer;
      while (i_ < n_ && s_[i_] >= '0' && s_[i_] <= '9') {
        v.i = v.i * 10 + (s_[i_++] - '0');
        if (v.i > (1LL << 40)) bad("integer too large");
      }
      if (i_ < n_ && s_[i_] == 'L') ++i_;  // Python 2 long, as old numpy wrote shapes
      if (neg) v.i = -v.i;
    } else {
      bad(std::string("unexpected character '") + c + "'");
    }
    return v;
  }
};

constexpr std::size_t kNpyMaxHeader = 65536;

struct NpyLayout {
  std::string descr;
  std::size_t item = 0, data = 0;  // bytes per element, offset of the data
  long long rows = 0, cols = 0;
};

NpyLayout npy_layout(const std::uint8_t* b, std::size_t n, std::size_t total) {
  const std::size_t off = npy_header_length(b, n, total);
  if (n < off) detail::fail("bytes", "the header check needs the first " + std::to_string(off) + " bytes (got " + std::to_string(n) + ")");
  NpyLayout L;
  L.data = off;
  const std::size_t start = b[6] == 1 ? 10 : 12;
  const Py* descr = nullptr;
  const Py* fortran = nullptr;
  const Py* shape = nullptr;
  const auto dict = PyReader(reinterpret_cast<const char*>(b + start), off - start).dict();
  for (const auto& [k, v] : dict) {
    if (k == "descr") descr = &v;
    else if (k == "fortran_order") fortran = &v;
    else if (k == "shape") shape = &v;
    else detail::fail("npy", "unexpected header key '" + k.substr(0, 40) + "' (numpy writes descr, fortran_order, shape)");
  }
  for (const auto& [key, v] : {std::pair<const char*, const Py*>{"descr", descr}, {"fortran_order", fortran}, {"shape", shape}})
    if (!v) detail::fail("npy", std::string("header lacks the key '") + key + "'");
  if (descr->kind != Py::str) detail::fail("npy", "descr must be a string (structured dtypes are not supported)");
  L.descr = descr->s;
  if (L.descr == "<f4" || L.descr == "=f4" || L.descr == "|f4") L.item = 4;
  else if (L.descr == "<f8" || L.descr == "=f8" || L.descr == "|f8") L.item = 8;
  else if (L.descr == ">f4" || L.descr == ">f8") detail::fail("npy", "big-endian data ('" + L.descr + "') is not supported; save as little-endian");
  else detail::fail("npy", "dtype '" + L.descr.substr(0, 40) + "' is not supported (expected '<f4' or '<f8')");
  if (fortran->kind != Py::boolean) detail::fail("npy", "fortran_order must be True or False");
  if (fortran->b) detail::fail("npy", "fortran_order True is not supported (save a C-order array)");
  if (shape->kind != Py::tuple) detail::fail("npy", "shape must be a tuple");
  std::vector<long long> dims;
  for (const auto& d : shape->items) {
    if (d.kind != Py::integer || d.i < 0) detail::fail("npy", "shape entries must be non-negative integers");
    dims.push_back(d.i);
  }
  if (dims.size() != 2) detail::fail("npy", "array must be 2-D [positions, dim] (got shape " + shape_str(dims) + ")");
  check_shape(dims[0], dims[1], "npy");
  L.rows = dims[0];
  L.cols = dims[1];
  const std::uint64_t need = std::uint64_t(L.rows * L.cols) * L.item, have = total - off;
  if (have != need) {
    detail::fail("npy", "data holds " + std::to_string(have) + " bytes but shape " + shape_str(dims) + " of '" + L.descr +
                            "' needs " + std::to_string(need) + (have < need ? " (truncated file?)" : ""));
  }
  return L;
}

}  // namespace

std::size_t npy_header_length(const std::uint8_t* b, std::size_t n, std::size_t total) {
  static const std::uint8_t magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (n < std::min<std::size_t>(total, kTableHeaderProbe) || n > total)
    detail::fail("bytes", "pass the first min(size, 16) bytes of the file (got " + std::to_string(n) + " of " + std::to_string(total) + ")");
  if (!b || total < 10 || std::memcmp(b, magic, 6) != 0) detail::fail("npy", "not a .npy file (missing the \\x93NUMPY magic)");
  const int major = b[6];
  std::size_t hlen, off;
  if (major == 1) {
    hlen = std::size_t(b[8]) | (std::size_t(b[9]) << 8);
    off = 10;
  } else if (major == 2 || major == 3) {
    if (total < 12) detail::fail("npy", "file too short for a version " + std::to_string(major) + " header");
    hlen = std::size_t(b[8]) | (std::size_t(b[9]) << 8) | (std::size_t(b[10]) << 16) | (std::size_t(b[11]) << 24);
    off = 12;
  } else {
    detail::fail("npy", "unsupported format version " + std::to_string(major) + " (expected 1, 2 or 3)");
  }
  if (hlen > total - off) detail::fail("npy", "header length " + std::to_string(hlen) + " runs past the end of the file");
  if (hlen > kNpyMaxHeader) detail::fail("npy", "header length " + std::to_string(hlen) + " exceeds 65536 bytes");
  return off + hlen;
}

void npy_check_header(const std::uint8_t* prefix, std::size_t n, std::size_t total) { npy_layout(prefix, n, total); }

Table table_from_npy(const std::uint8_t* b, std::size_t n) {
  const NpyLayout L = npy_layout(b, n, n);
  return detail::read_table(b + L.data, L.rows, L.cols, L.item, false, "npy");
}

}  // namespace posenc
