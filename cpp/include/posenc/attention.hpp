// posenc — attention scores for one head, and seeded Q/K from a short text.
//
// attention_scores: S[i][j] = (q_i' · k_j') / √head_dim, where q', k' are q, k rotated by RoPE at
// positions i and j when options.rope is set (else unchanged). With options.causal, S[i][j] for
// j > i is −∞ before the softmax and exactly 0 after it. With options.softmax, every row is
// replaced by softmax(row) (max-subtracted, float32): rows sum to 1 within 1e-6.
// Accuracy: dot products accumulate in float32 lanes; relative error ≤ head_dim · 2^-24 of Σ|q·k|.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "posenc/rope.hpp"

namespace posenc {

struct AttentionOptions {
  bool rope = false;           ///< apply RoPE to q and k before the product
  double rope_theta = 10000.0; ///< RoPE base
  int rotary_dim = 0;          ///< 0 = head_dim
  RopeLayout layout = RopeLayout::half_split;
  bool causal = false;         ///< mask j > i
  bool softmax = true;         ///< row softmax of the scaled scores
};

/// q, k: [seq, head_dim] row-major. Returns [seq, seq]. Throws Error on bad sizes/options.
std::vector<float> attention_scores(const float* q, const float* k, int seq, int head_dim,
                                    const AttentionOptions& options);
/// The same into out[seq·seq] (a caller's warm buffer: large fresh allocations mostly measure page faults).
void attention_scores(const float* q, const float* k, int seq, int head_dim, const AttentionOptions& options,
                      float* out);

/// Tokenisation used by text_qk: if the text contains whitespace, tokens are the maximal runs of
/// non-whitespace characters ("猫 抓 老鼠" → 猫, 抓, 老鼠); otherwise every Unicode code point is a
/// token ("猫抓老鼠" → 猫, 抓, 老, 鼠). Input must be valid UTF-8.
std::vector<std::string> tokenize(const std::string& text);

/// Seeded embeddings and projections — a documented generator, so any engine reproduces them:
///  * splitmix64: z += 0x9E3779B97F4A7C15; z = (z ^ (z>>30))·0xBF58476D1CE4E5B9;
///    z = (z ^ (z>>27))·0x94D049BB133111EB; return z ^ (z>>31)   (all mod 2^64).
///  * uniform(z) = float((z >> 40) · 2^-23 − 1) ∈ [−1, 1), exact in float32.
///  * A stream with key κ starts at state κ and yields uniform(splitmix64()) values.
///  * token key: FNV-1a 64 of the token's UTF-8 bytes (offset 0xCBF29CE484222325, prime
///    0x100000001B3), XOR seed. Embedding x_t = the first head_dim values of the token's stream.
///  * W_q key = seed XOR 0x5157 ("QW"), W_k key = seed XOR 0x4B57 ("KW"): head_dim × head_dim
///    row-major, read in row order from the stream.
///  * q_t[c] = float(Σ_r x_t[r]·W_q[r][c] in float64) / √head_dim, same for k.
/// The same token always gets the same q and k, wherever it stands: without position encoding,
/// swapping two tokens only permutes the score matrix's rows and columns.
struct TextQK {
  std::vector<std::string> tokens;
  int head_dim = 0;
  std::vector<float> q, k;  ///< [tokens.size(), head_dim]
};
TextQK text_qk(const std::string& text, int head_dim, std::uint64_t seed);

namespace kernels {
/// out[i·seq + j] = scale·(q_i · k_j) (float32, summed over c = 0 … d−1 in order: both twins give identical
/// floats), −∞ for j > i when causal; with softmax, every row then replaced by its softmax (zeros past the
/// diagonal when causal) — the SIMD kernel normalises each block of rows while it is in cache.
void scores_simd(const float* q, const float* k, int seq, int d, bool causal, float scale, bool softmax, float* out);
void scores_scalar(const float* q, const float* k, int seq, int d, bool causal, float scale, bool softmax, float* out);
void softmax_rows_simd(float* s, int rows, int cols, bool causal);
void softmax_rows_scalar(float* s, int rows, int cols, bool causal);
}  // namespace kernels
}  // namespace posenc
