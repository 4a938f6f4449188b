// posenc — ALiBi, Attention with Linear Biases (Press, Smith & Lewis 2022), reference: ofirpress/attention_with_linear_biases
// (`get_slopes`) and Hugging Face `build_alibi_tensor` (BLOOM).
//
// Slopes for n heads:
//  * n a power of two: m_h = r^(h+1), h = 0 … n−1, with r = 2^(−8/n) (n = 8: 1/2, 1/4, …, 1/256).
//  * otherwise (the reference's rule): the n' = 2^⌊log2 n⌋ slopes of n', followed by the slopes of 2n' at
//    even indices 0, 2, 4, … (i.e. r'^1, r'^3, r'^5 … with r' = 2^(−8/(2n'))), the first n − n' of them.
// Bias of head h, query i, key j (queries are the last q_len of k_len positions: query i sits at
// position pos_i = i + k_len − q_len, so a KV cache lines up):
//  * AlibiMode::causal   : −m_h·(pos_i − j) for j ≤ pos_i, −∞ for j > pos_i (the causal mask is included).
//  * AlibiMode::symmetric: −m_h·|pos_i − j| (bidirectional form, e.g. encoders).
//  * AlibiMode::bloom    : +m_h·j for j ≤ pos_i, −∞ for j > pos_i — BLOOM's form (HF `build_alibi_tensor`, the
//    fairseq reference): a per-key ramp m_h·j broadcast over the queries, with the causal mask included.
//    Within row i, m_h·j = −m_h·(pos_i − j) + m_h·pos_i: it differs from the causal form by the constant m_h·pos_i,
//    and softmax(x + c) = softmax(x), so after the row softmax both forms give the same weights (tested).
//    The ramp itself (HF's [heads, 1, k_len] tensor) is the row q_len = 1.
// Output [heads, q_len, k_len] row-major float32, each entry the float64 value rounded once.
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

enum class AlibiMode { causal = 0, symmetric = 1, bloom = 2 };

/// Slopes of n_heads heads (float64). Throws Error unless 1 ≤ n_heads ≤ kMaxHeads.
std::vector<double> alibi_slopes(int n_heads);

/// Fills out[heads·q_len·k_len] with the bias of the given slopes. Throws Error on sizes (q_len ≤ k_len,
/// both in [1, kMaxSeqLen], result ≤ kMaxOutputElements) or non-finite slopes.
void alibi_bias(const std::vector<double>& slopes, int q_len, int k_len, AlibiMode mode, float* out);

namespace kernels {
/// One head: out[i·k_len + j] = the bias of `mode` at query position i + offset, key j (see above).
void alibi_bias_simd(double m, int q_len, int k_len, int offset, AlibiMode mode, float* out);
void alibi_bias_scalar(double m, int q_len, int k_len, int offset, AlibiMode mode, float* out);
}  // namespace kernels
}  // namespace posenc
