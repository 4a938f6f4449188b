#include <catch2/catch.hpp>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kTableUlps = 2.0;          // float64 angle, sin/cos rounded once to float32
constexpr double kRecursionAbs = 1e-11;     // float64 recursion drift on top of the final float32 rounding
constexpr double kSimdAbs = 1e-12;          // xsimd sincos vs std::sin/cos before rounding: ≤ 1 ulp apart after
}  // namespace

TEST_CASE("t2t sinusoid: frequencies 10000^(-i/(h-1)), [sin | cos] halves") {
  for (int d : {16, 17, 2, 3}) {
    const int h = d / 2;
    const auto pe = sinusoid_t2t(40, d);
    for (int pos = 0; pos < 40; ++pos) {
      for (int i = 0; i < h; ++i) {
        // closed form written independently: 10000^(−i/(h−1)); h = 1 gives timescale 1 (t2t's max(h−1, 1))
        const double w = h > 1 ? std::pow(10000.0, -double(i) / (h - 1)) : 1.0;
        CHECK(testutil::ulp_error(pe[pos * d + i], std::sin(pos * w)) <= kTableUlps);
        CHECK(testutil::ulp_error(pe[pos * d + h + i], std::cos(pos * w)) <= kTableUlps);
      }
      if (d % 2 == 1) CHECK(pe[pos * d + d - 1] == 0.f);
    }
  }
  // t2t multiplies by min_timescale: ω runs from min down to min·(min/max) (1 … 1/10000 for the defaults)
  const auto w = t2t_inv_timescales(64, 2.0, 5000.0);
  CHECK(w.front() == Approx(2.0).epsilon(1e-15));
  CHECK(w.back() == Approx(2.0 * 2.0 / 5000.0).epsilon(1e-13));
  const auto w1 = t2t_inv_timescales(64);
  CHECK(w1.back() == Approx(1e-4).epsilon(1e-13));
}

TEST_CASE("t2t sinusoid: explicit positions, SIMD equals scalar twin") {
  for (std::size_t d : testutil::edge_sizes(kernels::simd_float_lanes())) {
    if (d == 0) continue;
    for (std::size_t dd : {2 * d, 2 * d + 1}) {
      const auto omega = t2t_inv_timescales(int(dd));
      std::vector<double> pos{0, -3, 1234.5, 1 << 20};
      std::vector<float> a(pos.size() * dd), b(a.size());
      kernels::sinusoid_t2t_simd(pos.data(), pos.size(), int(dd), omega.data(), a.data());
      kernels::sinusoid_t2t_scalar(pos.data(), pos.size(), int(dd), omega.data(), b.data());
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(a[i] - b[i]) <= testutil::ulp_at(b[i]) + kSimdAbs);
    }
  }
}

TEST_CASE("t2t sinusoid: long runs of positions (angle addition) hold the table accuracy against float64") {
  for (int d : {64, 63}) {
    const int h = d / 2, n = 8192;
    const auto pe = sinusoid_t2t(std::size_t(n), d);
    double worst = 0;
    for (int pos = 0; pos < n; ++pos)
      for (int i = 0; i < h; ++i) {
        const double w = std::pow(10000.0, -double(i) / (h - 1));
        worst = std::max({worst, testutil::ulp_error(pe[std::size_t(pos) * d + i], std::sin(pos * w)),
                          testutil::ulp_error(pe[std::size_t(pos) * d + h + i], std::cos(pos * w))});
      }
    CHECK(worst <= kTableUlps);
  }
}

TEST_CASE("Recursive sinusoid p_{k+1} = R p_k equals the closed form") {
  for (auto layout : {SinusoidalLayout::interleaved, SinusoidalLayout::concatenated}) {
    const int d = 32, n = 4096;
    const auto rec = sinusoid_recursive(n, d, 10000.0, layout);
    const auto closed = sinusoidal_table(n, d, 10000.0, layout);
    double worst = 0;
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < d / 2; ++i) {
        const double w = std::pow(10000.0, -2.0 * i / d);
        const int sc = layout == SinusoidalLayout::interleaved ? 2 * i : i;
        const int cc = layout == SinusoidalLayout::interleaved ? 2 * i + 1 : d / 2 + i;
        const double ts = std::sin(k * w), tc = std::cos(k * w);
        const double es = std::fabs(rec[k * d + sc] - ts) - testutil::ulp_at(ts);
        const double ec = std::fabs(rec[k * d + cc] - tc) - testutil::ulp_at(tc);
        worst = std::max({worst, es, ec});
        CHECK(std::fabs(double(rec[k * d + sc]) - closed[k * d + sc]) <= 2 * testutil::ulp_at(ts) + kRecursionAbs);
      }
    CHECK(worst <= kRecursionAbs);
    // R itself: one step of R from PE(5) gives PE(6) (float64 matrix–vector product)
    const auto R = sinusoid_rotation_matrix(d, 10000.0, layout);
    for (int r = 0; r < d; ++r) {
      double acc = 0;
      for (int c = 0; c < d; ++c) acc += R[r * d + c] * double(closed[5 * d + c]);
      CHECK(acc == Approx(closed[6 * d + r]).margin(1e-6));
    }
  }
  CHECK_THROWS_WITH(sinusoid_recursive(4, 7), Catch::StartsWith("d: must be even (got 7)"));
  CHECK_THROWS_WITH(sinusoid_rotation_matrix(0), Catch::StartsWith("d: must be an integer in [2, 8192]"));
}

TEST_CASE("Multiplicative PE is the elementwise product; SIMD equals scalar exactly") {
  for (std::size_t n : testutil::edge_sizes(kernels::simd_float_lanes())) {
    const auto x = testutil::random_vec(n, 7), p = testutil::random_vec(n, 8);
    std::vector<float> a(n), b(n);
    multiplicative_pe(x.data(), p.data(), n, a.data());
    kernels::multiply_scalar(x.data(), p.data(), n, b.data());
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(a[i] == b[i]);
      CHECK(a[i] == static_cast<float>(double(x[i]) * double(p[i])));  // one correctly rounded product
    }
  }
}

TEST_CASE("dot_rows SIMD kernel equals its scalar twin and float64") {
  for (std::size_t d : testutil::edge_sizes(kernels::simd_float_lanes())) {
    if (d == 0) continue;
    const auto a = testutil::random_vec(5 * d, 1), b = testutil::random_vec(3 * d, 2);
    std::vector<float> s(15), t(15);
    kernels::dot_rows_simd(a.data(), 5, b.data(), 3, d, 0.5f, s.data());
    kernels::dot_rows_scalar(a.data(), 5, b.data(), 3, d, 0.5f, t.data());
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 3; ++j) {
        const double ref = 0.5 * testutil::dot(&a[i * d], &b[j * d], d);
        CHECK(s[i * 3 + j] == Approx(ref).margin(1e-5 * d));
        CHECK(t[i * 3 + j] == Approx(ref).margin(1e-5 * d));
      }
  }
}

TEST_CASE("t2t sinusoid rejects bad input") {
  CHECK_THROWS_WITH(sinusoid_t2t(4, 0), Catch::StartsWith("d: must be an integer in [1, 8192] (got 0)"));
  CHECK_THROWS_WITH(sinusoid_t2t(4, 8, 0.0), Catch::StartsWith("min_timescale: must be a finite number > 0"));
  CHECK_THROWS_WITH(sinusoid_t2t(4, 8, 1.0, std::nan("")), Catch::StartsWith("max_timescale:"));
}

TEST_CASE("t2t sinusoid at extreme timescales: finite, or refused (issue 15)") {
  // min_timescale 5e-324 made max/min overflow: inc = ∞ and ω_0 = min·exp(−0·∞) = NaN.
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{5e-324, 1e4}, {1e-300, 1.7e308}, {5e-324, 1.7e308},
                                                                     {1e150, 1e4}, {1e-10, 1e-300}}) {
    INFO(lo << " " << hi);
    const auto w = t2t_inv_timescales(8, lo, hi);
    for (double x : w) CHECK(std::isfinite(x));
    // ω runs from min to min²/max (long double has the range to form min² exactly enough)
    CHECK(w.front() == Approx(lo).epsilon(1e-12).margin(1e-320));
    CHECK(w.back() == Approx(double((long double)lo * lo / hi)).epsilon(1e-12).margin(1e-320));
    std::vector<double> pos{0, 1, 2, -2147483647.0, 2147483647.0};
    std::vector<float> out(pos.size() * 8);
    sinusoid_t2t(pos.data(), pos.size(), 8, lo, hi, out.data());
    for (float x : out) CHECK(std::isfinite(x));
  }
  CHECK(sinusoid_t2t(3, 8, 5e-324)[0] == 0.f);  // sin(0·ω_0)
  // min²/max beyond 1e298: the angle pos·ω would overflow at long positions, refused.
  CHECK_THROWS_WITH(t2t_inv_timescales(8, 1e300, 1e-300), Catch::StartsWith("min_timescale: the largest frequency"));
  CHECK_THROWS_WITH(t2t_inv_timescales(8, 1.0, 5e-324), Catch::StartsWith("min_timescale:"));
  // (fuzz finding) ω_0 = min_timescale itself beyond 1e298: 1e300·2^31 overflowed to ∞, sin ∞ = NaN.
  CHECK_THROWS_WITH(t2t_inv_timescales(29, 1e300, 1.7976931348623157e308), Catch::StartsWith("min_timescale: the largest frequency"));
  CHECK_THROWS_WITH(t2t_inv_timescales(2, 1e300, 1e300), Catch::StartsWith("min_timescale: the largest frequency"));
  // The recursive sinusoid's base: base^(−(d−2)/d) overflowed to ∞ (cos ∞ = NaN) for tiny bases.
  CHECK_THROWS_WITH(sinusoid_recursive(4, 8192, 5e-324), Catch::StartsWith("base: the largest frequency"));
  for (float x : sinusoid_recursive(4, 8, 1e-300)) CHECK(std::isfinite(x));
  std::vector<double> pos{0, std::nan("")};
  std::vector<float> out(16);
  CHECK_THROWS_WITH(sinusoid_t2t(pos.data(), 2, 8, 1.0, 1e4, out.data()), Catch::StartsWith("positions:"));
}
