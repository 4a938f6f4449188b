// posenc (internal) — the position schemes of posenc's own tiny models in the forward pass (conventions in
// posenc/model.hpp): their hyperparameter checks, the absolute codes added to the token embedding, and the score
// biases by distance. Each through the core's own kernels: sinusoidal.hpp, alibi.hpp, relative.hpp (T5), xpos.hpp.
#pragma once
#include <vector>

#include "posenc/model.hpp"

namespace posenc::detail::lm {
/// Checks the scheme's fields of hp (rotary_dim 0 unless rope or xpos, the learned table's rows, T5's buckets, …).
void check_position_hparams(const LmHparams& hp);
/// x[n][n_embd] holds token embeddings of positions pos[0 … n): adds the learned or sinusoidal code (nothing for
/// the other schemes).
void add_absolute(const LmModel& m, const double* pos, int n, float* x);
/// The bias of a score at distance r = i − j, for r = 0 … capacity − 1: [layers][n_head][capacity] with layers =
/// n_layer (kerple) or 1 (alibi, t5); empty for schemes without one.
std::vector<float> distance_bias(const LmModel& m, int capacity);
}  // namespace posenc::detail::lm
