#include <catch2/catch.hpp>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kTableUlps = 2.0;  // contract: within 2 ulp of the float64 value
}

TEST_CASE("Sinusoidal PE equals the closed form, interleaved layout") {
  const int d = 16;
  const auto pe = sinusoidal_table(50, d);
  for (int pos = 0; pos < 50; ++pos)
    for (int i = 0; i < d / 2; ++i) {
      const double w = 1.0 / std::pow(10000.0, 2.0 * i / d);
      CHECK(testutil::ulp_error(pe[pos * d + 2 * i], std::sin(pos * w)) <= kTableUlps);
      CHECK(testutil::ulp_error(pe[pos * d + 2 * i + 1], std::cos(pos * w)) <= kTableUlps);
    }
  // Known values: PE(1, 0) = sin 1, PE(1, 1) = cos 1, PE(2, 2) = sin(2·10000^(-2/16)) = sin(2/√(√(√10000)))
  CHECK(pe[1 * d + 0] == Approx(0.8414709848).margin(1e-7));
  CHECK(pe[1 * d + 1] == Approx(0.5403023059).margin(1e-7));
  CHECK(pe[2 * d + 2] == Approx(std::sin(2.0 / std::sqrt(10.0))).margin(1e-7));
}

TEST_CASE("Sinusoidal layouts are a permutation of each other; odd d keeps the last sine") {
  for (int d : {8, 9, 1}) {
    const auto a = sinusoidal_table(20, d, 10000.0, SinusoidalLayout::interleaved);
    const auto b = sinusoidal_table(20, d, 10000.0, SinusoidalLayout::concatenated);
    const int ns = (d + 1) / 2;
    for (int p = 0; p < 20; ++p) {
      for (int c = 0; c < d; ++c) {
        const int i = c / 2;
        const float expected = (c % 2 == 0) ? b[p * d + i] : b[p * d + ns + i];
        CHECK(a[p * d + c] == expected);
      }
      if (d % 2 == 1) CHECK(a[p * d + d - 1] == Approx(std::sin(p * std::pow(10000.0, -double(d - 1) / d))).margin(1e-7));
    }
  }
}

TEST_CASE("Sinusoidal dot product depends only on the offset, and stays within 2 ulp to 2^20") {
  const int d = 64;
  std::vector<double> pos{0, 5, 100, 105, 1 << 20, (1 << 20) - 100};
  std::vector<float> pe(pos.size() * d);
  sinusoidal_table(pos.data(), pos.size(), d, 10000.0, SinusoidalLayout::interleaved, pe.data());
  // PE(a)·PE(b) = Σ_i cos((a−b)·ω_i)
  const double d05 = testutil::dot(&pe[0 * d], &pe[1 * d], d), d100 = testutil::dot(&pe[2 * d], &pe[3 * d], d);
  CHECK(d05 == Approx(d100).margin(1e-5));
  double closed = 0;
  for (int i = 0; i < d / 2; ++i) closed += std::cos(5.0 * std::pow(10000.0, -2.0 * i / d));
  CHECK(d05 == Approx(closed).margin(1e-5));
  CHECK(testutil::dot(&pe[4 * d], &pe[5 * d], d) == Approx(testutil::dot(&pe[2 * d], &pe[0 * d], d)).margin(1e-5));
  for (std::size_t p = 0; p < pos.size(); ++p)
    for (int i = 0; i < d / 2; ++i) {
      const double a = pos[p] * std::pow(10000.0, -2.0 * i / d);
      CHECK(testutil::ulp_error(pe[p * d + 2 * i], std::sin(a)) <= kTableUlps);
    }
}

TEST_CASE("Sinusoidal SIMD kernel equals its scalar twin on edge sizes") {
  for (std::size_t d : testutil::edge_sizes(kernels::simd_float_lanes())) {
    if (d == 0) continue;
    for (auto layout : {SinusoidalLayout::interleaved, SinusoidalLayout::concatenated}) {
      std::vector<double> pos{0, 3, 777, 1 << 20};
      std::vector<float> a(pos.size() * d), b(a.size());
      kernels::sinusoidal_simd(pos.data(), pos.size(), int(d), 10000.0, layout, a.data());
      kernels::sinusoidal_scalar(pos.data(), pos.size(), int(d), 10000.0, layout, b.data());
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(a[i] - b[i]) <= testutil::ulp_at(b[i]));
    }
  }
}

TEST_CASE("Sinusoidal rows by angle addition, both layouts and odd d, are the float64 values rounded once") {
  const std::size_t n = 70000;  // every position: the angle-addition path; its blocks, tail rows and SIMD tails
  for (int d : {9, 24})
    for (auto layout : {SinusoidalLayout::interleaved, SinusoidalLayout::concatenated}) {
      const auto pe = sinusoidal_table(n, d, 10000.0, layout);
      const int ns = (d + 1) / 2, nc = d / 2;
      double worst = 0;
      for (std::size_t p = 0; p < n; ++p)
        for (int i = 0; i < ns; ++i) {
          const double a = double(p) * std::pow(10000.0, -2.0 * i / d);
          const bool inter = layout == SinusoidalLayout::interleaved;
          worst = std::max(worst, testutil::ulp_error(pe[p * d + std::size_t(inter ? 2 * i : i)], std::sin(a)));
          if (i < nc) worst = std::max(worst, testutil::ulp_error(pe[p * d + std::size_t(inter ? 2 * i + 1 : ns + i)], std::cos(a)));
        }
      INFO("d " << d << " worst " << worst << " ulp");
      CHECK(worst <= 0.51);  // measured bound of the angle kernel (see test_rope.cpp)
    }
}

TEST_CASE("Sinusoidal rejects bad input") {
  CHECK_THROWS_WITH(sinusoidal_table(4, 0), Catch::StartsWith("d: must be an integer in [1, 8192]"));
  CHECK_THROWS_WITH(sinusoidal_table(4, 8, 0.0), Catch::StartsWith("base: must be a finite number > 0"));
  CHECK_THROWS_WITH(sinusoidal_table(4, 8, std::nan("")), Catch::StartsWith("base:"));
  CHECK_THROWS_WITH(sinusoidal_table(1 << 20, 8192), Catch::StartsWith("n_positions*d:"));
}

TEST_CASE("Sinusoidal rows 0 … 2^20−1 (angle-addition path) stay within 2 ulp of float64") {
  const std::size_t n = 1 << 20;
  const int d = 8;
  const auto pe = sinusoidal_table(n, d, 10000.0, SinusoidalLayout::concatenated);
  double worst = 0;
  for (std::size_t p = 0; p < n; p += (p < 4096 ? 1 : 997)) {
    for (int i = 0; i < d / 2; ++i) {
      const double a = double(p) * std::pow(10000.0, -2.0 * i / d);
      worst = std::max({worst, testutil::ulp_error(pe[p * d + std::size_t(i)], std::sin(a)),
                        testutil::ulp_error(pe[p * d + std::size_t(d / 2 + i)], std::cos(a))});
    }
  }
  INFO("worst " << worst << " ulp");
  CHECK(worst <= kTableUlps);
}
