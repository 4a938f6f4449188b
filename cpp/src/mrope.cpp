#include "posenc/mrope.hpp"

#include <cmath>
#include <string>

#include "posenc/error.hpp"
#include "posenc/rope.hpp"
#include "posenc/rope_scaling.hpp"

namespace posenc {
void mrope_tables(const std::vector<double>& inv_freq, const std::array<int, 3>& sec, const double* pos_t,
                  const double* pos_h, const double* pos_w, std::size_t n, float* cos_out, float* sin_out) {
  if (inv_freq.empty()) detail::fail("inv_freq", "must not be empty");
  for (double f : inv_freq)
    if (!std::isfinite(f)) detail::fail("inv_freq", "every inverse frequency must be finite");
  const long long half = static_cast<long long>(inv_freq.size());
  for (int s : sec) detail::require_int_range("mrope_section", s, 0, half);
  if (1LL * sec[0] + sec[1] + sec[2] != half)
    detail::fail("mrope_section", "sections must sum to rotary_dim/2 = " + std::to_string(half) + " (got " +
                                      std::to_string(sec[0]) + "+" + std::to_string(sec[1]) + "+" +
                                      std::to_string(sec[2]) + ")");
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n) * half);
  detail::require_positions("positions_t", pos_t, n);
  detail::require_positions("positions_h", pos_h, n);
  detail::require_positions("positions_w", pos_w, n);
  const double* streams[3] = {pos_t, pos_h, pos_w};
  std::size_t start = 0;
  for (int k = 0; k < 3; ++k) {
    const std::size_t len = static_cast<std::size_t>(sec[static_cast<std::size_t>(k)]);
    if (len > 0)
      kernels::angle_tables_simd(inv_freq.data() + start, len, streams[k], n, 1.0, cos_out + start, sin_out + start,
                                 inv_freq.size());
    start += len;
  }
}

void axial2d_tables(int rotary_dim, double rope_theta, const double* pos_h, const double* pos_w, std::size_t n,
                    float* cos_out, float* sin_out) {
  detail::require_int_range("rotary_dim", rotary_dim, 4, kMaxHeadDim);
  if (rotary_dim % 4 != 0)
    detail::fail("rotary_dim", "must be a multiple of 4 for 2D axial RoPE (got " + std::to_string(rotary_dim) + ")");
  detail::require_finite_positive("rope_theta", rope_theta);
  detail::require_int_range("n_positions", static_cast<long long>(n), 0, kMaxSeqLen);
  detail::require_output_cap("n_positions*rotary_dim/2", static_cast<long long>(n) * (rotary_dim / 2));
  detail::require_positions("positions_h", pos_h, n);
  detail::require_positions("positions_w", pos_w, n);
  const std::size_t q = static_cast<std::size_t>(rotary_dim / 4), half = 2 * q;
  std::vector<double> phi(q);
  for (std::size_t k = 0; k < q; ++k) phi[k] = std::pow(rope_theta, -2.0 * double(k) / double(rotary_dim / 2));
  kernels::angle_tables_simd(phi.data(), q, pos_h, n, 1.0, cos_out, sin_out, half);
  kernels::angle_tables_simd(phi.data(), q, pos_w, n, 1.0, cos_out + q, sin_out + q, half);
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
