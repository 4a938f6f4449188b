#include "posenc/learned.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "posenc/absolute.hpp"
#include "posenc/error.hpp"

namespace posenc {

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
  if (kind == Similarity::dot) {
    kernels::dot_rows_simd(table, R, table, R, C, 1.f, s.data());
    return s;
  }
  // Cosine: the rows scaled to unit length first (float64 norms), so no product can overflow whatever the values.
  std::vector<float> unit(R * C, 0.f);
  for (std::size_t r = 0; r < R; ++r) {
    double a = 0;
    for (std::size_t c = 0; c < C; ++c) a += double(table[r * C + c]) * table[r * C + c];
    if (a > 0 && std::isfinite(a))
      for (std::size_t c = 0; c < C; ++c) unit[r * C + c] = static_cast<float>(table[r * C + c] / std::sqrt(a));
  }
  kernels::dot_rows_simd(unit.data(), R, unit.data(), R, C, 1.f, s.data());
  return s;
}
}  // namespace posenc
