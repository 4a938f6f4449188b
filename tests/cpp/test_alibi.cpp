#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kSlopeRel = 1e-15;     // slopes: a few float64 roundings
constexpr double kSoftmaxAbs = 2e-6;    // float32 softmax of shifted rows
using testutil::error_of;
}  // namespace

TEST_CASE("ALiBi slopes: powers of two are geometric 2^(-8k/n)") {
  for (int n : {1, 2, 4, 8, 16, 32, 64}) {
    const auto s = alibi_slopes(n);
    REQUIRE(s.size() == std::size_t(n));
    for (int k = 1; k <= n; ++k) CHECK(s[k - 1] == Approx(std::exp2(-8.0 * k / n)).epsilon(kSlopeRel));
  }
  const auto s8 = alibi_slopes(8);
  CHECK(s8[0] == 0.5);
  CHECK(s8[7] == 1.0 / 256);
}

TEST_CASE("ALiBi slopes: other head counts interleave the next power of two") {
  // n = 12: 8 slopes of n'=8 (2^-1 … 2^-8), then 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5 (odd powers of 2^(-8/16))
  const auto s = alibi_slopes(12);
  REQUIRE(s.size() == 12);
  for (int k = 1; k <= 8; ++k) CHECK(s[k - 1] == Approx(std::exp2(-double(k))).epsilon(kSlopeRel));
  for (int k = 0; k < 4; ++k) CHECK(s[8 + k] == Approx(std::exp2(-0.5 * (2 * k + 1))).epsilon(kSlopeRel));
  // n = 5: 4 slopes of 4 (2^-2, 2^-4, 2^-6, 2^-8) and the first of 8's odd ones, 2^-1
  const auto s5 = alibi_slopes(5);
  REQUIRE(s5.size() == 5);
  CHECK(s5[3] == Approx(std::exp2(-8.0)).epsilon(kSlopeRel));
  CHECK(s5[4] == Approx(0.5).epsilon(kSlopeRel));
  // n = 3: 2^-4 (n'=2), then 2^-2 from n=4's list index 0
  const auto s3 = alibi_slopes(3);
  CHECK(s3[0] == Approx(std::exp2(-4.0)).epsilon(kSlopeRel));
  CHECK(s3[1] == Approx(std::exp2(-8.0)).epsilon(kSlopeRel));
  CHECK(s3[2] == Approx(std::exp2(-2.0)).epsilon(kSlopeRel));
}

TEST_CASE("ALiBi bias: causal and symmetric forms, KV-cache offset") {
  const auto sl = alibi_slopes(4);
  const int q = 3, k = 7;  // queries at positions 4, 5, 6
  std::vector<float> causal(4 * q * k), sym(causal.size());
  alibi_bias(sl, q, k, AlibiMode::causal, causal.data());
  alibi_bias(sl, q, k, AlibiMode::symmetric, sym.data());
  for (int h = 0; h < 4; ++h)
    for (int i = 0; i < q; ++i)
      for (int j = 0; j < k; ++j) {
        const int pi = i + (k - q);
        const float want = static_cast<float>(-sl[h] * std::abs(pi - j));
        CHECK(sym[(h * q + i) * k + j] == want);
        if (j > pi)
          CHECK(causal[(h * q + i) * k + j] == -std::numeric_limits<float>::infinity());
        else
          CHECK(causal[(h * q + i) * k + j] == want);
      }
}

TEST_CASE("ALiBi BLOOM form: +m·j up to the diagonal, the same row softmax as −m·(i − j)") {
  const int n = 37, heads = 6;
  const auto sl = alibi_slopes(heads);
  const auto scores = testutil::random_vec(std::size_t(n) * n, 21, -3.f, 3.f);
  std::vector<float> causal(std::size_t(heads) * n * n), bloom(causal.size());
  alibi_bias(sl, n, n, AlibiMode::causal, causal.data());
  alibi_bias(sl, n, n, AlibiMode::bloom, bloom.data());
  for (int h = 0; h < heads; ++h) {
    std::vector<float> a(std::size_t(n) * n), b(a.size());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const float got = bloom[(h * n + i) * n + j];
        if (j > i) CHECK(got == -std::numeric_limits<float>::infinity());
        else CHECK(got == static_cast<float>(sl[h] * j));  // HF build_alibi_tensor: slopes · arange(k_len)
        a[i * n + j] = scores[i * n + j] + causal[(h * n + i) * n + j];
        b[i * n + j] = scores[i * n + j] + got;
      }
    kernels::softmax_rows_scalar(a.data(), n, n, true);
    kernels::softmax_rows_scalar(b.data(), n, n, true);
    for (std::size_t t = 0; t < a.size(); ++t) CHECK(std::fabs(a[t] - b[t]) <= kSoftmaxAbs);
  }
  // KV cache: 2 queries at positions 3, 4 of 5 keys; the ramp alone is the row q_len = 1
  std::vector<float> kv(2 * 5), ramp(5);
  alibi_bias({0.5}, 2, 5, AlibiMode::bloom, kv.data());
  alibi_bias({0.5}, 1, 5, AlibiMode::bloom, ramp.data());
  CHECK(kv == std::vector<float>{0, 0.5f, 1, 1.5f, -std::numeric_limits<float>::infinity(), 0, 0.5f, 1, 1.5f, 2});
  CHECK(ramp == std::vector<float>{0, 0.5f, 1, 1.5f, 2});
}

TEST_CASE("ALiBi SIMD kernel equals its scalar twin") {
  for (std::size_t L : testutil::edge_sizes(kernels::simd_float_lanes())) {
    const int k = int(L) + 5;
    for (AlibiMode mode : {AlibiMode::causal, AlibiMode::symmetric, AlibiMode::bloom}) {
      std::vector<float> a(std::size_t(4) * k), b(a.size());
      kernels::alibi_bias_simd(0.0625 * 3, 4, k, k - 4, mode, a.data());
      kernels::alibi_bias_scalar(0.0625 * 3, 4, k, k - 4, mode, b.data());
      CHECK(a == b);
    }
  }
}

TEST_CASE("ALiBi rejects bad input") {
  std::vector<float> out(16);
  CHECK(error_of([] { alibi_slopes(0); }).rfind("num_heads: must be an integer in [1, 1024] (got 0)", 0) == 0);
  CHECK(error_of([&] { alibi_bias(alibi_slopes(2), 3, 2, AlibiMode::causal, out.data()); }).rfind("q_len:", 0) == 0);
  CHECK(error_of([&] { alibi_bias({}, 1, 1, AlibiMode::causal, out.data()); }).rfind("num_heads:", 0) == 0);
  CHECK(error_of([&] { alibi_bias({0.5}, 1, 1, static_cast<AlibiMode>(3), out.data()); }) ==
        "mode: must be causal, symmetric or bloom");
}
