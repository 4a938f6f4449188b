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
// Accuracy: within 2 ulp of float64 ζ^e·cos(a) for |pos| ≤ 2^20 (the scalar twin rounds that value once; the SIMD
// kernel rounds cos(a) once by RoPE's angle kernel, then its product with the float64 scale).
// Valid range (finite in, finite out): every scale ζ_i^(±c/scale_base) is kept within [2^-64, 2^64], i.e.
// |c| ≤ 64·ln2·scale_base/ln(1/ζ_0), ζ_0 = γ/(1+γ) (xpos_max_centred; 18,130 for the defaults, so xpos_apply
// takes seq + offset ≤ 36,260); beyond it the float32 scale would overflow to ∞ or vanish, so it is refused —
// raise scale_base for longer sequences. rope_theta < 1 must keep rope_theta^(−(d−2)/d) ≤ 1e298.
// xpos_apply's output is finite when additionally |x| ≤ 2^64.
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

/// ln 2^64: the largest |ln| of a scale factor ζ^(±c/scale_base) that xPos accepts.
inline constexpr double kXposMaxLogScale = 44.361419555836500;

/// ζ_i = (2i/d + γ)/(1 + γ) for i < rotary_dim/2 (= (2i + γd)/((1+γ)d), without the overflow of γ·d).
std::vector<double> xpos_zeta(int rotary_dim, double gamma = 0.4);

/// The largest |centred position| accepted: kXposMaxLogScale·scale_base/ln(1/ζ_0). Throws Error for bad options.
double xpos_max_centred(int rotary_dim, const XposOptions& o);

/// torchscale's centring of a sequence's positions: c_p = p + ⌊−(last + 1)/2⌋, last = the largest position
/// (for positions offset … offset+seq−1 this is xpos_apply's min_pos). Throws Error for non-finite positions.
std::vector<double> xpos_centre(const double* positions, std::size_t n);

/// Tables with the scale folded in: cos_out[p·h+i] = ζ_i^(±centred_p/scale_base)·cos(pos_p·θ_i) (sign − when
/// downscale), h = rotary_dim/2; feed them to rope_apply. centred == nullptr: xpos_centre(positions), as
/// xpos_apply centres (queries and keys must then come from the same positions for q·k to depend on m − n only).
/// Throws Error when some |centred_p| exceeds xpos_max_centred (see the valid range above).
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
