#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;
using testutil::ulp_error;

namespace {
// Tolerances, named once.
constexpr double kPublished4Decimals = 5e-5;  // the seed's table is printed with 4 decimals
constexpr double kTableUlps = 2.0;            // contract: float32 cos/sin within 2 ulp of float64
constexpr double kRoundedUlps = 0.51;         // measured: one rounding of a float64 value good to ~1e-15 (0.5 ulp + ε)
constexpr double kIdentityRel = 2e-5;         // (R_m q)·(R_n k) vs q·(R_{n-m} k), relative to |q||k|

std::vector<float> rotate(const std::vector<float>& x, int seq, int heads, int hd, int rot, RopeLayout layout,
                          double theta, const std::vector<double>& pos) {
  std::vector<float> out(x.size());
  rope_apply_positions(x.data(), out.data(), RopeShape{seq, heads, hd, rot}, layout, theta, pos.data());
  return out;
}

using testutil::error_of;
}  // namespace

TEST_CASE("RoPE tables reproduce the seed's freqs_cis worked example (d = 8, positions 0..2)") {
  // 000_a09f2b82cad2d15c.txt: precompute_freqs_cis(8, 3)
  const double published_re[3][4] = {{1, 1, 1, 1}, {0.5403, 0.9950, 0.9999, 1.0000}, {-0.4161, 0.9801, 0.9998, 1.0000}};
  const double published_im[3][4] = {{0, 0, 0, 0}, {0.8415, 0.0998, 0.0100, 0.0010}, {0.9093, 0.1987, 0.0200, 0.0020}};
  const auto inv = rope_inv_freq(8, 10000.0);
  REQUIRE(inv.size() == 4);
  CHECK(inv[1] == Approx(0.1).epsilon(1e-15));
  const double pos[3] = {0, 1, 2};
  float c[12], s[12];
  rope_tables(inv, pos, 3, c, s);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 4; ++i) {
      CHECK(std::fabs(c[p * 4 + i] - published_re[p][i]) <= kPublished4Decimals);
      CHECK(std::fabs(s[p * 4 + i] - published_im[p][i]) <= kPublished4Decimals);
    }
}

TEST_CASE("RoPE relative-position identity (R_m q)·(R_n k) = q·(R_{n-m} k)") {
  const int d = 64;
  std::mt19937 g(7);
  std::uniform_int_distribution<int> posd(0, 100000);
  for (auto layout : {RopeLayout::interleaved, RopeLayout::half_split}) {
    for (int trial = 0; trial < 50; ++trial) {
      const auto q = testutil::random_vec(d, 100 + trial), k = testutil::random_vec(d, 200 + trial);
      const double m = posd(g), n = posd(g);
      const auto qm = rotate(q, 1, 1, d, d, layout, 10000.0, {m});
      const auto kn = rotate(k, 1, 1, d, d, layout, 10000.0, {n});
      const auto knm = rotate(k, 1, 1, d, d, layout, 10000.0, {n - m});
      const double lhs = testutil::dot(qm.data(), kn.data(), d), rhs = testutil::dot(q.data(), knm.data(), d);
      const double scale = std::sqrt(testutil::dot(q.data(), q.data(), d) * testutil::dot(k.data(), k.data(), d));
      INFO("m=" << m << " n=" << n);
      CHECK(std::fabs(lhs - rhs) <= kIdentityRel * scale);
    }
  }
}

TEST_CASE("Interleaved and half-split layouts agree up to the channel permutation") {
  const int seq = 5, heads = 3, hd = 24;
  for (int rot : {24, 16, 2}) {  // full and partial rotary
    const int half = rot / 2;
    const auto x = testutil::random_vec(std::size_t(seq) * heads * hd, 3);
    // Permute every head: interleaved channel 2i <- half-split channel i, 2i+1 <- i + half.
    std::vector<float> xi(x.size());
    for (int r = 0; r < seq * heads; ++r) {
      for (int i = 0; i < half; ++i) {
        xi[r * hd + 2 * i] = x[r * hd + i];
        xi[r * hd + 2 * i + 1] = x[r * hd + i + half];
      }
      for (int j = rot; j < hd; ++j) xi[r * hd + j] = x[r * hd + j];
    }
    std::vector<double> pos{0, 1, 7, 1000, 65535};
    const auto yh = rotate(x, seq, heads, hd, rot, RopeLayout::half_split, 10000.0, pos);
    const auto yi = rotate(xi, seq, heads, hd, rot, RopeLayout::interleaved, 10000.0, pos);
    for (int r = 0; r < seq * heads; ++r) {
      for (int i = 0; i < half; ++i) {
        CHECK(yi[r * hd + 2 * i] == yh[r * hd + i]);
        CHECK(yi[r * hd + 2 * i + 1] == yh[r * hd + i + half]);
      }
      for (int j = rot; j < hd; ++j) CHECK(yh[r * hd + j] == x[r * hd + j]);  // partial rotary: pass-through
    }
  }
}

TEST_CASE("RoPE tables are within 2 ulp of float64 up to position 2^20") {
  for (double theta : {10000.0, 500000.0}) {
    const auto inv = rope_inv_freq(128, theta);
    std::vector<double> pos;
    for (int p = 0; p <= 4096; ++p) pos.push_back(p);
    std::mt19937 g(11);
    std::uniform_int_distribution<int> big(4097, 1 << 20);
    for (int t = 0; t < 4000; ++t) pos.push_back(big(g));
    pos.push_back(1 << 20);
    pos.push_back(8191);
    std::vector<float> c(pos.size() * 64), s(c.size());
    rope_tables(inv, pos.data(), pos.size(), c.data(), s.data());
    double worst = 0;
    for (std::size_t p = 0; p < pos.size(); ++p)
      for (std::size_t i = 0; i < 64; ++i) {
        const double a = pos[p] * inv[i];
        worst = std::max({worst, ulp_error(c[p * 64 + i], std::cos(a)), ulp_error(s[p * 64 + i], std::sin(a))});
      }
    INFO("theta=" << theta << " worst ulp error " << worst);
    CHECK(worst <= kTableUlps);
  }
}

TEST_CASE("RoPE tables hold 2 ulp where the float64 range reduction is hardest") {
  // Angles right next to multiples of π/2 (cos or sin nearly 0: the reduced argument loses the most digits),
  // around ±π/4 (where the quadrant switches) and across the fast path's limit (|angle| ≈ 1.647e6, larger
  // angles take the full-range reduction), for θ = 1, 0.999, 1.5 and every integer position near them.
  std::vector<double> inv{1.0, 0.999, 1.5, 0.7853981633974483};
  std::vector<double> pos;
  for (double k = 1; k < 1 << 20; k = std::ceil(k * 1.37))
    for (double base : {k * 1.5707963267948966, k * 1.5707963267948966 + 0.7853981633974483})
      for (double dp = -2; dp <= 2; ++dp) pos.push_back(std::round(base) + dp);
  for (double p = 1098066 - 40; p <= 1098066 + 40; ++p) pos.push_back(p);  // 1.5·p crosses 1647099
  pos.push_back(1 << 20);
  pos.push_back(-(1 << 20));
  std::vector<float> c(pos.size() * inv.size()), s(c.size());
  rope_tables(inv, pos.data(), pos.size(), c.data(), s.data());
  double worst = 0;
  for (std::size_t p = 0; p < pos.size(); ++p)
    for (std::size_t i = 0; i < inv.size(); ++i) {
      const double a = pos[p] * inv[i];
      worst = std::max({worst, ulp_error(c[p * inv.size() + i], std::cos(a)), ulp_error(s[p * inv.size() + i], std::sin(a))});
    }
  INFO("worst ulp error " << worst << " over " << pos.size() << " positions");
  CHECK(worst <= kTableUlps);
}

namespace {
// Worst float32 ulp error of angle tables (scale·cos, scale·sin of the float64 product pos·θ) against std::cos/sin.
double worst_table_ulps(const std::vector<double>& inv, const std::vector<double>& pos, double scale) {
  std::vector<float> c(pos.size() * inv.size()), s(c.size());
  kernels::angle_tables_simd(inv.data(), inv.size(), pos.data(), pos.size(), scale, c.data(), s.data(), inv.size());
  double worst = 0;
  for (std::size_t p = 0; p < pos.size(); ++p)
    for (std::size_t i = 0; i < inv.size(); ++i) {
      const double a = pos[p] * inv[i];
      worst = std::max({worst, ulp_error(c[p * inv.size() + i], scale * std::cos(a)),
                        ulp_error(s[p * inv.size() + i], scale * std::sin(a))});
    }
  return worst;
}
}  // namespace

TEST_CASE("RoPE tables of every position 0 … 2^20 (angle addition) are the float64 values rounded once") {
  // Consecutive positions take the angle-addition path: one float64 seed per block, corrected to the float64
  // product pos·θ. θ = 1 and its neighbours put values next to the zeros of cos and sin; 1e-4 and below are the
  // slow frequencies; 9 frequencies give SIMD batches and a scalar tail on every target.
  std::vector<double> inv{1.0, 0.999, 1.5, 0.7853981633974483, 0.1, 3e-2, 1e-4, 1.234e-6, 0.5};
  std::vector<double> pos(std::size_t(1 << 20) + 1);
  for (std::size_t p = 0; p < pos.size(); ++p) pos[p] = double(p);
  const double worst = worst_table_ulps(inv, pos, 1.0);
  INFO("worst " << worst << " ulp");
  CHECK(worst <= kRoundedUlps);
}

TEST_CASE("RoPE tables: runs that start anywhere, broken runs, non-integer and negative positions, scale") {
  std::vector<double> inv = rope_inv_freq(64, 10000.0);
  std::vector<double> pos;
  for (double start : {3.0, 15.0, 16.0, 999999.0, -40.0, 0.5, 1647000.0})  // 1647000·1 is past the fast range
    for (int t = 0; t < 37; ++t) pos.push_back(start + t);
  for (int t = 0; t < 40; ++t) pos.push_back(t % 7 == 3 ? 5.0 : 100.0 + t);  // a run broken every 7 rows
  CHECK(worst_table_ulps(inv, pos, 1.0) <= kRoundedUlps);
  CHECK(worst_table_ulps(inv, pos, 1.3465735902799727) <= kRoundedUlps);  // YaRN-like attention scaling
  CHECK(worst_table_ulps(inv, pos, 0.0) == 0.0);                           // all zeros, no fallback path
}

TEST_CASE("RoPE SIMD kernels equal their scalar twins on edge sizes") {
  const std::size_t L = kernels::simd_float_lanes();
  for (std::size_t half : testutil::edge_sizes(L)) {
    // tables
    std::vector<double> inv(half), pos{0, 1, 3, 12345, 1 << 20};
    for (std::size_t i = 0; i < half; ++i) inv[i] = std::pow(10000.0, -2.0 * double(i) / double(2 * half + 2));
    std::vector<float> c1(pos.size() * half), s1(c1.size()), c2(c1.size()), s2(c1.size());
    kernels::rope_tables_simd(inv.data(), half, pos.data(), pos.size(), c1.data(), s1.data());
    kernels::rope_tables_scalar(inv.data(), half, pos.data(), pos.size(), c2.data(), s2.data());
    for (std::size_t i = 0; i < c1.size(); ++i) {
      CHECK(std::fabs(c1[i] - c2[i]) <= testutil::ulp_at(c2[i]));  // float64 sincos may differ by 1 rounding
      CHECK(std::fabs(s1[i] - s2[i]) <= testutil::ulp_at(s2[i]));
    }
    if (half == 0) continue;
    // apply: rotary_dim = 2·half, plus 3 pass-through channels, 2 heads, 5 rows
    const int rot = int(2 * half), hd = rot + 3;
    const RopeShape shape{5, 2, hd, rot};
    const auto x = testutil::random_vec(std::size_t(5 * 2 * hd), 5);
    std::vector<float> ct(5 * half), st(5 * half);
    kernels::rope_tables_scalar(inv.data(), half, pos.data(), 5, ct.data(), st.data());
    for (auto layout : {RopeLayout::interleaved, RopeLayout::half_split}) {
      std::vector<float> a(x.size()), b(x.size()), inplace = x;
      kernels::rope_apply_simd(x.data(), a.data(), shape, layout, ct.data(), st.data());
      kernels::rope_apply_scalar(x.data(), b.data(), shape, layout, ct.data(), st.data());
      rope_apply(inplace.data(), inplace.data(), shape, layout, ct.data(), st.data());
      INFO("half=" << half << " layout=" << int(layout));
      CHECK(a == b);
      CHECK(inplace == b);
    }
  }
}

TEST_CASE("RoPE rejects bad input with the parameter's name") {
  std::vector<float> buf(64);
  CHECK(error_of([] { rope_inv_freq(7, 10000); }).rfind("rotary_dim: must be even", 0) == 0);
  CHECK(error_of([] { rope_inv_freq(0, 10000); }).rfind("rotary_dim:", 0) == 0);
  CHECK(error_of([] { rope_inv_freq(8, std::nan("")); }).rfind("rope_theta: must be a finite number > 0", 0) == 0);
  CHECK(error_of([] { rope_inv_freq(8, -1); }).rfind("rope_theta:", 0) == 0);
  // a base below 1 raises the frequencies: θ^(−(d−2)/d) past 1e6 rad per position is refused (5e-324 overflowed to ±Inf)
  CHECK(error_of([] { rope_inv_freq(8, 5e-324); }).rfind("rope_theta: the largest frequency rope_theta^(-(d-2)/d) must be <= 1e6", 0) == 0);
  CHECK(rope_inv_freq(8, 0.5)[3] == std::pow(0.5, -0.75));
  CHECK(rope_inv_freq(8, std::pow(1e6, -8.0 / 6.0) * (1 + 1e-9))[3] <= 1e6);
  CHECK(error_of([&] { rope_apply_positions(buf.data(), buf.data(), {0, 1, 0, 0}, RopeLayout::half_split, 1e4, nullptr); })
            .rfind("head_dim:", 0) == 0);
  CHECK(error_of([&] { rope_apply_positions(buf.data(), buf.data(), {2, 0, 8, 0}, RopeLayout::half_split, 1e4, nullptr); })
            .rfind("heads:", 0) == 0);
  CHECK(error_of([&] { rope_apply_positions(buf.data(), buf.data(), {2, 1, 8, 10}, RopeLayout::half_split, 1e4, nullptr); })
            .rfind("rotary_dim:", 0) == 0);
  CHECK(error_of([&] { rope_apply_positions(buf.data(), buf.data(), {1 << 20, 1024, 128, 0}, RopeLayout::half_split, 1e4, nullptr); })
            .find("exceeds the cap") != std::string::npos);
  const double bad[1] = {std::nan("")};
  float c[4], s[4];
  CHECK(error_of([&] { rope_tables(rope_inv_freq(8, 1e4), bad, 1, c, s); }).rfind("positions:", 0) == 0);
}
