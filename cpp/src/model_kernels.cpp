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
constexpr int kLanes = S;
#else
constexpr int kLanes = 4;
#endif
#if POSENC_SIMD

// R rows of y: register tiles of R × 2 batches of outputs, the accumulators summed over i in order. Row strides: x ldx,
// w ldw, y ldy.
template <int R>
void mm_rows(const float* x, std::size_t ldx, int I, const float* w, std::size_t ldw, int O, float* y, std::size_t ldy, bool acc) {
  int o = 0;
  for (; o + 2 * S <= O; o += 2 * S) {
    B a[R][2];
    for (int r = 0; r < R; ++r) {
      a[r][0] = acc ? B::load_unaligned(y + r * ldy + o) : B(0.f);
      a[r][1] = acc ? B::load_unaligned(y + r * ldy + o + S) : B(0.f);
    }
    for (int i = 0; i < I; ++i) {
      const float* wi = w + i * ldw + o;
      const B w0 = B::load_unaligned(wi), w1 = B::load_unaligned(wi + S);
      for (int r = 0; r < R; ++r) {
        const B xv(x[r * ldx + i]);
        a[r][0] += xv * w0;
        a[r][1] += xv * w1;
      }
    }
    for (int r = 0; r < R; ++r) {
      a[r][0].store_unaligned(y + r * ldy + o);
      a[r][1].store_unaligned(y + r * ldy + o + S);
    }
  }
  for (; o + S <= O; o += S) {
    B a[R];
    for (int r = 0; r < R; ++r) a[r] = acc ? B::load_unaligned(y + r * ldy + o) : B(0.f);
    for (int i = 0; i < I; ++i) {
      const B w0 = B::load_unaligned(w + i * ldw + o);
      for (int r = 0; r < R; ++r) a[r] += B(x[r * ldx + i]) * w0;
    }
    for (int r = 0; r < R; ++r) a[r].store_unaligned(y + r * ldy + o);
  }
  for (; o < O; ++o)
    for (int r = 0; r < R; ++r) {
      float s = acc ? y[r * ldy + o] : 0.f;
      for (int i = 0; i < I; ++i) s += x[r * ldx + i] * w[i * ldw + o];
      y[r * ldy + o] = s;
    }
}
#endif

// The scalar twin: the same sums in the same order (i ascending), loops ordered for contiguous w.
void mm_rows_scalar(const float* x, std::size_t ldx, int R, int I, const float* w, std::size_t ldw, int O, float* y, std::size_t ldy, bool acc) {
  for (int r = 0; r < R; ++r) {
    float* yr = y + r * ldy;
    if (!acc) std::fill(yr, yr + O, 0.f);
    for (int i = 0; i < I; ++i) {
      const float xv = x[r * ldx + i];
      const float* wi = w + i * ldw;
      for (int o = 0; o < O; ++o) yr[o] += xv * wi[o];
    }
  }
}
}  // namespace

void gemm(const float* x, std::size_t ldx, int T, int I, const float* w, std::size_t ldw, int O, float* y, std::size_t ldy, bool accumulate) {
  for (int t = 0; t < T; t += 4) {
    const int R = std::min(4, T - t);
    const float* xt = x + t * ldx;
    float* yt = y + t * ldy;
#if POSENC_SIMD
    switch (R) {
      case 4: mm_rows<4>(xt, ldx, I, w, ldw, O, yt, ldy, accumulate); break;
      case 3: mm_rows<3>(xt, ldx, I, w, ldw, O, yt, ldy, accumulate); break;
      case 2: mm_rows<2>(xt, ldx, I, w, ldw, O, yt, ldy, accumulate); break;
      default: mm_rows<1>(xt, ldx, I, w, ldw, O, yt, ldy, accumulate); break;
    }
#else
    mm_rows_scalar(xt, ldx, R, I, w, ldw, O, yt, ldy, accumulate);
#endif
  }
#if POSENC_SIMD
  (void)mm_rows_scalar;
#endif
}

void matmul_rows(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate) {
  // column blocks of w small enough to stay in cache (≤ 256 KiB) while every row of x passes over them: a large model's
  // weights are then read from memory once per call, not once per 4 rows
  const int block = std::max(2 * kLanes, std::min(O, (1 << 16) / std::max(I, 1) / (2 * kLanes) * (2 * kLanes)));
  for (int o0 = 0; o0 < O; o0 += block)
    gemm(x, std::size_t(I), T, I, w + o0, std::size_t(O), std::min(block, O - o0), y + o0, std::size_t(O), accumulate);
}

void matmul(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate) {
  parallel_for(std::size_t(T), 4, 64, [&](std::size_t b, std::size_t e) {
    matmul_rows(x + b * I, static_cast<int>(e - b), I, w, O, y + b * O, accumulate);
  });
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

void swiglu(float* g, const float* u, std::size_t n) {
  std::size_t c = 0;
#if POSENC_SIMD
  for (; c + S <= n; c += S) {
    const B x = B::load_unaligned(g + c);
    (x / (B(1.f) + xsimd::exp(-x)) * B::load_unaligned(u + c)).store_unaligned(g + c);
  }
#endif
  for (; c < n; ++c) g[c] = g[c] / (1.f + std::exp(-g[c])) * u[c];
}

bool row_loss(const float* l, int V, int target, float* loss, bool* hit) {
  float mx = -std::numeric_limits<float>::infinity();
  float bad = 0.f;  // x − x: 0 for every finite x, NaN for ±∞ and NaN
  int c = 0;
#if POSENC_SIMD
  if (V >= S) {
    B m(mx), z(0.f);
    for (; c + S <= V; c += S) {
      const B x = B::load_unaligned(l + c);
      m = xsimd::max(m, x);
      z += x - x;
    }
    mx = xsimd::reduce_max(m);
    bad = xsimd::reduce_add(z);
  }
#endif
  for (; c < V; ++c) { mx = std::max(mx, l[c]); bad += l[c] - l[c]; }
  if (!(bad == 0.f && std::isfinite(mx))) return false;
  float sum = 0.f;
  c = 0;
#if POSENC_SIMD
  B acc(0.f);
  for (; c + S <= V; c += S) acc += xsimd::exp(B::load_unaligned(l + c) - B(mx));
  sum = xsimd::reduce_add(acc);
#endif
  for (; c < V; ++c) sum += std::exp(l[c] - mx);
  *loss = static_cast<float>(std::log(double(sum)) + mx - l[target]);
  int best = 0;  // the first index holding the maximum, as an argmax scan
  while (l[best] != mx) ++best;
  *hit = best == target;
  return true;
}
}  // namespace posenc::detail::lm
