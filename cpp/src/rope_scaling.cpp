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

double yarn_mscale(double scale, double m) { return scale <= 1.0 ? 1.0 : 0.1 * m * std::log(scale) + 1.0; }

double correction_dim(double rotations, int dim, double base, double max_pos) {
  return (dim * std::log(max_pos / (rotations * 2.0 * kPi))) / (2.0 * std::log(base));
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
  }
  return "?";
}

RopeType rope_type_from_name(const std::string& name, const char* param) {
  for (int t = 0; t <= 6; ++t)
    if (name == rope_type_name(static_cast<RopeType>(t))) return static_cast<RopeType>(t);
  if (name == "su") return RopeType::longrope;
  detail::fail(param, "must be one of 'default', 'linear', 'ntk', 'dynamic', 'yarn', 'longrope', 'llama3' (got '" +
                          name + "')");
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

ScaledInvFreq rope_inv_freq_scaled(const RopeScaling& s, long long seq_len) {
  const int d = s.rotary_dim;
  detail::require_int_range("rotary_dim", d, 2, kMaxHeadDim);
  detail::require_even("rotary_dim", d);
  detail::require_finite_positive("rope_theta", s.rope_theta);
  detail::require_int_range("seq_len", seq_len, 0, 1LL << 40);
  const std::size_t half = static_cast<std::size_t>(d / 2);
  const double b = s.rope_theta;
  auto theta = [&](double base, std::size_t i) { return std::pow(base, -2.0 * double(i) / d); };
  ScaledInvFreq r;
  r.inv_freq.resize(half);
  const char* type = rope_type_name(s.rope_type);
  switch (s.rope_type) {
    case RopeType::default_:
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(b, i);
      break;
    case RopeType::linear:
      require_factor("factor", s.factor, type);
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(b, i) / s.factor;
      break;
    case RopeType::ntk:
    case RopeType::dynamic: {
      require_factor("factor", s.factor, type);
      if (d < 4) detail::fail("rotary_dim", std::string("must be >= 4 for rope_type '") + type + "' (got 2)");
      double ratio = s.factor;
      if (s.rope_type == RopeType::dynamic) {
        detail::require_int_range("max_position_embeddings", s.max_position_embeddings, 1, 1LL << 40);
        const double L0 = double(s.max_position_embeddings);
        const double L = std::max(double(seq_len), L0);
        ratio = s.factor * L / L0 - (s.factor - 1.0);
      }
      const double base = b * std::pow(ratio, double(d) / double(d - 2));
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = theta(base, i);
      break;
    }
    case RopeType::yarn: {
      long long orig = s.original_max_position_embeddings;
      if (orig == 0) orig = s.max_position_embeddings;
      detail::require_int_range("original_max_position_embeddings", orig, 1, 1LL << 40);
      double factor = s.factor;
      if (std::isnan(factor)) {
        detail::require_int_range("max_position_embeddings", s.max_position_embeddings, 1, 1LL << 40);
        factor = double(s.max_position_embeddings) / double(orig);
      }
      require_factor("factor", factor, type);
      detail::require_finite_positive("beta_fast", s.beta_fast);
      detail::require_finite_positive("beta_slow", s.beta_slow);
      if (s.beta_fast < s.beta_slow)
        detail::fail("beta_fast", "must be >= beta_slow (got beta_fast=" + num(s.beta_fast) +
                                      ", beta_slow=" + num(s.beta_slow) + ")");
      if (!std::isfinite(s.mscale) || !std::isfinite(s.mscale_all_dim))
        detail::fail("mscale", "mscale and mscale_all_dim must be finite");
      if (!std::isnan(s.attention_factor)) {
        detail::require_finite_positive("attention_factor", s.attention_factor);
        r.attention_scaling = s.attention_factor;
      } else if (s.mscale != 0 && s.mscale_all_dim != 0) {
        r.attention_scaling = yarn_mscale(factor, s.mscale) / yarn_mscale(factor, s.mscale_all_dim);
      } else {
        r.attention_scaling = yarn_mscale(factor, 1.0);
      }
      double low = correction_dim(s.beta_fast, d, b, double(orig));
      double high = correction_dim(s.beta_slow, d, b, double(orig));
      if (s.truncate) low = std::floor(low), high = std::ceil(high);
      low = std::max(low, 0.0);
      high = std::min(high, double(d - 1));
      if (low == high) high += 0.001;  // as the reference: avoid a zero-width ramp
      for (std::size_t i = 0; i < half; ++i) {
        const double ramp = std::clamp((double(i) - low) / (high - low), 0.0, 1.0);
        const double extrap = theta(b, i), interp = extrap / factor;
        // HF: interp·(1 − e) + extrap·e with e = 1 − ramp
        r.inv_freq[i] = interp * ramp + extrap * (1.0 - ramp);
      }
      break;
    }
    case RopeType::longrope: {
      const long long orig = s.original_max_position_embeddings;
      detail::require_int_range("original_max_position_embeddings", orig, 1, 1LL << 40);
      require_factor_list("short_factor", s.short_factor, half);
      require_factor_list("long_factor", s.long_factor, half);
      double factor = s.factor;
      if (std::isnan(factor)) {
        detail::require_int_range("max_position_embeddings", s.max_position_embeddings, 1, 1LL << 40);
        factor = double(s.max_position_embeddings) / double(orig);
      } else if (!std::isfinite(factor) || factor < 1.0) {
        detail::fail("factor", "must be a finite number >= 1 (got " + num(factor) + ")");
      }
      if (!std::isnan(s.attention_factor)) {
        detail::require_finite_positive("attention_factor", s.attention_factor);
        r.attention_scaling = s.attention_factor;
      } else {
        r.attention_scaling = factor <= 1.0 ? 1.0 : std::sqrt(1.0 + std::log(factor) / std::log(double(orig)));
      }
      const auto& ext = seq_len > orig ? s.long_factor : s.short_factor;
      for (std::size_t i = 0; i < half; ++i) r.inv_freq[i] = 1.0 / (ext[i] * std::pow(b, 2.0 * double(i) / d));
      break;
    }
    case RopeType::llama3: {
      require_factor("factor", s.factor, type);
      detail::require_int_range("original_max_position_embeddings", s.original_max_position_embeddings, 1, 1LL << 40);
      if (!std::isfinite(s.low_freq_factor) || !std::isfinite(s.high_freq_factor) || !(s.low_freq_factor > 0))
        detail::fail("low_freq_factor", "low_freq_factor and high_freq_factor must be finite numbers > 0");
      if (!(s.high_freq_factor > s.low_freq_factor))
        detail::fail("high_freq_factor", "must be greater than low_freq_factor (got high_freq_factor=" +
                                             num(s.high_freq_factor) + ", low_freq_factor=" +
                                             num(s.low_freq_factor) + ")");
      const double old_len = double(s.original_max_position_embeddings);
      const double low_wl = old_len / s.low_freq_factor, high_wl = old_len / s.high_freq_factor;
      for (std::size_t i = 0; i < half; ++i) {
        const double f = theta(b, i), wl = 2.0 * kPi / f;
        if (wl > low_wl) {
          r.inv_freq[i] = f / s.factor;
        } else if (wl < high_wl) {
          r.inv_freq[i] = f;
        } else {
          const double sm = (old_len / wl - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
          r.inv_freq[i] = (1.0 - sm) * f / s.factor + sm * f;
        }
      }
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
