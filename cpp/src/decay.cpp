#include "posenc/decay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

constexpr std::size_t kBlock = 128;  // distances per block (a multiple of every SIMD width)

void validate_freqs(const std::vector<double>& inv_freq) {
  if (inv_freq.empty() || inv_freq.size() > 4096) detail::fail("inv_freq", "must hold 1 … 4096 frequencies (got " + std::to_string(inv_freq.size()) + ")");
  // |θ| ≤ 1e298 keeps every angle r·θ finite for |r| ≤ 2^32 (an infinite angle has no cos/sin).
  for (double f : inv_freq)
    if (!(std::fabs(f) <= 1e298)) detail::fail("inv_freq", "every inverse frequency must be finite with |value| <= 1e298");
}

void validate_count(long long count) { detail::require_int_range("count", count, 0, kMaxSeqLen); }

/// C[i][s] = cos(s·θ_i), S[i][s] = sin(s·θ_i), s < kBlock, float64 rounded once: the angle tables with θ as the
/// "positions" and s as the "frequencies" (the same float64 products s·θ_i).
void block_tables(const std::vector<double>& inv, std::vector<float>& C, std::vector<float>& S) {
  C.resize(inv.size() * kBlock);
  S.resize(C.size());
  double s[kBlock];
  for (std::size_t t = 0; t < kBlock; ++t) s[t] = double(t);
  kernels::angle_tables_simd(s, kBlock, inv.data(), inv.size(), 1.0, C.data(), S.data(), kBlock);
}

/// Block-start coefficients for distance r0: A[i] = hr_i·cos(r0·θ_i) + hi_i·sin(r0·θ_i),
/// B[i] = hi_i·cos(r0·θ_i) − hr_i·sin(r0·θ_i), float64 rounded once.
void block_start(double r0, const std::vector<double>& inv, const std::vector<double>& hr, const std::vector<double>& hi,
                 float* A, float* B) {
  std::size_t i = 0;
#if POSENC_SIMD
  using simd::dbatch;
  constexpr std::size_t W = dbatch::size;
  const dbatch r(r0);
  for (; i + 2 * W <= inv.size(); i += 2 * W) {
    dbatch a[2], b[2];
    for (std::size_t u = 0; u < 2; ++u) {
      const auto cs = simd::sincos(r * dbatch::load_unaligned(&inv[i + u * W]));
      const dbatch x = dbatch::load_unaligned(&hr[i + u * W]), y = dbatch::load_unaligned(&hi[i + u * W]);
      a[u] = x * cs.c + y * cs.s;
      b[u] = y * cs.c - x * cs.s;
    }
    simd::narrow(a[0], a[1]).store_unaligned(A + i);
    simd::narrow(b[0], b[1]).store_unaligned(B + i);
  }
#endif
  for (; i < inv.size(); ++i) {
    const double c0 = std::cos(r0 * inv[i]), s0 = std::sin(r0 * inv[i]);
    A[i] = static_cast<float>(hr[i] * c0 + hi[i] * s0);
    B[i] = static_cast<float>(hi[i] * c0 - hr[i] * s0);
  }
}
}  // namespace

std::vector<float> rope_inner_product_sweep(const float* q, const float* k, int head_dim, int rotary_dim,
                                            RopeLayout layout, const std::vector<double>& inv_freq,
                                            long long q_position, long long k_start, long long count) {
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  if (rotary_dim == 0) rotary_dim = head_dim;
  detail::require_int_range("rotary_dim", rotary_dim, 2, head_dim);
  detail::require_even("rotary_dim", rotary_dim);
  validate_freqs(inv_freq);
  if (inv_freq.size() != static_cast<std::size_t>(rotary_dim / 2))
    detail::fail("inv_freq", "must hold rotary_dim/2 = " + std::to_string(rotary_dim / 2) + " frequencies (got " +
                                 std::to_string(inv_freq.size()) + ")");
  validate_count(count);
  const double lim = kMaxAbsPosition;
  if (std::fabs(double(q_position)) > lim) detail::fail("q_position", "must satisfy |q_position| <= 2147483647");
  if (std::fabs(double(k_start)) > lim || std::fabs(double(k_start + count)) > lim)
    detail::fail("k_start", "k positions must satisfy |position| <= 2147483647");
  const std::size_t half = inv_freq.size();
  std::vector<double> hr(half), hi(half);
  for (std::size_t i = 0; i < half; ++i) {
    const std::size_t a = layout == RopeLayout::interleaved ? 2 * i : i;
    const std::size_t b = layout == RopeLayout::interleaved ? 2 * i + 1 : i + half;
    hr[i] = double(q[a]) * k[a] + double(q[b]) * k[b];
    hi[i] = double(q[b]) * k[a] - double(q[a]) * k[b];
  }
  double pass = 0;  // channels after rotary_dim: unrotated
  for (int c = rotary_dim; c < head_dim; ++c) pass += double(q[c]) * k[c];
  std::vector<float> C, S, A(half), B(half), acc(kBlock), out(static_cast<std::size_t>(count));
  block_tables(inv_freq, C, S);
  for (long long b0 = 0; b0 < count; b0 += kBlock) {
    block_start(double(k_start + b0 - q_position), inv_freq, hr, hi, A.data(), B.data());
    const std::size_t n = static_cast<std::size_t>(std::min<long long>(kBlock, count - b0));
    kernels::decay_block_simd(A.data(), B.data(), C.data(), S.data(), half, kBlock, n, acc.data());
    for (std::size_t s = 0; s < n; ++s) out[static_cast<std::size_t>(b0) + s] = static_cast<float>(acc[s] + pass);
  }
  return out;
}

std::vector<float> rope_decay_bound(const std::vector<double>& inv_freq, long long count) {
  validate_freqs(inv_freq);
  validate_count(count);
  const std::size_t half = inv_freq.size();
  std::vector<float> C, S, out(static_cast<std::size_t>(count));
  block_tables(inv_freq, C, S);
  std::vector<float> c0(half), s0(half);
  for (long long b0 = 0; b0 < count; b0 += kBlock) {
    for (std::size_t i = 0; i < half; ++i) {
      c0[i] = static_cast<float>(std::cos(double(b0) * inv_freq[i]));
      s0[i] = static_cast<float>(std::sin(double(b0) * inv_freq[i]));
    }
    const std::size_t n = static_cast<std::size_t>(std::min<long long>(kBlock, count - b0));
    float* o = out.data() + b0;
    std::size_t s = 0;
#if POSENC_SIMD
    using simd::fbatch;
    constexpr std::size_t W = fbatch::size;
    for (; s + W <= n; s += W) {
      fbatch sr(0.f), si(0.f), acc(0.f);
      for (std::size_t i = 0; i < half; ++i) {
        const fbatch cc = fbatch::load_unaligned(&C[i * kBlock + s]), ss = fbatch::load_unaligned(&S[i * kBlock + s]);
        sr += c0[i] * cc - s0[i] * ss;
        si += s0[i] * cc + c0[i] * ss;
        acc += xsimd::sqrt(sr * sr + si * si);
      }
      (acc / float(half)).store_unaligned(o + s);
    }
#endif
    for (; s < n; ++s) {  // scalar twin (and the tail)
      float sr = 0, si = 0, acc = 0;
      for (std::size_t i = 0; i < half; ++i) {
        const float cc = C[i * kBlock + s], ss = S[i * kBlock + s];
        sr += c0[i] * cc - s0[i] * ss;
        si += s0[i] * cc + c0[i] * ss;
        acc += std::sqrt(sr * sr + si * si);
      }
      o[s] = acc / float(half);
    }
  }
  return out;
}

std::vector<float> envelope(const float* values, std::size_t n, int width) {
  detail::require_int_range("width", width, 1, 1 << 16);
  if (n == 0) detail::fail("values", "must not be empty");
  std::vector<float> out(2 * static_cast<std::size_t>(width));
  const float inf = std::numeric_limits<float>::infinity();
  for (int p = 0; p < width; ++p) {
    std::size_t a = std::size_t(p) * n / std::size_t(width), b = std::size_t(p + 1) * n / std::size_t(width);
    if (b <= a) b = std::min(a + 1, n);
    if (a >= n) a = n - 1, b = n;
    float lo = inf, hi = -inf;
    std::size_t j = a;
#if POSENC_SIMD
    using simd::fbatch;
    constexpr std::size_t W = fbatch::size;
    fbatch vlo(inf), vhi(-inf);
    for (; j + W <= b; j += W) {
      const fbatch v = fbatch::load_unaligned(values + j);
      const auto ok = v == v;  // not NaN
      vlo = xsimd::select(ok, xsimd::min(vlo, v), vlo);
      vhi = xsimd::select(ok, xsimd::max(vhi, v), vhi);
    }
    lo = xsimd::reduce_min(vlo);
    hi = xsimd::reduce_max(vhi);
#endif
    for (; j < b; ++j)
      if (values[j] == values[j]) lo = std::min(lo, values[j]), hi = std::max(hi, values[j]);
    out[std::size_t(p)] = lo == inf ? std::numeric_limits<float>::quiet_NaN() : lo;
    out[std::size_t(width) + std::size_t(p)] = hi == -inf ? std::numeric_limits<float>::quiet_NaN() : hi;
  }
  return out;
}

FrequencyAnalysis rope_frequency_analysis(const std::vector<double>& inv_freq, double training_length) {
  validate_freqs(inv_freq);
  detail::require_finite_positive("original_max_position_embeddings", training_length);
  FrequencyAnalysis r;
  const double two_pi = 6.283185307179586476925;
  r.first_incomplete = static_cast<int>(inv_freq.size());
  for (std::size_t i = 0; i < inv_freq.size(); ++i) {
    const double w = inv_freq[i] > 0 ? two_pi / inv_freq[i] : std::numeric_limits<double>::infinity();
    r.wavelength.push_back(w);
    r.rotations.push_back(training_length * inv_freq[i] / two_pi);
    if (w > training_length && r.first_incomplete == static_cast<int>(inv_freq.size())) r.first_incomplete = int(i);
  }
  return r;
}

namespace kernels {
void decay_block_scalar(const float* A, const float* Bc, const float* C, const float* S, std::size_t half,
                        std::size_t block, std::size_t n, float* out) {
  for (std::size_t s = 0; s < n; ++s) {
    float acc = 0;
    for (std::size_t i = 0; i < half; ++i) acc += A[i] * C[i * block + s] + Bc[i] * S[i * block + s];
    out[s] = acc;
  }
}

void decay_block_simd(const float* A, const float* Bc, const float* C, const float* S, std::size_t half,
                      std::size_t block, std::size_t n, float* out) {
#if POSENC_SIMD
  using simd::fbatch;
  constexpr std::size_t W = fbatch::size, U = 4;
  std::size_t s = 0;
  for (; s + U * W <= n; s += U * W) {
    fbatch acc[U];
    for (auto& a : acc) a = fbatch(0.f);
    for (std::size_t i = 0; i < half; ++i) {
      const fbatch a(A[i]), b(Bc[i]);
      const float* c = C + i * block + s;
      const float* sn = S + i * block + s;
      for (std::size_t u = 0; u < U; ++u)
        acc[u] += a * fbatch::load_unaligned(c + u * W) + b * fbatch::load_unaligned(sn + u * W);
    }
    for (std::size_t u = 0; u < U; ++u) acc[u].store_unaligned(out + s + u * W);
  }
  if (s < n) decay_block_scalar(A, Bc, C + s, S + s, half, block, n - s, out + s);
#else
  decay_block_scalar(A, Bc, C, S, half, block, n, out);
#endif
}
}  // namespace kernels
}  // namespace posenc
