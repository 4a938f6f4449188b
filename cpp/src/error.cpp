#include "posenc/error.hpp"

#include <cmath>
#include <cstdio>

namespace posenc::detail {

void fail(const char* param, const std::string& rule) { throw Error(std::string(param) + ": " + rule); }

std::string format_int(long long v) {
  const unsigned long long m = v < 0 ? 0ULL - static_cast<unsigned long long>(v) : static_cast<unsigned long long>(v);
  if (m >= (1ULL << 20) && (m & (m - 1)) == 0) return std::string(v < 0 ? "-" : "") + "2^" + std::to_string(__builtin_ctzll(m));
  return std::to_string(v);
}

void require_int_range(const char* param, long long v, long long lo, long long hi) {
  if (v < lo || v > hi) {
    fail(param, "must be an integer in [" + format_int(lo) + ", " + format_int(hi) + "] (got " + format_int(v) + ")");
  }
}

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";                          // as JavaScript writes them (printf: "nan", "inf")
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (std::fabs(v) >= 1048576.0 && std::fabs(v) < 9.2e18 && std::floor(v) == v) return format_int(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void require_even(const char* param, long long v) {
  if (v % 2 != 0) fail(param, "must be even (got " + std::to_string(v) + ")");
}

void require_finite_positive(const char* param, double v) {
  if (!std::isfinite(v) || !(v > 0)) fail(param, "must be a finite number > 0 (got " + format_number(v) + ")");
}

void require_rope_base(const char* param, double rope_theta, int rotary_dim) {
  require_finite_positive(param, rope_theta);
  if (rope_theta < 1 && -double(rotary_dim - 2) / rotary_dim * std::log(rope_theta) > std::log(1e6)) {
    fail(param, "the largest frequency rope_theta^(-(d-2)/d) must be <= 1e6 rad per position (got rope_theta " + format_number(rope_theta) +
                    " with rotary_dim " + std::to_string(rotary_dim) + ")");
  }
}

void require_size(const char* param, std::size_t got, std::size_t expected) {
  if (got != expected) {
    fail(param, "length must equal the shape's element count " + format_int(static_cast<long long>(expected)) + " (got " +
                    format_int(static_cast<long long>(got)) + ")");
  }
}

void require_output_cap(const char* what, long long elements) {
  if (elements > kMaxOutputElements) {
    fail(what, "result of " + format_int(elements) + " elements exceeds the cap of " + format_int(kMaxOutputElements));
  }
}

void require_positions(const char* param, const double* p, std::size_t n) {
  if (!p) return;
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(p[k]) || std::fabs(p[k]) > kMaxAbsPosition)
      fail(param, "every position must be finite with |position| <= 2147483647 (index " + std::to_string(k) + ")");
}

const double* positions_or_range(const double* positions, std::size_t n, std::vector<double>& own) {
  if (positions != nullptr) return positions;
  own.resize(n);
  for (std::size_t i = 0; i < n; ++i) own[i] = double(i);
  return own.data();
}
}  // namespace posenc::detail
