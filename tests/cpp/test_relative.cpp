#include <catch2/catch.hpp>

#include <algorithm>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kScoreRel = 1e-5;  // float32 dot products vs float64, relative to Σ|a_c·b_c| (+ tiny abs)
constexpr double kTiny = 1e-6;

double abs_dot(const float* a, const float* b, int d) {
  double s = 0;
  for (int c = 0; c < d; ++c) s += std::fabs(double(a[c]) * b[c]);
  return s;
}

// T5 bucket from the textbook description, in long double, with the distance to the nearest bucket boundary
// (the reference rounds in float32; we only compare where the exact value is not within 1e-4 of an integer).
int t5_ref(long long rp, bool bidi, int nb, int md, bool& near_boundary) {
  int ret = 0;
  long long n;
  if (bidi) {
    nb /= 2;
    ret = rp > 0 ? nb : 0;
    n = std::llabs(rp);
  } else {
    n = std::max(-rp, 0LL);
  }
  const int me = nb / 2;
  near_boundary = false;
  if (n < me) return ret + int(n);
  const long double x = std::log((long double)n / me) / std::log((long double)md / me) * (nb - me);
  near_boundary = std::fabs(x - std::round(x)) < 1e-4L;
  return ret + int(std::min<long long>(me + (long long)std::floor(x), nb - 1));
}
}  // namespace

TEST_CASE("T5 buckets reproduce the seed's table for i − j = 0 … 30") {
  // 002 seed table (T5, num_buckets 32, max_distance 128): f(i−j) for i−j = 0 … 30
  const int table[31] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 9, 9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 11, 11, 11, 11, 11, 11, 11, 11};
  for (int n = 0; n <= 30; ++n) {
    // relative_position = key − query = j − i = −n: bidirectional keeps bucket f(n) for keys in the past
    CHECK(t5_relative_position_bucket(-n, true, 32, 128) == table[n]);
    // future keys (j − i = +n) use the other half: +16
    if (n > 0) CHECK(t5_relative_position_bucket(n, true, 32, 128) == 16 + table[n]);
    // causal with 16 buckets has the same 8 exact buckets and the same log range
    CHECK(t5_relative_position_bucket(-n, false, 16, 128) == table[n]);
    CHECK(t5_relative_position_bucket(n, false, 16, 128) == 0);
  }
  // the matrix uses relative_position = j − (query_offset + i)
  const auto m = t5_bucket_matrix(31, 31, true, 32, 128);
  for (int i = 0; i < 31; ++i)
    for (int j = 0; j <= i; ++j) CHECK(m[i * 31 + j] == table[i - j]);
  const auto off = t5_bucket_matrix(1, 31, false, 32, 128, 30);  // one decoding step at position 30
  for (int j = 0; j < 31; ++j) CHECK(off[j] == t5_relative_position_bucket(j - 30, false, 32, 128));
  // every cell of larger matrices (rows copied in vector steps from unaligned offsets, then a tail)
  for (const bool bidi : {true, false}) {
    const int q = 70, k = 93, offset = 5;
    const auto big = t5_bucket_matrix(q, k, bidi, 32, 128, offset);
    for (int i = 0; i < q; ++i)
      for (int j = 0; j < k; ++j) CHECK(big[std::size_t(i) * k + j] == t5_relative_position_bucket(j - (offset + i), bidi, 32, 128));
  }
}

TEST_CASE("T5 buckets equal the long-double formula away from bucket boundaries; caps at num_buckets − 1") {
  struct Cfg { bool bidi; int nb, md; };
  for (const Cfg c : {Cfg{true, 32, 128}, Cfg{false, 32, 128}, Cfg{true, 64, 1000}, Cfg{false, 10, 37}, Cfg{true, 4, 2}}) {
    int skipped = 0;
    for (long long rp = -3000; rp <= 3000; ++rp) {
      bool near = false;
      const int want = t5_ref(rp, c.bidi, c.nb, c.md, near);
      if (near) { ++skipped; continue; }
      CHECK(t5_relative_position_bucket(rp, c.bidi, c.nb, c.md) == want);
    }
    CHECK(skipped < 200);
  }
  // exact boundaries of the default config (n = 16, 32, 64: ratio exactly 2, 4, 8 of max_exact) land as in float32 torch
  CHECK(t5_relative_position_bucket(-16, true, 32, 128) == 10);
  CHECK(t5_relative_position_bucket(-32, true, 32, 128) == 12);
  CHECK(t5_relative_position_bucket(-64, true, 32, 128) == 14);
  CHECK(t5_relative_position_bucket(-100000, true, 32, 128) == 15);
  CHECK(t5_relative_position_bucket(100000, true, 32, 128) == 31);
}

TEST_CASE("T5 per-head bias [heads, q, k] gathers table[bucket][head]") {
  const int nb = 32, H = 3, Q = 7, K = 9;
  const auto tab = testutil::random_vec(nb * H, 5);
  const auto bias = t5_bias(tab.data(), nb, H, Q, K, true, 128);
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < Q; ++i)
      for (int j = 0; j < K; ++j)
        CHECK(bias[(h * Q + i) * K + j] == tab[t5_relative_position_bucket(j - i, true, nb, 128) * H + h]);
}

TEST_CASE("T5 rejects bad configurations") {
  CHECK_THROWS_WITH(t5_relative_position_bucket(0, false, 1, 128), Catch::StartsWith("num_buckets: must be an integer in [2,"));
  CHECK_THROWS_WITH(t5_relative_position_bucket(0, true, 2, 128), Catch::StartsWith("num_buckets: must be >= 4 when bidirectional"));
  CHECK_THROWS_WITH(t5_relative_position_bucket(0, true, 32, 8), Catch::StartsWith("max_distance: must be > 8"));
  CHECK_THROWS_WITH(t5_relative_position_bucket(0, false, 32, 16), Catch::StartsWith("max_distance: must be > 16"));
  std::vector<float> tab(32);
  CHECK_THROWS_WITH(t5_bias(tab.data(), 32, 0, 2, 2, true, 128), Catch::StartsWith("heads: must be an integer in [1, 1024] (got 0)"));
}

TEST_CASE("Shaw: index clip(j − i, −K, K) + K; scores q·(k + a_ij)/√d equal the direct sum") {
  const int Q = 6, Kl = 9, d = 12, K = 3;
  const auto idx = shaw_relative_index(Q, Kl, K);
  for (int i = 0; i < Q; ++i)
    for (int j = 0; j < Kl; ++j) {
      const int rel = j - (Kl - Q + i);  // queries are the last Q key positions
      CHECK(idx[i * Kl + j] == std::min(std::max(rel, -K), K) + K);
    }
  const auto q = testutil::random_vec(Q * d, 1), k = testutil::random_vec(Kl * d, 2), a = testutil::random_vec((2 * K + 1) * d, 3);
  const auto s = shaw_scores(q.data(), k.data(), a.data(), Q, Kl, d, K);
  const auto p = shaw_scores(q.data(), nullptr, a.data(), Q, Kl, d, K);
  for (int i = 0; i < Q; ++i)
    for (int j = 0; j < Kl; ++j) {
      const int m = idx[i * Kl + j];
      const double pos = testutil::dot(&q[i * d], &a[m * d], d), con = testutil::dot(&q[i * d], &k[j * d], d);
      const double tol = kScoreRel * (abs_dot(&q[i * d], &a[m * d], d) + abs_dot(&q[i * d], &k[j * d], d)) + kTiny;
      CHECK(std::fabs(s[i * Kl + j] - (pos + con) / std::sqrt(double(d))) <= tol);
      CHECK(std::fabs(p[i * Kl + j] - pos / std::sqrt(double(d))) <= tol);
    }
  // values: o_i = Σ_j w_ij (v_j + a_V[idx])
  const auto w = testutil::random_vec(Q * Kl, 4, 0.f, 1.f), v = testutil::random_vec(Kl * d, 6);
  const auto o = shaw_values(w.data(), v.data(), a.data(), Q, Kl, d, K);
  for (int i = 0; i < Q; ++i)
    for (int c = 0; c < d; ++c) {
      double e = 0;
      for (int j = 0; j < Kl; ++j) e += double(w[i * Kl + j]) * (double(v[j * d + c]) + a[idx[i * Kl + j] * d + c]);
      CHECK(o[i * d + c] == Approx(e).margin(1e-6));
    }
  CHECK_THROWS_WITH(shaw_relative_index(5, 4, 2), Catch::StartsWith("k_len: must be an integer in [5, 8192] (got 4)"));
  CHECK_THROWS_WITH(shaw_relative_index(2, 4, -1), Catch::StartsWith("max_relative_position:"));
}

TEST_CASE("Transformer-XL: rel_shift equals the direct O(n²) four-term computation") {
  for (const int mlen : {0, 3}) {
    const int Q = 5, Kl = Q + mlen, d = 8;
    const auto q = testutil::random_vec(Q * d, 11), k = testutil::random_vec(Kl * d, 12);
    const auto u = testutil::random_vec(d, 13), v = testutil::random_vec(d, 14);
    // R: sinusoid of the distances klen−1 … 0, [sin | cos], ω_i = 10000^(−2i/d) — checked against the closed form
    const auto R = xl_position_embedding(Kl, d);
    for (int m = 0; m < Kl; ++m)
      for (int i = 0; i < d / 2; ++i) {
        const double ang = double(Kl - 1 - m) * std::pow(10000.0, -2.0 * i / d);
        CHECK(R[m * d + i] == Approx(std::sin(ang)).margin(1e-7));
        CHECK(R[m * d + d / 2 + i] == Approx(std::cos(ang)).margin(1e-7));
      }
    const auto r = testutil::random_vec(Kl * d, 15);  // stands for W_R·R: any rows work for the identity
    const auto t = xl_scores(q.data(), k.data(), r.data(), u.data(), v.data(), Q, Kl, d, true);
    for (int i = 0; i < Q; ++i)
      for (int j = 0; j < Kl; ++j) {
        const int e = i * Kl + j;
        if (j > i + mlen) {
          CHECK(std::isinf(t.score[e]));
          continue;
        }
        const int m = Kl - 1 - (i + mlen - j);  // row of r holding distance i + mlen − j
        const double a = testutil::dot(&q[i * d], &k[j * d], d), b = testutil::dot(&q[i * d], &r[m * d], d);
        const double c = testutil::dot(u.data(), &k[j * d], d), dd = testutil::dot(v.data(), &r[m * d], d);
        const double tol = kScoreRel * 4 * d + kTiny;  // |entries| ≤ 1
        CHECK(std::fabs(t.a[e] - a) <= tol);
        CHECK(std::fabs(t.b[e] - b) <= tol);
        CHECK(std::fabs(t.c[e] - c) <= tol);
        CHECK(std::fabs(t.d[e] - dd) <= tol);
        CHECK(std::fabs(t.score[e] - (a + b + c + dd) / std::sqrt(double(d))) <= tol);
      }
  }
  // rel_shift on a counting matrix (qlen 3, klen 4, mlen 1): kept entries come from column j + qlen − 1 − i;
  // future entries hold the next row's padded values (column j − i − mlen − 1 of [0 | x], 0 = the pad)
  std::vector<float> x(3 * 4);
  for (int i = 0; i < 12; ++i) x[i] = float(i + 1);
  const auto s = rel_shift(x.data(), 3, 4);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      if (j <= i + 1) {
        CHECK(s[i * 4 + j] == x[i * 4 + j + 3 - 1 - i]);
      } else {
        const int col = j - i - 1 - 1;
        CHECK(s[i * 4 + j] == (col == 0 ? 0.f : x[(i + 1) * 4 + col - 1]));
      }
    }
  // zero_triu: the reference multiplies by tril(ones(qlen, klen), klen − qlen) — kept entries as above, the
  // future (j > i + mlen) exactly 0; also with klen < qlen (negative diagonal)
  const auto z = rel_shift(x.data(), 3, 4, true);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) CHECK(z[i * 4 + j] == (j <= i + 1 ? s[i * 4 + j] : 0.f));
  const auto s2 = rel_shift(x.data(), 4, 3), z2 = rel_shift(x.data(), 4, 3, true);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) CHECK(z2[i * 3 + j] == (j <= i - 1 ? s2[i * 3 + j] : 0.f));
}

TEST_CASE("DeBERTa: relative positions i − j, log buckets, c2c/c2p/p2c and the √(d·(1+terms)) scale") {
  // exact region and the reference's formula in double away from ceil boundaries
  const int bs = 256, mp = 512, mid = 128;
  for (long long r = -3000; r <= 3000; ++r) {
    const long long got = deberta_log_bucket(r, bs, mp);
    if (std::llabs(r) <= mid) {
      CHECK(got == r);
      continue;
    }
    const double x = std::log(double(std::llabs(r)) / mid) / std::log(double(mp - 1) / mid) * (mid - 1);
    if (std::fabs(x - std::round(x)) < 1e-4) continue;
    CHECK(got == (r > 0 ? 1 : -1) * ((long long)std::ceil(x) + mid));
  }
  // No silent fallback: buckets without max_relative_positions are an error, not plain δ
  CHECK(testutil::error_of([] { deberta_relative_positions(4, 4, 256, -1); }).rfind("max_relative_positions: required (>= 1) when position_buckets > 0", 0) == 0);
  CHECK(testutil::error_of([] { deberta_log_bucket(300, 256, 0); }).rfind("max_relative_positions:", 0) == 0);
  CHECK(deberta_relative_positions(2, 2, -1, 512) == std::vector<int>{0, -1, 1, 0});  // no buckets: δ = i − j
  CHECK(deberta_log_bucket(511, bs, mp) == 255);
  CHECK(deberta_log_bucket(-511, bs, mp) == -255);
  const auto rp = deberta_relative_positions(4, 6, -1, -1);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) CHECK(rp[i * 6 + j] == i - j);

  const int n = 10, d = 16;
  for (const int buckets : {-1, 4}) {
    const int span = buckets > 0 ? buckets : 6;  // max_relative_positions 6 without buckets
    const int maxrel = buckets > 0 ? 12 : 6;
    const auto q = testutil::random_vec(n * d, 21), k = testutil::random_vec(n * d, 22);
    const auto pk = testutil::random_vec(2 * span * d, 23), pq = testutil::random_vec(2 * span * d, 24);
    for (int terms = 0; terms < 4; ++terms) {
      const bool c2p = terms & 1, p2c = terms & 2;
      const auto t = deberta_scores(q.data(), k.data(), c2p ? pk.data() : nullptr, p2c ? pq.data() : nullptr, n, d, buckets, maxrel);
      const double scale = std::sqrt(double(d) * (1 + c2p + p2c));
      CHECK(t.scale == Approx(scale).epsilon(1e-7));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          long long delta = i - j;
          if (buckets > 0) {  // independent double log bucket (no boundary cases at these sizes)
            const int md = buckets / 2;
            const long long ab = (delta < md && delta > -md) ? md - 1 : std::llabs(delta);
            if (ab > md)
              delta = (delta > 0 ? 1 : -1) * ((long long)std::ceil(std::log(double(ab) / md) / std::log(double(maxrel - 1) / md) * (md - 1)) + md);
          }
          const int c = int(std::clamp<long long>(delta + span, 0, 2 * span - 1));
          const int e = i * n + j;
          double want = testutil::dot(&q[i * d], &k[j * d], d) / scale;
          CHECK(std::fabs(t.c2c[e] - want) <= kScoreRel * d + kTiny);
          if (c2p) {
            const double x = testutil::dot(&q[i * d], &pk[c * d], d) / scale;
            CHECK(std::fabs(t.c2p[e] - x) <= kScoreRel * d + kTiny);
            want += x;
          }
          if (p2c) {
            const double x = testutil::dot(&k[j * d], &pq[c * d], d) / scale;
            CHECK(std::fabs(t.p2c[e] - x) <= kScoreRel * d + kTiny);
            want += x;
          }
          CHECK(std::fabs(t.score[e] - want) <= 3 * kScoreRel * d + kTiny);
        }
    }
  }
  std::vector<float> z(64);
  CHECK_THROWS_WITH(deberta_scores(z.data(), z.data(), nullptr, nullptr, 2, 4, -1, 0),
                    Catch::StartsWith("max_relative_positions: must be >= 1 when position_buckets <= 0"));
  CHECK_THROWS_WITH(deberta_log_bucket(3, 256, 100), Catch::StartsWith("max_relative_positions: must be > position_buckets/2 + 1"));
}

TEST_CASE("TUPE untied positional term equals (p U_q)(p U_k)ᵀ/√(2·head_dim) per head") {
  const int n = 7, M = 12, H = 2, Dh = 5;
  const auto p = testutil::random_vec(n * M, 31), uq = testutil::random_vec(M * H * Dh, 32), uk = testutil::random_vec(M * H * Dh, 33);
  const auto s = tupe_position_scores(p.data(), uq.data(), uk.data(), n, M, H, Dh);
  for (int h = 0; h < H; ++h)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double acc = 0;
        for (int c = 0; c < Dh; ++c) {
          double a = 0, b = 0;
          for (int m = 0; m < M; ++m) {
            a += double(p[i * M + m]) * uq[m * H * Dh + h * Dh + c];
            b += double(p[j * M + m]) * uk[m * H * Dh + h * Dh + c];
          }
          acc += a * b;
        }
        CHECK(s[(h * n + i) * n + j] == Approx(acc / std::sqrt(2.0 * Dh)).margin(1e-5 * M));
      }
  CHECK_THROWS_WITH(tupe_position_scores(p.data(), uq.data(), uk.data(), n, M, 0, Dh), Catch::StartsWith("heads: must be an integer in [1, 1024] (got 0)"));
}
