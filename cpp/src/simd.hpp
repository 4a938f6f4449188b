// Internal: the SIMD back end. POSENC_SIMD=1 compiles the xsimd kernels for the target's default
// architecture (SSE/AVX natively, SIMD128 under em++ -msimd128); POSENC_SIMD=0 (the wasm build
// without -msimd128) routes every *_simd kernel to its scalar twin.
#pragma once
#ifndef POSENC_SIMD
#define POSENC_SIMD 1
#endif
#if POSENC_SIMD
#include <cmath>
#include <xsimd/xsimd.hpp>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <immintrin.h>
#endif

namespace posenc::simd {
using arch = xsimd::default_arch;
using fbatch = xsimd::batch<float, arch>;
using dbatch = xsimd::batch<double, arch>;
static_assert(2 * dbatch::size == fbatch::size, "a float batch holds two double batches");

/// Two float64 batches → one float32 batch [lo…, hi…], each lane rounded to nearest as static_cast<float>
/// (one instruction per half where the target has it; xsimd has no narrowing conversion). A template only so that
/// the branches for other register widths are not instantiated.
template <class D = dbatch>
inline fbatch narrow(const D& lo, const D& hi) {
#if defined(__wasm_simd128__)
  return fbatch(wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5));
#else
#if defined(__AVX512F__)
  if constexpr (D::size == 8)
    return fbatch(_mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(_mm512_cvtpd_ps(lo))),
                                                      _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1)));
#endif
#if defined(__AVX__)
  if constexpr (D::size == 4)
    return fbatch(_mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1));
#endif
#if defined(__SSE2__)
  if constexpr (D::size == 2) return fbatch(_mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi)));
#endif
  alignas(64) double d[fbatch::size];
  alignas(64) float f[fbatch::size];
  lo.store_aligned(d);
  hi.store_aligned(d + dbatch::size);
  for (std::size_t l = 0; l < fbatch::size; ++l) f[l] = static_cast<float>(d[l]);
  return fbatch::load_aligned(f);
#endif
}

/// sin and cos of float64 angles, for |a| ≤ kSinCosFast (≈ 1.6e6 rad: |pos·θ| for every position ≤ 2^20 and
/// θ ≤ 1): Cody–Waite reduction by π/2 in three 33-bit parts (each n·part exact for n < 2^20, the first
/// subtraction exact by Sterbenz), then fdlibm's minimax polynomials on |r| ≤ π/4 (__kernel_sin/__kernel_cos,
/// sin to r^13, cos to r^14: error about 1 float64 ulp, relative to the result near its zeros too), so the one
/// rounding to float32 decides (tested: tables within 0.5 ulp + 1e-6). Full float64 accuracy also makes these
/// values usable as the seeds of angle addition (rope.cpp). Larger |a|: sincos() below.
constexpr double kSinCosFast = 1647099.0;  // 2^20 · π/2 rounded down
struct SinCos {
  dbatch s, c;
};
XSIMD_INLINE SinCos sincos_fast(const dbatch& a) {
  const dbatch magic(0x1.8p52);  // x + 1.5·2^52 − 1.5·2^52 rounds |x| < 2^51 to the nearest integer (ties even)
  const dbatch n = (a * dbatch(0.63661977236758134308) + magic) - magic;
  const dbatch r = ((a - n * dbatch(1.57079632673412561417e+00)) - n * dbatch(6.07710050630396597660e-11)) -
                   n * dbatch(2.02226624871116645580e-21);
  const dbatch z = r * r;
  const dbatch s = r + r * z * (dbatch(-1.66666666666666324348e-01) + z * (dbatch(8.33333333332248946124e-03) +
                   z * (dbatch(-1.98412698298579493134e-04) + z * (dbatch(2.75573137070700676789e-06) +
                   z * (dbatch(-2.50507602534068634195e-08) + z * dbatch(1.58969099521155010221e-10))))));
  const dbatch c = dbatch(1.0) - dbatch(0.5) * z + z * z * (dbatch(4.16666666666666019037e-02) +
                   z * (dbatch(-1.38888888888741095749e-03) + z * (dbatch(2.48015872894767294178e-05) +
                   z * (dbatch(-2.75573143513906633035e-07) + z * (dbatch(2.08757232129817482790e-09) +
                   z * dbatch(-1.13596475577881948265e-11))))));
  // Quadrant q = n mod 4: sin = (s, c, −s, −c)[q], cos = (c, −s, −c, s)[q].
  const dbatch q = n - dbatch(4.0) * xsimd::floor(n * dbatch(0.25));
  const dbatch h = xsimd::floor(q * dbatch(0.5));  // 1 for q ≥ 2
  const auto odd = (q - dbatch(2.0) * h) == dbatch(1.0);
  const dbatch ss = xsimd::select(odd, c, s), cc = xsimd::select(odd, s, c);
  const dbatch one(1.0), two(2.0);
  const dbatch cneg = xsimd::select(odd, one - h, h);  // cos negative for q = 1, 2
  return {ss * (one - two * h), cc * (one - two * cneg)};
}

/// Any finite angle: sincos_fast where every lane allows it, else std::sin/std::cos per lane (full-range
/// reduction, as the scalar twins; xsimd's large-argument path shifts negative values, which UBSan rejects).
inline SinCos sincos(const dbatch& a) {
  if (xsimd::all(xsimd::abs(a) <= dbatch(kSinCosFast))) return sincos_fast(a);
  alignas(64) double x[dbatch::size], sn[dbatch::size], cs[dbatch::size];
  a.store_aligned(x);
  for (std::size_t l = 0; l < dbatch::size; ++l) sn[l] = std::sin(x[l]), cs[l] = std::cos(x[l]);
  return {dbatch::load_aligned(sn), dbatch::load_aligned(cs)};
}
}  // namespace posenc::simd
#endif

#include <cstddef>
#include <cstring>
namespace posenc::simd {
/// dst[0, n) = src[0, n) for float or int32: four vectors a step in SIMD builds (wasm's memcpy without bulk memory
/// moves 8 bytes at a time), the rest by memcpy.
template <class T>
inline void copy(const T* src, T* dst, std::size_t n) {
  static_assert(sizeof(T) == 4, "float or int32");
  std::size_t j = 0;
#if POSENC_SIMD
  using B = xsimd::batch<T, arch>;
  constexpr std::size_t W = B::size;
  for (; j + 4 * W <= n; j += 4 * W)
    for (std::size_t u = 0; u < 4; ++u) B::load_unaligned(src + j + u * W).store_unaligned(dst + j + u * W);
#endif
  std::memcpy(dst + j, src + j, sizeof(T) * (n - j));
}
}  // namespace posenc::simd
