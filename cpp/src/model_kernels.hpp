// posenc (internal) — the language model's hot loops (model_kernels.cpp): xsimd kernels with scalar twins
// (POSENC_SIMD=0). Each matmul output accumulates over `in` in the same order in both, so the twins give the same
// floats; the attention row's exp and sums are vectorised over keys, so there the twins agree to float32 rounding
// (tested within 1e-5 relative).
#pragma once
#include <cstddef>

namespace posenc::detail::lm {
/// y[T][O] = x[T][I] · w[I][O], or y += that when accumulate. Rows split over the threads build's pool.
void matmul(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate);
/// out[t] = x[t] / sqrt(mean(x[t]²) + eps) · g (the mean in float64, as llama.cpp's ggml_rms_norm sums in ggml_float).
void rmsnorm(const float* x, int T, int E, const float* g, double eps, float* out);
/// s[j] = Σ_d q[d] · kt[d·stride + j] for j in [j0, j1) (keys transposed: [head_dim][stride]).
void scores(const float* q, int D, const float* kt, std::size_t stride, int j0, int j1, float* s);
/// p[j] = exp(p[j] − max) / Σ exp(p − max) over j in [0, n), in place (n ≥ 1); the sum in float32.
void softmax(float* p, int n);
/// out[d] = Σ_j p[j] · vt[d·stride + j], j in [0, n).
void weighted_sum(const float* p, int n, const float* vt, std::size_t stride, int D, float* out);
}  // namespace posenc::detail::lm
