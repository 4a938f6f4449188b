// posenc — the language model's kernels (see model_kernels.hpp).
#include "model_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "parallel.hpp"
#include "simd.hpp"

namespace posenc::detail::lm {
namespace {
#if POSENC_SIMD
using B = simd::fbatch;
constexpr int S = static_cast<int>(B::size);

// R rows of y: register tiles of R × 2 batches of outputs, the accumulators summed over i in order.
template <int R>
void mm_rows(const float* x, int I, const float* w, int O, float* y, bool acc) {
  int o = 0;
  for (; o + 2 * S <= O; o += 2 * S) {
    B a[R][2];
    for (int r = 0; r < R; ++r) {
      a[r][0] = acc ? B::load_unaligned(y + std::size_t(r) * O + o) : B(0.f);
      a[r][1] = acc ? B::load_unaligned(y + std::size_t(r) * O + o + S) : B(0.f);
    }
    for (int i = 0; i < I; ++i) {
      const float* wi = w + std::size_t(i) * O + o;
      const B w0 = B::load_unaligned(wi), w1 = B::load_unaligned(wi + S);
      for (int r = 0; r < R; ++r) {
        const B xv(x[std::size_t(r) * I + i]);
        a[r][0] += xv * w0;
        a[r][1] += xv * w1;
      }
    }
    for (int r = 0; r < R; ++r) {
      a[r][0].store_unaligned(y + std::size_t(r) * O + o);
      a[r][1].store_unaligned(y + std::size_t(r) * O + o + S);
    }
  }
  for (; o + S <= O; o += S) {
    B a[R];
    for (int r = 0; r < R; ++r) a[r] = acc ? B::load_unaligned(y + std::size_t(r) * O + o) : B(0.f);
    for (int i = 0; i < I; ++i) {
      const B w0 = B::load_unaligned(w + std::size_t(i) * O + o);
      for (int r = 0; r < R; ++r) a[r] += B(x[std::size_t(r) * I + i]) * w0;
    }
    for (int r = 0; r < R; ++r) a[r].store_unaligned(y + std::size_t(r) * O + o);
  }
  for (; o < O; ++o)
    for (int r = 0; r < R; ++r) {
      float s = acc ? y[std::size_t(r) * O + o] : 0.f;
      for (int i = 0; i < I; ++i) s += x[std::size_t(r) * I + i] * w[std::size_t(i) * O + o];
      y[std::size_t(r) * O + o] = s;
    }
}
#endif

// The scalar twin: the same sums in the same order (i ascending), loops ordered for contiguous w.
void mm_rows_scalar(const float* x, int R, int I, const float* w, int O, float* y, bool acc) {
  for (int r = 0; r < R; ++r) {
    float* yr = y + std::size_t(r) * O;
    if (!acc) std::fill(yr, yr + O, 0.f);
    for (int i = 0; i < I; ++i) {
      const float xv = x[std::size_t(r) * I + i];
      const float* wi = w + std::size_t(i) * O;
      for (int o = 0; o < O; ++o) yr[o] += xv * wi[o];
    }
  }
}
}  // namespace

void matmul(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate) {
  parallel_for(std::size_t(T), 4, 64, [&](std::size_t b, std::size_t e) {
    for (std::size_t t = b; t < e; t += 4) {
      const int R = static_cast<int>(std::min<std::size_t>(4, e - t));
      const float* xt = x + t * I;
      float* yt = y + t * O;
#if POSENC_SIMD
      switch (R) {
        case 4: mm_rows<4>(xt, I, w, O, yt, accumulate); break;
        case 3: mm_rows<3>(xt, I, w, O, yt, accumulate); break;
        case 2: mm_rows<2>(xt, I, w, O, yt, accumulate); break;
        default: mm_rows<1>(xt, I, w, O, yt, accumulate); break;
      }
#else
      mm_rows_scalar(xt, R, I, w, O, yt, accumulate);
#endif
    }
  });
#if POSENC_SIMD
  (void)mm_rows_scalar;
#endif
}

void rmsnorm(const float* x, int T, int E, const float* g, double eps, float* out) {
  for (int t = 0; t < T; ++t) {
    const float* xt = x + std::size_t(t) * E;
    double ss = 0;
    for (int e = 0; e < E; ++e) ss += double(xt[e]) * xt[e];
    const float scale = static_cast<float>(1.0 / std::sqrt(ss / E + eps));
    for (int e = 0; e < E; ++e) out[std::size_t(t) * E + e] = xt[e] * scale * g[e];
  }
}

void scores(const float* q, int D, const float* kt, std::size_t stride, int j0, int j1, float* s) {
  int j = j0;
#if POSENC_SIMD
  for (; j + S <= j1; j += S) {
    B acc(0.f);
    for (int d = 0; d < D; ++d) acc += B(q[d]) * B::load_unaligned(kt + d * stride + j);
    acc.store_unaligned(s + j);
  }
#endif
  for (; j < j1; ++j) {
    float acc = 0.f;
    for (int d = 0; d < D; ++d) acc += q[d] * kt[d * stride + j];
    s[j] = acc;
  }
}

void softmax(float* p, int n) {
  float mx = -std::numeric_limits<float>::infinity();
  int j = 0;
#if POSENC_SIMD
  if (n >= S) {
    B m = B::load_unaligned(p);
    for (j = S; j + S <= n; j += S) m = xsimd::max(m, B::load_unaligned(p + j));
    mx = xsimd::reduce_max(m);
  }
#endif
  for (; j < n; ++j) mx = std::max(mx, p[j]);
  j = 0;
  float sum = 0.f;
#if POSENC_SIMD
  const B m(mx);
  B acc(0.f);
  for (; j + S <= n; j += S) {
    const B e = xsimd::exp(B::load_unaligned(p + j) - m);
    e.store_unaligned(p + j);
    acc += e;
  }
  sum = xsimd::reduce_add(acc);
#endif
  for (; j < n; ++j) sum += (p[j] = std::exp(p[j] - mx));
  const float inv = 1.f / sum;
  j = 0;
#if POSENC_SIMD
  for (; j + S <= n; j += S) (B::load_unaligned(p + j) * B(inv)).store_unaligned(p + j);
#endif
  for (; j < n; ++j) p[j] *= inv;
}

void weighted_sum(const float* p, int n, const float* vt, std::size_t stride, int D, float* out) {
  for (int d = 0; d < D; ++d) {
    const float* v = vt + d * stride;
    int j = 0;
    float s = 0;
#if POSENC_SIMD
    B acc(0.f);
    for (; j + S <= n; j += S) acc += B::load_unaligned(p + j) * B::load_unaligned(v + j);
    s = xsimd::reduce_add(acc);
#endif
    for (; j < n; ++j) s += p[j] * v[j];
    out[d] = s;
  }
}
}  // namespace posenc::detail::lm
