// posenc — research position schemes without a released model, as curves against the distance r = i − j ≥ 0 between
// a query at position i and a key at j ≤ i (keys in the past; the page's sign convention). Scalar float64: these are
// curves of at most a few thousand points, drawn next to ALiBi (alibi.hpp) and T5 (relative.hpp).
//
//  * KERPLE (Chi et al. 2022, arXiv 2205.09921; chijames/KERPLE@73f1ee2d, megatron/mpu/layers.py
//    ParallelKerplePower / ParallelKerpleLog): logit bias
//      power: −r1·r^r2            (the reference's bias_a = r1 ≥ 0.01, bias_p = r2 ∈ [0.01, 2])
//      log:   −r1·log(1 + r2·r)   (the reference's bias_p = r1 ≥ 0.01, bias_a = r2 ≥ 0.01)
//  * Sandwich (Chi et al. 2023, arXiv 2212.10356; NVIDIA/NeMo@000b931e sandwich_relative_position_embedding.py):
//      b_h(r) = (Σ_{k=1}^{d/2} cos(r / 10000^(2k/d)) − d/2) / (h·8/H),  h = 1 … H the head, d the head size.
//  * FIRE (Li et al. 2023, arXiv 2310.04418; initialisation c = 0.1, L = 512 as mcleish7/arithmetic@55af9d5e
//    cramming/architectures/embeddings.py): the MLP's input, the progressively interpolated distance
//      x(i, r) = ψ(r) / (ψ(max(i, L)) + eps),  ψ(t) = log(|c·t| + 1),  eps = 1e-6.
//    (The bias is a learned MLP f_θ(x): no released weights, so the curve drawn is x, what every FIRE head reads.)
//  * CoPE (Golovneva et al. 2024, arXiv 2405.18719; facebookresearch/RAM@eff93c70 projects/cope/src/cope/context_position.py):
//    for one query i with gate logits z_j (j = 0 … i), gates g_j = σ(z_j) and the contextual position of key j
//      p_j = min(Σ_{t=j}^{i} g_t, npos − 1)     (the reference's flip-cumsum-flip, clamped to npos − 1).
//  * Stick-breaking attention (Tan et al. 2024, arXiv 2410.17980; shawntan/stickbreaking-attention@ea69b8dd sb_ref.py,
//    attend_current = False): a query at position n over keys j = 0 … n−1 with logits z_j,
//      A_j = σ(z_j)·Π_{j<t<n} (1 − σ(z_t)),  computed as exp(log σ(z_j) + Σ_{j<t<n} log σ(−z_t)) like the reference.
//  * PaTH (Yang et al. 2025, arXiv 2505.16381; fla-org/flash-linear-attention@27289fcb tests/ops/test_path_attn.py
//    naive_path_attn): the logit of query i (the last, n−1) and key j,
//      s_j = qᵀ H_i H_{i−1} ⋯ H_{j+1} k_j,  H_t = I − β_t w_t w_tᵀ  (w_t unit vectors, β_t ∈ [0, 2]),
//    the identity for j = i. Evaluated right to left, one Householder step at a time: u ← u − β_t (u·w_t) w_t (the
//    reference forms the same products blockwise with the UT transform, in float32).
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

enum class KerpleKernel { power = 0, log = 1 };

/// Largest KERPLE r1, r2 and FIRE c (learned values are O(1)): with r ≤ 2^20 every bias stays finite.
inline constexpr double kResearchMaxScale = 1e6;
/// Largest FIRE threshold L (a position).
inline constexpr double kFireMaxL = 2147483648.0;

/// KERPLE bias at r = 0 … count−1. Throws Error unless r1, r2 are finite in (0, 1e6] (power: r2 ≤ 2), 1 ≤ count ≤ 2^20.
std::vector<double> kerple_bias(KerpleKernel kernel, double r1, double r2, long long count);

/// Sandwich bias of head `head` (1 … num_heads) at r = 0 … count−1. head_dim even in [2, 8192].
std::vector<double> sandwich_bias(int head_dim, int num_heads, int head, long long count);

/// FIRE's normalised distance x(i, r) for a query at `query_position` i and r = 0 … count−1 (count ≤ i + 1).
/// c in (0, 1e6], L in [0, 2^31].
std::vector<double> fire_distance(double c, double L, long long query_position, long long count);

/// CoPE positions p_j (j = 0 … n−1) of the query at n−1 from its gate logits z_0 … z_{n−1}; npos ≥ 1 (the
/// reference's default is block_size + 1).
std::vector<double> cope_positions(const double* gate_logits, long long n, long long npos);

/// Stick-breaking weights A_j (j = 0 … n−1) of a query at position n from its logits z_0 … z_{n−1} (finite).
std::vector<double> stick_breaking_weights(const double* logits, long long n);

/// PaTH logits s_j (j = 0 … n−1) of the query q (d) at position n−1 against keys k [n, d], with w [n, d] and β [n].
/// n·d ≤ 2^22; q, k finite; every β_t in [0, 2]; every w_t of unit length within 1e-6 (the reference's tests pass
/// L2-normalised w). Throws Error (param "q") where a score overflows float64.
std::vector<double> path_scores(const double* q, const double* k, const double* w, const double* beta, long long n,
                                int head_dim);
}  // namespace posenc
