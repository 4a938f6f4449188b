// posenc — RoPE long-range decay and extrapolation analytics.
//
// Inner product against distance. For q at position m and k at position n, rotated by RoPE with inverse
// frequencies θ_i (any scaling: pass the remapped θ), pairs (a_i, b_i) of the chosen layout:
//   ⟨R_m q, R_n k⟩ = Σ_i Re[h_i · e^{−i(n−m)θ_i}] + Σ_{c ≥ rotary_dim} q_c k_c,
//   h_i = (q_a + i·q_b)·conj(k_a + i·k_b)          (002_5ffd3aa96caf6015.txt, eq. 24)
// so it depends on r = n − m only. rope_inner_product_sweep returns it for k at positions
// k_start … k_start+count−1 and q at q_position.
//
// Su's bound curve (002_5ffd3aa96caf6015.txt, eq. 26): f(r) = (1/(d/2)) Σ_{j=1}^{d/2} |S_j(r)|,
// S_j(r) = Σ_{i=0}^{j−1} e^{i·r·θ_i}; for r = 0 … count−1 (the seed plots d = 128, r = 0 … 256).
//
// Method and accuracy: distances are split into blocks r = r0 + s (s < 128) and the angle-addition
// formula e^{irθ} = e^{ir0θ}·e^{isθ} is used with both factors computed in float64 (sincos) and
// rounded once — no recurrence, so the error does not grow with r. Float32 SIMD accumulation:
// |error| ≤ 1e-5 · Σ_i |h_i| for the sweep and ≤ 1e-5 · (d/2) for the bound, for |r| ≤ 2^20 (tested
// against float64 direct evaluation).
#pragma once
#include <cstddef>
#include <vector>

#include "posenc/rope.hpp"

namespace posenc {

/// Caps: count ≤ 2^20 distances; inv_freq.size() ≤ 4096. Valid range (finite in, finite out): every |θ_i| ≤ 1e298
/// (else Error), and Σ_i |h_i| + Σ_c |q_c·k_c| ≤ FLT_MAX (3.4e38; IEEE ±∞ beyond, as any float32 sum).
std::vector<float> rope_inner_product_sweep(const float* q, const float* k, int head_dim, int rotary_dim,
                                            RopeLayout layout, const std::vector<double>& inv_freq,
                                            long long q_position, long long k_start, long long count);

/// Su's bound f(r) for r = 0 … count−1; finite for every |θ_i| ≤ 1e298 (else Error).
std::vector<float> rope_decay_bound(const std::vector<double>& inv_freq, long long count);

/// Min/max envelope of values[0…n) reduced to `width` pixels: pixel p covers [⌊p·n/width⌋, ⌊(p+1)·n/width⌋)
/// (at least one value). Returns [width] minima then [width] maxima (2·width floats). NaN values are skipped.
std::vector<float> envelope(const float* values, std::size_t n, int width);

/// Per-dimension analytics of RoPE frequencies against a training length L (Hugging Face
/// `original_max_position_embeddings`): wavelength λ_i = 2π/θ_i, rotations L·θ_i/(2π), and the first
/// dimension index i whose wavelength exceeds L (never completes a period in training; inv_freq.size()
/// if none). A frequency θ_i ≤ 0 (a channel that never rotates) or below 2π/DBL_MAX has wavelength +∞ by
/// definition; every other value is finite for |θ_i| ≤ 1e298 and L·|θ_i| ≤ 1e308.
struct FrequencyAnalysis {
  std::vector<double> wavelength, rotations;
  int first_incomplete = 0;
};
FrequencyAnalysis rope_frequency_analysis(const std::vector<double>& inv_freq, double training_length);

namespace kernels {
/// acc[s] = Σ_i A[i]·C[i][s] + B[i]·S[i][s] for s < B (C, S row-major [half][block]).
void decay_block_simd(const float* A, const float* Bc, const float* C, const float* S, std::size_t half,
                      std::size_t block, std::size_t n, float* out);
void decay_block_scalar(const float* A, const float* Bc, const float* C, const float* S, std::size_t half,
                        std::size_t block, std::size_t n, float* out);
}  // namespace kernels
}  // namespace posenc
