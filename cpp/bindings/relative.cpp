// Embind bindings of the relative encodings: Shaw, Transformer-XL, T5, DeBERTa v2, TUPE. Every array's
// length is checked against the stated shape here, before the core reads it.
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val shaw_index_js(int q_len, int k_len, int K, std::uintptr_t out) {
  return guarded([&] { return write_to(out, shaw_relative_index(q_len, k_len, K)); });
}

// Zero-copy entries (common.hpp): arrays by address (0 = absent), sized by the TS layer; result written at `out`.
val shaw_scores_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t table, int q_len, int k_len, int d, int K,
                   std::uintptr_t out) {
  return guarded([&] {
    return write_to(out, shaw_scores(at<const float>(q), k ? at<const float>(k) : nullptr, at<const float>(table), q_len,
                                     k_len, d, K));
  });
}

val shaw_values_js(std::uintptr_t w, std::uintptr_t v, std::uintptr_t table, int q_len, int k_len, int d, int K,
                   std::uintptr_t out) {
  return guarded([&] {
    return write_to(out, shaw_values(at<const float>(w), v ? at<const float>(v) : nullptr, at<const float>(table), q_len,
                                     k_len, d, K));
  });
}

val xl_position_embedding_js(int klen, int d, std::uintptr_t out) {
  return guarded([&] { return write_to(out, xl_position_embedding(klen, d)); });
}

val rel_shift_js(std::uintptr_t x, int qlen, int klen, bool zero_triu, std::uintptr_t out) {
  return guarded([&] { return write_to(out, rel_shift(at<const float>(x), qlen, klen, zero_triu)); });
}

val xl_scores_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t r, std::uintptr_t u, std::uintptr_t v, int qlen, int klen,
                 int d, bool causal) {
  return guarded([&] {
    const auto t = xl_scores(at<const float>(q), at<const float>(k), at<const float>(r), at<const float>(u), at<const float>(v),
                             qlen, klen, d, causal);
    val o = val::object();
    o.set("a", f32(t.a));
    o.set("b", f32(t.b));
    o.set("c", f32(t.c));
    o.set("d", f32(t.d));
    o.set("ac", f32(t.ac));
    o.set("bd", f32(t.bd));
    o.set("score", f32(t.score));
    return o;
  });
}

val t5_bucket_js(double rp, bool bidi, int nb, int md) {
  return guarded([&] {
    if (!(rp == std::floor(rp)) || !(std::fabs(rp) <= 2147483647.0))
      detail::fail("relative_position", "must be an integer with |relative_position| <= 2147483647");
    return val(t5_relative_position_bucket(static_cast<long long>(rp), bidi, nb, md));
  });
}

val t5_buckets_js(int q_len, int k_len, bool bidi, int nb, int md, int offset, std::uintptr_t out) {
  return guarded([&] {
    t5_bucket_matrix(q_len, k_len, bidi, nb, md, offset, at<int>(out));
    return val::undefined();
  });
}

val t5_bias_js(std::uintptr_t table, int nb, int heads, int q_len, int k_len, bool bidi, int md, int offset,
               std::uintptr_t out) {
  return guarded([&] { return write_to(out, t5_bias(at<const float>(table), nb, heads, q_len, k_len, bidi, md, offset)); });
}

val deberta_log_bucket_js(double rp, int buckets, int max_pos) {
  return guarded([&] { return val(static_cast<double>(deberta_log_bucket(static_cast<long long>(rp), buckets, max_pos))); });
}

val deberta_positions_js(int q_len, int k_len, int buckets, int max_pos, std::uintptr_t out) {
  return guarded([&] { return write_to(out, deberta_relative_positions(q_len, k_len, buckets, max_pos)); });
}

// pos_key, pos_query: addresses of [2·span, d] floats, or 0 when absent.
val deberta_scores_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t pos_key, std::uintptr_t pos_query, int n, int d,
                      int buckets, int max_rel) {
  return guarded([&] {
    const auto t = deberta_scores(at<const float>(q), at<const float>(k), pos_key ? at<const float>(pos_key) : nullptr,
                                  pos_query ? at<const float>(pos_query) : nullptr, n, d, buckets, max_rel);
    val o = val::object();
    o.set("c2c", f32(t.c2c));
    o.set("c2p", pos_key ? f32(t.c2p) : val::null());
    o.set("p2c", pos_query ? f32(t.p2c) : val::null());
    o.set("score", f32(t.score));
    o.set("scale", double(t.scale));
    return o;
  });
}

val tupe_js(std::uintptr_t p, std::uintptr_t uq, std::uintptr_t uk, int n, int d_model, int heads, int head_dim,
            std::uintptr_t out) {
  return guarded([&] {
    return write_to(out, tupe_position_scores(at<const float>(p), at<const float>(uq), at<const float>(uk), n, d_model, heads,
                                              head_dim));
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_relative) {
  emscripten::function("shawIndex", &shaw_index_js);
  emscripten::function("shawScores", &shaw_scores_js);
  emscripten::function("shawValues", &shaw_values_js);
  emscripten::function("xlPositionEmbedding", &xl_position_embedding_js);
  emscripten::function("relShift", &rel_shift_js);
  emscripten::function("xlScores", &xl_scores_js);
  emscripten::function("t5Bucket", &t5_bucket_js);
  emscripten::function("t5Buckets", &t5_buckets_js);
  emscripten::function("t5Bias", &t5_bias_js);
  emscripten::function("debertaLogBucket", &deberta_log_bucket_js);
  emscripten::function("debertaRelativePositions", &deberta_positions_js);
  emscripten::function("debertaScores", &deberta_scores_js);
  emscripten::function("tupeScores", &tupe_js);
}
