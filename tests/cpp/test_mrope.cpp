#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kTableUlps = 2.0;
using testutil::error_of;
}  // namespace

TEST_CASE("M-RoPE (Qwen2-VL, mrope_section [16, 24, 24]): each frequency follows its stream") {
  const auto inv = rope_inv_freq(128, 1e6);
  const std::vector<double> t{0, 3, 3, 3, 7}, h{0, 3, 3, 4, 7}, w{0, 3, 4, 5, 7};
  std::vector<float> c(5 * 64), s(c.size());
  mrope_tables(inv, {16, 24, 24}, t.data(), h.data(), w.data(), 5, c.data(), s.data());
  double worst = 0;
  for (int p = 0; p < 5; ++p)
    for (int i = 0; i < 64; ++i) {
      const double pos = i < 16 ? t[p] : i < 40 ? h[p] : w[p];
      const double a = pos * std::pow(1e6, -2.0 * i / 128);
      worst = std::max({worst, testutil::ulp_error(c[p * 64 + i], std::cos(a)),
                        testutil::ulp_error(s[p * 64 + i], std::sin(a))});
    }
  CHECK(worst <= kTableUlps);
  // Text tokens (t = h = w) reduce to plain RoPE.
  std::vector<float> c2(5 * 64), s2(c2.size());
  rope_tables(inv, t.data(), 5, c2.data(), s2.data());
  for (int i = 0; i < 64; ++i) CHECK(c[i] == c2[i]);
  for (int i = 0; i < 64; ++i) CHECK(c[4 * 64 + i] == c2[4 * 64 + i]);
}

TEST_CASE("2D axial RoPE (Qwen2-VL vision): [h·φ, w·φ] with φ_k = θ^(-2k/(d/2))") {
  std::vector<double> ph, pw;
  axial2d_grid(3, 4, ph, pw);
  REQUIRE(ph.size() == 12);
  CHECK(ph[5] == 1);
  CHECK(pw[5] == 1);
  CHECK(ph[11] == 2);
  CHECK(pw[11] == 3);
  const int d = 32;  // q = 8 frequencies per axis
  std::vector<float> c(12 * 16), s(c.size());
  axial2d_tables(d, 10000, ph.data(), pw.data(), 12, c.data(), s.data());
  double worst = 0;
  for (int p = 0; p < 12; ++p)
    for (int k = 0; k < 8; ++k) {
      const double phi = std::pow(10000.0, -2.0 * k / 16.0);
      worst = std::max({worst, testutil::ulp_error(c[p * 16 + k], std::cos(ph[p] * phi)),
                        testutil::ulp_error(s[p * 16 + 8 + k], std::sin(pw[p] * phi))});
    }
  CHECK(worst <= kTableUlps);
  // Relative in both axes: scores of patches (r1,c1),(r2,c2) depend only on (r1−r2, c1−c2).
  const auto q = testutil::random_vec(d, 1), k = testutil::random_vec(d, 2);
  auto score = [&](double r1, double c1, double r2, double c2) {
    float cq[16], sq[16], ck[16], sk[16];
    axial2d_tables(d, 10000, &r1, &c1, 1, cq, sq);
    axial2d_tables(d, 10000, &r2, &c2, 1, ck, sk);
    std::vector<float> a(d), b(d);
    rope_apply(q.data(), a.data(), RopeShape{1, 1, d, d}, RopeLayout::half_split, cq, sq);
    rope_apply(k.data(), b.data(), RopeShape{1, 1, d, d}, RopeLayout::half_split, ck, sk);
    return testutil::dot(a.data(), b.data(), d);
  };
  CHECK(score(5, 2, 1, 7) == Approx(score(105, 40, 101, 45)).margin(2e-5));
}

TEST_CASE("M-RoPE and axial RoPE reject bad input") {
  const double p[1] = {0};
  float c[64], s[64];
  CHECK(error_of([&] { mrope_tables(rope_inv_freq(128, 1e4), {16, 24, 23}, p, p, p, 1, c, s); })
            .rfind("mrope_section: sections must sum to rotary_dim/2 = 64", 0) == 0);
  CHECK(error_of([&] { mrope_tables(rope_inv_freq(8, 1e4), {-1, 3, 2}, p, p, p, 1, c, s); }).rfind("mrope_section:", 0) == 0);
  CHECK(error_of([&] { axial2d_tables(30, 1e4, p, p, 1, c, s); }).rfind("rotary_dim: must be a multiple of 4", 0) == 0);
  const double bad[1] = {INFINITY};
  CHECK(error_of([&] { axial2d_tables(32, 1e4, p, bad, 1, c, s); }).rfind("positions_w:", 0) == 0);
}
