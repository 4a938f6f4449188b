#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kTableUlps = 2.0;     // accuracy contract for ζ^e·cos, ζ^e·sin
constexpr double kRelativeRel = 2e-5;  // score(m, n) vs score(m+Δ, n+Δ), relative to |q||k|
using testutil::error_of;
}  // namespace

TEST_CASE("xPos ζ_i = (2i + γd)/((1+γ)d), γ = 0.4") {
  const auto z = xpos_zeta(64);
  REQUIRE(z.size() == 32);
  CHECK(z[0] == Approx(0.4 / 1.4).epsilon(1e-15));
  for (int i = 0; i < 32; ++i) CHECK(z[i] == Approx((2.0 * i + 25.6) / 89.6).epsilon(1e-15));
  CHECK(z[31] < 1.0);
}

TEST_CASE("xPos tables: float64 ζ^(c/512)·cos within 2 ulp") {
  const int d = 64;
  std::vector<double> pos, cen;
  for (int p = 0; p < 2048; ++p) pos.push_back(p), cen.push_back(p - 1024);
  pos.push_back(1 << 20), cen.push_back(0);
  std::vector<float> c(pos.size() * 32), s(c.size());
  for (bool down : {false, true}) {
    xpos_tables(d, XposOptions{}, pos.data(), cen.data(), pos.size(), down, c.data(), s.data());
    double worst = 0;
    for (std::size_t p = 0; p < pos.size(); ++p)
      for (int i = 0; i < 32; ++i) {
        const double zeta = (2.0 * i + 0.4 * d) / (1.4 * d);
        const double sc = std::pow(zeta, (down ? -cen[p] : cen[p]) / 512.0);
        const double a = pos[p] * std::pow(10000.0, -2.0 * i / d);
        worst = std::max({worst, testutil::ulp_error(c[p * 32 + i], sc * std::cos(a)),
                          testutil::ulp_error(s[p * 32 + i], sc * std::sin(a))});
      }
    INFO("worst " << worst);
    CHECK(worst <= kTableUlps);
  }
}

TEST_CASE("xPos apply follows torchscale: centred scale exponent, interleaved rotation") {
  const int seq = 5, offset = 2, d = 8;  // torchscale: L = 7, min_pos = -(7)//2 = -4
  const auto x = testutil::random_vec(std::size_t(seq) * d, 31);
  std::vector<float> y(x.size());
  xpos_apply(x.data(), y.data(), RopeShape{seq, 1, d, 0}, offset, false, XposOptions{});
  for (int r = 0; r < seq; ++r) {
    const double p = offset + r, c = p - 4;
    for (int i = 0; i < d / 2; ++i) {
      const double sc = std::pow((2.0 * i + 0.4 * d) / (1.4 * d), c / 512.0);
      const double a = p * std::pow(10000.0, -2.0 * i / d);
      const double x0 = x[r * d + 2 * i], x1 = x[r * d + 2 * i + 1];
      CHECK(y[r * d + 2 * i] == Approx(sc * (x0 * std::cos(a) - x1 * std::sin(a))).margin(1e-6));
      CHECK(y[r * d + 2 * i + 1] == Approx(sc * (x1 * std::cos(a) + x0 * std::sin(a))).margin(1e-6));
    }
  }
}

TEST_CASE("xPos relative property: q (upscaled) · k (downscaled) depends only on the offset m − n") {
  const int d = 32;
  const auto q = testutil::random_vec(d, 41), k = testutil::random_vec(d, 42);
  auto score = [&](double m, double n) {
    float cq[16], sq[16], ck[16], sk[16];
    xpos_tables(d, XposOptions{}, &m, &m, 1, false, cq, sq);
    xpos_tables(d, XposOptions{}, &n, &n, 1, true, ck, sk);
    std::vector<float> qr(d), kr(d);
    rope_apply(q.data(), qr.data(), RopeShape{1, 1, d, d}, RopeLayout::interleaved, cq, sq);
    rope_apply(k.data(), kr.data(), RopeShape{1, 1, d, d}, RopeLayout::interleaved, ck, sk);
    return testutil::dot(qr.data(), kr.data(), d);
  };
  const double scale = std::sqrt(testutil::dot(q.data(), q.data(), d) * testutil::dot(k.data(), k.data(), d));
  for (double delta : {0.0, 1.0, 17.0, 300.0})
    for (double shift : {-200.0, -3.0, 5.0, 400.0}) {
      INFO("delta " << delta << " shift " << shift);
      CHECK(std::fabs(score(10 + delta, 10) - score(10 + delta + shift, 10 + shift)) <= kRelativeRel * scale);
    }
  // and it decays: the scaled-pair magnitudes shrink with distance (ζ < 1)
  float c1[16], s1[16];
  const double far = 2048;
  xpos_tables(d, XposOptions{}, &far, &far, 1, false, c1, s1);
  CHECK(std::hypot(c1[0], s1[0]) < 1.0);
}

TEST_CASE("xPos SIMD kernel equals its scalar twin") {
  for (std::size_t h : testutil::edge_sizes(kernels::simd_float_lanes())) {
    std::vector<double> inv(h), lz(h), pos{0, 3, 999, 1 << 20}, ex{-2.0, 0.0, 0.5, 1.0};
    for (std::size_t i = 0; i < h; ++i) inv[i] = std::pow(1e4, -double(i) / double(h + 1)), lz[i] = -0.1 * double(i + 1);
    std::vector<float> c1(pos.size() * h), s1(c1.size()), c2(c1.size()), s2(c1.size());
    kernels::xpos_tables_simd(inv.data(), lz.data(), h, pos.data(), ex.data(), pos.size(), c1.data(), s1.data());
    kernels::xpos_tables_scalar(inv.data(), lz.data(), h, pos.data(), ex.data(), pos.size(), c2.data(), s2.data());
    for (std::size_t k = 0; k < c1.size(); ++k) {
      CHECK(std::fabs(c1[k] - c2[k]) <= 2 * testutil::ulp_at(c2[k]));
      CHECK(std::fabs(s1[k] - s2[k]) <= 2 * testutil::ulp_at(s2[k]));
    }
  }
}

TEST_CASE("xPos rejects bad input") {
  std::vector<float> buf(64);
  CHECK(error_of([] { xpos_zeta(7); }).rfind("rotary_dim: must be even (got 7)", 0) == 0);
  XposOptions o;
  o.scale_base = 0;
  CHECK(error_of([&] { xpos_apply(buf.data(), buf.data(), RopeShape{2, 1, 8, 0}, 0, false, o); }).rfind("scale_base:", 0) == 0);
  CHECK(error_of([&] { xpos_apply(buf.data(), buf.data(), RopeShape{2, 1, 8, 0}, -1, false, XposOptions{}); }).rfind("offset:", 0) == 0);
}

TEST_CASE("xPos at long positions: finite within the stated range, refused beyond it (issue 15)") {
  const int d = 128;
  const XposOptions o;
  // |c| ≤ 64·ln2·512/ln(3.5) = 18130.5 for the defaults (ζ_0 = 0.4/1.4)
  CHECK(xpos_max_centred(d, o) == Approx(64 * std::log(2.0) * 512 / std::log(3.5)).epsilon(1e-14));
  std::vector<double> pos{100000, 100000, 65536, 0}, cen{18130, -18130, 18130, -18130};
  std::vector<float> c(pos.size() * 64), s(c.size());
  for (bool down : {false, true}) {
    xpos_tables(d, o, pos.data(), cen.data(), pos.size(), down, c.data(), s.data());
    for (std::size_t k = 0; k < c.size(); ++k) {
      const double mag = std::hypot(double(c[k]), double(s[k]));  // = the scale ζ_i^(±c/512)
      CHECK(std::isfinite(mag));
      CHECK(mag <= std::ldexp(1.0, 64) * (1 + 1e-6));
      CHECK(mag >= std::ldexp(1.0, -64) * (1 - 1e-6));
    }
  }
  // Before: ζ_0^(−100000/512) = 3.5^195 overflowed float32 to ±∞ (positions used as centred).
  const double far = 100000;
  CHECK(error_of([&] { xpos_tables(d, o, &far, &far, 1, true, c.data(), s.data()); })
            .rfind("centred: |centred position| must be <= 18130 for scale_base 512", 0) == 0);
  // Default centring of [100000] alone: c = 100000 − 50001 = 49999, still beyond.
  CHECK(error_of([&] { xpos_tables(d, o, &far, nullptr, 1, true, c.data(), s.data()); }).rfind("centred:", 0) == 0);
  // xpos_apply with offset 1e5 gave 46,696 non-finite values; now refused, and finite at the edge seq + offset = 36260.
  std::vector<float> x(std::size_t(4) * d, 1.f), y(x.size());
  CHECK(error_of([&] { xpos_apply(x.data(), y.data(), RopeShape{4, 1, d, 0}, 100000, true, o); })
            .rfind("offset: seq + offset must be <= 36260", 0) == 0);
  CHECK(error_of([&] { xpos_apply(x.data(), y.data(), RopeShape{4, 1, d, 0}, 36257, true, o); }).rfind("offset:", 0) == 0);
  for (bool down : {false, true}) {
    xpos_apply(x.data(), y.data(), RopeShape{4, 1, d, 0}, 36256, down, o);
    for (float v : y) CHECK(std::isfinite(v));
  }
  // A larger scale_base widens the range proportionally.
  XposOptions wide;
  wide.scale_base = 4096;
  xpos_apply(x.data(), y.data(), RopeShape{4, 1, d, 0}, 100000, true, wide);
  for (float v : y) CHECK(std::isfinite(v));
}

TEST_CASE("xPos extreme gamma and rope_theta: finite or refused (issue 15)") {
  for (double g : {1.7e308, 1e-300}) {
    const auto z = xpos_zeta(8, g);
    for (std::size_t i = 0; i < z.size(); ++i) {
      CHECK(std::isfinite(z[i]));
      CHECK(z[i] == Approx((2.0 * double(i) / 8 + g) / (1 + g)).epsilon(1e-15));
    }
  }
  CHECK(xpos_zeta(8, 1.7e308)[0] == 1.0);  // (γ·d overflowed: ∞/∞ = NaN)
  XposOptions tiny;
  tiny.rope_theta = 5e-324;
  std::vector<float> c(4096), s(4096);
  const double p = 1;
  CHECK(error_of([&] { xpos_tables(8192, tiny, &p, &p, 1, false, c.data(), s.data()); }).rfind("rope_theta: the largest frequency", 0) == 0);
}

TEST_CASE("xPos tables centre like xpos_apply by default") {
  const int seq = 6, offset = 5, d = 16;
  const auto x = testutil::random_vec(std::size_t(seq) * 2 * d, 77);
  std::vector<double> pos;
  for (int r = 0; r < seq; ++r) pos.push_back(offset + r);
  // torchscale: L = 11, min_pos = −(11)//2 = −6
  const auto cen = xpos_centre(pos.data(), pos.size());
  for (int r = 0; r < seq; ++r) CHECK(cen[std::size_t(r)] == offset + r - 6);
  for (bool down : {false, true}) {
    std::vector<float> c(std::size_t(seq) * d / 2), s(c.size()), a(x.size()), b(x.size());
    xpos_tables(d, XposOptions{}, pos.data(), nullptr, pos.size(), down, c.data(), s.data());
    rope_apply(x.data(), a.data(), RopeShape{seq, 2, d, d}, RopeLayout::interleaved, c.data(), s.data());
    xpos_apply(x.data(), b.data(), RopeShape{seq, 2, d, 0}, offset, down, XposOptions{});
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k] == b[k]);
  }
}
