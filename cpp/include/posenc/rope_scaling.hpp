// posenc — RoPE extras: partial rotary, the complex (freqs_cis) form, and context extension
// ("rope scaling") with the names, defaults and formulas of Hugging Face transformers
// (src/transformers/modeling_rope_utils.py, v5 `rope_parameters` semantics).
//
// Every scheme returns inverse frequencies inv_freq[i], i < rotary_dim/2 (float64), and an attention
// scaling factor that multiplies cos and sin (HF: `cos = emb.cos() * attention_scaling`). d below is
// rotary_dim, b is rope_theta, θ_i = b^(−2i/d) the default frequencies.
//  * default  : θ_i, scaling 1.
//  * linear   : θ_i / factor (position interpolation; same as dividing the positions), scaling 1.
//  * ntk      : static NTK-aware: base b' = b·factor^(d/(d−2)), scaling 1. NOT an HF rope_type (HF
//               only ships the dynamic form); posenc extension, named after the Reddit post's method.
//  * dynamic  : b' = b·((factor·L/L0) − (factor − 1))^(d/(d−2)) with L = max(seq_len, L0),
//               L0 = max_position_embeddings; L ≤ L0 gives b' = b. Scaling 1.
//  * yarn     : ramp between interpolation θ_i/factor and extrapolation θ_i over the dimensions
//               [low, high] = find_correction_range(beta_fast, beta_slow, d, b, original_max_position_embeddings)
//               (floor/ceil when truncate, clamped to [0, d−1]); scaling = attention_factor, else
//               get_mscale(factor, mscale)/get_mscale(factor, mscale_all_dim) when both are set (non-zero),
//               else get_mscale(factor) = 0.1·ln(factor) + 1 (1 for factor ≤ 1).
//               factor unset (NaN) → max_position_embeddings / original_max_position_embeddings.
//  * longrope : 1/(ext_i·b^(2i/d)) with ext = long_factor when seq_len > original_max_position_embeddings,
//               else short_factor; scaling = attention_factor, else sqrt(1 + ln(factor)/ln(original))
//               (1 for factor ≤ 1), factor unset → max_position_embeddings / original.
//  * llama3   : wavelength λ_i = 2π/θ_i; λ > L_orig/low_freq_factor → θ_i/factor; λ < L_orig/high_freq_factor
//               → θ_i; otherwise (1−s)·θ_i/factor + s·θ_i with s = (L_orig/λ − low)/(high − low). Scaling 1.
// Differences from HF, all deliberate: HF evaluates b^(2i/d) in float32 (torch default dtype); posenc
// evaluates every formula in float64 (the values agree to float32 rounding, ~1e-7 relative; a llama3
// band boundary could in principle fall on the other side). Where HF only logs a warning (factor < 1,
// list of the wrong length, high_freq_factor ≤ low_freq_factor, beta_fast < beta_slow) posenc throws.
//
// Accuracy contract (all tables below): angle pos·inv_freq, cos, sin and the product with the scaling
// factor are evaluated in float64 and rounded once to float32 — within 2 ulp of the float64 value for
// integer |pos| ≤ 2^20.
#pragma once
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace posenc {

enum class RopeType { default_ = 0, linear = 1, ntk = 2, dynamic = 3, yarn = 4, longrope = 5, llama3 = 6 };

/// "default", "linear", "ntk", "dynamic", "yarn", "longrope", "llama3" (HF rope_type names).
const char* rope_type_name(RopeType t);
/// Inverse of rope_type_name; "su" (Phi-3's legacy name) maps to longrope. Throws Error naming `param`.
RopeType rope_type_from_name(const std::string& name, const char* param = "rope_type");

/// Parameters of one scheme, HF names. NaN / 0 mean "unset" where the reference has a default.
struct RopeScaling {
  RopeType rope_type = RopeType::default_;
  double rope_theta = 10000.0;
  int rotary_dim = 0;                                          ///< even, ≥ 2 (dynamic, ntk: ≥ 4)
  double factor = std::numeric_limits<double>::quiet_NaN();    ///< required: linear, ntk, dynamic, llama3
  long long max_position_embeddings = 0;                       ///< dynamic; yarn/longrope when factor unset
  long long original_max_position_embeddings = 0;              ///< yarn (0 → max_position_embeddings), longrope, llama3
  // yarn
  double attention_factor = std::numeric_limits<double>::quiet_NaN();  ///< yarn, longrope: NaN = derive
  double beta_fast = 32.0;
  double beta_slow = 1.0;
  double mscale = 0.0;          ///< 0 = unset (HF tests truthiness)
  double mscale_all_dim = 0.0;  ///< 0 = unset
  bool truncate = true;
  // longrope
  std::vector<double> short_factor, long_factor;  ///< rotary_dim/2 entries each, finite > 0
  // llama3
  double low_freq_factor = 1.0;
  double high_freq_factor = 4.0;
};

struct ScaledInvFreq {
  std::vector<double> inv_freq;    ///< rotary_dim/2 inverse frequencies
  double attention_scaling = 1.0;  ///< multiplies cos and sin
};

/// Inverse frequencies and attention scaling of a scheme. seq_len is the current sequence length
/// (dynamic: L; longrope: long factors when seq_len > original_max_position_embeddings); 0 = at init.
/// Throws Error naming the offending field.
ScaledInvFreq rope_inv_freq_scaled(const RopeScaling& s, long long seq_len = 0);

/// rotary_dim = int(head_dim · partial_rotary_factor) (truncation, as HF `partial_rotary_factor` and
/// GPT-NeoX `rotary_pct`). Throws if the factor is not in (0, 1] or the result is odd or < 2 (HF would
/// silently rotate ⌈dim/2⌉ pairs for an odd result).
int rotary_dim_for(int head_dim, double partial_rotary_factor, const char* param = "partial_rotary_factor");

/// cos/sin tables multiplied by attention_scaling: cos_out[p·h+i] = s·cos(pos_p·inv_i), h = inv_freq.size().
void rope_tables_scaled(const std::vector<double>& inv_freq, double attention_scaling, const double* positions,
                        std::size_t n_positions, float* cos_out, float* sin_out);

/// The complex form (Meta LLaMA `precompute_freqs_cis`): out[(p·h + i)·2] = cos(pos_p·inv_i),
/// out[(p·h + i)·2 + 1] = sin(pos_p·inv_i), i.e. [n_positions, h] complex numbers as interleaved
/// (re, im) float32 pairs (torch.view_as_real layout). Multiplying the complex view of an interleaved
/// head by it is RoPE with RopeLayout::interleaved.
std::vector<float> rope_freqs_cis(const std::vector<double>& inv_freq, const double* positions, std::size_t n_positions);

}  // namespace posenc
