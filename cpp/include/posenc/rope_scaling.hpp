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
//               low_freq_factor == high_freq_factor (Llama 4) collapses the band to a step at λ = L_orig/low:
//               λ > edge → θ_i/factor, else θ_i (the reference would divide 0/0 exactly on the edge).
//  * proportional (Gemma 4's global layers): inv_freq has rotary_dim/2 entries (rotary_dim = the whole
//               head); the first n = ⌊partial_rotary_factor·rotary_dim/2⌋ are b^(−2i/rotary_dim)/factor, the
//               rest 0 (those channels rotate by angle 0: no position). factor unset → 1. Scaling 1.
// Differences from HF, all deliberate: HF evaluates b^(2i/d) in float32 (torch default dtype); posenc
// evaluates every formula in float64, exactly (HF's float32 values are up to ~6 float32 ulp off for llama3
// and longrope; a llama3 band boundary could in principle fall on the other side). Where HF only logs a warning (factor < 1,
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

enum class RopeType { default_ = 0, linear = 1, ntk = 2, dynamic = 3, yarn = 4, longrope = 5, llama3 = 6, proportional = 7 };

/// "default", "linear", "ntk", "dynamic", "yarn", "longrope", "llama3", "proportional" (HF rope_type names).
const char* rope_type_name(RopeType t);
/// Inverse of rope_type_name; "su" (Phi-3's legacy name) maps to longrope. Throws Error naming `param`.
RopeType rope_type_from_name(const std::string& name, const char* param = "rope_type");

/// Parameters of one scheme, HF names. NaN / 0 mean "unset" where the reference has a default.
struct RopeScaling {
  RopeType rope_type = RopeType::default_;
  double rope_theta = 10000.0;
  int rotary_dim = 0;                                          ///< even, ≥ 2 (dynamic, ntk: ≥ 4; proportional: head_dim)
  double partial_rotary_factor = 1.0;                          ///< proportional only: share of non-zero frequencies
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

/// YaRN's ramp (HF `find_correction_range`): the frequency (pair) indices where the ramp from extrapolation
/// (index ≤ low: θ_i kept) to interpolation (index ≥ high: θ_i/factor) starts and ends.
/// low_raw/high_raw = d·ln(L/(2π·β))/(2·ln b) for β = beta_fast/beta_slow, L = original_max_position_embeddings
/// (pair index where the wavelength equals L/β); low/high = floor/ceil of them when `truncate`, clamped to [0, d−1].
struct YarnCorrectionRange {
  double low = 0, high = 0, low_raw = 0, high_raw = 0;
};

/// Llama 3's bands. Wavelength edges: high_freq_wavelen = L/high_freq_factor (shorter: kept),
/// low_freq_wavelen = L/low_freq_factor (longer: divided by factor), L = original_max_position_embeddings.
/// The same edges as fractional pair indices: dim(λ) = d·ln(λ/2π)/(2·ln b) (pair i has λ_i = 2π·b^(2i/d)).
/// n_kept + n_smoothed + n_scaled = rotary_dim/2 (pairs in each band).
struct Llama3Bands {
  double high_freq_wavelen = 0, low_freq_wavelen = 0, high_freq_dim = 0, low_freq_dim = 0;
  int n_kept = 0, n_smoothed = 0, n_scaled = 0;
};

struct ScaledInvFreq {
  std::vector<double> inv_freq;    ///< rotary_dim/2 inverse frequencies
  double attention_scaling = 1.0;  ///< multiplies cos and sin
  /// What applied, by rope_type (NaN / empty where it does not apply):
  double effective_base = 0;  ///< the base the frequencies come from: rope_theta, or NTK's scaled base
  double factor = std::numeric_limits<double>::quiet_NaN();  ///< the factor used (yarn/longrope: resolved)
  YarnCorrectionRange yarn;   ///< yarn only
  Llama3Bands bands;          ///< llama3 only
  std::string longrope_factors;  ///< longrope: "short" or "long"
  /// yarn: DeepSeek-V2/V3's softmax-scale multiplier get_mscale(factor, mscale_all_dim)² (1 when
  /// mscale_all_dim is unset); their attention uses qk_head_dim^(−1/2) times it.
  double softmax_scale_factor = 1.0;
};

/// YaRN's get_mscale: 0.1·m·ln(scale) + 1 for scale > 1, else 1.
double yarn_get_mscale(double scale, double m = 1.0);
/// YaRN's correction range from beta_fast, beta_slow, rotary_dim, rope_theta, original_max_position_embeddings
/// (0 → max_position_embeddings) and truncate. Throws naming a missing or bad field.
YarnCorrectionRange yarn_correction_range(const RopeScaling& s);
/// Llama 3's band edges from rotary_dim, rope_theta, original_max_position_embeddings (required),
/// low_freq_factor, high_freq_factor (≤ low is rejected unless equal).
Llama3Bands llama3_bands(const RopeScaling& s);
/// Dynamic NTK's effective base at seq_len: b·((factor·L/L0) − (factor − 1))^(d/(d−2)), L = max(seq_len, L0),
/// L0 = max_position_embeddings (HF recomputes it only when the sequence grows past the cached length).
double dynamic_ntk_base(const RopeScaling& s, long long seq_len);

/// Llama 4's attention temperature (HF `Llama4TextAttention`, NoPE layers when attn_temperature_tuning):
/// query scale at position p = 1 + attn_scale·ln(1 + ⌊(p + 1)/floor_scale⌋).
std::vector<double> llama4_attn_scales(const double* positions, std::size_t n, double floor_scale, double attn_scale);

/// Inverse frequencies, attention scaling and what applied, of a scheme. seq_len is the current sequence length
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
