#include "posenc/alibi.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {
std::vector<double> power_of_two_slopes(int n) {
  // reference: start = 2^(−2^−(log2 n − 3)) = 2^(−8/n), slopes start·start^h. Evaluated as one exp2 per
  // slope (2^(−8(h+1)/n)), so powers of two such as 1/2 … 1/256 are exact.
  std::vector<double> s(static_cast<std::size_t>(n));
  for (int h = 0; h < n; ++h) s[static_cast<std::size_t>(h)] = std::exp2(-8.0 * double(h + 1) / double(n));
  return s;
}
}  // namespace

std::vector<double> alibi_slopes(int n_heads) {
  detail::require_int_range("num_heads", n_heads, 1, kMaxHeads);
  int p = 1;
  while (p * 2 <= n_heads) p *= 2;
  if (p == n_heads) return power_of_two_slopes(n_heads);
  std::vector<double> s = power_of_two_slopes(p);
  const std::vector<double> extra = power_of_two_slopes(2 * p);
  for (int k = 0; k < n_heads - p; ++k) s.push_back(extra[static_cast<std::size_t>(2 * k)]);
  return s;
}

void alibi_bias(const std::vector<double>& slopes, int q_len, int k_len, AlibiMode mode, float* out) {
  detail::require_int_range("num_heads", static_cast<long long>(slopes.size()), 1, kMaxHeads);
  for (double m : slopes)
    if (!std::isfinite(m)) detail::fail("slopes", "every slope must be finite");
  detail::require_int_range("k_len", k_len, 1, kMaxSeqLen);
  detail::require_int_range("q_len", q_len, 1, k_len);
  if (mode != AlibiMode::causal && mode != AlibiMode::symmetric && mode != AlibiMode::bloom)
    detail::fail("mode", "must be causal, symmetric or bloom");
  detail::require_output_cap("heads*q_len*k_len", static_cast<long long>(slopes.size()) * q_len * k_len);
  const std::size_t plane = static_cast<std::size_t>(q_len) * static_cast<std::size_t>(k_len);
  for (std::size_t h = 0; h < slopes.size(); ++h)
    kernels::alibi_bias_simd(slopes[h], q_len, k_len, k_len - q_len, mode, out + h * plane);
}

namespace kernels {
namespace {
/// The bias of one entry: query position pi, key j.
float entry(double m, int pi, int j, AlibiMode mode) {
  if (mode != AlibiMode::symmetric && j > pi) return -std::numeric_limits<float>::infinity();
  if (mode == AlibiMode::bloom) return static_cast<float>(m * double(j));
  return static_cast<float>(-m * std::fabs(double(pi - j)));
}
}  // namespace

void alibi_bias_scalar(double m, int q_len, int k_len, int offset, AlibiMode mode, float* out) {
  for (int i = 0; i < q_len; ++i)
    for (int j = 0; j < k_len; ++j)
      out[static_cast<std::size_t>(i) * static_cast<std::size_t>(k_len) + static_cast<std::size_t>(j)] =
          entry(m, i + offset, j, mode);
}

void alibi_bias_simd(double m, int q_len, int k_len, int offset, AlibiMode mode, float* out) {
  // Structure instead of arithmetic: every row is copied from one vector w computed once with the scalar twin's
  // entry(). Causal and symmetric depend only on δ = j − (i + offset): w holds all δ and row i is the slice
  // starting at q_len − 1 − i. BLOOM depends on j up to the diagonal: w = [ramp m·j, j < k_len | −∞ × k_len] and
  // row i is the ramp's first i + offset + 1 entries, then −∞.
  const std::size_t K = static_cast<std::size_t>(k_len);
  const bool bloom = mode == AlibiMode::bloom;
  const std::size_t base = bloom ? 0 : static_cast<std::size_t>(q_len - 1 + offset);
  std::vector<float> w(bloom ? 2 * K : base + K);
  for (std::size_t t = 0; t < w.size(); ++t)
    w[t] = bloom ? (t < K ? entry(m, k_len, int(t), mode) : -std::numeric_limits<float>::infinity())
                 : entry(m, int(base), int(t), mode);
  for (int i = 0; i < q_len; ++i) {
    float* row = out + static_cast<std::size_t>(i) * K;
    if (bloom) {
      const std::size_t keep = std::min(K, static_cast<std::size_t>(i + offset) + 1);
      simd::copy(w.data(), row, keep);
      simd::copy(w.data() + K, row + keep, K - keep);
    } else {
      simd::copy(w.data() + (q_len - 1 - i), row, K);
    }
  }
}
}  // namespace kernels
}  // namespace posenc
