#include "posenc/xpos.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {
// log(1e298): frequencies up to 1e298 keep pos·θ finite for every |pos| ≤ 2^31.
const double kLogMaxFrequency = std::log(1e298);

void validate(int rotary_dim, const XposOptions& o) {
  detail::require_int_range("rotary_dim", rotary_dim, 2, kMaxHeadDim);
  detail::require_even("rotary_dim", rotary_dim);
  detail::require_finite_positive("scale_base", o.scale_base);
  detail::require_finite_positive("gamma", o.gamma);
  detail::require_finite_positive("rope_theta", o.rope_theta);
  // θ_i = rope_theta^(−2i/d) ≤ rope_theta^(−(d−2)/d): a base below 1 must keep it ≤ 1e298 (finite angles).
  if (-double(rotary_dim - 2) / rotary_dim * std::log(o.rope_theta) > kLogMaxFrequency) {
    detail::fail("rope_theta", "the largest frequency rope_theta^(-(d-2)/d) must be <= 1e298 (got rope_theta " +
                                   detail::format_number(o.rope_theta) + ")");
  }
}

// Every |c| ≤ the bound keeps each scale ζ_i^(±c/scale_base) within [2^-64, 2^64].
void require_centred(const char* param, double max_abs_c, int rotary_dim, const XposOptions& o) {
  const double bound = xpos_max_centred(rotary_dim, o);
  if (!(max_abs_c <= bound)) {
    detail::fail(param, "|centred position| must be <= " + detail::format_number(std::floor(bound)) +
                            " for scale_base " + detail::format_number(o.scale_base) + ", gamma " + detail::format_number(o.gamma) +
                            " (every scale zeta^(c/scale_base) within [2^-64, 2^64]; raise scale_base for longer sequences) (got " +
                            detail::format_number(max_abs_c) + ")");
  }
}
}  // namespace

std::vector<double> xpos_zeta(int rotary_dim, double gamma) {
  detail::require_int_range("rotary_dim", rotary_dim, 2, kMaxHeadDim);
  detail::require_even("rotary_dim", rotary_dim);
  detail::require_finite_positive("gamma", gamma);
  std::vector<double> z(static_cast<std::size_t>(rotary_dim / 2));
  // (2i + γd)/((1 + γ)d) written without γ·d, which overflows for γ near DBL_MAX.
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = (2.0 * double(i) / rotary_dim + gamma) / (1.0 + gamma);
  return z;
}

double xpos_max_centred(int rotary_dim, const XposOptions& o) {
  validate(rotary_dim, o);
  // ζ_0 = γ/(1+γ) is the smallest ζ, so |ln ζ_0| bounds every |ln ζ_i|.
  return kXposMaxLogScale * o.scale_base / -std::log(xpos_zeta(rotary_dim, o.gamma)[0]);
}

std::vector<double> xpos_centre(const double* positions, std::size_t n) {
  detail::require_positions("positions", positions, n);
  double last = -kMaxAbsPosition;
  for (std::size_t p = 0; p < n; ++p) last = std::max(last, positions[p]);
  // torchscale: min_pos = −(length + offset) // 2 with length + offset = last position + 1 (floor division)
  const double shift = std::floor(-(last + 1) / 2);
  std::vector<double> c(n);
  for (std::size_t p = 0; p < n; ++p) c[p] = positions[p] + shift;
  return c;
}

void xpos_tables(int rotary_dim, const XposOptions& o, const double* positions, const double* centred, std::size_t n,
                 bool downscale, float* cos_out, float* sin_out) {
  validate(rotary_dim, o);
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n) * (rotary_dim / 2));
  detail::require_positions("positions", positions, n);
  std::vector<double> own;
  if (centred == nullptr) own = xpos_centre(positions, n), centred = own.data();
  detail::require_positions("centred", centred, n);
  double max_abs_c = 0;
  for (std::size_t p = 0; p < n; ++p) max_abs_c = std::max(max_abs_c, std::fabs(centred[p]));
  require_centred("centred", max_abs_c, rotary_dim, o);
  const auto zeta = xpos_zeta(rotary_dim, o.gamma);
  std::vector<double> inv(zeta.size()), lz(zeta.size()), ex(n);
  for (std::size_t i = 0; i < zeta.size(); ++i) {
    inv[i] = std::pow(o.rope_theta, -2.0 * double(i) / rotary_dim);
    lz[i] = std::log(zeta[i]);
  }
  for (std::size_t p = 0; p < n; ++p) ex[p] = (downscale ? -centred[p] : centred[p]) / o.scale_base;
  kernels::xpos_tables_simd(inv.data(), lz.data(), inv.size(), positions, ex.data(), n, cos_out, sin_out);
}

void xpos_apply(const float* x, float* out, const RopeShape& shape, int offset, bool downscale, const XposOptions& o,
                RopeLayout layout) {
  detail::require_int_range("seq", shape.seq, 0, kMaxSeqLen);
  detail::require_int_range("head_dim", shape.head_dim, 1, kMaxHeadDim);
  detail::require_int_range("offset", offset, 0, kMaxSeqLen);
  const int rot = shape.rotary_dim == 0 ? shape.head_dim : shape.rotary_dim;
  validate(rot, o);
  const long long total = 1LL * shape.seq + offset;
  // Python: min_pos = -(length + offset) // 2  (floor division); centred positions run from min_pos to total−1+min_pos.
  const long long min_pos = -((total + 1) / 2);
  const double bound = std::floor(xpos_max_centred(rot, o));
  if (double(-min_pos) > bound) {
    detail::fail(offset > 0 ? "offset" : "seq", "seq + offset must be <= " + detail::format_number(2 * bound) + " for scale_base " +
                     detail::format_number(o.scale_base) + ", gamma " + detail::format_number(o.gamma) +
                     " (centred |c| <= " + detail::format_number(bound) +
                     ": every scale zeta^(c/scale_base) within [2^-64, 2^64]; raise scale_base for longer sequences) (got " +
                     std::to_string(total) + ")");
  }
  std::vector<double> pos(static_cast<std::size_t>(shape.seq)), cen(pos.size());
  for (int s = 0; s < shape.seq; ++s) {
    pos[static_cast<std::size_t>(s)] = double(offset + s);
    cen[static_cast<std::size_t>(s)] = double(offset + s + min_pos);
  }
  const std::size_t half = static_cast<std::size_t>(rot / 2);
  std::vector<float> c(pos.size() * half), sn(c.size());
  xpos_tables(rot, o, pos.data(), cen.data(), pos.size(), downscale, c.data(), sn.data());
  rope_apply(x, out, shape, layout, c.data(), sn.data());
}

namespace kernels {
void xpos_tables_scalar(const double* inv_freq, const double* log_zeta, std::size_t half, const double* positions,
                        const double* exponents, std::size_t n, float* cos_out, float* sin_out) {
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t i = 0; i < half; ++i) {
      const double a = positions[p] * inv_freq[i], sc = std::exp(exponents[p] * log_zeta[i]);
      cos_out[p * half + i] = static_cast<float>(sc * std::cos(a));
      sin_out[p * half + i] = static_cast<float>(sc * std::sin(a));
    }
}

void xpos_tables_simd(const double* inv_freq, const double* log_zeta, std::size_t half, const double* positions,
                      const double* exponents, std::size_t n, float* cos_out, float* sin_out) {
#if POSENC_SIMD
  // cos and sin by RoPE's angle kernel (rope.hpp: angle addition along runs of consecutive positions, each entry
  // the float64 value rounded once), then each times its float64 scale ζ_i^e_p (xsimd::exp) and rounded again:
  // ≤ 0.5 + 0.5 ulp + the scale's float64 error, within the documented 2 ulp.
  using simd::dbatch;
  constexpr std::size_t W = dbatch::size;
  angle_tables_simd(inv_freq, half, positions, n, 1.0, cos_out, sin_out, half);
  alignas(64) double sc[W];
  for (std::size_t p = 0; p < n; ++p) {
    const dbatch e(exponents[p]);
    float* co = cos_out + p * half;
    float* so = sin_out + p * half;
    std::size_t i = 0;
    for (; i + W <= half; i += W) {
      xsimd::exp(e * dbatch::load_unaligned(log_zeta + i)).store_aligned(sc);
      for (std::size_t l = 0; l < W; ++l) {
        co[i + l] = static_cast<float>(sc[l] * double(co[i + l]));
        so[i + l] = static_cast<float>(sc[l] * double(so[i + l]));
      }
    }
    for (; i < half; ++i) {
      const double s = std::exp(exponents[p] * log_zeta[i]);
      co[i] = static_cast<float>(s * double(co[i]));
      so[i] = static_cast<float>(s * double(so[i]));
    }
  }
#else
  xpos_tables_scalar(inv_freq, log_zeta, half, positions, exponents, n, cos_out, sin_out);
#endif
}
}  // namespace kernels
}  // namespace posenc
