// posenc — relative position encodings: Shaw et al. 2018, Transformer-XL/XLNet, T5 buckets, DeBERTa v2
// disentangled attention, and TUPE's untied absolute positional term.
//
// Sign conventions differ between the references and are kept as each reference has them:
//   Shaw (tensor2tensor)      index = clip(j − i, −K, K) + K          (key − query)
//   T5 (HF, mesh-tensorflow)  relative_position = j − i               (memory/key − query)
//   Transformer-XL / XLNet    distance = i + mlen − j ≥ 0              (query − key, keys include memory)
//   DeBERTa v2 (HF)           δ(i, j) = i − j                          (query − key)
// where i indexes queries and j keys. All matrices are row-major [queries, keys] (per head [heads, q, k]).
// Dot products use the float32 SIMD kernel kernels::dot_rows_simd (relative error ≤ d·2^-24 of Σ|a_c·b_c|).
//
// Differences from the references, by scheme (everything else follows them exactly):
//  * Shaw: t2t multiplies q by d^-0.5 before both products; here the sum is scaled (same up to float32 rounding).
//    shaw_values accumulates in float64 (scalar loop). HF BERT `relative_key` sign/offset differ (see below).
//  * Transformer-XL: one head, projections done by the caller (q, k from W_q/W_k, r = W_R·R); future entries are
//    −∞ as in kimiyoung/transformer-xl (HF TransfoXL writes −1e30, or −65000 in fp16). XLNet's bidirectional
//    position sequence (klen … −qlen+1) and its `rel_shift_bnij` layout are not covered.
//  * T5: bucket arithmetic reproduces HF's float32 CPU evaluation (`.float()`, torch.log, true division, truncation);
//    boundaries at exact powers of the log base land as HF's (tested: n = 16, 32, 64 with 32/128).
//  * DeBERTa: v2 only (v1's att_span = min(max(q, k), max_relative_positions) slicing is not reproduced); one head of
//    self-attention; pos_key/pos_query are the caller's projections of rel_embeddings[0 : 2·span] (share_att_key or
//    pos_key_proj/pos_query_proj, and the optional LayerNorm `norm_rel_ebd` are the caller's choice). Each term is
//    divided by the float32 scale √(d·factor); releases that divide q by scale first agree up to float32 rounding.
//  * TUPE: the absolute term only (no [CLS] untying, no relative bias), no Linear biases, LayerNorm by the caller.
#pragma once
#include <cstddef>
#include <vector>

namespace posenc {

// ---- Shaw et al. 2018 (tensor2tensor `_generate_relative_positions_matrix`, `dot_product_attention_relative`)
/// [q_len, k_len] int: clip(j − (k_len − q_len + i), −K, K) + K ∈ [0, 2K]. As t2t, queries sit at the last
/// q_len key positions (q_len ≤ k_len). HF BERT's `relative_key` uses i − j + max_position_embeddings − 1 instead.
std::vector<int> shaw_relative_index(int q_len, int k_len, int max_relative_position);
/// Scores [q_len, k_len] = (q_i · k_j + q_i · a_K[index(i, j)]) · scale, scale = 1/√d (t2t scales q by
/// depth^-0.5). k == nullptr gives the position term alone. table_k: [2K+1, d].
std::vector<float> shaw_scores(const float* q, const float* k, const float* table_k, int q_len, int k_len, int d,
                               int max_relative_position);
/// Output [q_len, d] = Σ_j w_ij (v_j + a_V[index(i, j)]); v == nullptr gives the position term alone.
std::vector<float> shaw_values(const float* weights, const float* v, const float* table_v, int q_len, int k_len,
                               int d, int max_relative_position);

// ---- Transformer-XL (kimiyoung/transformer-xl `RelPartialLearnableMultiHeadAttn`, HF TransfoXL)
/// Sinusoid rows R for the descending distances klen−1 … 0: row m = [sin((klen−1−m)·ω) | cos(…)],
/// ω_i = 10000^(−2i/d) (`PositionalEmbedding`), [klen, d], d even.
std::vector<float> xl_position_embedding(int klen, int d);
/// The reference `_rel_shift` of a [qlen, klen] matrix: prepend a zero column, reinterpret the
/// qlen·(klen+1) buffer as [klen+1, qlen], drop its first row, reinterpret as [qlen, klen]. Entry (i, j) with
/// j ≤ i + klen − qlen becomes x[i][j + qlen − 1 − i]; the rest holds the reference's leftovers (masked later).
/// zero_triu (the reference's `zero_triu=True`): multiply by tril(ones(qlen, klen), klen − qlen), i.e. the
/// entries with j > i + klen − qlen become 0 instead of leftovers.
std::vector<float> rel_shift(const float* x, int qlen, int klen, bool zero_triu = false);
/// The four terms of one head, each [qlen, klen] before scaling, plus the score:
///   a = q_i·k_j (content–content), b = q_i·r_{i−j} (content–position), c = u·k_j (global content bias),
///   d = v·r_{i−j} (global position bias); score = (a + b + c + d)/√d_head, computed as the reference does:
///   AC = (q + u)·kᵀ, BD = rel_shift((q + v)·rᵀ). Keys are [memory (klen − qlen rows), current segment];
///   entries with j > i + klen − qlen (the future) are −∞ in score when causal (the reference's mask),
///   and their b/d hold the rel_shift leftovers. r is the projected position embedding W_R·R, [klen, d].
struct XLTerms {
  std::vector<float> a, b, c, d;  ///< the four terms separately (unscaled; b, d via rel_shift)
  std::vector<float> ac, bd;      ///< AC = a + c and BD = b + d as the reference computes them (unscaled)
  std::vector<float> score;       ///< (AC + BD)/√d_head, −∞ in the future when causal
};
XLTerms xl_scores(const float* q, const float* k, const float* r, const float* u, const float* v, int qlen, int klen,
                  int d, bool causal);

// ---- T5 (HF `T5Attention._relative_position_bucket`, mesh-tensorflow `_relative_position_bucket`)
/// Bucket of relative_position = key − query. Bidirectional: half the buckets per sign (positive offsets
/// get +num_buckets/2); causal: future (positive) offsets map to bucket 0. Within a half of n buckets,
/// distances < n/2 are exact and larger ones go to n/2 + ⌊log(dist/(n/2)) / log(max_distance/(n/2)) · n/2⌋,
/// capped at n − 1 — evaluated in float32 like the reference (`relative_position.float()`), so the integers match.
int t5_relative_position_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance);
/// [q_len, k_len] buckets for query positions query_offset + i and key positions j.
std::vector<int> t5_bucket_matrix(int q_len, int k_len, bool bidirectional, int num_buckets, int max_distance,
                                  int query_offset = 0);
/// The same into out[q_len·k_len] (a caller's warm buffer).
void t5_bucket_matrix(int q_len, int k_len, bool bidirectional, int num_buckets, int max_distance, int query_offset,
                      int* out);
/// Bias [heads, q_len, k_len] from a bias table [num_buckets, heads] (the `relative_attention_bias`
/// embedding's weight): bias[h][i][j] = table[bucket(i, j)][h].
std::vector<float> t5_bias(const float* table, int num_buckets, int heads, int q_len, int k_len, bool bidirectional,
                           int max_distance, int query_offset = 0);

// ---- DeBERTa v2 (HF `modeling_deberta_v2.py`)
/// `make_log_bucket_position` for one δ: |δ| ≤ mid = bucket_size/2 (and |δ| < mid) stays exact;
/// otherwise sign(δ)·(⌈log(|δ|/mid) / log((max_position−1)/mid) · (mid−1)⌉ + mid), in float32 like the reference
/// (exact integers as HF's CPU float32 evaluation, tested against the formula in float64 away from ⌈⌉ boundaries).
/// Requires bucket_size ≥ 2 and max_position − 1 > bucket_size/2.
long long deberta_log_bucket(long long relative_position, int bucket_size, int max_position);
/// [q_len, k_len] δ = i − j, log-bucketed when bucket_size > 0 (`build_relative_position`); bucket_size ≤ 0 means
/// plain δ. With bucket_size > 0, max_position is required (≥ 1; HF substitutes max_position_embeddings for a
/// config value < 1 — pass that value): no silent fallback to unbucketed δ.
std::vector<int> deberta_relative_positions(int q_len, int k_len, int bucket_size, int max_position);
/// Disentangled attention of one head, all terms already divided by scale = √(d·(1 + #position terms)):
///   c2c = q_i·k_j, c2p = q_i·pos_key[c(i, j)], p2c = k_j·pos_query[c(i, j)], c(i, j) = clamp(δ(i, j) + span, 0, 2·span − 1),
/// span = position_buckets if > 0 else max_relative_positions; pos_key / pos_query are the projected relative
/// embeddings [2·span, d] (nullptr turns that term off: pos_att_type without "c2p"/"p2c"); score = sum.
/// Self-attention only (one length n): HF's p2c path for q_len ≠ k_len is not reproduced.
struct DebertaTerms {
  std::vector<float> c2c, c2p, p2c, score;
  float scale = 0;
};
DebertaTerms deberta_scores(const float* q, const float* k, const float* pos_key, const float* pos_query, int n, int d,
                            int position_buckets, int max_relative_positions);

// ---- TUPE (Ke et al. 2021, guolinke/TUPE)
/// Untied positional term per head, [heads, n, n]: ((p U_q)_h (p U_k)_hᵀ) / √(2·head_dim), with p [n, d_model]
/// absolute position embeddings (TUPE applies a LayerNorm first: pass normalised rows) and U_q, U_k
/// [d_model, heads·head_dim] (x·U convention; head h uses columns h·head_dim … (h+1)·head_dim − 1).
std::vector<float> tupe_position_scores(const float* p, const float* uq, const float* uk, int n, int d_model, int heads,
                                        int head_dim);
}  // namespace posenc
