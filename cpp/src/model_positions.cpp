// posenc — the position schemes of posenc's own tiny models in the forward pass (see model_positions.hpp and the
// conventions of posenc/model.hpp). As scripts/train/model.py computes them in training, through the core's kernels.
#include "model_positions.hpp"

#include <algorithm>
#include <cmath>

#include "posenc/alibi.hpp"
#include "posenc/error.hpp"
#include "posenc/relative.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/xpos.hpp"

namespace posenc {
namespace {
constexpr const char* kNames[] = {"rope", "learned", "sinusoidal", "alibi", "t5", "nope", "xpos", "kerple"};
}

const char* lm_position_name(LmPosition p) { return kNames[static_cast<int>(p)]; }

LmPosition lm_position_from_name(const std::string& name) {
  for (int k = 0; k < 8; ++k)
    if (name == kNames[k]) return static_cast<LmPosition>(k);
  detail::fail("position_encoding.type", "must be one of rope, learned, sinusoidal, alibi, t5, nope, xpos, kerple (got '" +
                                             name.substr(0, 40) + "')");
}

namespace detail::lm {
void check_position_hparams(const LmHparams& hp) {
  const bool rotary = hp.position == LmPosition::rope || hp.position == LmPosition::xpos;
  if (!rotary && hp.rotary_dim != 0)
    fail("model", std::string("rotary_dim must be 0 for position scheme ") + lm_position_name(hp.position) + " (got " + std::to_string(hp.rotary_dim) + ")");
  switch (hp.position) {
    case LmPosition::learned: require_int_range("n_positions", hp.n_positions, 1, 1 << 20); break;
    case LmPosition::sinusoidal:
      if (!(std::isfinite(hp.sinusoid_base) && hp.sinusoid_base >= 2 && hp.sinusoid_base <= 1e9))
        fail("sinusoid_base", "must be in [2, 1e9] (got " + format_number(hp.sinusoid_base) + ")");
      break;
    case LmPosition::t5: t5_relative_position_bucket(0, false, hp.t5_num_buckets, hp.t5_max_distance); break;  // its checks
    case LmPosition::xpos:
      if (!hp.interleaved) fail("model", "xpos rotates interleaved pairs (2i, 2i + 1): interleaved must be true");
      xpos_max_centred(hp.rotary_dim, XposOptions{hp.xpos_scale_base, 0.4, hp.rope_theta});  // its checks
      break;
    case LmPosition::kerple:
      if (!(std::isfinite(hp.kerple_eps) && hp.kerple_eps > 0 && hp.kerple_eps <= 1))
        fail("kerple_eps", "must be in (0, 1] (got " + format_number(hp.kerple_eps) + ")");
      break;
    default: break;
  }
}

void add_absolute(const LmModel& m, const double* pos, int n, float* x) {
  const LmHparams& hp = m.hp;
  const int E = hp.n_embd;
  if (hp.position == LmPosition::learned) {
    for (int t = 0; t < n; ++t) {
      const int row = static_cast<int>(std::clamp(std::floor(pos[t]), 0.0, double(hp.n_positions - 1)));
      const float* p = m.pos_embd.data() + std::size_t(row) * E;
      for (int c = 0; c < E; ++c) x[std::size_t(t) * E + c] += p[c];
    }
  } else if (hp.position == LmPosition::sinusoidal) {
    std::vector<float> table(std::size_t(n) * E);
    sinusoidal_table(pos, std::size_t(n), E, hp.sinusoid_base, SinusoidalLayout::interleaved, table.data());
    const float scale = static_cast<float>(std::sqrt(double(E)));
    for (std::size_t k = 0; k < table.size(); ++k) x[k] = x[k] * scale + table[k];
  }
}

std::vector<float> distance_bias(const LmModel& m, int capacity) {
  const LmHparams& hp = m.hp;
  const int H = hp.n_head;
  std::vector<float> b;
  if (hp.position == LmPosition::alibi) {
    const std::vector<double> slopes = alibi_slopes(H);
    b.resize(std::size_t(H) * capacity);
    for (int h = 0; h < H; ++h)
      for (int r = 0; r < capacity; ++r) b[std::size_t(h) * capacity + r] = static_cast<float>(-slopes[h] * r);
  } else if (hp.position == LmPosition::t5) {
    b.resize(std::size_t(H) * capacity);
    for (int r = 0; r < capacity; ++r) {
      const int bucket = t5_relative_position_bucket(-r, false, hp.t5_num_buckets, hp.t5_max_distance);  // key − query
      for (int h = 0; h < H; ++h) b[std::size_t(h) * capacity + r] = m.rel_bias[std::size_t(bucket) * H + h];
    }
  } else if (hp.position == LmPosition::kerple) {
    b.resize(std::size_t(hp.n_layer) * H * capacity);
    for (int il = 0; il < hp.n_layer; ++il)
      for (int h = 0; h < H; ++h) {
        const double r1 = std::max<double>(m.layers[il].kerple_r1[h], hp.kerple_eps);
        const double r2 = std::max<double>(m.layers[il].kerple_r2[h], hp.kerple_eps);
        float* row = b.data() + (std::size_t(il) * H + h) * capacity;
        for (int r = 0; r < capacity; ++r) row[r] = static_cast<float>(-r1 * std::log1p(r2 * r));
      }
  }
  return b;
}
}  // namespace detail::lm
}  // namespace posenc
