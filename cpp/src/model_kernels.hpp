// posenc (internal) — the language model's hot loops (model_kernels.cpp): xsimd kernels with scalar twins
// (POSENC_SIMD=0). Each gemm output accumulates over `in` in the same order in both, so the twins give the same
// floats there (attention's scores and weighted sums are gemms too); the exps of softmax, SwiGLU and the loss are
// xsimd's in one and std::exp in the other, so the twins agree to float32 rounding (tested within 1e-5 relative).
#pragma once
#include <cstddef>

namespace posenc::detail::lm {
/// y[t][o] (row stride ldy) = Σ_i x[t][i] (stride ldx) · w[i][o] (stride ldw), or y += that when accumulate; one thread,
/// register tiles of 4 rows.
void gemm(const float* x, std::size_t ldx, int T, int I, const float* w, std::size_t ldw, int O, float* y, std::size_t ldy, bool accumulate);
/// y[T][O] = x[T][I] · w[I][O], or y += that when accumulate, on this thread (for code already inside a parallel_for:
/// the pool is not nested), w in column blocks that stay in cache.
void matmul_rows(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate);
/// matmul_rows with the rows split over the threads build's pool.
void matmul(const float* x, int T, int I, const float* w, int O, float* y, bool accumulate);
/// out[t] = x[t] / sqrt(mean(x[t]²) + eps) · g (the mean in float64, as llama.cpp's ggml_rms_norm sums in ggml_float).
void rmsnorm(const float* x, int T, int E, const float* g, double eps, float* out);
/// p[j] = exp(p[j] − max) / Σ exp(p − max) over j in [0, n), in place (n ≥ 1); the sum in float32.
void softmax(float* p, int n);
/// g[c] = silu(g[c]) · u[c] = g / (1 + e^−g) · u.
void swiglu(float* g, const float* u, std::size_t n);
/// One row of logits l[V]: loss = logsumexp(l) − l[target] (exp sum in float32, log in float64) and hit = (the first
/// argmax is target). False when a logit is not finite.
bool row_loss(const float* l, int V, int target, float* loss, bool* hit);
}  // namespace posenc::detail::lm
