// posenc — reading a learned position table from a .safetensors file: the JSON header (duplicate names and fields,
// out-of-range and overlapping data_offsets refused) is checked before any data is read, and can be checked from the
// file's first bytes alone (safetensors_header_length, safetensors_check_header).
#include <algorithm>

#include "learned_io.hpp"

namespace posenc {
namespace {
using detail::check_shape;
using detail::le64;
using detail::shape_str;

// ---- a small JSON reader (enough for safetensors headers: objects, arrays, strings, numbers) ----
struct Json {
  enum Kind { null, boolean, number, string, array, object } kind = null;
  double num = 0;
  bool b = false;
  std::string str;
  std::vector<Json> items;                              // array
  std::vector<std::pair<std::string, Json>> members;    // object, in file order
};

class JsonReader : detail::HeaderCursor {
 public:
  JsonReader(const char* s, std::size_t n) : HeaderCursor(s, n, "safetensors", "malformed JSON header") {}
  Json document() {
    Json v = value(0);
    ws();
    if (i_ != n_) bad("trailing characters after the JSON header");
    return v;
  }

 private:
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

constexpr std::uint64_t kSafetensorsMaxHeader = 100000000;

struct StEntry {
  SafetensorsInfo info;
  std::uint64_t begin = 0, end = 0;
};

bool is_offset(const Json& s) {
  return s.kind == Json::number && s.num >= 0 && s.num <= 9007199254740991.0 && std::floor(s.num) == s.num;
}

std::vector<StEntry> st_entries(const std::uint8_t* bytes, std::size_t n, std::size_t total, std::size_t& data_start) {
  data_start = safetensors_header_length(bytes, n, total);
  if (n < data_start)
    detail::fail("bytes", "the header check needs the first " + std::to_string(data_start) + " bytes (got " + std::to_string(n) + ")");
  const Json doc = JsonReader(reinterpret_cast<const char*>(bytes + 8), data_start - 8).document();
  if (doc.kind != Json::object) detail::fail("safetensors", "header must be a JSON object");
  const std::uint64_t data_len = total - data_start;
  std::vector<StEntry> out;
  for (const auto& [name, t] : doc.members) {
    const std::string where = "tensor '" + name.substr(0, 80) + "': ";
    for (const auto& e : out)
      if (e.info.name == name) detail::fail("safetensors", where + "listed twice");
    if (name == "__metadata__") continue;
    if (t.kind != Json::object) detail::fail("safetensors", where + "entry must be an object");
    StEntry e;
    e.info.name = name;
    bool has_dtype = false, has_shape = false, has_off = false;
    for (const auto& [k, v] : t.members) {
      bool& seen = k == "dtype" ? has_dtype : k == "shape" ? has_shape : has_off;
      if (k != "dtype" && k != "shape" && k != "data_offsets") continue;
      if (seen) detail::fail("safetensors", where + k + " given twice");
      seen = true;
      if (k == "dtype") {
        if (v.kind != Json::string) detail::fail("safetensors", where + "dtype must be a string");
        e.info.dtype = v.str;
      } else if (k == "shape") {
        if (v.kind != Json::array) detail::fail("safetensors", where + "shape must be an array");
        for (const auto& s : v.items) {
          if (!is_offset(s)) detail::fail("safetensors", where + "shape entries must be non-negative integers");
          e.info.shape.push_back(static_cast<long long>(s.num));
        }
      } else {
        if (v.kind != Json::array || v.items.size() != 2) detail::fail("safetensors", where + "data_offsets must be [begin, end]");
        for (const auto& s : v.items)
          if (!is_offset(s)) detail::fail("safetensors", where + "data_offsets must be non-negative integers");
        e.begin = static_cast<std::uint64_t>(v.items[0].num);
        e.end = static_cast<std::uint64_t>(v.items[1].num);
      }
    }
    if (!has_dtype || !has_shape || !has_off) detail::fail("safetensors", where + "needs dtype, shape and data_offsets");
    if (e.begin > e.end || e.end > data_len) {
      detail::fail("safetensors", where + "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) +
                                      "] lie outside the " + std::to_string(data_len) + " data bytes (truncated file?)");
    }
    out.push_back(std::move(e));
  }
  // The tensors tile the data, one after another, as the safetensors library requires: no two share a byte, and
  // no byte is left over (so a file whose header describes less than its size is refused from the header alone).
  std::vector<const StEntry*> by_begin;
  for (const auto& e : out)
    if (e.end > e.begin) by_begin.push_back(&e);
  std::sort(by_begin.begin(), by_begin.end(), [](const StEntry* a, const StEntry* b) { return a->begin < b->begin; });
  std::uint64_t next = 0;
  for (std::size_t k = 0; k < by_begin.size(); ++k) {
    const StEntry& b = *by_begin[k];
    if (b.begin < next) {
      const StEntry& a = *by_begin[k - 1];
      detail::fail("safetensors", "tensors '" + a.info.name.substr(0, 80) + "' [" + std::to_string(a.begin) + ", " +
                                      std::to_string(a.end) + "] and '" + b.info.name.substr(0, 80) + "' [" + std::to_string(b.begin) +
                                      ", " + std::to_string(b.end) + "] overlap");
    }
    if (b.begin > next) break;
    next = b.end;
  }
  if (next != data_len) {
    std::uint64_t gap_end = data_len;
    for (const StEntry* e : by_begin)
      if (e->begin > next) {
        gap_end = e->begin;
        break;
      }
    detail::fail("safetensors", "data bytes [" + std::to_string(next) + ", " + std::to_string(gap_end) + ") of " +
                                    std::to_string(data_len) + " belong to no tensor (tensors must fill the data one after another)");
  }
  return out;
}

std::size_t dtype_size(const std::string& dt) {
  if (dt == "F32") return 4;
  if (dt == "F64") return 8;
  if (dt == "F16" || dt == "BF16") return 2;
  return 0;
}

// The tensor a table read picks, with its dtype, shape and byte size checked.
const StEntry& st_select(const std::vector<StEntry>& entries, const std::string& name) {
  std::string names;
  for (const auto& e : entries) {
    if (names.size() > 400) {
      names += ", …";
      break;
    }
    names += (names.empty() ? "" : ", ") + ("'" + e.info.name.substr(0, 80) + "'");
  }
  if (entries.empty()) detail::fail("safetensors", "file holds no tensors");
  const StEntry* hit = nullptr;
  if (name.empty()) {
    if (entries.size() != 1) detail::fail("name", "required: the file holds " + std::to_string(entries.size()) + " tensors (" + names + ")");
    hit = &entries[0];
  } else {
    for (const auto& e : entries)
      if (e.info.name == name) hit = &e;
    if (!hit) detail::fail("name", "no tensor '" + name.substr(0, 80) + "' in the file (it holds " + names + ")");
  }
  const auto& info = hit->info;
  const std::size_t item = dtype_size(info.dtype);
  const std::string tn = "tensor '" + info.name.substr(0, 80) + "'";
  if (!item) detail::fail("safetensors", tn + " has dtype " + info.dtype.substr(0, 40) + " (supported: F32, F64, F16, BF16)");
  if (info.shape.size() != 2) detail::fail("safetensors", tn + " must be 2-D [positions, dim] (got shape " + shape_str(info.shape) + ")");
  check_shape(info.shape[0], info.shape[1], "safetensors");
  const std::uint64_t need = std::uint64_t(info.shape[0] * info.shape[1]) * item, have = hit->end - hit->begin;
  if (have != need) {
    detail::fail("safetensors", tn + " spans " + std::to_string(have) + " bytes but shape " + shape_str(info.shape) + " of " +
                                    info.dtype + " needs " + std::to_string(need));
  }
  return *hit;
}

}  // namespace

std::size_t safetensors_header_length(const std::uint8_t* bytes, std::size_t n, std::size_t total) {
  if (n < std::min<std::size_t>(total, kTableHeaderProbe) || n > total)
    detail::fail("bytes", "pass the first min(size, 16) bytes of the file (got " + std::to_string(n) + " of " + std::to_string(total) + ")");
  if (!bytes || total < 8) detail::fail("safetensors", "file too short: needs an 8-byte header length (got " + std::to_string(total) + " bytes)");
  const std::uint64_t hl = le64(bytes);
  if (hl > total - 8) {
    detail::fail("safetensors", "header length " + std::to_string(hl) + " exceeds the " + std::to_string(total - 8) +
                                    " bytes after it (not a safetensors file?)");
  }
  if (hl > kSafetensorsMaxHeader) detail::fail("safetensors", "header length " + std::to_string(hl) + " exceeds 100 MB");
  return 8 + static_cast<std::size_t>(hl);
}

std::vector<SafetensorsInfo> safetensors_check_header(const std::uint8_t* prefix, std::size_t n, std::size_t total,
                                                      const std::string* name) {
  std::size_t ds = 0;
  auto entries = st_entries(prefix, n, total, ds);
  if (name) st_select(entries, *name);
  std::vector<SafetensorsInfo> out;
  for (auto& e : entries) out.push_back(std::move(e.info));
  return out;
}

std::vector<SafetensorsInfo> safetensors_list(const std::uint8_t* bytes, std::size_t n) {
  return safetensors_check_header(bytes, n, n, nullptr);
}

Table table_from_safetensors(const std::uint8_t* bytes, std::size_t n, const std::string& name) {
  std::size_t ds = 0;
  const auto entries = st_entries(bytes, n, n, ds);
  const StEntry& e = st_select(entries, name);
  return detail::read_table(bytes + ds + e.begin, e.info.shape[0], e.info.shape[1], dtype_size(e.info.dtype), e.info.dtype == "BF16",
                    "safetensors");
}

std::vector<SafetensorsSpan> safetensors_spans(const std::uint8_t* bytes, std::size_t n) {
  std::size_t ds = 0;
  auto entries = st_entries(bytes, n, n, ds);
  std::vector<SafetensorsSpan> out;
  for (auto& e : entries) out.push_back({std::move(e.info), ds + e.begin, ds + e.end});
  return out;
}
}  // namespace posenc
