// posenc — Rotary Position Embedding (RoPE, Su et al. 2021, "RoFormer").
//
// Conventions (all functions below):
//  * Inverse frequencies θ_i = rope_theta^(−2i/rotary_dim), i = 0 … rotary_dim/2 − 1, computed in float64.
//  * rotary_dim ≤ head_dim is even. With partial rotary (rotary_dim < head_dim) the first rotary_dim
//    channels of every head are rotated and channels rotary_dim … head_dim−1 pass through unchanged
//    (as GPT-NeoX `rotary_pct`, Hugging Face `partial_rotary_factor`).
//  * Tables: cos[p][i] = cos(pos_p · θ_i), sin[p][i] = sin(pos_p · θ_i), shape [n_positions, rotary_dim/2],
//    row-major. Position ids are arbitrary finite reals with |pos| ≤ 2^31 − 1 (not only 0 … n−1).
//  * Layouts of the rotated pairs inside a head:
//      - RopeLayout::interleaved: pair i = channels (2i, 2i+1)        — RoFormer, GPT-J, Meta's LLaMA
//        (complex view: x_{2i} + j·x_{2i+1} multiplied by e^{j·pos·θ_i}, the `freqs_cis` form);
//      - RopeLayout::half_split:  pair i = channels (i, i + rotary_dim/2) — GPT-NeoX, Hugging Face LLaMA
//        (`rotate_half`).
//    Both rotate (a, b) ↦ (a·cos − b·sin, a·sin + b·cos). The two layouts give identical results up
//    to the fixed channel permutation interleaved 2i ↔ half-split i, 2i+1 ↔ i + rotary_dim/2.
//  * Q/K buffers are [seq, heads, head_dim] row-major float32; row s uses the table row s.
//
// Accuracy contract: the angle pos·θ_i and its cos/sin are evaluated in float64 and rounded once
// to float32, so every table entry is within 2 ulp (float32) of the float64 value cos(pos·θ_i),
// sin(pos·θ_i) for integer |pos| ≤ 2^20 (tested, also next to multiples of π/2; measured ≤ 0.53 ulp).
// The SIMD kernel reduces the float64 angle by π/2 in float64 (Cody–Waite, three parts) and evaluates
// float64 minimax polynomials (~1 float64 ulp before the rounding); angles beyond ~1.6e6 rad use a
// full-range reduction. Runs of consecutive positions (0 … n−1, the common case) are computed by angle
// addition from one such float64 seed per 32 rows, corrected to the same float64 angle pos·θ_i (no
// recurrence, so no error grows with the position; tested on every position 0 … 2^20: within 1 ulp).
// A float32 product pos·θ_i, as PyTorch references compute it, is ~5e-4 rad off at pos = 8191.
// rope_apply is one float32 multiply-add per output element: relative error ≤ 2^-23 of |x|.
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

enum class RopeLayout { interleaved = 0, half_split = 1 };

/// θ_i = rope_theta^(−2i/rotary_dim) for i < rotary_dim/2, float64.
/// Throws Error if rotary_dim is not a positive even integer ≤ kMaxHeadDim or rope_theta is not
/// finite and > 0.
std::vector<double> rope_inv_freq(int rotary_dim, double rope_theta);

/// cos/sin tables for arbitrary positions: cos_out, sin_out have n_positions·inv_freq.size() floats.
/// Throws Error on non-finite or out-of-range positions, on sizes above the caps, or when
/// inv_freq is empty.
void rope_tables(const std::vector<double>& inv_freq, const double* positions, std::size_t n_positions,
                 float* cos_out, float* sin_out);

/// Geometry of a Q or K buffer.
struct RopeShape {
  int seq = 0;         ///< rows (tokens); table row s is used for row s
  int heads = 1;       ///< heads per row
  int head_dim = 0;    ///< channels per head
  int rotary_dim = 0;  ///< rotated channels per head (even, ≤ head_dim); 0 means head_dim
};

/// Rotates x [seq, heads, head_dim] into out (out may equal x: in place). cos/sin are tables with
/// seq rows of rotary_dim/2 entries (from rope_tables). Validates the shape (throws Error).
void rope_apply(const float* x, float* out, const RopeShape& shape, RopeLayout layout,
                const float* cos_table, const float* sin_table);

/// Convenience: tables for positions 0 … seq−1 with θ from rope_theta, then apply (out may equal x).
void rope_apply_positions(const float* x, float* out, const RopeShape& shape, RopeLayout layout,
                          double rope_theta, const double* positions /* seq entries, or nullptr = 0…seq−1 */);

namespace kernels {
/// SIMD kernels (xsimd: SSE/AVX natively, wasm SIMD128 in the browser) and their scalar twins.
/// No validation: callers pass consistent sizes. Exposed for tests and benchmarks.
/// Strided angle tables: for p < n, i < nfreq: cos_out[p·stride + i] = float(scale·cos(pos_p·inv_i)),
/// same for sin, with pos_p·inv_i the float64 product. SIMD kernel (rows of consecutive positions by exact angle
/// addition from one float64 seed per 32 rows, other rows by float64 range reduction + polynomials; see the
/// accuracy contract above) and its scalar twin (std::cos/std::sin); they agree within 1 ulp. No validation.
void angle_tables_simd(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                       double scale, float* cos_out, float* sin_out, std::size_t stride);
void angle_tables_scalar(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n,
                         double scale, float* cos_out, float* sin_out, std::size_t stride);
/// Interleaved pairs (sinusoidal's layout): out[p·stride + 2i] = float(sin(pos_p·inv_i)), out[… + 2i + 1] = float(cos(…)).
/// Same kernel and accuracy as angle_tables_simd; the scalar twin uses std::sin/std::cos.
void sincos_pairs_simd(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n, float* out,
                       std::size_t stride);
void sincos_pairs_scalar(const double* inv_freq, std::size_t nfreq, const double* positions, std::size_t n, float* out,
                         std::size_t stride);
/// RoPE's tables: the angle tables with scale 1 and stride half.
void rope_tables_simd(const double* inv_freq, std::size_t half, const double* positions, std::size_t n,
                      float* cos_out, float* sin_out);
void rope_tables_scalar(const double* inv_freq, std::size_t half, const double* positions, std::size_t n,
                        float* cos_out, float* sin_out);
void rope_apply_simd(const float* x, float* out, const RopeShape& s, RopeLayout layout, const float* cos_t,
                     const float* sin_t);
void rope_apply_scalar(const float* x, float* out, const RopeShape& s, RopeLayout layout, const float* cos_t,
                       const float* sin_t);
/// Number of float32 lanes of the SIMD kernels' batch (1 in a build without SIMD).
std::size_t simd_float_lanes();
/// Name of the SIMD architecture compiled in ("wasm", "avx2", "sse2", … or "scalar").
const char* simd_arch_name();
/// Threads the table and score kernels split large calls over: 1, except in the threads build (POSENC_THREADS:
/// min(hardware threads, 4)); results are identical either way.
unsigned thread_count();
}  // namespace kernels
}  // namespace posenc
