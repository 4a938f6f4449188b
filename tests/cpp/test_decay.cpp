#include <catch2/catch.hpp>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kSweepRel = 1e-5;   // relative to Σ|h_i|
constexpr double kBoundAbs = 1e-5;   // bound values are O(1): relative to d/2 after the 1/(d/2) factor

/// float64 direct: ⟨R_m q, R_n k⟩ by rotating explicitly (interleaved pairs).
double direct_inner(const std::vector<float>& q, const std::vector<float>& k, const std::vector<double>& inv, double m, double n) {
  double s = 0;
  for (std::size_t i = 0; i < inv.size(); ++i) {
    const double qa = q[2 * i], qb = q[2 * i + 1], ka = k[2 * i], kb = k[2 * i + 1];
    const double qa2 = qa * std::cos(m * inv[i]) - qb * std::sin(m * inv[i]), qb2 = qa * std::sin(m * inv[i]) + qb * std::cos(m * inv[i]);
    const double ka2 = ka * std::cos(n * inv[i]) - kb * std::sin(n * inv[i]), kb2 = ka * std::sin(n * inv[i]) + kb * std::cos(n * inv[i]);
    s += qa2 * ka2 + qb2 * kb2;
  }
  return s;
}

double window_mean(const std::vector<float>& v, long long c, long long half) {
  double s = 0;
  for (long long r = c - half; r < c + half; ++r) s += v[std::size_t(r)];
  return s / double(2 * half);
}
}  // namespace

TEST_CASE("Inner-product sweep equals explicit float64 rotation, near and far") {
  const int d = 64;
  const auto q = testutil::random_vec(d, 21), k = testutil::random_vec(d, 22);
  const auto inv = rope_inv_freq(d, 10000.0);
  double hsum = 0;
  for (int i = 0; i < d / 2; ++i) hsum += std::hypot(double(q[2 * i]), double(q[2 * i + 1])) * std::hypot(double(k[2 * i]), double(k[2 * i + 1]));
  for (long long k_start : {0LL, (1LL << 20) - 700}) {
    const long long qpos = 333, count = 1000;
    const auto v = rope_inner_product_sweep(q.data(), k.data(), d, d, RopeLayout::interleaved, inv, qpos, k_start, count);
    REQUIRE(v.size() == std::size_t(count));
    double worst = 0;
    for (long long j = 0; j < count; ++j) worst = std::max(worst, std::fabs(v[std::size_t(j)] - direct_inner(q, k, inv, double(qpos), double(k_start + j))));
    INFO("k_start=" << k_start << " worst " << worst << " of Σ|h| " << hsum);
    CHECK(worst <= kSweepRel * hsum);
  }
}

TEST_CASE("Sweep: half-split layout and partial rotary match rope_apply + dot") {
  const int hd = 24, rot = 16;
  const auto q = testutil::random_vec(hd, 31), k = testutil::random_vec(hd, 32);
  const auto inv = rope_inv_freq(rot, 500.0);
  const auto v = rope_inner_product_sweep(q.data(), k.data(), hd, rot, RopeLayout::half_split, inv, 10, 0, 300);
  for (int n = 0; n < 300; n += 7) {
    std::vector<float> rq(hd), rk(hd);
    const double m = 10, nn = n;
    rope_apply_positions(q.data(), rq.data(), {1, 1, hd, rot}, RopeLayout::half_split, 500.0, &m);
    rope_apply_positions(k.data(), rk.data(), {1, 1, hd, rot}, RopeLayout::half_split, 500.0, &nn);
    CHECK(v[std::size_t(n)] == Approx(testutil::dot(rq.data(), rk.data(), hd)).margin(1e-4));
  }
}

TEST_CASE("q = k = ones, d = 512: the seed's curves (003_f569490286a703c1.txt)") {
  const int d = 512;
  std::vector<float> ones(d, 1.0f);
  // base 10000, window 65536: oscillating decay, then the smoothed curve rises again past ~15000.
  const auto v = rope_inner_product_sweep(ones.data(), ones.data(), d, d, RopeLayout::interleaved, rope_inv_freq(d, 1e4), 0, 0, 65536);
  CHECK(v[0] == Approx(512.0).margin(1e-3));  // Σ_i 2·cos 0 = d
  long long arg = 0;
  double best = 1e30;
  for (long long c = 2000; c < 65536 - 2000; c += 250) {
    const double m = window_mean(v, c, 1000);
    if (m < best) best = m, arg = c;
  }
  CHECK(arg >= 12000);
  CHECK(arg <= 20000);
  CHECK(window_mean(v, 42000, 4000) > best + 20);  // it rises again
  // base 5,000,000: keeps decaying over the whole window (smoothed minimum at its far end)
  const auto w = rope_inner_product_sweep(ones.data(), ones.data(), d, d, RopeLayout::interleaved, rope_inv_freq(d, 5e6), 0, 0, 65536);
  long long arg5 = 0;
  best = 1e30;
  for (long long c = 2000; c < 65536 - 2000; c += 250) {
    const double m = window_mean(w, c, 1000);
    if (m < best) best = m, arg5 = c;
  }
  CHECK(arg5 > 55000);
  // q in the middle: symmetric about it (real h)
  const auto mid = rope_inner_product_sweep(ones.data(), ones.data(), d, d, RopeLayout::interleaved, rope_inv_freq(d, 1e4), 2048, 0, 4097);
  for (int t = 1; t <= 2048; t += 37) CHECK(mid[std::size_t(2048 - t)] == Approx(mid[std::size_t(2048 + t)]).margin(1e-3));
}

TEST_CASE("Su's bound curve (d = 128) equals the float64 definition and decays") {
  const auto inv = rope_inv_freq(128, 1e4);
  const auto f = rope_decay_bound(inv, 257);
  for (int r = 0; r <= 256; ++r) {
    double sr = 0, si = 0, acc = 0;
    for (int i = 0; i < 64; ++i) {
      sr += std::cos(r * inv[std::size_t(i)]);
      si += std::sin(r * inv[std::size_t(i)]);
      acc += std::hypot(sr, si);
    }
    CHECK(f[std::size_t(r)] == Approx(acc / 64).margin(kBoundAbs * 64));
  }
  CHECK(f[0] == Approx(32.5).margin(1e-4));  // (1/64)·Σ_{j=1}^{64} j
  CHECK(f[256] < f[0] / 4);
}

TEST_CASE("Decay kernel: SIMD equals scalar twin on edge sizes") {
  const std::size_t half = 5, block = 128;
  const auto A = testutil::random_vec(half, 1), B = testutil::random_vec(half, 2);
  const auto C = testutil::random_vec(half * block, 3), S = testutil::random_vec(half * block, 4);
  for (std::size_t n : testutil::edge_sizes(4 * kernels::simd_float_lanes())) {
    if (n > block) continue;
    std::vector<float> a(block), b(block);
    kernels::decay_block_simd(A.data(), B.data(), C.data(), S.data(), half, block, n, a.data());
    kernels::decay_block_scalar(A.data(), B.data(), C.data(), S.data(), half, block, n, b.data());
    for (std::size_t s = 0; s < n; ++s) CHECK(a[s] == Approx(b[s]).margin(1e-6));
  }
}

TEST_CASE("Envelope: min/max per pixel, NaN skipped, exact against a direct scan") {
  std::vector<float> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(std::sin(0.37 * double(i)) * double(i));
  v[17] = std::nanf("");
  for (int width : {1, 7, 300, 1000, 2000}) {
    const auto e = envelope(v.data(), v.size(), width);
    for (int p = 0; p < width; ++p) {
      std::size_t a = std::size_t(p) * 1000 / std::size_t(width), b = std::size_t(p + 1) * 1000 / std::size_t(width);
      if (b <= a) b = a + 1;
      float lo = INFINITY, hi = -INFINITY;
      for (std::size_t j = a; j < b && j < 1000; ++j)
        if (!std::isnan(v[j])) lo = std::min(lo, v[j]), hi = std::max(hi, v[j]);
      if (lo == INFINITY) CHECK(std::isnan(e[std::size_t(p)]));
      else {
        CHECK(e[std::size_t(p)] == lo);
        CHECK(e[std::size_t(width + p)] == hi);
      }
    }
  }
  CHECK_THROWS_WITH(envelope(v.data(), v.size(), 0), Catch::StartsWith("width:"));
}

TEST_CASE("Frequency analysis: wavelengths, rotations, first incomplete dimension") {
  const auto inv = rope_inv_freq(128, 1e4);
  const auto a = rope_frequency_analysis(inv, 4096);
  CHECK(a.wavelength[0] == Approx(2 * M_PI));
  CHECK(a.rotations[1] == Approx(4096 * std::pow(1e4, -2.0 / 128) / (2 * M_PI)));
  // first i with 2π·10000^(2i/128) > 4096  ⇔  i > 64·log(4096/2π)/log(10000)
  const int expect = int(std::floor(64 * std::log(4096 / (2 * M_PI)) / std::log(1e4))) + 1;
  CHECK(a.first_incomplete == expect);
  CHECK_THROWS_WITH(rope_frequency_analysis(inv, 0), Catch::StartsWith("original_max_position_embeddings:"));
  CHECK_THROWS_WITH(rope_decay_bound({}, 4), Catch::StartsWith("inv_freq:"));
  CHECK_THROWS_WITH(rope_decay_bound(inv, (1LL << 20) + 1), Catch::StartsWith("count:"));
}
