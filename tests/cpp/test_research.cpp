// Research schemes (research.hpp) against closed forms: KERPLE, Sandwich, FIRE, CoPE, stick-breaking, PaTH.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;
using testutil::error_of;

namespace {
constexpr double kRel = 1e-13;
double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }
}  // namespace

TEST_CASE("KERPLE: power −r1·r^r2 and log −r1·log(1 + r2·r)") {
  const auto p = kerple_bias(KerpleKernel::power, 0.5, 1.0, 5);
  for (int r = 0; r < 5; ++r) CHECK(p[r] == Approx(-0.5 * r).epsilon(kRel));   // r2 = 1: ALiBi with slope r1
  const auto q = kerple_bias(KerpleKernel::power, 2.0, 0.5, 101);
  CHECK(q[100] == Approx(-20.0).epsilon(kRel));                                  // −2·√100
  const auto l = kerple_bias(KerpleKernel::log, 1.0, 0.5, 9);
  CHECK(l[0] == 0.0);
  CHECK(l[2] == Approx(-std::log(2.0)).epsilon(kRel));
  CHECK(l[8] == Approx(-std::log(5.0)).epsilon(kRel));
  CHECK(error_of([] { kerple_bias(KerpleKernel::power, 1, 2.5, 4); }).rfind("r2:", 0) == 0);
  CHECK(error_of([] { kerple_bias(KerpleKernel::log, 0, 1, 4); }).rfind("r1:", 0) == 0);
  CHECK(error_of([] { kerple_bias(KerpleKernel::log, 1, 1, 0); }).rfind("count:", 0) == 0);
  // r1, r2 ≤ 1e6: 1e308·r² was −inf, and so was log1p(1e308·r) times anything
  CHECK(error_of([] { kerple_bias(KerpleKernel::power, 1e308, 2, 4); }).rfind("r1: must be at most", 0) == 0);
  CHECK(error_of([] { kerple_bias(KerpleKernel::log, 1, 1e308, 4); }).rfind("r2: must be at most", 0) == 0);
  const auto cap = kerple_bias(KerpleKernel::power, kResearchMaxScale, 2, kMaxSeqLen);
  CHECK(cap.back() == Approx(-1e6 * std::pow(double(kMaxSeqLen - 1), 2)).epsilon(kRel));
}

TEST_CASE("Sandwich: (Σ cos(r·10000^(−2k/d)) − d/2)/(h·8/H), 0 at r = 0, head scaling") {
  const int d = 8, H = 8;
  const auto b1 = sandwich_bias(d, H, 1, 50), b4 = sandwich_bias(d, H, 4, 50);
  CHECK(b1[0] == 0.0);
  for (int r : {1, 7, 49}) {
    double s = 0;
    for (int k = 1; k <= d / 2; ++k) s += std::cos(r * std::pow(10000.0, -2.0 * k / d));
    CHECK(b1[r] == Approx(s - d / 2).epsilon(kRel));                // h·8/H = 1 for h = 1, H = 8
    CHECK(b4[r] == Approx((s - d / 2) / 4).epsilon(kRel));
    CHECK(b1[r] < 0);
  }
  CHECK(error_of([] { sandwich_bias(7, 8, 1, 4); }).rfind("head_dim:", 0) == 0);
  CHECK(error_of([] { sandwich_bias(8, 8, 9, 4); }).rfind("head:", 0) == 0);
}

TEST_CASE("FIRE: log(c·r + 1)/(log(c·max(i, L) + 1) + 1e-6); the threshold L holds short queries at one scale") {
  const auto x = fire_distance(0.1, 512, 100, 101);         // i = 100 < L: normaliser log(51.2 + 1)
  const double norm = std::log(52.2) + 1e-6;
  CHECK(x[0] == 0.0);
  CHECK(x[100] == Approx(std::log(11.0) / norm).epsilon(kRel));
  const auto y = fire_distance(0.1, 512, 5000, 5001);       // i > L: r = i maps to just below 1
  CHECK(y[5000] == Approx(std::log(501.0) / (std::log(501.0) + 1e-6)).epsilon(kRel));
  CHECK(y[5000] < 1.0);
  CHECK(error_of([] { fire_distance(0.1, 512, 10, 12); }).rfind("count:", 0) == 0);
  CHECK(error_of([] { fire_distance(-1, 512, 10, 5); }).rfind("c:", 0) == 0);
  // c = 1e308 made ∞/∞ = NaN; c ≤ 1e6, L ≤ 2^31 keep every x in [0, 1)
  CHECK(error_of([] { fire_distance(1e308, 512, 10, 3); }).rfind("c: must be at most", 0) == 0);
  CHECK(error_of([] { fire_distance(0.1, 1e300, 10, 3); }).rfind("L:", 0) == 0);
  const auto z = fire_distance(kResearchMaxScale, kFireMaxL, 10, 11);
  const double zn = std::log(1e6 * kFireMaxL + 1) + 1e-6;
  CHECK(z[10] == Approx(std::log(1e7 + 1) / zn).epsilon(kRel));
}

TEST_CASE("CoPE: constant gate logits z give p_j = (n − j)·σ(z); clamp at npos − 1") {
  const std::vector<double> z(10, 0.0);                     // σ(0) = 1/2: every key counts half
  const auto p = cope_positions(z.data(), 10, 11);
  for (int j = 0; j < 10; ++j) CHECK(p[j] == Approx((10 - j) * 0.5).epsilon(kRel));
  const std::vector<double> z2 = {3, -3, 0, 2};
  const auto q = cope_positions(z2.data(), 4, 3);          // clamp at 2
  CHECK(q[3] == Approx(sigmoid(2)).epsilon(kRel));
  CHECK(q[2] == Approx(sigmoid(2) + 0.5).epsilon(kRel));
  CHECK(q[1] == Approx(sigmoid(2) + 0.5 + sigmoid(-3)).epsilon(kRel));
  CHECK(q[0] == 2.0);
  const std::vector<double> bad = {0, NAN};
  CHECK(error_of([&] { cope_positions(bad.data(), 2, 3); }) == "gate_logits: must be a finite number (got NaN)");   // as JS writes it
  const std::vector<double> inf = {-INFINITY};
  CHECK(error_of([&] { cope_positions(inf.data(), 1, 3); }) == "gate_logits: must be a finite number (got -Infinity)");
}

TEST_CASE("Stick-breaking: constant logit z gives a geometric A(r) = σ(z)(1 − σ(z))^(r−1)") {
  const int n = 40;
  const std::vector<double> z(n, 0.7);
  const auto a = stick_breaking_weights(z.data(), n);
  const double s = sigmoid(0.7);
  double total = 0;
  for (int j = 0; j < n; ++j) {
    const int r = n - j;                                    // the query sits at n: key j is r = n − j back
    CHECK(a[j] == Approx(s * std::pow(1 - s, r - 1)).epsilon(1e-12));
    total += a[j];
  }
  CHECK(total == Approx(1 - std::pow(1 - s, n)).epsilon(1e-12));   // the rest, (1 − σ)^n, stays with the query
  const std::vector<double> z3 = {1, -2, 0.5};
  const auto b = stick_breaking_weights(z3.data(), 3);
  CHECK(b[0] == Approx(sigmoid(1) * (1 - sigmoid(-2)) * (1 - sigmoid(0.5))).epsilon(1e-12));
}

TEST_CASE("PaTH: s_j = qᵀ H_{n−1} ⋯ H_{j+1} k_j against explicit matrices") {
  const int n = 6, d = 4;
  std::vector<double> w(n * d), k(n * d), beta(n), q = {0.3, -0.2, 0.9, 0.1};
  auto rv = testutil::random_vec(n * d, 7);
  for (int t = 0; t < n; ++t) {
    double s = 0;
    for (int c = 0; c < d; ++c) s += double(rv[t * d + c]) * rv[t * d + c];
    for (int c = 0; c < d; ++c) w[t * d + c] = rv[t * d + c] / std::sqrt(s);
    beta[t] = 0.25 + 0.3 * t;
  }
  auto kv = testutil::random_vec(n * d, 8);
  for (int i = 0; i < n * d; ++i) k[i] = kv[i];
  const auto s = path_scores(q.data(), k.data(), w.data(), beta.data(), n, d);
  for (int j = 0; j < n; ++j) {
    // M = H_{n−1} ⋯ H_{j+1} as a dense product, then qᵀ M k_j
    std::vector<double> M(d * d, 0.0);
    for (int a = 0; a < d; ++a) M[a * d + a] = 1;
    for (int t = n - 1; t > j; --t) {
      std::vector<double> R(d * d, 0.0);
      for (int a = 0; a < d; ++a)
        for (int b = 0; b < d; ++b) {
          double x = 0;
          for (int c = 0; c < d; ++c) x += M[a * d + c] * ((c == b) - beta[t] * w[t * d + c] * w[t * d + b]);
          R[a * d + b] = x;
        }
      M = R;
    }
    double want = 0;
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b) want += q[a] * M[a * d + b] * k[j * d + b];
    CHECK(s[j] == Approx(want).epsilon(1e-12).margin(1e-14));
  }
  beta.assign(n, 2.5);
  CHECK(error_of([&] { path_scores(q.data(), k.data(), w.data(), beta.data(), n, d); }).rfind("beta:", 0) == 0);
  beta.assign(n, 1.0);
  w[0] *= 2;
  CHECK(error_of([&] { path_scores(q.data(), k.data(), w.data(), beta.data(), n, d); }).rfind("w:", 0) == 0);
  w[0] /= 2;
  // k is checked like q; a score past float64 is an error, never ±inf
  k[5] = NAN;
  CHECK(error_of([&] { path_scores(q.data(), k.data(), w.data(), beta.data(), n, d); }).rfind("k:", 0) == 0);
  k[5] = 0.5;
  std::vector<double> big(q);
  for (auto& x : big) x *= 1e300;
  for (auto& x : k) x *= 1e300;
  CHECK(error_of([&] { path_scores(big.data(), k.data(), w.data(), beta.data(), n, d); }).rfind("q: q·k overflows", 0) == 0);
}
