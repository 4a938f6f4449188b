// posenc — sinusoidal absolute position encoding (Vaswani et al. 2017, "Attention Is All You Need").
//
//   PE(pos, 2i)   = sin(pos · base^(−2i/d))
//   PE(pos, 2i+1) = cos(pos · base^(−2i/d)),   i = 0 … ⌈d/2⌉ − 1, default base 10000.
//
// Layouts of the d channels of one row:
//  * SinusoidalLayout::interleaved  — the paper's: channel 2i is sin_i, channel 2i+1 is cos_i.
//  * SinusoidalLayout::concatenated — [sin_0 … sin_{h−1}, cos_0 … cos_{h−1}] (tensor2tensor / fairseq
//    order; note those libraries also use other frequencies, 10000^(−i/(d/2−1)), which is a
//    different scheme, not this layout).
// Odd d: the last frequency i = (d−1)/2 has only its sine channel (exponent (d−1)/d); in the
// concatenated layout the sines take ⌈d/2⌉ channels and the cosines ⌊d/2⌋.
// Output: [n_positions, d] row-major float32.
//
// Accuracy: angles and sin/cos are computed in float64 and rounded once to float32, so every
// entry is within 2 ulp of the float64 value for integer |pos| ≤ 2^20 (tested).
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

enum class SinusoidalLayout { interleaved = 0, concatenated = 1 };

/// Fills out[n_positions · d]. positions == nullptr means 0 … n_positions−1.
/// Throws Error for d outside [1, kMaxHeadDim], base not finite and > 0, a base below 1 whose largest frequency
/// base^(−2(⌈d/2⌉−1)/d) passes 1e298 (every angle finite), bad positions, or a result above kMaxOutputElements.
void sinusoidal_table(const double* positions, std::size_t n_positions, int d, double base,
                      SinusoidalLayout layout, float* out);

std::vector<float> sinusoidal_table(std::size_t n_positions, int d, double base = 10000.0,
                                    SinusoidalLayout layout = SinusoidalLayout::interleaved);

namespace kernels {
/// SIMD kernel and its scalar twin (std::sin/std::cos per entry); they agree within 1 ulp. No validation.
/// The SIMD kernel is RoPE's angle kernel (rope.hpp, kernels::angle_tables_simd / sincos_pairs_simd): runs of
/// consecutive positions (0 … n−1 when positions == nullptr) by float64 angle addition from one float64 seed per
/// 32 rows, corrected to the float64 product pos·ω_i — no recurrence — and other positions by float64 sincos per
/// entry; every entry is the float64 value rounded once (tested on every position 0 … 2^20 in test_rope.cpp).
void sinusoidal_simd(const double* positions, std::size_t n, int d, double base, SinusoidalLayout layout,
                     float* out);
void sinusoidal_scalar(const double* positions, std::size_t n, int d, double base, SinusoidalLayout layout,
                       float* out);
}  // namespace kernels
}  // namespace posenc
