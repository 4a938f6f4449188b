#include "posenc/mrope.hpp"

#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope.hpp"
#include "posenc/rope_scaling.hpp"

namespace posenc {
std::vector<int> mrope_streams(const std::array<int, 3>& sec, std::size_t half, bool interleaved) {
  const long long h = static_cast<long long>(half);
  for (int s : sec) detail::require_int_range("mrope_section", s, 0, h);
  if (1LL * sec[0] + sec[1] + sec[2] != h)
    detail::fail("mrope_section", "sections must sum to rotary_dim/2 = " + std::to_string(half) + " (got " +
                                      std::to_string(sec[0]) + "+" + std::to_string(sec[1]) + "+" +
                                      std::to_string(sec[2]) + ")");
  std::vector<int> stream(half, 0);
  for (std::size_t i = 0; i < half; ++i) {
    if (!interleaved) stream[i] = long(i) < sec[0] ? 0 : long(i) < sec[0] + sec[1] ? 1 : 2;
    else if (i % 3 == 1 && i < 3 * std::size_t(sec[1])) stream[i] = 1;
    else if (i % 3 == 2 && i < 3 * std::size_t(sec[2])) stream[i] = 2;
  }
  if (interleaved) {
    int count[3] = {0, 0, 0};
    for (int k : stream) ++count[k];
    if (count[1] != sec[1] || count[2] != sec[2])
      detail::fail("mrope_section", "interleaved sections need 3*s_h - 2 and 3*s_w - 1 below rotary_dim/2 = " +
                                        std::to_string(half) + " (got h " + std::to_string(sec[1]) + ", w " +
                                        std::to_string(sec[2]) + ")");
  }
  return stream;
}

void mrope_tables(const std::vector<double>& inv_freq, const std::array<int, 3>& sec, const double* pos_t,
                  const double* pos_h, const double* pos_w, std::size_t n, float* cos_out, float* sin_out,
                  bool interleaved) {
  if (inv_freq.empty()) detail::fail("inv_freq", "must not be empty");
  for (double f : inv_freq)
    if (!std::isfinite(f)) detail::fail("inv_freq", "every inverse frequency must be finite");
  const std::size_t half = inv_freq.size();
  const std::vector<int> stream = mrope_streams(sec, half, interleaved);
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n * half));
  detail::require_positions("positions_t", pos_t, n);
  detail::require_positions("positions_h", pos_h, n);
  detail::require_positions("positions_w", pos_w, n);
  const double* streams[3] = {pos_t, pos_h, pos_w};
  if (n == 0) return;  // the tables may be null then
  // Runs of consecutive frequencies on the same stream (one run per section when contiguous).
  for (std::size_t a = 0; a < half;) {
    std::size_t b = a + 1;
    while (b < half && stream[b] == stream[a]) ++b;
    kernels::angle_tables_simd(inv_freq.data() + a, b - a, streams[stream[a]], n, 1.0, cos_out + a, sin_out + a, half);
    a = b;
  }
}

void axial2d_tables(int rotary_dim, double rope_theta, const double* pos_h, const double* pos_w, std::size_t n,
                    float* cos_out, float* sin_out, Axial2dVariant variant) {
  detail::require_int_range("rotary_dim", rotary_dim, 4, kMaxHeadDim);
  if (rotary_dim % 4 != 0)
    detail::fail("rotary_dim", "must be a multiple of 4 for 2D axial RoPE (got " + std::to_string(rotary_dim) + ")");
  detail::require_rope_base("rope_theta", rope_theta, rotary_dim);
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n) * (rotary_dim / 2));
  detail::require_positions("positions_h", pos_h, n);
  detail::require_positions("positions_w", pos_w, n);
  const std::size_t q = static_cast<std::size_t>(rotary_dim / 4), half = 2 * q;
  // h: θ_{2k} = b^(−4k/d) (both variants); w: θ_{2k} (Qwen2-VL) or θ_{2k+1} (Pixtral)
  const int w_shift = variant == Axial2dVariant::pixtral ? 1 : 0;
  std::vector<double> phi_h(q), phi_w(q);
  for (std::size_t k = 0; k < q; ++k) {
    phi_h[k] = std::pow(rope_theta, -2.0 * double(2 * k) / double(rotary_dim));
    phi_w[k] = std::pow(rope_theta, -2.0 * double(2 * k + w_shift) / double(rotary_dim));
  }
  if (n == 0) return;  // the tables may be null then
  kernels::angle_tables_simd(phi_h.data(), q, pos_h, n, 1.0, cos_out, sin_out, half);
  kernels::angle_tables_simd(phi_w.data(), q, pos_w, n, 1.0, cos_out + q, sin_out + q, half);
}

void axial2d_grid(int grid_h, int grid_w, std::vector<double>& pos_h, std::vector<double>& pos_w) {
  detail::require_int_range("grid_h", grid_h, 1, kMaxSeqLen);
  detail::require_int_range("grid_w", grid_w, 1, kMaxSeqLen);
  detail::require_int_range("grid_h*grid_w", 1LL * grid_h * grid_w, 1, kMaxSeqLen);
  pos_h.resize(static_cast<std::size_t>(grid_h) * grid_w);
  pos_w.resize(pos_h.size());
  for (int r = 0; r < grid_h; ++r)
    for (int c = 0; c < grid_w; ++c) {
      pos_h[static_cast<std::size_t>(r) * grid_w + c] = r;
      pos_w[static_cast<std::size_t>(r) * grid_w + c] = c;
    }
}
}  // namespace posenc
