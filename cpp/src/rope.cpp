#include "posenc/rope.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

int effective_rotary_dim(const RopeShape& s) { return s.rotary_dim == 0 ? s.head_dim : s.rotary_dim; }

void validate_shape(const RopeShape& s) {
  detail::require_int_range("seq", s.seq, 0, kMaxSeqLen);
  detail::require_int_range("heads", s.heads, 1, kMaxHeads);
  detail::require_int_range("head_dim", s.head_dim, 1, kMaxHeadDim);
  const int rot = effective_rotary_dim(s);
  detail::require_int_range("rotary_dim", rot, 2, s.head_dim);
  detail::require_even("rotary_dim", rot);
  detail::require_output_cap("seq*heads*head_dim", 1LL * s.seq * s.heads * s.head_dim);
}

#if POSENC_SIMD
struct SwapPairs {
  static constexpr unsigned get(unsigned i, unsigned) { return i ^ 1u; }
};
#endif
}  // namespace

std::vector<double> rope_inv_freq(int rotary_dim, double rope_theta) {
  detail::require_int_range("rotary_dim", rotary_dim, 2, kMaxHeadDim);
  detail::require_even("rotary_dim", rotary_dim);
  detail::require_finite_positive("rope_theta", rope_theta);
  std::vector<double> inv(static_cast<std::size_t>(rotary_dim / 2));
  for (std::size_t i = 0; i < inv.size(); ++i) inv[i] = std::pow(rope_theta, -2.0 * double(i) / rotary_dim);
  return inv;
}

void rope_tables(const std::vector<double>& inv_freq, const double* positions, std::size_t n_positions,
                 float* cos_out, float* sin_out) {
  if (inv_freq.empty()) detail::fail("inv_freq", "must not be empty");
  for (double f : inv_freq)
    if (!std::isfinite(f)) detail::fail("inv_freq", "every inverse frequency must be finite");
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n_positions * inv_freq.size()));
  detail::require_positions("positions", positions, n_positions);
  kernels::rope_tables_simd(inv_freq.data(), inv_freq.size(), positions, n_positions, cos_out, sin_out);
}

void rope_apply(const float* x, float* out, const RopeShape& shape, RopeLayout layout, const float* cos_table,
                const float* sin_table) {
  validate_shape(shape);
  if (layout != RopeLayout::interleaved && layout != RopeLayout::half_split)
    detail::fail("layout", "must be interleaved or half_split");
  kernels::rope_apply_simd(x, out, shape, layout, cos_table, sin_table);
}

void rope_apply_positions(const float* x, float* out, const RopeShape& shape, RopeLayout layout,
                          double rope_theta, const double* positions) {
  validate_shape(shape);
  const int rot = effective_rotary_dim(shape);
  const auto inv = rope_inv_freq(rot, rope_theta);
  std::vector<double> pos;
  if (positions == nullptr) {
    pos.resize(static_cast<std::size_t>(shape.seq));
    for (int i = 0; i < shape.seq; ++i) pos[static_cast<std::size_t>(i)] = i;
    positions = pos.data();
  }
  std::vector<float> c(static_cast<std::size_t>(shape.seq) * inv.size()), s(c.size());
  rope_tables(inv, positions, static_cast<std::size_t>(shape.seq), c.data(), s.data());
  rope_apply(x, out, shape, layout, c.data(), s.data());
}

namespace kernels {

void angle_tables_scalar(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                         double scale, float* cos_out, float* sin_out, std::size_t stride) {
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t i = 0; i < nfreq; ++i) {
      const double a = positions[p] * inv_freq[i];
      cos_out[p * stride + i] = static_cast<float>(scale * std::cos(a));
      sin_out[p * stride + i] = static_cast<float>(scale * std::sin(a));
    }
}

void angle_tables_simd(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                       double scale, float* cos_out, float* sin_out, std::size_t stride) {
#if POSENC_SIMD
  // Angles pos·θ_i in float64 (the reference's product), simd::sincos (float64 range reduction and polynomials),
  // scaled in float64 and rounded once: two float64 batches per float32 store.
  using simd::dbatch;
  constexpr std::size_t W = dbatch::size;
  const dbatch sc(scale);
  double max_inv = 0;
  for (std::size_t i = 0; i < nfreq; ++i) max_inv = std::max(max_inv, std::fabs(inv_freq[i]));
  auto row = [&](std::size_t p, auto sincos) {
    const dbatch m(positions[p]);
    float* co = cos_out + p * stride;
    float* so = sin_out + p * stride;
    std::size_t i = 0;
    for (; i + 2 * W <= nfreq; i += 2 * W) {
      const simd::SinCos lo = sincos(m * dbatch::load_unaligned(inv_freq + i));
      const simd::SinCos hi = sincos(m * dbatch::load_unaligned(inv_freq + i + W));
      simd::narrow(sc * lo.c, sc * hi.c).store_unaligned(co + i);
      simd::narrow(sc * lo.s, sc * hi.s).store_unaligned(so + i);
    }
    for (; i < nfreq; ++i) {
      const double a = positions[p] * inv_freq[i];
      co[i] = static_cast<float>(scale * std::cos(a));
      so[i] = static_cast<float>(scale * std::sin(a));
    }
  };
  for (std::size_t p = 0; p < n; ++p) {
    if (std::fabs(positions[p]) * max_inv < simd::kSinCosFast * 0.999)  // every angle of the row in fast range
      row(p, [](const dbatch& a) { return simd::sincos_fast(a); });
    else
      row(p, [](const dbatch& a) { return simd::sincos(a); });
  }
#else
  angle_tables_scalar(inv_freq, nfreq, positions, n, scale, cos_out, sin_out, stride);
#endif
}

void rope_tables_scalar(const double* inv_freq, std::size_t half, const double* positions, std::size_t n,
                        float* cos_out, float* sin_out) {
  angle_tables_scalar(inv_freq, half, positions, n, 1.0, cos_out, sin_out, half);
}

void rope_tables_simd(const double* inv_freq, std::size_t half, const double* positions, std::size_t n,
                      float* cos_out, float* sin_out) {
  angle_tables_simd(inv_freq, half, positions, n, 1.0, cos_out, sin_out, half);
}

void rope_apply_scalar(const float* x, float* out, const RopeShape& s, RopeLayout layout, const float* cos_t,
                       const float* sin_t) {
  const std::size_t hd = static_cast<std::size_t>(s.head_dim);
  const std::size_t rot = static_cast<std::size_t>(effective_rotary_dim(s)), half = rot / 2;
  for (std::size_t r = 0; r < static_cast<std::size_t>(s.seq); ++r) {
    const float* c = cos_t + r * half;
    const float* sn = sin_t + r * half;
    for (std::size_t h = 0; h < static_cast<std::size_t>(s.heads); ++h) {
      const float* xi = x + (r * s.heads + h) * hd;
      float* o = out + (r * s.heads + h) * hd;
      for (std::size_t i = 0; i < half; ++i) {
        const std::size_t ia = layout == RopeLayout::interleaved ? 2 * i : i;
        const std::size_t ib = layout == RopeLayout::interleaved ? 2 * i + 1 : i + half;
        const float a = xi[ia], b = xi[ib];
        o[ia] = a * c[i] - b * sn[i];
        o[ib] = a * sn[i] + b * c[i];
      }
      for (std::size_t j = rot; j < hd; ++j) o[j] = xi[j];
    }
  }
}

void rope_apply_simd(const float* x, float* out, const RopeShape& s, RopeLayout layout, const float* cos_t,
                     const float* sin_t) {
#if POSENC_SIMD
  using simd::fbatch;
  constexpr std::size_t W = fbatch::size;
  const std::size_t hd = static_cast<std::size_t>(s.head_dim);
  const std::size_t rot = static_cast<std::size_t>(effective_rotary_dim(s)), half = rot / 2;
  std::vector<float> ce, se;  // interleaved: per-row expanded tables [c0,c0,c1,c1…], [−s0,s0,−s1,s1…]
  if (layout == RopeLayout::interleaved) ce.resize(rot), se.resize(rot);
  const auto swap = xsimd::make_batch_constant<uint32_t, simd::arch, SwapPairs>();
  for (std::size_t r = 0; r < static_cast<std::size_t>(s.seq); ++r) {
    const float* c = cos_t + r * half;
    const float* sn = sin_t + r * half;
    if (layout == RopeLayout::interleaved) {
      for (std::size_t i = 0; i < half; ++i) {
        ce[2 * i] = ce[2 * i + 1] = c[i];
        se[2 * i] = -sn[i];
        se[2 * i + 1] = sn[i];
      }
    }
    for (std::size_t h = 0; h < static_cast<std::size_t>(s.heads); ++h) {
      const float* xi = x + (r * s.heads + h) * hd;
      float* o = out + (r * s.heads + h) * hd;
      std::size_t j = 0;
      if (layout == RopeLayout::interleaved) {
        for (; j + W <= rot; j += W) {  // W is even, so a batch never splits a pair
          const fbatch v = fbatch::load_unaligned(xi + j);
          const fbatch res = v * fbatch::load_unaligned(ce.data() + j) +
                             xsimd::swizzle(v, swap) * fbatch::load_unaligned(se.data() + j);
          res.store_unaligned(o + j);
        }
        for (; j < rot; j += 2) {
          const float a = xi[j], b = xi[j + 1];
          o[j] = a * ce[j] + b * se[j];
          o[j + 1] = b * ce[j] + a * se[j + 1];
        }
      } else {
        for (; j + W <= half; j += W) {
          const fbatch a = fbatch::load_unaligned(xi + j), b = fbatch::load_unaligned(xi + j + half);
          const fbatch cc = fbatch::load_unaligned(c + j), ss = fbatch::load_unaligned(sn + j);
          (a * cc - b * ss).store_unaligned(o + j);
          (a * ss + b * cc).store_unaligned(o + j + half);
        }
        for (; j < half; ++j) {
          const float a = xi[j], b = xi[j + half];
          o[j] = a * c[j] - b * sn[j];
          o[j + half] = a * sn[j] + b * c[j];
        }
      }
      if (o != xi)
        for (std::size_t k = rot; k < hd; ++k) o[k] = xi[k];
    }
  }
#else
  rope_apply_scalar(x, out, s, layout, cos_t, sin_t);
#endif
}

std::size_t simd_float_lanes() {
#if POSENC_SIMD
  return simd::fbatch::size;
#else
  return 1;
#endif
}

const char* simd_arch_name() {
#if POSENC_SIMD
  return simd::arch::name();
#else
  return "scalar";
#endif
}
}  // namespace kernels
}  // namespace posenc
