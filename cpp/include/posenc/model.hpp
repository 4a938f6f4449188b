// posenc — a small Llama-family language model run by the core (pe.loadModel, the page's real-model section):
// weights from a .gguf or a .safetensors file, and the forward pass over a token sequence with any RoPE.
//
// Split as llama.cpp splits it: the loader (model_loader.cpp: tensor data of GGUF F32/F16/BF16/Q8_0 and safetensors
// F32/F16/BF16; the GGUF tokenizer vocabulary), the hyperparameters (model_hparams.cpp: GGUF `llama.*` keys, or the
// numbers of a config.json read by the TS layer; checked against the caps below), and one builder per family
// (model_llama.cpp: Llama blocks — RMSNorm, grouped-query causal attention, SwiGLU, tied or untied output head).
//
// Conventions (each stated once, here):
//  - Weights are float32. A linear layer is stored transposed, [in][out] (the kernel's layout: Hugging Face's
//    nn.Linear weight and a GGUF tensor of ne = [in, out] are both [out][in] in memory, transposed on load).
//    Token embeddings stay [n_vocab][n_embd].
//  - Rotary pairs: `interleaved` rotates channels (2i, 2i + 1) of each head — GGUF files, whose converter
//    (convert_hf_to_gguf.py, LlamaModel.permute) reorders the q/k rows so that ggml's NORM rope does this; otherwise
//    (i, i + rotary_dim/2), Hugging Face's rotate_half. Channels from rotary_dim on are not rotated.
//  - Token t of a session sits at position p = t + position_offset; pair i turns by p·inv_freq[i] radians, the angle
//    formed and its cos/sin taken in float64.
//  - The attention factor (YaRN's mscale × attention_factor, posenc's `attention_scaling`) multiplies the rotated q
//    and k, as transformers multiplies cos and sin, so scores scale by its square; scores are divided by √head_dim.
//  - ReRoPE (Su, "Rectified Rotary Position Embeddings", 2023): a key at distance r = i − j ≥ rerope_window is seen
//    at angle window + (r − window)·rerope_leaky instead of r (leaky 0: ReRoPE; 0 < leaky < 1: leaky ReRoPE, Su's
//    k = 1/leaky); computed as a second score from q turned to window·(1 − leaky) + p_i·leaky and k turned to
//    p_j·leaky. rerope_window 0: off.
//  - log-n scaling (Su; Chiang & Cholak 2022): the query at position p is multiplied by max(1, ln(p + 1)/ln(logn_base))
//    before the scores; logn_base 0: off.
//  - Position schemes (LmPosition). Llama-family files: rope. posenc's own tiny models (config.json model_type
//    "posenc-tiny", `position_encoding.type`) may instead add a table to the token embedding — learned (row
//    min(p, n_positions − 1)) or sinusoidal (embedding·√n_embd + the interleaved sin/cos table of sinusoidal.hpp) —,
//    add a bias b_h(i − j) to the scores of query i and key j ≤ i after the 1/√head_dim — alibi (−m_h·(i − j), slopes of
//    alibi.hpp), t5 (table[bucket][h], unidirectional buckets of relative.hpp, one table for all layers), kerple
//    (−r1·ln(1 + r2·(i − j)) per layer and head, r1 and r2 clamped to ≥ kerple_eps) —, use none (nope), or rotate
//    as xpos (xpos.hpp: interleaved rotary with q·ζ_i^(c/scale_base), k·ζ_i^(−c/scale_base), c = p + ⌊−(capacity +
//    position_offset)/2⌋, torchscale's centring over the session's window). Other schemes have rotary_dim 0.
//  - Loss: nll[t] = −ln softmax(logits_t)[target_t] in float32 (natural log), target_t the next token;
//    hit[t] = 1 when target_t is the arg-max of logits_t (lowest id on ties).
// Caps: n_embd, n_ff ≤ 16384; n_layer ≤ 256; n_head ≤ 1024; head_dim ≤ 512; n_vocab ≤ 262144; weights ≤ 2^28
// floats (1 GiB); a session's context (capacity) ≤ kLmMaxContext tokens. Memory: the weights (4 bytes each, the tied
// head once more transposed) + KV cache 2·n_layer·n_head_kv·head_dim·capacity floats (3× with ReRoPE) + the
// activations of one chunk. Errors are posenc::Error naming the tensor, key or parameter.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace posenc {

inline constexpr int kLmMaxContext = 16384;
inline constexpr long long kLmMaxWeights = 1LL << 28;
inline constexpr int kLmMaxChunk = 4096;  ///< tokens per feed() call

/// How a model is told where a token is (see the conventions above).
enum class LmPosition { rope = 0, learned = 1, sinusoidal = 2, alibi = 3, t5 = 4, nope = 5, xpos = 6, kerple = 7 };
/// "rope", "learned", … (config.json's `position_encoding.type`); lm_position_from_name throws Error for other names.
const char* lm_position_name(LmPosition p);
LmPosition lm_position_from_name(const std::string& name);

struct LmHparams {
  std::string arch = "llama";
  int n_layer = 0, n_embd = 0, n_head = 0, n_head_kv = 0, head_dim = 0, n_ff = 0, n_vocab = 0, rotary_dim = 0;
  double rms_eps = 1e-6, rope_theta = 10000;
  int n_ctx_train = 0;       ///< the trained context as the file states it (stories260K's GGUF says 2048; it was 512)
  bool interleaved = false;  ///< rotary pairing (see the conventions above)
  LmPosition position = LmPosition::rope;
  int n_positions = 0;                             ///< learned: rows of the position table
  int t5_num_buckets = 32, t5_max_distance = 128;  ///< t5
  double xpos_scale_base = 512;                    ///< xpos
  double sinusoid_base = 10000;                    ///< sinusoidal
  double kerple_eps = 0.01;                        ///< kerple: r1 and r2 are used as max(r, kerple_eps)
};

/// The tokenizer vocabulary a GGUF file carries (`tokenizer.ggml.*`): the TS layer tokenizes with it.
struct LmVocab {
  std::string model;                ///< tokenizer.ggml.model: "llama" (SentencePiece scores), "gpt2", … ("" none)
  std::vector<std::string> tokens;
  std::vector<float> scores;        ///< empty when the file has none
  std::vector<int> types;           ///< 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte
  int bos = -1, eos = -1, unk = -1;
  int add_bos = -1;                 ///< tokenizer.ggml.add_bos_token: 1, 0, or −1 when absent
  int add_space_prefix = -1;        ///< tokenizer.ggml.add_space_prefix: 1, 0, or −1 when absent
};

struct LmLayer {
  std::vector<float> attn_norm, wq, wk, wv, wo, ffn_norm, w_gate, w_up, w_down;  ///< linear layers [in][out]
  std::vector<float> kerple_r1, kerple_r2;  ///< kerple: [n_head] each
};

struct LmModel {
  LmHparams hp;
  std::vector<float> tok_embd;  ///< [n_vocab][n_embd]
  std::vector<LmLayer> layers;
  std::vector<float> out_norm;
  std::vector<float> output;    ///< [n_embd][n_vocab]
  std::vector<float> pos_embd;  ///< learned: [n_positions][n_embd]
  std::vector<float> rel_bias;  ///< t5: [t5_num_buckets][n_head]
  bool tied = false;            ///< the file has no separate output head: output = tok_embd transposed
  LmVocab vocab;
  long long n_params = 0;       ///< parameters as stored in the file (the tied head counted once)
};

/// Checks every field against the caps and the shapes' rules (n_head a multiple of n_head_kv, rotary_dim even and
/// ≤ head_dim, …). Throws Error naming the field.
void lm_check_hparams(const LmHparams& hp);

/// A whole .gguf file (architecture `llama`; tensor types F32, F16, BF16, Q8_0) → the model, its hyperparameters
/// from the `llama.*` keys and its vocabulary. Throws Error (`gguf: …`, `model: …`) naming the tensor or key.
LmModel lm_from_gguf(const std::uint8_t* bytes, std::size_t n);

/// A whole .safetensors file with Hugging Face Llama names (model.embed_tokens.weight, model.layers.N.…, lm_head.weight
/// or tied) and the hyperparameters of its config.json → the model. dtypes F32, F16, BF16. The position schemes'
/// tensors: model.embed_positions.weight [n_positions][n_embd] (learned), model.relative_attention_bias.weight
/// [t5_num_buckets][n_head] (t5), model.layers.N.self_attn.kerple_r1 / kerple_r2 [n_head] (kerple).
LmModel lm_from_safetensors(const std::uint8_t* bytes, std::size_t n, const LmHparams& hp);

struct LmRope {
  std::vector<double> inv_freq;  ///< rotary_dim / 2 frequencies (radians per position), e.g. ropeFromConfig's
  double attention_factor = 1;
  bool interleaved = false;
  int rerope_window = 0;
  double rerope_leaky = 0;
  double logn_base = 0;
  double position_offset = 0;
};

/// What a session records of its attention while it runs (nothing by default).
struct LmProbe {
  int layer = -1, head = 0;         ///< the head whose probability rows are kept (layer −1: none)
  int row_begin = 0, row_end = 0;   ///< query positions (token indices) kept: rows of row_end floats each
  int gauge_begin = 0, gauge_end = 0;  ///< query positions whose attention mass is summed per layer and head
  int far = 512, near = 32;         ///< mass on keys at distance ≥ far, and at distance < near
};

/// A model run over one sequence, fed in chunks (prefill: all of a chunk's positions in blocked matrix products; a
/// chunk of one token is a decode step). Keeps the KV cache of every position fed so far.
class LmSession {
 public:
  LmSession(std::shared_ptr<const LmModel> model, LmRope rope, int capacity, LmProbe probe = {});
  /// Runs ids[0..n) at token indices n_past() … n_past() + n − 1. targets (n entries; −1: none) are the tokens each
  /// position predicts: nll and hit (n entries each, may be null) get −ln p(target) and the top-1 hit (NaN and 0 where
  /// the target is −1). last_logits (n_vocab floats, may be null) gets the logits of the last position.
  void feed(const int* ids, int n, const int* targets, float* nll, std::uint8_t* hit, float* last_logits);
  int n_past() const { return n_past_; }
  int capacity() const { return cap_; }
  /// Rows kept by the probe: (row_end − row_begin) × row_end floats, row r holding the probabilities of query
  /// row_begin + r over keys 0 … row_end − 1 (zero past the query).
  const std::vector<float>& attention_rows() const { return rows_; }
  /// Per layer and head ([n_layer][n_head]): the summed attention mass of the gauge queries fed so far on far keys,
  /// on near keys, and the number of those queries.
  const std::vector<double>& far_mass() const { return far_; }
  const std::vector<double>& near_mass() const { return near_; }
  int gauge_queries() const { return gauge_count_; }

 private:
  std::shared_ptr<const LmModel> m_;
  LmRope rope_;
  LmProbe probe_;
  int cap_, n_past_ = 0, gauge_count_ = 0;
  std::vector<float> kt_, k2t_;  ///< [layer][kv head][head_dim][capacity]: keys (rotated) and ReRoPE's keys, transposed
  std::vector<float> v_;         ///< [layer][capacity][kv head][head_dim]: values, one row per token
  std::vector<float> rows_;
  std::vector<double> far_, near_;
  std::vector<float> dist_bias_;     ///< alibi, t5, kerple: [layer (one for alibi, t5)][head][distance 0 … capacity − 1]
  std::vector<double> xpos_log_zeta_;  ///< xpos: ln ζ_i per pair
  double xpos_shift_ = 0;              ///< xpos: c = p + xpos_shift_
  friend struct LlamaBuilder;
};

}  // namespace posenc
