// posenc — ALiBi, Attention with Linear Biases (Press, Smith & Lewis 2022), reference: ofirpress/attention_with_linear_biases
// (`get_slopes`) and Hugging Face `build_alibi_tensor` (BLOOM).
//
// Slopes for n heads:
//  * n a power of two: m_h = r^(h+1), h = 0 … n−1, with r = 2^(−8/n) (n = 8: 1/2, 1/4, …, 1/256).
//  * otherwise (the reference's rule): the n' = 2^⌊log2 n⌋ slopes of n', followed by the slopes of 2n' at
//    even indices 0, 2, 4, … (i.e. r'^1, r'^3, r'^5 … with r' = 2^(−8/(2n'))), the first n − n' of them.
// Bias of head h, query i, key j (queries are the last q_len of k_len positions: query i sits at
// position i + k_len − q_len, so a KV cache lines up):
//  * AlibiMode::causal   : −m_h·(pos_i − j) for j ≤ pos_i, −∞ for j > pos_i (the causal mask is included).
//  * AlibiMode::symmetric: −m_h·|pos_i − j| (bidirectional form, e.g. encoders).
// Output [heads, q_len, k_len] row-major float32, each entry float64 −m·|Δ| rounded once.
// Note: BLOOM/HF and the fairseq reference add +m_h·j (a per-key ramp) instead; within one causal row
// that differs from −m_h·(i − j) by the constant m_h·i, so the softmax is identical (tested).
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

enum class AlibiMode { causal = 0, symmetric = 1 };

/// Slopes of n_heads heads (float64). Throws Error unless 1 ≤ n_heads ≤ kMaxHeads.
std::vector<double> alibi_slopes(int n_heads);

/// Fills out[heads·q_len·k_len] with the bias of the given slopes. Throws Error on sizes (q_len ≤ k_len,
/// both in [1, kMaxSeqLen], result ≤ kMaxOutputElements) or non-finite slopes.
void alibi_bias(const std::vector<double>& slopes, int q_len, int k_len, AlibiMode mode, float* out);

namespace kernels {
/// One head: out[i·k_len + j] = float(−m·|i + offset − j|), −∞ where causal and j > i + offset.
void alibi_bias_simd(double m, int q_len, int k_len, int offset, bool causal, float* out);
void alibi_bias_scalar(double m, int q_len, int k_len, int offset, bool causal, float* out);
}  // namespace kernels
}  // namespace posenc
