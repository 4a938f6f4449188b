#include "posenc/rope.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "parallel.hpp"
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
  detail::require_rope_base("rope_theta", rope_theta, rotary_dim);
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
  positions = detail::positions_or_range(positions, static_cast<std::size_t>(shape.seq), pos);
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

#if POSENC_SIMD
namespace {
using simd::dbatch;
using simd::fbatch;
constexpr std::size_t kW = dbatch::size, kF = 2 * kW;  // float64 lanes; frequencies per float32 store
constexpr std::size_t kBlock = 32;                      // rows per angle-addition block (one exact seed each)
constexpr double kNoCorrection = 4096;                  // |angle| up to which ε is not needed (see angle_rows)
constexpr std::size_t kThreadEntries = std::size_t(1) << 19;  // threads build: tables of fewer entries stay serial

// Where the float32 results go: split tables (cos and sin, row stride `stride`) or sinusoidal's interleaved rows
// [sin_i, cos_i, …]. put(): kF entries from frequency i of row p; put1(): one entry.
struct SplitStore {
  float *cos, *sin;
  std::size_t stride;
  void put(std::size_t p, std::size_t i, const fbatch& c, const fbatch& s) const {
    c.store_unaligned(cos + p * stride + i);
    s.store_unaligned(sin + p * stride + i);
  }
  void put1(std::size_t p, std::size_t i, float c, float s) const { cos[p * stride + i] = c, sin[p * stride + i] = s; }
};
struct PairStore {
  float* out;
  std::size_t stride;
  void put(std::size_t p, std::size_t i, const fbatch& c, const fbatch& s) const {
    float* o = out + p * stride + 2 * i;
    xsimd::zip_lo(s, c).store_unaligned(o);
    xsimd::zip_hi(s, c).store_unaligned(o + kF);
  }
  void put1(std::size_t p, std::size_t i, float c, float s) const { out[p * stride + 2 * i] = s, out[p * stride + 2 * i + 1] = c; }
};

// scale·cos(a), scale·sin(a) of 2 float64 batches of angles, rounded to float32 (direct evaluation).
template <bool Fast>
XSIMD_INLINE void direct(const dbatch& a0, const dbatch& a1, const dbatch& sc, fbatch& c, fbatch& s) {
  const simd::SinCos x = Fast ? simd::sincos_fast(a0) : simd::sincos(a0);
  const simd::SinCos y = Fast ? simd::sincos_fast(a1) : simd::sincos(a1);
  c = simd::narrow(sc * x.c, sc * y.c);
  s = simd::narrow(sc * x.s, sc * y.s);
}

// The rare direct evaluation inside the angle-addition loop, out of line (keeps the loop's registers free).
__attribute__((noinline)) void recompute(double pos, const double* inv, double scale, fbatch& c, fbatch& s) {
  const dbatch m(pos);
  direct<true>(m * dbatch::load_unaligned(inv), m * dbatch::load_unaligned(inv + kW), dbatch(scale), c, s);
}

// Every entry is float(scale·cos(A)), float(scale·sin(A)) with A = fl(pos_p·θ_i), the float64 product.
// Rows whose position is not part of a run are evaluated directly (simd::sincos, float64 throughout).
// Runs of kBlock consecutive positions P, P+1, … (P = 0 or P ≥ kBlock−1, all angles in sincos_fast's range) use
// angle addition from one exact seed per block, with no recurrence (so no error builds up):
//   with A0 = fl(Pθ) (seed: cos A0, sin A0 by sincos_fast), T = fl(tθ) (table: cos T, sin T, once per call) and
//   δ = A − A0 (exact by Sterbenz, as A ≤ 2·A0), ε = δ − T (exact again; |ε| ≲ 2^-52·|A|) corrects T to δ:
//     cos δ = cos T − ε·sin T,  sin δ = sin T + ε·cos T   (ε² ≤ 2^-60 is dropped),
//     cos A = cos A0·cos δ − sin A0·sin δ,  sin A = sin A0·cos δ + cos A0·sin δ,
//   so the entry reproduces the float64 angle of the direct path. Where every angle of a batch of frequencies in
//   the block is ≤ kNoCorrection, ε (≤ 3·2^-53·|A|, ≤ 1.4e-12) is left out: ≤ 0.01 ulp of any value ≥ 2^-8. Each product adds ~2^-53 absolute error,
//   harmless except where the value itself is near 0: a float32 result below 2^-8·|scale| is recomputed
//   directly (relative accuracy there; ~2 in 100 batches). Every value then lies within ~1e-15 absolute
//   (~1e-5 ulp for values ≥ 2^-8) of float64 truth before the one rounding to float32.
template <class Store>
void angle_rows(const double* inv, std::size_t nfreq, const double* pos, std::size_t n, double scale, const Store& st) {
  const std::size_t nv = nfreq / kF * kF;  // frequencies in SIMD batches; the rest are scalar
  double max_inv = 0;
  for (std::size_t i = 0; i < nfreq; ++i) max_inv = std::max(max_inv, std::fabs(inv[i]));
  const double lim = simd::kSinCosFast * 0.999;
  const dbatch sc(scale);
  const fbatch tiny(static_cast<float>(std::ldexp(std::fabs(scale), -8)));
  auto scalar_tail = [&](std::size_t p) {
    for (std::size_t i = nv; i < nfreq; ++i) {
      const double a = pos[p] * inv[i];
      st.put1(p, i, static_cast<float>(scale * std::cos(a)), static_cast<float>(scale * std::sin(a)));
    }
  };
  auto direct_row = [&](std::size_t p) {
    const dbatch m(pos[p]);
    const bool fast = std::fabs(pos[p]) * max_inv < lim;
    fbatch c, s;
    for (std::size_t i = 0; i < nv; i += kF) {
      const dbatch a0 = m * dbatch::load_unaligned(inv + i), a1 = m * dbatch::load_unaligned(inv + i + kW);
      if (fast) direct<true>(a0, a1, sc, c, s);
      else direct<false>(a0, a1, sc, c, s);
      st.put(p, i, c, s);
    }
    scalar_tail(p);
  };
  // cos T, sin T for t < kBlock (filled at the first block); the block's seeds A0, scale·cos A0, scale·sin A0.
  std::vector<double> ct, stab, a0v(nv), c0v(nv), s0v(nv), cmax(nv / kF);
  for (std::size_t i = 0; i < nv; ++i) cmax[i / kF] = std::max(cmax[i / kF], std::fabs(inv[i]));
  for (std::size_t p0 = 0; p0 < n;) {
    const std::size_t len = std::min(kBlock, n - p0);
    const double P = pos[p0];
    bool run = nv > 0 && len > 1 && (P == 0 || P >= double(kBlock - 1)) && (P + double(kBlock)) * max_inv < lim;
    for (std::size_t t = 1; run && t < len; ++t) run = pos[p0 + t] == P + double(t);
    if (!run) {
      direct_row(p0++);
      continue;
    }
    if (ct.empty()) {
      ct.resize(kBlock * nv), stab.resize(kBlock * nv);
      for (std::size_t t = 0; t < kBlock; ++t)
        for (std::size_t i = 0; i < nv; i += kW) {
          const simd::SinCos r = simd::sincos_fast(dbatch(double(t)) * dbatch::load_unaligned(inv + i));
          r.c.store_unaligned(&ct[t * nv + i]);
          r.s.store_unaligned(&stab[t * nv + i]);
        }
    }
    for (std::size_t i = 0; i < nv; i += kW) {
      const dbatch a = dbatch(P) * dbatch::load_unaligned(inv + i);
      const simd::SinCos r = simd::sincos_fast(a);
      a.store_unaligned(&a0v[i]);
      (sc * r.c).store_unaligned(&c0v[i]);
      (sc * r.s).store_unaligned(&s0v[i]);
    }
    for (std::size_t t = 0; t < len; ++t) {
      const std::size_t p = p0 + t;
      const dbatch m(pos[p]), tt(static_cast<double>(t));
      const double* ctr = &ct[t * nv];
      const double* str = &stab[t * nv];
      for (std::size_t i = 0; i < nv; i += kF) {
        dbatch C[2], S[2];
        const bool exact = (P + double(kBlock)) * cmax[i / kF] <= kNoCorrection;
        for (std::size_t h = 0; h < 2; ++h) {
          const std::size_t j = i + h * kW;
          dbatch cd = dbatch::load_unaligned(ctr + j), sd = dbatch::load_unaligned(str + j);
          if (!exact) {
            const dbatch th = dbatch::load_unaligned(inv + j);
            const dbatch eps = ((m * th) - dbatch::load_unaligned(&a0v[j])) - tt * th;
            const dbatch cT = cd;
            cd = cT - eps * sd;
            sd = sd + eps * cT;
          }
          const dbatch c0 = dbatch::load_unaligned(&c0v[j]), s0 = dbatch::load_unaligned(&s0v[j]);
          C[h] = c0 * cd - s0 * sd;
          S[h] = s0 * cd + c0 * sd;
        }
        fbatch c = simd::narrow(C[0], C[1]), s = simd::narrow(S[0], S[1]);
        if (xsimd::any(xsimd::min(xsimd::abs(c), xsimd::abs(s)) < tiny)) recompute(pos[p], inv + i, scale, c, s);
        st.put(p, i, c, s);
      }
      scalar_tail(p);
    }
    p0 += len;
  }
}

// f(begin, end) over the rows [0, n) of an nfreq-frequency table, in parts of whole kBlock-row blocks (threads build;
// so the blocks, and the results, are those of one serial call); tables under kThreadEntries entries in one part.
template <class F>
void in_row_parts(std::size_t n, std::size_t nfreq, F&& f) {
  detail::parallel_for(n, kBlock, kThreadEntries / std::max<std::size_t>(nfreq, 1), f);
}
}  // namespace
#endif

void angle_tables_simd(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                       double scale, float* cos_out, float* sin_out, std::size_t stride) {
#if POSENC_SIMD
  in_row_parts(n, nfreq, [&](std::size_t b, std::size_t e) {
    angle_rows(inv_freq, nfreq, positions + b, e - b, scale, SplitStore{cos_out + b * stride, sin_out + b * stride, stride});
  });
#else
  angle_tables_scalar(inv_freq, nfreq, positions, n, scale, cos_out, sin_out, stride);
#endif
}

void sincos_pairs_scalar(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                         float* out, std::size_t stride) {
  for (std::size_t p = 0; p < n; ++p)
    for (std::size_t i = 0; i < nfreq; ++i) {
      const double a = positions[p] * inv_freq[i];
      out[p * stride + 2 * i] = static_cast<float>(std::sin(a));
      out[p * stride + 2 * i + 1] = static_cast<float>(std::cos(a));
    }
}

void sincos_pairs_simd(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                       float* out, std::size_t stride) {
#if POSENC_SIMD
  in_row_parts(n, nfreq, [&](std::size_t b, std::size_t e) {
    angle_rows(inv_freq, nfreq, positions + b, e - b, 1.0, PairStore{out + b * stride, stride});
  });
#else
  sincos_pairs_scalar(inv_freq, nfreq, positions, n, out, stride);
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

unsigned thread_count() { return detail::thread_count(); }

const char* simd_arch_name() {
#if POSENC_SIMD
  return simd::arch::name();
#else
  return "scalar";
#endif
}
}  // namespace kernels
}  // namespace posenc
