#include "posenc/absolute.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope.hpp"
#include "simd.hpp"

namespace posenc {
namespace {
// log(1e298): frequencies up to 1e298 keep position·ω finite for every position |p| ≤ 2^31.
const double kLogMaxFrequency = std::log(1e298);


// t2t rows (the scalar twin): sines into o[0 … h−1], cosines into o[h … 2h−1], a zero in o[d−1] for odd d.
void t2t_fill(const double* positions, std::size_t n, int d, const double* omega, float* out) {
  const std::size_t D = static_cast<std::size_t>(d), h = D / 2;
  for (std::size_t p = 0; p < n; ++p) {
    const double pos = positions ? positions[p] : double(p);
    float* o = out + p * D;
    for (std::size_t i = 0; i < h; ++i) {
      o[i] = static_cast<float>(std::sin(pos * omega[i]));
      o[h + i] = static_cast<float>(std::cos(pos * omega[i]));
    }
    if (D % 2 == 1) o[D - 1] = 0.f;
  }
}

// Index of the sine and cosine channel of frequency i in a layout with d (even) channels.
std::size_t sin_ch(std::size_t i, std::size_t /*d*/, SinusoidalLayout l) { return l == SinusoidalLayout::interleaved ? 2 * i : i; }
std::size_t cos_ch(std::size_t i, std::size_t d, SinusoidalLayout l) {
  return l == SinusoidalLayout::interleaved ? 2 * i + 1 : d / 2 + i;
}

void check_recursive(int d, double base, SinusoidalLayout layout) {
  detail::require_int_range("d", d, 2, kMaxHeadDim);
  detail::require_even("d", d);
  detail::require_finite_positive("base", base);
  // ω_i = base^(−2i/d) ≤ base^(−(d−2)/d): a base below 1 must keep it ≤ 1e298 (cos, sin of a finite angle).
  if (-double(d - 2) / d * std::log(base) > kLogMaxFrequency)
    detail::fail("base", "the largest frequency base^(-(d-2)/d) must be <= 1e298 (got base " + detail::format_number(base) + ")");
  if (layout != SinusoidalLayout::interleaved && layout != SinusoidalLayout::concatenated)
    detail::fail("layout", "must be interleaved or concatenated");
}
}  // namespace

std::vector<double> t2t_inv_timescales(int d, double min_timescale, double max_timescale) {
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  detail::require_finite_positive("min_timescale", min_timescale);
  detail::require_finite_positive("max_timescale", max_timescale);
  const std::size_t h = static_cast<std::size_t>(d) / 2;
  // In log space: max/min and min²/max may overflow or vanish even when both timescales are finite.
  const double lmin = std::log(min_timescale), lmax = std::log(max_timescale);
  const double inc = (lmax - lmin) / double(h > 1 ? h - 1 : 1);
  // ω runs from min (i = 0) to min²/max (i = h − 1): the larger of the two is the largest frequency.
  if (std::max(lmin, h > 1 ? 2 * lmin - lmax : lmin) > kLogMaxFrequency) {
    detail::fail("min_timescale", "the largest frequency max(min_timescale, min_timescale^2/max_timescale) must be <= 1e298 (got min_timescale " +
                                      detail::format_number(min_timescale) + ", max_timescale " + detail::format_number(max_timescale) + ")");
  }
  std::vector<double> omega(h);
  for (std::size_t i = 0; i < h; ++i) omega[i] = std::exp(lmin - double(i) * inc);
  return omega;
}

void sinusoid_t2t(const double* positions, std::size_t n_positions, int d, double min_timescale,
                  double max_timescale, float* out) {
  const auto omega = t2t_inv_timescales(d, min_timescale, max_timescale);
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*d", static_cast<long long>(n_positions) * d);
  detail::require_positions("positions", positions, n_positions);
  kernels::sinusoid_t2t_simd(positions, n_positions, d, omega.data(), out);
}

std::vector<float> sinusoid_t2t(std::size_t n_positions, int d, double min_timescale, double max_timescale) {
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  detail::require_output_cap("n_positions*d", static_cast<long long>(n_positions) * d);
  std::vector<float> out(n_positions * static_cast<std::size_t>(d));
  sinusoid_t2t(nullptr, n_positions, d, min_timescale, max_timescale, out.data());
  return out;
}

std::vector<double> sinusoid_rotation_matrix(int d, double base, SinusoidalLayout layout) {
  check_recursive(d, base, layout);
  const std::size_t D = static_cast<std::size_t>(d);
  detail::require_output_cap("d*d", static_cast<long long>(D * D));
  std::vector<double> R(D * D, 0.0);
  for (std::size_t i = 0; i < D / 2; ++i) {
    const double w = std::pow(base, -2.0 * double(i) / d), c = std::cos(w), s = std::sin(w);
    const std::size_t a = sin_ch(i, D, layout), b = cos_ch(i, D, layout);
    R[a * D + a] = c;   // s' = s·cos ω + c·sin ω
    R[a * D + b] = s;
    R[b * D + a] = -s;  // c' = c·cos ω − s·sin ω
    R[b * D + b] = c;
  }
  return R;
}

std::vector<float> sinusoid_recursive(std::size_t n_positions, int d, double base, SinusoidalLayout layout) {
  check_recursive(d, base, layout);
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*d", static_cast<long long>(n_positions) * d);
  const std::size_t D = static_cast<std::size_t>(d), h = D / 2;
  // The recursion only touches R's 2×2 blocks, so it is applied blockwise (O(d) per step, not O(d²)).
  std::vector<double> cw(h), sw(h), s(h, 0.0), c(h, 1.0);
  for (std::size_t i = 0; i < h; ++i) {
    const double w = std::pow(base, -2.0 * double(i) / d);
    cw[i] = std::cos(w);
    sw[i] = std::sin(w);
  }
  std::vector<float> out(n_positions * D);
  for (std::size_t k = 0; k < n_positions; ++k) {
    float* o = out.data() + k * D;
    for (std::size_t i = 0; i < h; ++i) {
      o[sin_ch(i, D, layout)] = static_cast<float>(s[i]);
      o[cos_ch(i, D, layout)] = static_cast<float>(c[i]);
      const double s1 = s[i] * cw[i] + c[i] * sw[i], c1 = c[i] * cw[i] - s[i] * sw[i];
      s[i] = s1;
      c[i] = c1;
    }
  }
  return out;
}

void multiplicative_pe(const float* x, const float* p, std::size_t n, float* out) {
  detail::require_output_cap("x", static_cast<long long>(n));
  kernels::multiply_simd(x, p, n, out);
}

namespace kernels {
void sinusoid_t2t_simd(const double* positions, std::size_t n, int d, const double* omega, float* out) {
#if POSENC_SIMD
  // The angle kernel shared with RoPE and the sinusoid (rope.hpp: angle addition along runs of consecutive
  // positions from exact float64 seeds, each entry rounded once): sines at o[0 … h−1], cosines at o[h … 2h−1].
  const std::size_t D = static_cast<std::size_t>(d), h = D / 2;
  if (n == 0) return;  // out may be null then
  std::vector<double> own;
  positions = detail::positions_or_range(positions, n, own);
  if (h > 0) angle_tables_simd(omega, h, positions, n, 1.0, out + h, out, D);
  if (D % 2 == 1)
    for (std::size_t p = 0; p < n; ++p) out[p * D + D - 1] = 0.f;
#else
  t2t_fill(positions, n, d, omega, out);
#endif
}
void sinusoid_t2t_scalar(const double* positions, std::size_t n, int d, const double* omega, float* out) {
  t2t_fill(positions, n, d, omega, out);
}

void multiply_scalar(const float* x, const float* p, std::size_t n, float* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = x[i] * p[i];
}
void multiply_simd(const float* x, const float* p, std::size_t n, float* out) {
  std::size_t i = 0;
#if POSENC_SIMD
  using simd::fbatch;
  for (; i + fbatch::size <= n; i += fbatch::size)
    (fbatch::load_unaligned(x + i) * fbatch::load_unaligned(p + i)).store_unaligned(out + i);
#endif
  for (; i < n; ++i) out[i] = x[i] * p[i];
}

void dot_rows_scalar(const float* a, std::size_t na, const float* b, std::size_t nb, std::size_t d, float scale,
                     float* out) {
  for (std::size_t i = 0; i < na; ++i)
    for (std::size_t j = 0; j < nb; ++j) {
      float acc = 0.f;
      for (std::size_t c = 0; c < d; ++c) acc += a[i * d + c] * b[j * d + c];
      out[i * nb + j] = acc * scale;
    }
}
void dot_rows_simd(const float* a, std::size_t na, const float* b, std::size_t nb, std::size_t d, float scale,
                   float* out) {
#if POSENC_SIMD
  using simd::fbatch;
  constexpr std::size_t W = fbatch::size;
  for (std::size_t i = 0; i < na; ++i) {
    const float* ai = a + i * d;
    for (std::size_t j = 0; j < nb; ++j) {
      const float* bj = b + j * d;
      fbatch acc(0.f);
      std::size_t c = 0;
      for (; c + W <= d; c += W) acc += fbatch::load_unaligned(ai + c) * fbatch::load_unaligned(bj + c);
      float tail = 0.f;
      for (; c < d; ++c) tail += ai[c] * bj[c];
      out[i * nb + j] = (xsimd::reduce_add(acc) + tail) * scale;
    }
  }
#else
  dot_rows_scalar(a, na, b, nb, d, scale, out);
#endif
}
}  // namespace kernels
}  // namespace posenc
