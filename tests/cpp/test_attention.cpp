#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kRowSum = 1e-6;       // softmax rows sum to 1
constexpr double kScoreRel = 1e-5;     // float32 dot products vs float64, relative to Σ|q_c k_c|
constexpr double kSoftmaxAbs = 1e-6;   // SIMD exp vs std::exp after normalisation

std::vector<int> order_of(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<int> perm;  // perm[i] = index in a of b[i]
  for (const auto& t : b) perm.push_back(int(std::find(a.begin(), a.end(), t) - a.begin()));
  return perm;
}
}  // namespace

TEST_CASE("Scores equal the direct float64 product; softmax rows sum to 1; causal mask is exact") {
  const int seq = 13, d = 20;
  const auto q = testutil::random_vec(seq * d, 1), k = testutil::random_vec(seq * d, 2);
  AttentionOptions raw;
  raw.softmax = false;
  const auto s = attention_scores(q.data(), k.data(), seq, d, raw);
  for (int i = 0; i < seq; ++i)
    for (int j = 0; j < seq; ++j) {
      double abs_sum = 0;
      for (int c = 0; c < d; ++c) abs_sum += std::fabs(double(q[i * d + c]) * k[j * d + c]);
      const double expect = testutil::dot(&q[i * d], &k[j * d], d) / std::sqrt(double(d));
      CHECK(std::fabs(s[i * seq + j] - expect) <= kScoreRel * abs_sum);
    }
  for (bool causal : {false, true}) {
    AttentionOptions o;
    o.causal = causal;
    o.rope = true;
    const auto p = attention_scores(q.data(), k.data(), seq, d, o);
    raw.causal = causal;
    raw.rope = true;
    const auto pre = attention_scores(q.data(), k.data(), seq, d, raw);
    for (int i = 0; i < seq; ++i) {
      double sum = 0;
      for (int j = 0; j < seq; ++j) {
        sum += p[i * seq + j];
        if (causal && j > i) {
          CHECK(p[i * seq + j] == 0.0f);
          CHECK(pre[i * seq + j] == -std::numeric_limits<float>::infinity());
        } else {
          CHECK(p[i * seq + j] > 0.0f);
        }
      }
      CHECK(std::fabs(sum - 1.0) <= kRowSum);
    }
    CHECK(p[0] == (causal ? 1.0f : p[0]));  // first causal row attends only to itself
  }
}

TEST_CASE("RoPE scores depend only on the offset i − j for identical tokens") {
  // Every row of q and k is the same vector: with RoPE, S[i][j] is a function of i − j.
  const int seq = 9, d = 16;
  const auto v = testutil::random_vec(d, 4);
  std::vector<float> q, k;
  for (int i = 0; i < seq; ++i) q.insert(q.end(), v.begin(), v.end());
  k = q;
  AttentionOptions o;
  o.rope = true;
  o.softmax = false;
  const auto s = attention_scores(q.data(), k.data(), seq, d, o);
  for (int i = 1; i < seq; ++i)
    for (int j = 1; j < seq; ++j) CHECK(s[i * seq + j] == Approx(s[(i - 1) * seq + (j - 1)]).margin(1e-5));
}

TEST_CASE("Softmax and score SIMD kernels equal their scalar twins on edge sizes") {
  for (std::size_t n : testutil::edge_sizes(kernels::simd_float_lanes())) {
    if (n == 0) continue;
    for (int seq : {6, 37})  // 37: full register blocks plus row and column tails
    for (bool causal : {false, true}) {
      const int d = int(n);
      const auto q = testutil::random_vec(std::size_t(seq) * d, 8), k = testutil::random_vec(std::size_t(seq) * d, 9);
      std::vector<float> a(std::size_t(seq) * seq), b(std::size_t(seq) * seq);
      kernels::scores_simd(q.data(), k.data(), seq, d, causal, 0.5f, false, a.data());
      kernels::scores_scalar(q.data(), k.data(), seq, d, causal, 0.5f, false, b.data());
      CHECK(a == b);  // same float32 accumulation order per cell
      kernels::scores_simd(q.data(), k.data(), seq, d, causal, 0.5f, true, a.data());
      kernels::scores_scalar(q.data(), k.data(), seq, d, causal, 0.5f, true, b.data());
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(std::fabs(a[i] - b[i]) <= kSoftmaxAbs);
      // softmax over rows of n columns
      const int rows = 5, cols = int(n);
      auto x = testutil::random_vec(std::size_t(rows) * cols, 10, -8.f, 8.f), y = x;
      kernels::softmax_rows_simd(x.data(), rows, cols, causal);
      kernels::softmax_rows_scalar(y.data(), rows, cols, causal);
      for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::fabs(x[i] - y[i]) <= kSoftmaxAbs);
    }
  }
}

TEST_CASE("SIMD softmax: e^x relative to float64 over the whole range x <= 0 (the vector exp's contract)") {
  // Rows [0, x, x, … x] of 16 columns (full vectors on every target): entries 1..15 are e^x / (1 + 15·e^x).
  // Within kExpRel of the float64 value where e^x is a normal float32 (x >= -87.3), within 1.2e-38 below.
  // ≈ 10 float32 ulp: the exp (≤ 1 ulp), then the row sum of 16 float32 terms (up to 15 roundings where a build
  // without SIMD adds them in order), the reciprocal and the product; a wrong exp is off by far more.
  constexpr double kExpRel = 1.2e-6;
  constexpr int cols = 16;
  std::vector<float> rows;
  for (int t = 0; t <= 20000; ++t) {
    const float x = -float(t) * 0.005f;  // 0 … -100
    rows.push_back(0.f);
    for (int j = 1; j < cols; ++j) rows.push_back(x);
  }
  const int n = int(rows.size()) / cols;
  kernels::softmax_rows_simd(rows.data(), n, cols, false);
  for (int t = 0; t < n; ++t) {
    const double x = double(-float(t) * 0.005f), e = std::exp(x), want = e / (1 + 15 * e);
    const double got = rows[std::size_t(t) * cols + 7];
    if (x >= -87.3) CHECK(std::fabs(got - want) <= kExpRel * want);
    else CHECK(std::fabs(got - want) <= 1.2e-38);
  }
  std::vector<float> nan_row(cols, 0.f);
  nan_row[3] = std::numeric_limits<float>::quiet_NaN();
  kernels::softmax_rows_simd(nan_row.data(), 1, cols, false);
  for (float v : nan_row) CHECK(std::isnan(v));  // NaN in a row makes the row NaN
}

TEST_CASE("Tokenizer: whitespace-separated words, else one token per code point") {
  CHECK(tokenize("猫 抓 老鼠") == std::vector<std::string>{"猫", "抓", "老鼠"});
  CHECK(tokenize("猫抓老鼠") == std::vector<std::string>{"猫", "抓", "老", "鼠"});
  CHECK(tokenize("  the cat\tsat ") == std::vector<std::string>{"the", "cat", "sat"});
  CHECK_THROWS_WITH(tokenize(std::string("a\xff")), Catch::StartsWith("text: must be valid UTF-8"));
}

TEST_CASE("The seeded generator follows its documented definition") {
  // splitmix64 from state 0 first yields 0xE220A8397B1DCDAF (the published reference sequence), so with
  // seed = FNV-1a("a") the first embedding value of token "a" is uniform(0xE220A8397B1DCDAF).
  const std::uint64_t fnv_a = 0xAF63DC4C8601EC8CULL;  // FNV-1a 64 of "a" (published test vector)
  const auto qk = text_qk("a", 4, fnv_a);
  const float x0 = float(double(0xE220A8397B1DCDAFULL >> 40) * 0x1p-23 - 1.0);
  CHECK(x0 == Approx(0.7666).margin(1e-4));
  // q_0 = Σ_r x_r · Wq[r][0] / 2 with Wq from key seed ^ 0x5157: recompute x and Wq independently here.
  auto sm = [](std::uint64_t& z) {
    z += 0x9E3779B97F4A7C15ULL;
    std::uint64_t r = z;
    r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ULL;
    r = (r ^ (r >> 27)) * 0x94D049BB133111EBULL;
    return r ^ (r >> 31);
  };
  auto uni = [](std::uint64_t z) { return double(float(double(z >> 40) * 0x1p-23 - 1.0)); };
  std::uint64_t kx = 0, kw = fnv_a ^ 0x5157ULL;
  double x[4], w[16];
  for (double& v : x) v = uni(sm(kx));
  for (double& v : w) v = uni(sm(kw));
  CHECK(x[0] == double(x0));
  double q0 = 0;
  for (int r = 0; r < 4; ++r) q0 += x[r] * w[r * 4];
  CHECK(qk.q[0] == float(q0 / 2));
}

TEST_CASE("Without position encoding a token swap only permutes the scores (猫 抓 老鼠 / 老鼠 抓 猫)") {
  const auto a = text_qk("猫 抓 老鼠", 16, 42), b = text_qk("老鼠 抓 猫", 16, 42);
  const auto perm = order_of(a.tokens, b.tokens);
  REQUIRE(perm == std::vector<int>{2, 1, 0});
  for (bool rope : {false, true}) {
    for (bool softmax : {false, true}) {
      AttentionOptions o;
      o.rope = rope;
      o.softmax = softmax;
      const auto sa = attention_scores(a.q.data(), a.k.data(), 3, 16, o);
      const auto sb = attention_scores(b.q.data(), b.k.data(), 3, 16, o);
      double worst = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          worst = std::max(worst, double(std::fabs(sb[i * 3 + j] - sa[perm[i] * 3 + perm[j]])));
      INFO("rope=" << rope << " softmax=" << softmax);
      if (rope) CHECK(worst > 1e-3);
      else if (softmax) CHECK(worst <= kSoftmaxAbs);  // the row sum is accumulated in another order
      else CHECK(worst == 0.0);                       // raw scores: the very same dot products
    }
  }
}

TEST_CASE("Attention rejects bad input") {
  std::vector<float> q(8);
  CHECK_THROWS_WITH(attention_scores(q.data(), q.data(), 0, 8, {}), Catch::StartsWith("seq:"));
  CHECK_THROWS_WITH(attention_scores(q.data(), q.data(), 1, -3, {}), Catch::StartsWith("head_dim:"));
  AttentionOptions o;
  o.rope = true;
  o.rotary_dim = 3;
  CHECK_THROWS_WITH(attention_scores(q.data(), q.data(), 1, 8, o), Catch::StartsWith("rotary_dim: must be even"));
  CHECK_THROWS_WITH(text_qk("   ", 8, 1), Catch::StartsWith("text: must contain at least one token"));
}
