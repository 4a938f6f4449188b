// posenc — the attention engine: scores of every scheme with their terms kept apart, softmax, output,
// linear attention with RoPE, and the permutation check.
//
// Model. Content vectors q, k, v are [seq, heads, head_dim] (given, or made from a text by text_qkv).
// Every scheme yields a list of terms, each [heads, seq, seq] and already scaled, whose sum is the
// pre-softmax score. Term names follow the classic expansion of additive absolute PE,
//   (x_i + p_i)W_q · ((x_j + p_j)W_k)ᵀ = c2c + c2p + p2c + p2p,
// and each relative scheme maps onto it as its paper does:
//   none            content_content = q_i·k_j/√d
//   sinusoidal      + content_position q_i·(p_j U_k)/√d, position_content (p_i U_q)·k_j/√d,
//   learned           position_position (p_i U_q)·(p_j U_k)/√d; p = sinusoid (base, interleaved) or learned
//                     rows 0 … seq−1 of a [rows ≥ seq, head_dim] table
//   multiplicative  content_content = (q_i ⊙ p_i)·(k_j ⊙ p_j)/√d, p sinusoidal
//   shaw            content_content + content_position q_i·a_K[clip(j−i, −K, K)+K]/√d
//   transformer_xl  the paper's (a) content_content, (b) content_position q_i·r_{i−j}, (c) position_content
//                   u·k_j (global content bias), (d) position_position v·r_{i−j}; r_δ = W_R·[sin δω | cos δω],
//                   all /√d; computed directly for every (i, j) (the rel_shift trick gives the same for j ≤ i)
//   t5              content_content + bias = table[bucket(j − i)][h] (bidirectional unless causal)
//   deberta         content_content, content_position (c2p), position_content (p2c), all /√(3d); δ = i − j,
//                   log buckets (position_buckets, max_relative_positions)
//   tupe            content_content and position_position ((p_i U_q)·(p_j U_k)), both /√(2d)
//   rope            content_content of the rotated q, k (any rope_type; cos/sin carry attention_scaling)
//   alibi           content_content + bias −m_h·|i − j| (causal form: −∞ above the diagonal)
//   xpos            content_content of q, k rotated and scaled by ζ^(±n/scale_base) (torchscale)
// Note: T5 itself does not divide by √d (it folds it into initialisation); posenc keeps 1/√d on the content
// term of every scheme so that figures compare like with like.
//
// Seeded parameters (positional projections U_q, U_k, W_R, biases u, v, relative tables, T5 bias table)
// come from the documented generator of attention.hpp: stream(key, n) with key = seed XOR fnv1a(name) XOR
// (h · 0x9E3779B97F4A7C15) for head h, values uniform in [−1, 1) times 1/√head_dim (matrices and
// embedding tables) or times 1 (T5 bias table, u, v). Names: "U_q", "U_k", "W_R", "u", "v", "shaw_K",
// "t5_bias", "deberta_rel", "deberta_W_q", "deberta_W_k".
//
// Causal: terms, scores and probabilities are −∞ / −∞ / 0 for j > i.
// Accuracy: float32 dot products (relative error ≤ head_dim·2^-24 of Σ|products|); softmax rows sum to 1
// within 1e-6; output = probs·V accumulated in float32.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "posenc/rope.hpp"
#include "posenc/rope_scaling.hpp"

namespace posenc {

enum class AttentionScheme { none, sinusoidal, learned, multiplicative, shaw, transformer_xl, t5, deberta, tupe, rope, alibi, xpos };

/// Parses "none", "sinusoidal", … (the enum's names); throws Error naming `param`.
AttentionScheme attention_scheme_from_name(const std::string& name, const char* param = "scheme.type");
const char* attention_scheme_name(AttentionScheme s);

struct SchemeParams {
  AttentionScheme type = AttentionScheme::none;
  double base = 10000.0;                 ///< sinusoid base (sinusoidal, multiplicative, tupe)
  std::vector<float> learned_table;      ///< learned: [learned_rows, head_dim]; empty = seeded table
  int learned_rows = 0;
  int max_relative_position = 16;        ///< shaw K
  int num_buckets = 32, max_distance = 128;               ///< t5
  int position_buckets = 256, max_relative_positions = 512; ///< deberta
  RopeScaling rope;                      ///< rope / xpos: rope_theta, rope_type and its fields; rotary_dim 0 = head_dim
  RopeLayout layout = RopeLayout::half_split;  ///< rope (xpos uses torchscale's interleaved pairs)
  double scale_base = 512.0, gamma = 0.4;      ///< xpos
};

struct AttentionResult {
  int heads = 0, seq = 0, head_dim = 0;
  std::vector<std::pair<std::string, std::vector<float>>> terms;  ///< each [heads, seq, seq]
  std::vector<float> scores;  ///< Σ terms, [heads, seq, seq]
  std::vector<float> probs;   ///< row softmax of scores
  std::vector<float> output;  ///< probs·V, [seq, heads, head_dim]
};

/// Caps: seq ≤ 4096, heads·seq·seq·(terms + 2) ≤ kMaxOutputElements.
AttentionResult attention(const float* q, const float* k, const float* v, int seq, int heads, int head_dim,
                          const SchemeParams& scheme, bool causal, std::uint64_t seed);

/// q, k, v [tokens, heads, head_dim] from a text: head 0 of q and k equals text_qk; head h uses W keys
/// (seed XOR 0x5157 / 0x4B57 / 0x5657) XOR (h·2^32) for W_q / W_k / W_v.
struct TextQKV {
  std::vector<std::string> tokens;
  std::vector<float> q, k, v;
};
TextQKV text_qkv(const std::string& text, int heads, int head_dim, std::uint64_t seed);

/// max |S'[a][b] − S[π(a)][π(b)]| over the raw scores (all heads) of the text and of the text with tokens
/// i and j swapped (π the swap). Zero for `none` (the very same dot products), non-zero for position schemes.
/// With causal masks only the pairs visible in both orders are compared (the mask is a property of positions, so a
/// swap moves it; comparing −∞ with a score would say nothing about the scheme). Always finite for finite inputs.
double permutation_change(const std::string& text, int i, int j, int heads, int head_dim, const SchemeParams& scheme,
                          bool causal, std::uint64_t seed);

/// Linear attention with RoPE (002_5ffd3aa96caf6015.txt eq. 28/29), φ = elu + 1 on q and k, positions 0 … seq−1:
///   numerator_i = Σ_j [R_i φ(q_i)]·[R_j φ(k_j)] v_j (j ≤ i when causal), computed in O(seq·d·dv);
///   naive (28):          denominator_i = Σ_j [R_i φ(q_i)]·[R_j φ(k_j)]  — can be ≤ 0;
///   numerator_only (29): denominator_i = Σ_j φ(q_i)·φ(k_j)              — always > 0.
/// output_i = numerator_i / denominator_i. q, k [seq, d], v [seq, dv]; float32 with float64 state sums.
enum class LinearForm { naive = 0, numerator_only = 1 };
struct LinearAttentionResult {
  std::vector<float> output, denominator;
};
LinearAttentionResult linear_attention_rope(const float* q, const float* k, const float* v, int seq, int d, int dv,
                                            bool causal, double rope_theta, LinearForm form);
}  // namespace posenc
