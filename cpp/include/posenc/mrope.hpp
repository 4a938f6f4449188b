// posenc — RoPE for images and video: Qwen2-VL multimodal RoPE (M-RoPE) and 2D axial RoPE for patches.
//
// M-RoPE (Hugging Face `modeling_qwen2_vl.py`, `apply_multimodal_rotary_pos_emb`): every token has three
// position ids (t, h, w). The rotary_dim/2 frequencies θ_i = rope_theta^(−2i/rotary_dim) are split into
// consecutive sections mrope_section = [s_t, s_h, s_w] (s_t + s_h + s_w = rotary_dim/2; Qwen2-VL: [16, 24, 24]
// for head_dim 128): frequency i uses the t position for i < s_t, h for i < s_t + s_h, else w. The reference
// applies it with `rotate_half` (RopeLayout::half_split); text tokens have t = h = w, which reduces to RoPE.
// Interleaved M-RoPE (Qwen3-VL, `mrope_interleaved: true`, `apply_interleaved_mrope`): frequency i uses h when
// i ≡ 1 (mod 3) and i < 3·s_h, w when i ≡ 2 (mod 3) and i < 3·s_w, else t (Qwen3-VL: [24, 20, 20]), so every
// axis spans low and high frequencies.
//
// 2D axial RoPE (Qwen2-VL vision tower, `VisionRotaryEmbedding` + `rot_pos_emb`): q = rotary_dim/4 frequencies
// φ_k = rope_theta^(−2k/(rotary_dim/2)); table row of a patch at (row h, column w) =
// [h·φ_0 … h·φ_{q−1}, w·φ_0 … w·φ_{q−1}] (rotary_dim/2 angles), applied with RopeLayout::half_split. rotary_dim
// must be a multiple of 4. (Qwen2-VL additionally reorders patches into 2×2 merge blocks; posenc takes the
// positions as given.)
// Pixtral's variant (HF `PixtralRotaryEmbedding`, vision config keys head_dim, rope_theta, image_size, patch_size): the
// rows take alternate frequencies of one RoPE spectrum θ_j = rope_theta^(−2j/rotary_dim): h·θ_0, h·θ_2, … for the
// first half, w·θ_1, w·θ_3, … for the second (Qwen2-VL gives both axes θ_0, θ_2, …).
// Accuracy: as rope_tables — float64 angles, cos/sin rounded once to float32 (within 2 ulp, |pos| ≤ 2^20).
#pragma once
#include <array>
#include <cstddef>
#include <vector>

namespace posenc {

/// The position stream (0 = t, 1 = h, 2 = w) of each of the `half` frequencies, contiguous or interleaved.
/// Throws Error if the sections are negative, do not sum to half, or (interleaved) do not fit.
std::vector<int> mrope_streams(const std::array<int, 3>& mrope_section, std::size_t half, bool interleaved);

/// cos/sin [n, rotary_dim/2] for M-RoPE. pos_t, pos_h, pos_w: n position ids each.
/// Throws Error if the sections are negative or do not sum to inv_freq.size().
void mrope_tables(const std::vector<double>& inv_freq, const std::array<int, 3>& mrope_section, const double* pos_t,
                  const double* pos_h, const double* pos_w, std::size_t n, float* cos_out, float* sin_out,
                  bool interleaved = false);

enum class Axial2dVariant { qwen2_vl = 0, pixtral = 1 };

/// cos/sin [n, rotary_dim/2] for 2D axial RoPE at patch coordinates (pos_h[p], pos_w[p]).
void axial2d_tables(int rotary_dim, double rope_theta, const double* pos_h, const double* pos_w, std::size_t n,
                    float* cos_out, float* sin_out, Axial2dVariant variant = Axial2dVariant::qwen2_vl);

/// Row-major patch coordinates of a grid_h × grid_w image: pos_h = [0,0,…,1,1,…], pos_w = [0,1,…,0,1,…].
void axial2d_grid(int grid_h, int grid_w, std::vector<double>& pos_h, std::vector<double>& pos_w);
}  // namespace posenc
