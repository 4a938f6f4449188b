#include "posenc/rope_scaling.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope.hpp"

namespace posenc {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string num(double v) { return detail::format_number(v); }

void require_factor(const char* param, double v, const char* type) {
  if (std::isnan(v)) detail::fail(param, std::string("is required for rope_type '") + type + "'");
  if (!std::isfinite(v) || v < 1.0) detail::fail(param, "must be a finite number >= 1 (got " + num(v) + ")");
}

void validate_inv_freq(const std::vector<double>& inv_freq) {
  if (inv_freq.empty()) detail::fail("inv_freq", "must not be empty");
  for (double f : inv_freq)
    if (!std::isfinite(f)) detail::fail("inv_freq", "every inverse frequency must be finite");
}

double correction_dim(double rotations, int dim, double base, double max_pos) {
  return (dim * std::log(max_pos / (rotations * 2.0 * kPi))) / (2.0 * std::log(base));
}

/// rotary_dim and rope_theta, checked as every scheme needs them.
void require_dim_theta(const RopeScaling& s) {
  detail::require_int_range("rotary_dim", s.rotary_dim, 2, kMaxHeadDim);
  detail::require_even("rotary_dim", s.rotary_dim);
  detail::require_rope_base("rope_theta", s.rope_theta, s.rotary_dim);
}

/// A count field where 0 means "unset": "is required" instead of a range error on 0.
long long require_count(const char* param, long long v, const char* type) {
  if (v == 0) detail::fail(param, std::string("is required for rope_type '") + type + "'");
  detail::require_int_range(param, v, 1, 1LL << 40);
  return v;
}

void require_factor_list(const char* param, const std::vector<double>& v, std::size_t half) {
  if (v.size() != half)
    detail::fail(param, "length must equal rotary_dim/2 = " + std::to_string(half) + " (got " +
                            std::to_string(v.size()) + ")");
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]) || !(v[i] > 0))
      detail::fail(param, "every entry must be a finite number > 0 (index " + std::to_string(i) + " is " +
                              num(v[i]) + ")");
}
}  // namespace

const char* rope_type_name(RopeType t) {
  switch (t) {
    case RopeType::default_: return "default";
    case RopeType::linear: return "linear";
    case RopeType::ntk: return "ntk";
    case RopeType::dynamic: return "dynamic";
    case RopeType::yarn: return "yarn";
    case RopeType::longrope: return "longrope";
    case RopeType::llama3: return "llama3";
    case RopeType::proportional: return "proportional";
  }
  return "?";
}

RopeType rope_type_from_name(const std::string& name, const char* param) {
  for (int t = 0; t <= 7; ++t)
    if (name == rope_type_name(static_cast<RopeType>(t))) return static_cast<RopeType>(t);
  if (name == "su") return RopeType::longrope;
  detail::fail(param, "must be one of 'default', 'linear', 'ntk', 'dynamic', 'yarn', 'longrope', 'llama3', 'proportional' (got '" +
                          (name.size() > 40 ? name.substr(0, 37) + "..." : name) + "')");
}

int rotary_dim_for(int head_dim, double factor, const char* param) {
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  if (!std::isfinite(factor) || !(factor > 0) || factor > 1)
    detail::fail(param, "must be a number in (0, 1] (got " + num(factor) + ")");
  const int rot = static_cast<int>(double(head_dim) * factor);  // Python int(): truncation
  if (rot < 2)
    detail::fail(param, "int(head_dim * factor) must be at least 2 (got " + std::to_string(rot) + ")");
  if (rot % 2 != 0)
    detail::fail("rotary_dim", "must be even (got " + std::to_string(rot) + " = int(" + std::to_string(head_dim) +
                                   " * " + num(factor) + "))");
  return rot;
}

double yarn_get_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

/// YaRN's ramp and Llama 3's bands find dimensions through ln(rope_theta): a base ≤ 1 has no decreasing frequencies
/// to place them among (and 1 would divide by 0).
void require_base_above_one(const RopeScaling& s, const char* what) {
  if (!(s.rope_theta > 1.0))
    detail::fail("rope_theta", std::string("must be > 1 for ") + what + ", which is found through ln(rope_theta) (got " +
                                   num(s.rope_theta) + ")");
}

YarnCorrectionRange yarn_correction_range(const RopeScaling& s) {
  require_dim_theta(s);
  require_base_above_one(s, "yarn's correction range");
  const long long orig = require_count("original_max_position_embeddings",
                                       s.original_max_position_embeddings ? s.original_max_position_embeddings
                                                                          : s.max_position_embeddings,
                                       "yarn");
  detail::require_finite_positive("beta_fast", s.beta_fast);
  detail::require_finite_positive("beta_slow", s.beta_slow);
  if (s.beta_fast < s.beta_slow)
    detail::fail("beta_fast", "must be >= beta_slow (got beta_fast=" + num(s.beta_fast) + ", beta_slow=" +
                                  num(s.beta_slow) + ")");
  YarnCorrectionRange r;
  r.low_raw = correction_dim(s.beta_fast, s.rotary_dim, s.rope_theta, double(orig));
  r.high_raw = correction_dim(s.beta_slow, s.rotary_dim, s.rope_theta, double(orig));
  r.low = std::max(s.truncate ? std::floor(r.low_raw) : r.low_raw, 0.0);
  r.high = std::min(s.truncate ? std::ceil(r.high_raw) : r.high_raw, double(s.rotary_dim - 1));
  return r;
}

Llama3Bands llama3_bands(const RopeScaling& s) {
  require_dim_theta(s);
  require_base_above_one(s, "llama3's band edges");
  const double L = double(require_count("original_max_position_embeddings", s.original_max_position_embeddings, "llama3"));
  detail::require_finite_positive("low_freq_factor", s.low_freq_factor);
  detail::require_finite_positive("high_freq_factor", s.high_freq_factor);
  if (s.high_freq_factor < s.low_freq_factor)
    detail::fail("high_freq_factor", "must be >= low_freq_factor (got high_freq_factor=" + num(s.high_freq_factor) +
                                         ", low_freq_factor=" + num(s.low_freq_factor) + ")");
  Llama3Bands r;
  r.high_freq_wavelen = L / s.high_freq_factor;
  r.low_freq_wavelen = L / s.low_freq_factor;
  auto dim_of = [&](double wl) { return s.rotary_dim * std::log(wl / (2.0 * kPi)) / (2.0 * std::log(s.rope_theta)); };
  r.high_freq_dim = dim_of(r.high_freq_wavelen);
  r.low_freq_dim = dim_of(r.low_freq_wavelen);
  for (int i = 0; i < s.rotary_dim / 2; ++i) {
    const double wl = 2.0 * kPi / std::pow(s.rope_theta, -2.0 * i / s.rotary_dim);
    if (wl > r.low_freq_wavelen) ++r.n_scaled;
    else if (wl < r.high_freq_wavelen || s.high_freq_factor == s.low_freq_factor) ++r.n_kept;
    else ++r.n_smoothed;
  }
  return r;
}

double dynamic_ntk_base(const RopeScaling& s, long long seq_len) {
  require_dim_theta(s);
  require_factor("factor", s.factor, "dynamic");
  if (s.rotary_dim < 4) detail::fail("rotary_dim", "must be >= 4 for rope_type 'dynamic' (got 2)");
  const double L0 = double(require_count("max_position_embeddings", s.max_position_embeddings, "dynamic"));
  detail::require_int_range("seq_len", seq_len, 0, 1LL << 40);
  const double L = std::max(double(seq_len), L0);
  const double d = s.rotary_dim;
  return s.rope_theta * std::pow(s.factor * L / L0 - (s.factor - 1.0), d / (d - 2.0));
}

std::vector<double> llama4_attn_scales(const double* positions, std::size_t n, double floor_scale, double attn_scale) {
  detail::require_finite_positive("floor_scale", floor_scale);
  if (!std::isfinite(attn_scale)) detail::fail("attn_scale", "must be a finite number (got " + num(attn_scale) + ")");
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  std::vector<double> r(n);
  for (std::size_t k = 0; k < n; ++k) {
    if (!(positions[k] >= 0) || positions[k] > kMaxAbsPosition || std::floor(positions[k]) != positions[k])
      detail::fail("positions", "every position must be an integer in [0, 2147483647] (index " + std::to_string(k) + ")");
    r[k] = 1.0 + attn_scale * std::log1p(std::floor((positions[k] + 1.0) / floor_scale));
  }
  return r;
}

ScaledInvFreq rope_inv_freq_scaled(const RopeScaling& s, long long seq_len) {
  require_dim_theta(s);
  detail::require_int_range("seq_len", seq_len, 0, 1LL << 40);
  const int d = s.rotary_dim;
  const std::size_t half = static_cast<std::size_t>(d / 2);
  const double b = s.rope_theta;
  auto theta = [&](double base, std::size_t i) { return std::pow(base, -2.0 * double(i) / d); };
  ScaledInvFreq r;
  r.inv_freq.resize(half);
  r.effective_base = b;
  const char* type = rope_type_name(s.rope_type);
  switch (s.rope_type) {
    case RopeType::default_:
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(b, i);
      break;
    case RopeType::linear:
      require_factor("factor", s.factor, type);
      r.factor = s.factor;
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(b, i) / s.factor;
      break;
    case RopeType::ntk:
      require_factor("factor", s.factor, type);
      if (d < 4) detail::fail("rotary_dim", "must be >= 4 for rope_type 'ntk' (got 2)");
      r.factor = s.factor;
      r.effective_base = b * std::pow(s.factor, double(d) / double(d - 2));
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(r.effective_base, i);
      break;
    case RopeType::dynamic:
      r.factor = s.factor;
      r.effective_base = dynamic_ntk_base(s, seq_len);
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(r.effective_base, i);
      break;
    case RopeType::yarn: {
      r.yarn = yarn_correction_range(s);
      double factor = s.factor;
      if (std::isnan(factor)) {
        const long long orig = s.original_max_position_embeddings ? s.original_max_position_embeddings
                                                                  : s.max_position_embeddings;
        factor = double(require_count("max_position_embeddings", s.max_position_embeddings, type)) / double(orig);
      }
      require_factor("factor", factor, type);
      r.factor = factor;
      if (!std::isfinite(s.mscale) || !std::isfinite(s.mscale_all_dim))
        detail::fail(std::isfinite(s.mscale) ? "mscale_all_dim" : "mscale", "must be a finite number");
      if (!std::isnan(s.attention_factor)) {
        detail::require_finite_positive("attention_factor", s.attention_factor);
        r.attention_scaling = s.attention_factor;
      } else if (s.mscale != 0 && s.mscale_all_dim != 0) {
        r.attention_scaling = yarn_get_mscale(factor, s.mscale) / yarn_get_mscale(factor, s.mscale_all_dim);
      } else {
        r.attention_scaling = yarn_get_mscale(factor);
      }
      if (s.mscale_all_dim != 0) r.softmax_scale_factor = std::pow(yarn_get_mscale(factor, s.mscale_all_dim), 2);
      const double low = r.yarn.low, high = r.yarn.low == r.yarn.high ? r.yarn.high + 0.001 : r.yarn.high;
      for (std::size_t i = 0; i < half; ++i) {
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        const double extrap = theta(b, i), interp = extrap / factor;
        r.inv_freq[i] = interp * ramp + extrap * (1.0 - ramp);  // HF: interp·(1 − e) + extrap·e, e = 1 − ramp
      }
      break;
    }
    case RopeType::longrope: {
      const long long orig = require_count("original_max_position_embeddings", s.original_max_position_embeddings, type);
      require_factor_list("short_factor", s.short_factor, half);
      require_factor_list("long_factor", s.long_factor, half);
      double factor = s.factor;
      if (std::isnan(factor))
        factor = double(require_count("max_position_embeddings", s.max_position_embeddings, type)) / double(orig);
      else if (!std::isfinite(factor) || factor < 1.0)
        detail::fail("factor", "must be a finite number >= 1 (got " + num(factor) + ")");
      r.factor = factor;
      if (!std::isnan(s.attention_factor)) {
        detail::require_finite_positive("attention_factor", s.attention_factor);
        r.attention_scaling = s.attention_factor;
      } else {
        r.attention_scaling = factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(factor) / std::log(double(orig)));
      }
      const bool long_ = seq_len > orig;
      r.longrope_factors = long_ ? "long" : "short";
      const auto& ext = long_ ? s.long_factor : s.short_factor;
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = 1.0 / (ext[i] * std::pow(b, 2.0 * double(i) / d));
      break;
    }
    case RopeType::llama3: {
      require_factor("factor", s.factor, type);
      r.factor = s.factor;
      r.bands = llama3_bands(s);
      const double L = double(s.original_max_position_embeddings);
      const bool step = s.high_freq_factor == s.low_freq_factor;
      for (std::size_t i = 0; i < half; ++i) {
        const double f = theta(b, i), wl = 2.0 * kPi / f;
        if (wl > r.bands.low_freq_wavelen) {
          r.inv_freq[i] = f / s.factor;
        } else if (wl < r.bands.high_freq_wavelen || step) {
          r.inv_freq[i] = f;
        } else {
          const double sm = (L / wl - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
          r.inv_freq[i] = (1.0 - sm) * f / s.factor + sm * f;
        }
      }
      break;
    }
    case RopeType::proportional: {
      double factor = std::isnan(s.factor) ? 1.0 : s.factor;
      if (!std::isfinite(factor) || !(factor > 0)) detail::fail("factor", "must be a finite number > 0 (got " + num(factor) + ")");
      const double p = s.partial_rotary_factor;
      if (!std::isfinite(p) || !(p > 0) || p > 1)
        detail::fail("partial_rotary_factor", "must be a number in (0, 1] (got " + num(p) + ")");
      r.factor = factor;
      const std::size_t n = static_cast<std::size_t>(std::floor(p * d / 2.0));  // HF: int(p · head_dim // 2)
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = i < n ? theta(b, i) / factor : 0.0;
      break;
    }
    default:
      detail::fail("rope_type", "unknown rope_type (got " + std::to_string(int(s.rope_type)) + ")");
  }
  return r;
}

void rope_tables_scaled(const std::vector<double>& inv_freq, double attention_scaling, const double* positions,
                        std::size_t n_positions, float* cos_out, float* sin_out) {
  validate_inv_freq(inv_freq);
  detail::require_finite_positive("attention_scaling", attention_scaling);
  detail::require_int_range("n_positions", static_cast<long long>(n_positions), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n_positions * inv_freq.size()));
  detail::require_positions("positions", positions, n_positions);
  kernels::angle_tables_simd(inv_freq.data(), inv_freq.size(), positions, n_positions, attention_scaling, cos_out,
                             sin_out, inv_freq.size());
}

std::vector<float> rope_freqs_cis(const std::vector<double>& inv_freq, const double* positions, std::size_t n) {
  validate_inv_freq(inv_freq);
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim", static_cast<long long>(2 * n * inv_freq.size()));
  detail::require_positions("positions", positions, n);
  const std::size_t h = inv_freq.size();
  std::vector<float> c(n * h), s(n * h), out(2 * n * h);
  kernels::angle_tables_simd(inv_freq.data(), h, positions, n, 1.0, c.data(), s.data(), h);
  for (std::size_t k = 0; k < n * h; ++k) {
    out[2 * k] = c[k];
    out[2 * k + 1] = s[k];
  }
  return out;
}

}  // namespace posenc
