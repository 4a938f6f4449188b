// posenc — xPos, extrapolatable RoPE (Sun et al. 2023, "A Length-Extrapolatable Transformer"), following
// microsoft/torchscale `torchscale/component/xpos_relative_position.py`.
//
// RoPE with a per-pair exponential scale: for pair i < rotary_dim/2 (d = rotary_dim)
//   ζ_i = (2i + γ·d) / ((1 + γ)·d),   γ = 0.4 (torchscale hard-codes it)
// Queries are rotated and multiplied by ζ_i^(c/scale_base), keys rotated and multiplied by ζ_i^(−c/scale_base)
// (torchscale `downscale=True`), where c is the *centred* position. Then q_m·k_n carries ζ^((m−n)/scale_base):
// the scores depend only on the offset m − n, and decay with distance since ζ_i < 1.
// torchscale conventions reproduced by xpos_apply: pair layout interleaved (`rotate_every_two`), angles
// pos·θ_i with θ_i = rope_theta^(−2i/d) at positions offset … offset+seq−1, centred positions
// c = pos + ⌊−(seq + offset)/2⌋ (torchscale's `min_pos = -(length + offset) // 2`).
// Note: the seed text writes ζ_n = (1+γ)/(2n/d+γ), the reciprocal; posenc follows torchscale (ζ ≤ 1).
// Accuracy: each table entry float64 ζ^e·cos(a) rounded once: within 2 ulp of float64 for |pos| ≤ 2^20
// (ζ^e can under/overflow float32 for |c|/scale_base in the thousands; keep c moderate, as torchscale does).
#pragma once
#include <cstddef>
#include <vector>

#include "posenc/rope.hpp"

namespace posenc {

struct XposOptions {
  double scale_base = 512.0;
  double gamma = 0.4;
  double rope_theta = 10000.0;
};

/// ζ_i for i < rotary_dim/2.
std::vector<double> xpos_zeta(int rotary_dim, double gamma = 0.4);

/// Tables with the scale folded in: cos_out[p·h+i] = ζ_i^(±centred_p/scale_base)·cos(pos_p·θ_i) (sign − when
/// downscale), h = rotary_dim/2; feed them to rope_apply. centred may be nullptr (= positions).
void xpos_tables(int rotary_dim, const XposOptions& o, const double* positions, const double* centred,
                 std::size_t n, bool downscale, float* cos_out, float* sin_out);

/// torchscale's XPOS.forward(x, offset, downscale) on x [seq, heads, head_dim] (out may equal x).
void xpos_apply(const float* x, float* out, const RopeShape& shape, int offset, bool downscale,
                const XposOptions& o, RopeLayout layout = RopeLayout::interleaved);

namespace kernels {
void xpos_tables_simd(const double* inv_freq, const double* log_zeta, std::size_t half, const double* positions,
                      const double* exponents, std::size_t n, float* cos_out, float* sin_out);
void xpos_tables_scalar(const double* inv_freq, const double* log_zeta, std::size_t half, const double* positions,
                        const double* exponents, std::size_t n, float* cos_out, float* sin_out);
}  // namespace kernels
}  // namespace posenc
