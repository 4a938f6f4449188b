#include "posenc/sinusoidal.hpp"

#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

// sin/cos of pos·ω_i for i < nf into sn, cs (float64, std::sin/std::cos: the scalar twin).
void row_sincos(double pos, const double* omega, std::size_t nf, double* sn, double* cs) {
  for (std::size_t i = 0; i < nf; ++i) {
    sn[i] = std::sin(pos * omega[i]);
    cs[i] = std::cos(pos * omega[i]);
  }
}

// Writes the float32 row of channels from float64 sines sn[0…ns) and cosines cs[0…nc).
void store_row(const double* sn, const double* cs, std::size_t D, SinusoidalLayout layout, float* o) {
  const std::size_t ns = (D + 1) / 2, nc = D / 2;
  if (layout == SinusoidalLayout::interleaved) {
    for (std::size_t i = 0; i < nc; ++i) {
      o[2 * i] = static_cast<float>(sn[i]);
      o[2 * i + 1] = static_cast<float>(cs[i]);
    }
    if (ns > nc) o[D - 1] = static_cast<float>(sn[ns - 1]);
  } else {
    for (std::size_t i = 0; i < ns; ++i) o[i] = static_cast<float>(sn[i]);
    for (std::size_t i = 0; i < nc; ++i) o[ns + i] = static_cast<float>(cs[i]);
  }
}

void fill(const double* positions, std::size_t n, int d, double base, SinusoidalLayout layout, float* out,
          bool use_simd) {
  if (n == 0) return;  // out may be null then
  const std::size_t D = static_cast<std::size_t>(d);
  const std::size_t ns = (D + 1) / 2, nc = D / 2;  // frequencies (sine channels), cosine channels
  std::vector<double> omega(ns), sn(ns), cs(ns);
  for (std::size_t i = 0; i < ns; ++i) omega[i] = std::pow(base, -2.0 * double(i) / d);
#if POSENC_SIMD
  if (use_simd) {
    // The angle kernel shared with RoPE (angle addition along runs of consecutive positions, float64 seeds; see
    // rope.hpp): nc (sin, cos) pairs in the layout's order, and an odd d's last sine column on its own.
    std::vector<double> own;
    positions = detail::positions_or_range(positions, n, own);
    const bool inter = layout == SinusoidalLayout::interleaved;
    if (inter) kernels::sincos_pairs_simd(omega.data(), nc, positions, n, out, D);
    else kernels::angle_tables_simd(omega.data(), nc, positions, n, 1.0, out + ns, out, D);
    if (ns > nc)
      for (std::size_t p = 0; p < n; ++p) out[p * D + (inter ? D - 1 : ns - 1)] = static_cast<float>(std::sin(positions[p] * omega[ns - 1]));
    return;
  }
#else
  (void)use_simd, (void)nc;
#endif
  for (std::size_t p = 0; p < n; ++p) {
    row_sincos(positions ? positions[p] : double(p), omega.data(), ns, sn.data(), cs.data());
    store_row(sn.data(), cs.data(), D, layout, out + p * D);
  }
}
}  // namespace

namespace kernels {
void sinusoidal_simd(const double* positions, std::size_t n, int d, double base, SinusoidalLayout layout,
                     float* out) {
  fill(positions, n, d, base, layout, out, true);
}
void sinusoidal_scalar(const double* positions, std::size_t n, int d, double base, SinusoidalLayout layout,
                       float* out) {
  fill(positions, n, d, base, layout, out, false);
}
}  // namespace kernels

void sinusoidal_table(const double* positions, std::size_t n_positions, int d, double base,
                      SinusoidalLayout layout, float* out) {
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  detail::require_finite_positive("base", base);
  // ω_i = base^(−2i/d), i < ⌈d/2⌉: a base below 1 makes the last one the largest; it must stay ≤ 1e298 so that every
  // angle pos·ω is finite (5e-324 gave ω = +∞: sin, cos of ±∞ and 0·∞ are NaN).
  const int top = 2 * ((d + 1) / 2 - 1);
  if (-double(top) / d * std::log(base) > std::log(1e298)) {
    detail::fail("base", "the largest frequency base^(-" + std::to_string(top) + "/" + std::to_string(d) +
                             ") must be <= 1e298 (got base " + detail::format_number(base) + " with d " + std::to_string(d) + ")");
  }
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*d", static_cast<long long>(n_positions) * d);
  if (layout != SinusoidalLayout::interleaved && layout != SinusoidalLayout::concatenated)
    detail::fail("layout", "must be interleaved or concatenated");
  detail::require_positions("positions", positions, n_positions);
  kernels::sinusoidal_simd(positions, n_positions, d, base, layout, out);
}

std::vector<float> sinusoidal_table(std::size_t n_positions, int d, double base, SinusoidalLayout layout) {
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  detail::require_output_cap("n_positions*d", static_cast<long long>(n_positions) * d);
  std::vector<float> out(n_positions * static_cast<std::size_t>(d));
  sinusoidal_table(nullptr, n_positions, d, base, layout, out.data());
  return out;
}
}  // namespace posenc
