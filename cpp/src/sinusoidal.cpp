#include "posenc/sinusoidal.hpp"

#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

// sin/cos of pos·ω_i for i < nf into sn, cs (float64). SIMD with xsimd's float64 sincos when built.
void row_sincos(double pos, const double* omega, std::size_t nf, double* sn, double* cs, bool use_simd) {
  std::size_t i = 0;
#if POSENC_SIMD
  if (use_simd) {
    using simd::dbatch;
    const dbatch m(pos);
    for (; i + dbatch::size <= nf; i += dbatch::size) {
      const auto r = xsimd::sincos(m * dbatch::load_unaligned(omega + i));
      r.first.store_unaligned(sn + i);
      r.second.store_unaligned(cs + i);
    }
  }
#else
  (void)use_simd;
#endif
  for (; i < nf; ++i) {
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
  const std::size_t D = static_cast<std::size_t>(d);
  const std::size_t ns = (D + 1) / 2;  // frequencies (sine channels)
  std::vector<double> omega(ns), sn(ns), cs(ns);
  for (std::size_t i = 0; i < ns; ++i) omega[i] = std::pow(base, -2.0 * double(i) / d);
#if POSENC_SIMD
  if (use_simd && positions == nullptr) {
    // Positions 0 … n−1 in blocks p = p0 + s, s < B: angle addition with both factors from float64 sincos,
    //   sin(pω) = sin(p0ω)cos(sω) + cos(p0ω)sin(sω),  cos(pω) = cos(p0ω)cos(sω) − sin(p0ω)sin(sω),
    // evaluated in float64 (error ~1e-16, no recurrence), so rows stay within the 2-ulp contract.
    using simd::dbatch;
    constexpr std::size_t B = 64, W = dbatch::size;
    std::vector<double> CS(B * ns), SN(B * ns), c0(ns), s0(ns);
    for (std::size_t t = 0; t < B; ++t) row_sincos(double(t), omega.data(), ns, &SN[t * ns], &CS[t * ns], true);
    std::vector<double> row(D);  // the row in output order (float64), then converted in one contiguous loop
    const bool inter = layout == SinusoidalLayout::interleaved;
    for (std::size_t p0 = 0; p0 < n; p0 += B) {
      row_sincos(double(p0), omega.data(), ns, s0.data(), c0.data(), true);
      for (std::size_t t = 0; t < B && p0 + t < n; ++t) {
        const double* ct = &CS[t * ns];
        const double* st = &SN[t * ns];
        std::size_t i = 0;
        for (; i + W <= ns && (!inter || 2 * (i + W) <= D); i += W) {
          const dbatch a = dbatch::load_unaligned(&s0[i]), b = dbatch::load_unaligned(&c0[i]);
          const dbatch x = dbatch::load_unaligned(ct + i), y = dbatch::load_unaligned(st + i);
          const dbatch sv = a * x + b * y, cv = b * x - a * y;
          if (inter) {  // [s_i, c_i, s_i+1, c_i+1, …]
            xsimd::zip_lo(sv, cv).store_unaligned(&row[2 * i]);
            xsimd::zip_hi(sv, cv).store_unaligned(&row[2 * i + W]);
          } else {  // [s_0 … s_ns−1 | c_0 … c_nc−1]: cosines via cs, placed after the loop
            sv.store_unaligned(&row[i]);
            cv.store_unaligned(&cs[i]);
          }
        }
        for (; i < ns; ++i) {
          const double sv = s0[i] * ct[i] + c0[i] * st[i], cv = c0[i] * ct[i] - s0[i] * st[i];
          if (inter) {
            row[2 * i] = sv;
            if (2 * i + 1 < D) row[2 * i + 1] = cv;
          } else {
            row[i] = sv;
            cs[i] = cv;
          }
        }
        if (!inter) std::copy(cs.begin(), cs.begin() + std::ptrdiff_t(D - ns), row.begin() + std::ptrdiff_t(ns));
        float* o = out + (p0 + t) * D;
        for (std::size_t j = 0; j < D; ++j) o[j] = static_cast<float>(row[j]);
      }
    }
    return;
  }
#endif
  for (std::size_t p = 0; p < n; ++p) {
    row_sincos(positions ? positions[p] : double(p), omega.data(), ns, sn.data(), cs.data(), use_simd);
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
