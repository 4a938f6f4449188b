// posenc (internal) — shared by the table file readers (learned_npy.cpp, learned_safetensors.cpp): little-endian
// elements to float32, the 2-D shape check made before anything is allocated, messages, and the cursor both text
// headers (the .npy dict literal, the safetensors JSON) are read with.
#pragma once
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "posenc/error.hpp"
#include "posenc/learned.hpp"

namespace posenc::detail {
inline std::uint64_t le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | p[k];
  return v;
}

inline std::string shape_str(const std::vector<long long>& s) {
  std::string o = "[";
  for (std::size_t i = 0; i < s.size(); ++i) o += (i ? ", " : "") + std::to_string(s[i]);
  return o + "]";
}

// A 2-D shape within the caps, checked before anything is allocated.
inline void check_shape(long long rows, long long cols, const char* who) {
  if (rows < 1 || rows > kMaxSeqLen || cols < 1 || cols > kMaxHeadDim) {
    fail(who, "table shape [" + std::to_string(rows) + ", " + std::to_string(cols) +
                          "] must have rows in [1, 1048576] and cols in [1, 8192]");
  }
  require_output_cap(who, rows * cols);
}

// Little-endian element k of a float32/float64/float16/bfloat16 array as float32. A finite float64 beyond the float32
// range is refused (it would become ±∞); stored ∞ and NaN are kept.
inline float element(const std::uint8_t* p, std::size_t k, std::size_t item, bool bf16, const char* who) {
  if (item == 4) {
    const std::uint32_t u = std::uint32_t(p[4 * k]) | std::uint32_t(p[4 * k + 1]) << 8 | std::uint32_t(p[4 * k + 2]) << 16 |
                            std::uint32_t(p[4 * k + 3]) << 24;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  if (item == 8) {
    const std::uint64_t u = le64(p + 8 * k);
    double d;
    std::memcpy(&d, &u, 8);
    const float f = static_cast<float>(d);
    if (std::isinf(f) && std::isfinite(d)) {
      fail(who, "value " + format_number(d) + " at element " + std::to_string(k) +
                            " overflows float32 (|value| > 3.4028234663852886e+38)");
    }
    return f;
  }
  const std::uint16_t u = std::uint16_t(p[2 * k] | (p[2 * k + 1] << 8));
  return bf16 ? bfloat16_to_float(u) : half_to_float(u);
}

inline Table read_table(const std::uint8_t* p, long long rows, long long cols, std::size_t item, bool bf16, const char* who) {
  Table t;
  t.rows = static_cast<int>(rows);
  t.cols = static_cast<int>(cols);
  t.data.resize(static_cast<std::size_t>(rows * cols));
  for (std::size_t k = 0; k < t.data.size(); ++k) t.data[k] = element(p, k, item, bf16, who);
  return t;
}

// A cursor over a text header: whitespace, punctuation and keywords; errors name the format, what is read and the byte.
class HeaderCursor {
 public:
  HeaderCursor(const char* s, std::size_t n, const char* who, const char* what) : s_(s), n_(n), who_(who), what_(what) {}

 protected:
  const char* s_;
  std::size_t n_, i_ = 0;
  [[noreturn]] void bad(const std::string& m) const {
    fail(who_, std::string(what_) + ": " + m + " (at byte " + std::to_string(i_) + ")");
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
  // A keyword (True, null, …) not followed by a letter or digit.
  bool word(const char* w) {
    const std::size_t l = std::strlen(w);
    if (n_ - i_ >= l && std::memcmp(s_ + i_, w, l) == 0 && (n_ - i_ == l || !std::isalnum(static_cast<unsigned char>(s_[i_ + l]))))
      return i_ += l, true;
    return false;
  }

 private:
  const char* who_;
  const char* what_;
};
}  // namespace posenc::detail
