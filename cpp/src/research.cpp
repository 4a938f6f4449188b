#include "posenc/research.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"

namespace posenc {
namespace {
void require_count(const char* param, long long n) { detail::require_int_range(param, n, 1, kMaxSeqLen); }

void require_finite(const char* param, double v) {
  if (!std::isfinite(v)) detail::fail(param, "must be a finite number (got " + detail::format_number(v) + ")");
}

/// finite, > 0 and at most `hi` (the caps that keep every curve finite: research.hpp).
void require_positive_at_most(const char* param, double v, double hi) {
  detail::require_finite_positive(param, v);
  if (v > hi) detail::fail(param, "must be at most " + detail::format_number(hi) + " (got " + detail::format_number(v) + ")");
}

/// log σ(z) = −softplus(−z), stable for every finite z.
double log_sigmoid(double z) { return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z)); }
}  // namespace

std::vector<double> kerple_bias(KerpleKernel kernel, double r1, double r2, long long count) {
  if (kernel != KerpleKernel::power && kernel != KerpleKernel::log) detail::fail("kernel", "must be power or log");
  require_positive_at_most("r1", r1, kResearchMaxScale);
  require_positive_at_most("r2", r2, kResearchMaxScale);
  if (kernel == KerpleKernel::power && r2 > 2)
    detail::fail("r2", "must be in (0, 2] for the power kernel (got " + detail::format_number(r2) + ")");
  require_count("count", count);
  std::vector<double> b(static_cast<std::size_t>(count));
  for (long long r = 0; r < count; ++r)
    b[std::size_t(r)] = kernel == KerpleKernel::power ? -r1 * std::pow(double(r), r2) : -r1 * std::log1p(r2 * double(r));
  return b;
}

std::vector<double> sandwich_bias(int head_dim, int num_heads, int head, long long count) {
  detail::require_int_range("head_dim", head_dim, 2, kMaxHeadDim);
  detail::require_even("head_dim", head_dim);
  detail::require_int_range("num_heads", num_heads, 1, kMaxHeads);
  detail::require_int_range("head", head, 1, num_heads);
  require_count("count", count);
  detail::require_output_cap("count*head_dim/2", count * (head_dim / 2));
  const int half = head_dim / 2;
  std::vector<double> inv(static_cast<std::size_t>(half));
  for (int k = 1; k <= half; ++k) inv[std::size_t(k - 1)] = std::pow(10000.0, -2.0 * k / head_dim);  // NeMo: arange(1, d/2 + 1)
  const double scale = double(head) * 8.0 / double(num_heads);
  std::vector<double> b(static_cast<std::size_t>(count));
  for (long long r = 0; r < count; ++r) {
    double s = 0;
    for (double f : inv) s += std::cos(double(r) * f);
    b[std::size_t(r)] = (s - half) / scale;
  }
  return b;
}

std::vector<double> fire_distance(double c, double L, long long query_position, long long count) {
  require_positive_at_most("c", c, kResearchMaxScale);
  require_finite("L", L);
  if (L < 0 || L > kFireMaxL) detail::fail("L", "must be in [0, 2^31] (got " + detail::format_number(L) + ")");
  detail::require_int_range("query_position", query_position, 0, kMaxSeqLen - 1);
  detail::require_int_range("count", count, 1, query_position + 1);
  constexpr double eps = 1e-6;
  const double norm = std::log(std::fabs(c * std::max(double(query_position), L)) + 1) + eps;
  std::vector<double> x(static_cast<std::size_t>(count));
  for (long long r = 0; r < count; ++r) x[std::size_t(r)] = std::log(std::fabs(c * double(r)) + 1) / norm;
  return x;
}

std::vector<double> cope_positions(const double* gate_logits, long long n, long long npos) {
  require_count("n", n);
  detail::require_int_range("npos", npos, 1, kMaxSeqLen + 1);
  std::vector<double> p(static_cast<std::size_t>(n));
  double sum = 0;
  for (long long j = n; j-- > 0;) {
    const double z = gate_logits[j];
    require_finite("gate_logits", z);
    sum += std::exp(log_sigmoid(z));
    p[std::size_t(j)] = std::min(sum, double(npos - 1));
  }
  return p;
}

std::vector<double> stick_breaking_weights(const double* logits, long long n) {
  require_count("n", n);
  std::vector<double> a(static_cast<std::size_t>(n));
  double cum = 0;  // Σ_{j<t<n} log σ(−z_t)
  for (long long j = n; j-- > 0;) {
    const double z = logits[j];
    require_finite("logits", z);
    a[std::size_t(j)] = std::exp(log_sigmoid(z) + cum);
    cum += log_sigmoid(-z);
  }
  return a;
}

std::vector<double> path_scores(const double* q, const double* k, const double* w, const double* beta, long long n,
                                int head_dim) {
  require_count("n", n);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  detail::require_output_cap("n*head_dim", n * head_dim);
  if (n * head_dim > (1LL << 22)) detail::fail("n*head_dim", "must be at most 2^22 (got " + detail::format_int(n * head_dim) + ")");
  const std::size_t d = static_cast<std::size_t>(head_dim);
  for (long long t = 0; t < n; ++t) {
    const double b = beta[t];
    if (!(b >= 0 && b <= 2)) detail::fail("beta", "every beta must be in [0, 2] (got " + detail::format_number(b) + ")");
    double s = 0;
    for (std::size_t c = 0; c < d; ++c) s += w[std::size_t(t) * d + c] * w[std::size_t(t) * d + c];
    if (!(std::fabs(std::sqrt(s) - 1) <= 1e-6)) detail::fail("w", "every row must have unit length (within 1e-6)");
  }
  std::vector<double> u(q, q + d), out(static_cast<std::size_t>(n));
  for (double x : u) require_finite("q", x);
  for (std::size_t i = 0; i < std::size_t(n) * d; ++i) require_finite("k", k[i]);
  for (long long j = n; j-- > 0;) {
    const double* kj = k + std::size_t(j) * d;
    double s = 0;
    for (std::size_t c = 0; c < d; ++c) s += u[c] * kj[c];
    out[std::size_t(j)] = s;
    // move one step further back: u ← H_j u (H symmetric), so the next key sees qᵀ H_i ⋯ H_j
    const double* wj = w + std::size_t(j) * d;
    double uw = 0;
    for (std::size_t c = 0; c < d; ++c) uw += u[c] * wj[c];
    for (std::size_t c = 0; c < d; ++c) u[c] -= beta[j] * uw * wj[c];
  }
  // |s_j| ≤ |q|·|k_j| (every H_t has norm ≤ 1), so only entries near 1e154 overflow: said, not returned as ±Infinity
  for (double x : out)
    if (!std::isfinite(x)) detail::fail("q", "q·k overflows float64 (entries too large: scale q and k down)");
  return out;
}
}  // namespace posenc
