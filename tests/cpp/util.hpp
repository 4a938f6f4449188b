// Test helpers: float32 ulp distance against a float64 reference, seeded random vectors.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <limits>
#include <random>
#include <vector>

#include "posenc/error.hpp"

namespace testutil {

/// Spacing of float32 numbers at |x| (the ulp of float(x)).
inline double ulp_at(double x) {
  const float f = std::fabs(static_cast<float>(x));
  return double(std::nextafter(f, std::numeric_limits<float>::infinity())) - double(f);
}

/// Error of a float32 result against a float64 truth, in float32 ulps at the truth.
inline double ulp_error(float got, double truth) { return std::fabs(double(got) - truth) / ulp_at(truth); }

inline std::vector<float> random_vec(std::size_t n, std::uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = u(g);
  return v;
}

inline double dot(const float* a, const float* b, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) s += double(a[i]) * b[i];
  return s;
}

/// Sizes that exercise SIMD bodies and tails: 0, 1, L−1, L, L+1, 4L+3.
inline std::vector<std::size_t> edge_sizes(std::size_t lanes) {
  std::vector<std::size_t> s{0, 1, lanes - 1, lanes, lanes + 1, 4 * lanes + 3};
  if (lanes == 1) s = {0, 1, 2, 7};
  return s;
}
/// The message of the posenc::Error f throws, or "" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const posenc::Error& e) {
    return e.what();
  }
  return "";
}
}  // namespace testutil
