#include "posenc/sinusoidal.hpp"

#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

// sin/cos of pos·ω_i for i < nf into sn, cs (float64). SIMD with simd::sincos (float64) when built.
void row_sincos(double pos, const double* omega, std::size_t nf, double* sn, double* cs, bool use_simd) {
  std::size_t i = 0;
#if POSENC_SIMD
  if (use_simd) {
    using simd::dbatch;
    const dbatch m(pos);
    for (; i + dbatch::size <= nf; i += dbatch::size) {
      const auto r = simd::sincos(m * dbatch::load_unaligned(omega + i));
      r.s.store_unaligned(sn + i);
      r.c.store_unaligned(cs + i);
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
    // evaluated in float64 (error ~1e-16, no recurrence), so rows stay within the 2-ulp contract; each pair of
    // float64 batches is rounded into one float32 store in the output's channel order.
    using simd::dbatch;
    constexpr std::size_t B = 64, W = dbatch::size;
    const std::size_t nc = D / 2;
    std::vector<double> CS(B * ns), SN(B * ns), c0(ns), s0(ns);
    for (std::size_t t = 0; t < B; ++t) row_sincos(double(t), omega.data(), ns, &SN[t * ns], &CS[t * ns], true);
    const bool inter = layout == SinusoidalLayout::interleaved;
    for (std::size_t p0 = 0; p0 < n; p0 += B) {
      row_sincos(double(p0), omega.data(), ns, s0.data(), c0.data(), true);
      for (std::size_t t = 0; t < B && p0 + t < n; ++t) {
        const double* ct = &CS[t * ns];
        const double* st = &SN[t * ns];
        float* o = out + (p0 + t) * D;
        auto at = [&](std::size_t i, dbatch& sv, dbatch& cv) {
          const dbatch a = dbatch::load_unaligned(&s0[i]), b = dbatch::load_unaligned(&c0[i]);
          const dbatch x = dbatch::load_unaligned(ct + i), y = dbatch::load_unaligned(st + i);
          sv = a * x + b * y;
          cv = b * x - a * y;
        };
        std::size_t i = 0;
        if (inter) {  // [s_i, c_i, s_i+1, c_i+1, …]
          for (; i + W <= nc; i += W) {
            dbatch sv, cv;
            at(i, sv, cv);
            simd::narrow(xsimd::zip_lo(sv, cv), xsimd::zip_hi(sv, cv)).store_unaligned(o + 2 * i);
          }
        } else {  // [s_0 … s_ns−1 | c_0 … c_nc−1]
          for (; i + 2 * W <= nc; i += 2 * W) {
            dbatch s1, c1, s2, c2;
            at(i, s1, c1);
            at(i + W, s2, c2);
            simd::narrow(s1, s2).store_unaligned(o + i);
            simd::narrow(c1, c2).store_unaligned(o + ns + i);
          }
        }
        for (; i < ns; ++i) {
          const double sv = s0[i] * ct[i] + c0[i] * st[i], cv = c0[i] * ct[i] - s0[i] * st[i];
          o[inter ? 2 * i : i] = static_cast<float>(sv);
          if (i < nc) o[inter ? 2 * i + 1 : ns + i] = static_cast<float>(cv);
        }
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
