#include <catch2/catch.hpp>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kScoreAbs = 2e-5;  // engine terms vs float64 recomputation (|q|,|k| ≤ 1, d ≤ 16)
constexpr double kRowSum = 1e-6;

// The documented generator, re-implemented here from its specification (engine.hpp / attention.hpp).
std::uint64_t sm(std::uint64_t& z) {
  z += 0x9E3779B97F4A7C15ULL;
  std::uint64_t r = z;
  r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ULL;
  r = (r ^ (r >> 27)) * 0x94D049BB133111EBULL;
  return r ^ (r >> 31);
}
std::uint64_t fnv(const std::string& s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}
std::vector<double> seeded(std::uint64_t seed, const std::string& name, int h, std::size_t n, float scale) {
  std::uint64_t key = seed ^ fnv(name) ^ (std::uint64_t(h) * 0x9E3779B97F4A7C15ULL);
  std::vector<double> v(n);
  for (auto& x : v) x = double(float(float(double(sm(key) >> 40) * 0x1p-23 - 1.0) * scale));
  return v;
}

SchemeParams scheme(AttentionScheme t) {
  SchemeParams p;
  p.type = t;
  return p;
}

const std::vector<float>& term(const AttentionResult& r, const std::string& name) {
  for (const auto& [n, m] : r.terms)
    if (n == name) return m;
  FAIL("no term " << name);
  static std::vector<float> none;
  return none;
}
}  // namespace

TEST_CASE("Engine: sinusoidal terms equal the float64 expansion (q + pU_q)·(k + pU_k)/√d") {
  const int seq = 7, heads = 2, d = 8;
  const std::uint64_t seed = 5;
  const auto q = testutil::random_vec(seq * heads * d, 1), k = testutil::random_vec(seq * heads * d, 2), v = testutil::random_vec(seq * heads * d, 3);
  const auto r = attention(q.data(), k.data(), v.data(), seq, heads, d, scheme(AttentionScheme::sinusoidal), false, seed);
  REQUIRE(r.terms.size() == 4);
  for (int h = 0; h < heads; ++h) {
    const auto uq = seeded(seed, "U_q", h, d * d, float(1 / std::sqrt(8.0))), uk = seeded(seed, "U_k", h, d * d, float(1 / std::sqrt(8.0)));
    auto proj = [&](int pos, const std::vector<double>& u, int c) {
      double s = 0;
      for (int r2 = 0; r2 < d; ++r2) {
        const int i = r2 / 2;
        const double w = std::pow(10000.0, -2.0 * i / d);
        const double p = r2 % 2 == 0 ? std::sin(pos * w) : std::cos(pos * w);
        s += p * u[std::size_t(r2 * d + c)];
      }
      return s;
    };
    for (int i = 0; i < seq; ++i)
      for (int j = 0; j < seq; ++j) {
        double cc = 0, cp = 0, pc = 0, pp = 0;
        for (int c = 0; c < d; ++c) {
          const double qi = q[(i * heads + h) * d + c], kj = k[(j * heads + h) * d + c];
          const double pqi = proj(i, uq, c), pkj = proj(j, uk, c);
          cc += qi * kj, cp += qi * pkj, pc += pqi * kj, pp += pqi * pkj;
        }
        const std::size_t at = std::size_t(h) * seq * seq + std::size_t(i) * seq + j;
        const double s = 1 / std::sqrt(double(d));
        CHECK(term(r, "content_content")[at] == Approx(cc * s).margin(kScoreAbs));
        CHECK(term(r, "content_position")[at] == Approx(cp * s).margin(kScoreAbs));
        CHECK(term(r, "position_content")[at] == Approx(pc * s).margin(kScoreAbs));
        CHECK(term(r, "position_position")[at] == Approx(pp * s).margin(kScoreAbs));
        CHECK(r.scores[at] == Approx((cc + cp + pc + pp) * s).margin(4 * kScoreAbs));
      }
  }
}

TEST_CASE("Engine: Transformer-XL direct terms equal the rel_shift path for j <= i") {
  const int seq = 9, d = 8;
  const std::uint64_t seed = 11;
  const auto q = testutil::random_vec(seq * d, 4), k = testutil::random_vec(seq * d, 5), v = testutil::random_vec(seq * d, 6);
  const auto r = attention(q.data(), k.data(), v.data(), seq, 1, d, scheme(AttentionScheme::transformer_xl), true, seed);
  // Reference path: r = W_R·R over descending distances, u, v from the generator, xl_scores with _rel_shift.
  const auto R = xl_position_embedding(seq, d);
  const auto wr = seeded(seed, "W_R", 0, d * d, float(1 / std::sqrt(8.0)));
  std::vector<float> rr(std::size_t(seq) * d, 0.f);
  for (int m = 0; m < seq; ++m)
    for (int c = 0; c < d; ++c) {
      float s = 0;
      for (int x = 0; x < d; ++x) s += R[std::size_t(m * d + x)] * float(wr[std::size_t(x * d + c)]);
      rr[std::size_t(m * d + c)] = s;
    }
  const auto u = seeded(seed, "u", 0, d, 1.f), vv = seeded(seed, "v", 0, d, 1.f);
  const std::vector<float> uf(u.begin(), u.end()), vf(vv.begin(), vv.end());
  const auto ref = xl_scores(q.data(), k.data(), rr.data(), uf.data(), vf.data(), seq, seq, d, true);
  const double s = 1 / std::sqrt(double(d));
  for (int i = 0; i < seq; ++i)
    for (int j = 0; j <= i; ++j) {
      const std::size_t at = std::size_t(i * seq + j);
      CHECK(term(r, "content_position")[at] == Approx(ref.b[at] * s).margin(kScoreAbs));
      CHECK(term(r, "position_content")[at] == Approx(ref.c[at] * s).margin(kScoreAbs));
      CHECK(term(r, "position_position")[at] == Approx(ref.d[at] * s).margin(kScoreAbs));
      CHECK(r.scores[at] == Approx(ref.score[at]).margin(4 * kScoreAbs));
    }
  CHECK(r.scores[1] == -std::numeric_limits<float>::infinity());
}

TEST_CASE("Engine: rope equals attention_scores; alibi bias is −m·|i−j|; t5 bias is Toeplitz by bucket") {
  const int seq = 10, d = 16;
  const auto q = testutil::random_vec(seq * d, 7), k = testutil::random_vec(seq * d, 8), v = testutil::random_vec(seq * d, 9);
  const auto r = attention(q.data(), k.data(), v.data(), seq, 1, d, scheme(AttentionScheme::rope), false, 0);
  AttentionOptions o;
  o.rope = true;
  o.softmax = false;
  const auto ref = attention_scores(q.data(), k.data(), seq, d, o);
  for (int i = 0; i < seq * seq; ++i) CHECK(r.scores[std::size_t(i)] == Approx(ref[std::size_t(i)]).margin(1e-6));

  const int heads = 3;
  const auto q3 = testutil::random_vec(seq * heads * d, 10), k3 = testutil::random_vec(seq * heads * d, 11), v3 = testutil::random_vec(seq * heads * d, 12);
  const auto al = attention(q3.data(), k3.data(), v3.data(), seq, heads, d, scheme(AttentionScheme::alibi), false, 0);
  // 3 heads: the closest power of two is 2 (slopes 2^-4, 2^-8), then every other slope of 4 heads: 2^-2.
  const double slopes[3] = {std::pow(2.0, -4), std::pow(2.0, -8), std::pow(2.0, -2)};
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < seq; ++i)
      for (int j = 0; j < seq; ++j)
        CHECK(term(al, "bias")[std::size_t(h * seq * seq + i * seq + j)] == float(-slopes[h] * std::abs(i - j)));

  const auto t5 = attention(q3.data(), k3.data(), v3.data(), seq, heads, d, scheme(AttentionScheme::t5), false, 0);
  const auto& b = term(t5, "bias");
  for (int h = 0; h < heads; ++h)
    for (int i = 0; i < seq; ++i)
      for (int j = 0; j < seq; ++j)
        for (int i2 = 0; i2 < seq; ++i2)
          for (int j2 = 0; j2 < seq; ++j2)
            if (t5_relative_position_bucket(j - i, true, 32, 128) == t5_relative_position_bucket(j2 - i2, true, 32, 128))
              CHECK(b[std::size_t(h * seq * seq + i * seq + j)] == b[std::size_t(h * seq * seq + i2 * seq + j2)]);
}

TEST_CASE("Engine: probabilities, causal mask and output = probs·V for every scheme") {
  const int seq = 6, heads = 2, d = 8;
  const auto q = testutil::random_vec(seq * heads * d, 13), k = testutil::random_vec(seq * heads * d, 14), v = testutil::random_vec(seq * heads * d, 15);
  for (int t = 0; t < 12; ++t) {
    for (bool causal : {false, true}) {
      const auto r = attention(q.data(), k.data(), v.data(), seq, heads, d, scheme(AttentionScheme(t)), causal, 3);
      INFO(attention_scheme_name(AttentionScheme(t)) << " causal=" << causal);
      REQUIRE(!r.terms.empty());
      for (int h = 0; h < heads; ++h)
        for (int i = 0; i < seq; ++i) {
          double sum = 0;
          for (int j = 0; j < seq; ++j) {
            const std::size_t at = std::size_t(h * seq * seq + i * seq + j);
            double tsum = 0;
            for (const auto& [name, m] : r.terms) tsum += m[at];
            if (causal && j > i) {
              CHECK(r.probs[at] == 0.0f);
              CHECK(r.scores[at] == -std::numeric_limits<float>::infinity());
            } else {
              CHECK(r.scores[at] == Approx(tsum).margin(1e-5));
            }
            sum += r.probs[at];
          }
          CHECK(std::fabs(sum - 1) <= kRowSum);
          for (int c = 0; c < d; ++c) {
            double o = 0;
            for (int j = 0; j < seq; ++j) o += double(r.probs[std::size_t(h * seq * seq + i * seq + j)]) * v[std::size_t((j * heads + h) * d + c)];
            CHECK(r.output[std::size_t((i * heads + h) * d + c)] == Approx(o).margin(1e-6));
          }
        }
    }
  }
}

TEST_CASE("Permutation check: zero without position encoding, non-zero for every position scheme") {
  for (int t = 0; t < 12; ++t) {
    // (With 3 tokens, swapping 0 and 2 is the reflection i ↦ 2 − i, which leaves symmetric biases such as
    // ALiBi's −m|i − j| unchanged; swapping "cat" and "mouse" of 5 tokens is no symmetry.)
    const double change = permutation_change("the cat chased the mouse", 1, 4, 2, 8, scheme(AttentionScheme(t)), false, 1);
    INFO(attention_scheme_name(AttentionScheme(t)) << ": " << change);
    if (AttentionScheme(t) == AttentionScheme::none) CHECK(change == 0.0);
    else CHECK(change > 1e-3);
  }
  CHECK_THROWS_WITH(permutation_change("a b", 0, 5, 1, 8, {}, false, 0), Catch::StartsWith("j: must be an integer in [0, 1]"));
}

TEST_CASE("Permutation check with causal masks: finite, exactly zero for none (issue 15)") {
  for (int t = 0; t < 12; ++t) {
    const double change = permutation_change("a b c d", 0, 1, 1, 8, scheme(AttentionScheme(t)), true, 0);
    INFO(attention_scheme_name(AttentionScheme(t)) << ": " << change);
    CHECK(std::isfinite(change));
    if (AttentionScheme(t) == AttentionScheme::none) CHECK(change == 0.0);
  }
  // Unmasked pairs still see the scheme: swapping "cat" and "mouse" changes RoPE's scores among visible pairs.
  CHECK(permutation_change("the cat chased the mouse", 1, 4, 2, 8, scheme(AttentionScheme::rope), true, 1) > 1e-3);
}

TEST_CASE("text_qkv head 0 equals text_qk") {
  const auto a = text_qk("the cat sat", 8, 9);
  const auto b = text_qkv("the cat sat", 3, 8, 9);
  for (int t = 0; t < 3; ++t)
    for (int c = 0; c < 8; ++c) {
      CHECK(b.q[std::size_t((t * 3 + 0) * 8 + c)] == a.q[std::size_t(t * 8 + c)]);
      CHECK(b.k[std::size_t((t * 3 + 0) * 8 + c)] == a.k[std::size_t(t * 8 + c)]);
    }
  CHECK(b.q[8] != a.q[0]);  // head 1 differs
}

TEST_CASE("Linear attention with RoPE equals the O(n²) formulas (28) and (29)") {
  const int seq = 12, d = 8, dv = 3;
  const auto q = testutil::random_vec(seq * d, 16, -2, 2), k = testutil::random_vec(seq * d, 17, -2, 2), v = testutil::random_vec(seq * dv, 18);
  auto phi = [](double x) { return x > 0 ? x + 1 : std::exp(x); };
  auto rot = [&](const std::vector<float>& x, int pos, int c) {  // half-split RoPE of φ(x) at pos, channel c (float64)
    const int half = d / 2, i = c % half;
    const double w = std::pow(10000.0, -2.0 * i / d), a = phi(x[std::size_t(pos * d + i)]), b = phi(x[std::size_t(pos * d + i + half)]);
    return c < half ? a * std::cos(pos * w) - b * std::sin(pos * w) : a * std::sin(pos * w) + b * std::cos(pos * w);
  };
  for (bool causal : {false, true})
    for (auto form : {LinearForm::naive, LinearForm::numerator_only}) {
      const auto r = linear_attention_rope(q.data(), k.data(), v.data(), seq, d, dv, causal, 10000.0, form);
      for (int i = 0; i < seq; ++i) {
        double den = 0, num[dv] = {0, 0, 0};
        for (int j = 0; j < (causal ? i + 1 : seq); ++j) {
          double s_rot = 0, s_plain = 0;
          for (int c = 0; c < d; ++c) {
            s_rot += rot(q, i, c) * rot(k, j, c);
            s_plain += phi(q[std::size_t(i * d + c)]) * phi(k[std::size_t(j * d + c)]);
          }
          den += form == LinearForm::naive ? s_rot : s_plain;
          for (int e = 0; e < dv; ++e) num[e] += s_rot * v[std::size_t(j * dv + e)];
        }
        CHECK(r.denominator[std::size_t(i)] == Approx(den).epsilon(1e-5));
        for (int e = 0; e < dv; ++e) CHECK(r.output[std::size_t(i * dv + e)] == Approx(num[e] / den).epsilon(1e-4).margin(1e-5));
        if (form == LinearForm::numerator_only) CHECK(r.denominator[std::size_t(i)] > 0);
      }
    }
}

TEST_CASE("Engine rejects bad input") {
  std::vector<float> x(16);
  CHECK_THROWS_WITH(attention(x.data(), x.data(), x.data(), 0, 1, 8, {}, false, 0), Catch::StartsWith("seq:"));
  CHECK_THROWS_WITH(attention(x.data(), x.data(), x.data(), 2, 0, 8, {}, false, 0), Catch::StartsWith("heads:"));
  SchemeParams learned = scheme(AttentionScheme::learned);
  learned.learned_table.assign(8, 0.f);
  learned.learned_rows = 1;
  CHECK_THROWS_WITH(attention(x.data(), x.data(), x.data(), 2, 1, 8, learned, false, 0), Catch::StartsWith("scheme.table: has 1 rows"));
  CHECK_THROWS_WITH(attention_scheme_from_name("fancy"), Catch::StartsWith("scheme.type: must be one of"));
  CHECK_THROWS_WITH(linear_attention_rope(x.data(), x.data(), x.data(), 2, 7, 1, false, 1e4, LinearForm::naive), Catch::StartsWith("head_dim:"));
}

TEST_CASE("Scheme sizes are checked before anything is sized by them (fuzz finding)") {
  // A negative t5 num_buckets sized the seeded bias table: std::length_error instead of posenc::Error.
  SchemeParams s;
  s.type = AttentionScheme::t5;
  s.num_buckets = -2;
  const auto a = text_qkv("a b", 1, 8, 0);
  CHECK(testutil::error_of([&] { attention(a.q.data(), a.k.data(), a.v.data(), 2, 1, 8, s, false, 0); })
            .rfind("scheme.num_buckets: must be an integer in [2, 2^20] (got -2)", 0) == 0);
}
