#include "posenc/relative.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "posenc/absolute.hpp"
#include "posenc/error.hpp"
#include "posenc/sinusoidal.hpp"
#include "simd.hpp"

namespace posenc {
namespace {
constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr long long kMaxAttnLen = 8192;  // the attention cap of attention.hpp

void need(const char* param, const void* p) {
  if (!p) detail::fail(param, "is required");
}

std::vector<float> dots(const float* a, std::size_t na, const float* b, std::size_t nb, std::size_t d, float scale) {
  std::vector<float> out(na * nb);
  kernels::dot_rows_simd(a, na, b, nb, d, scale, out.data());
  return out;
}

void check_qk(int q_len, int k_len, int d) {
  detail::require_int_range("q_len", q_len, 1, kMaxAttnLen);
  detail::require_int_range("k_len", k_len, 1, kMaxAttnLen);
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  detail::require_output_cap("q_len*k_len", 1LL * q_len * k_len);
}
}  // namespace

// ---------------------------------------------------------------------------------------------- Shaw
std::vector<int> shaw_relative_index(int q_len, int k_len, int K) {
  detail::require_int_range("q_len", q_len, 1, kMaxAttnLen);
  detail::require_int_range("k_len", k_len, q_len, kMaxAttnLen);
  detail::require_int_range("max_relative_position", K, 0, kMaxSeqLen);
  std::vector<int> idx(static_cast<std::size_t>(q_len) * k_len);
  const int off = k_len - q_len;
  for (int i = 0; i < q_len; ++i)
    for (int j = 0; j < k_len; ++j) idx[std::size_t(i) * k_len + j] = std::clamp(j - (off + i), -K, K) + K;
  return idx;
}

std::vector<float> shaw_scores(const float* q, const float* k, const float* table_k, int q_len, int k_len, int d, int K) {
  check_qk(q_len, k_len, d);
  need("q", q);
  need("table_k", table_k);
  const auto idx = shaw_relative_index(q_len, k_len, K);
  const std::size_t nrel = 2 * std::size_t(K) + 1;
  detail::require_output_cap("(2*max_relative_position+1)*d", static_cast<long long>(nrel) * d);
  const float scale = static_cast<float>(1.0 / std::sqrt(double(d)));
  const auto pos = dots(q, q_len, table_k, nrel, d, 1.f);  // [q_len, 2K+1]
  std::vector<float> s = k ? dots(q, q_len, k, k_len, d, 1.f) : std::vector<float>(idx.size(), 0.f);
  for (int i = 0; i < q_len; ++i)
    for (int j = 0; j < k_len; ++j) {
      const std::size_t e = std::size_t(i) * k_len + j;
      s[e] = (s[e] + pos[std::size_t(i) * nrel + idx[e]]) * scale;
    }
  return s;
}

std::vector<float> shaw_values(const float* w, const float* v, const float* table_v, int q_len, int k_len, int d, int K) {
  check_qk(q_len, k_len, d);
  need("weights", w);
  need("table_v", table_v);
  const auto idx = shaw_relative_index(q_len, k_len, K);
  detail::require_output_cap("(2*max_relative_position+1)*d", (2LL * K + 1) * d);
  const std::size_t D = std::size_t(d);
  std::vector<float> out(std::size_t(q_len) * D);
  std::vector<double> acc(D);
  for (int i = 0; i < q_len; ++i) {
    std::fill(acc.begin(), acc.end(), 0.0);
    for (int j = 0; j < k_len; ++j) {
      const double wij = w[std::size_t(i) * k_len + j];
      const float* a = table_v + std::size_t(idx[std::size_t(i) * k_len + j]) * D;
      const float* vj = v ? v + std::size_t(j) * D : nullptr;
      for (std::size_t c = 0; c < D; ++c) acc[c] += wij * (double(a[c]) + (vj ? double(vj[c]) : 0.0));
    }
    for (std::size_t c = 0; c < D; ++c) out[std::size_t(i) * D + c] = static_cast<float>(acc[c]);
  }
  return out;
}

// ------------------------------------------------------------------------------------ Transformer-XL
std::vector<float> xl_position_embedding(int klen, int d) {
  detail::require_int_range("klen", klen, 1, kMaxSeqLen);
  detail::require_int_range("d", d, 2, kMaxHeadDim);
  detail::require_even("d", d);
  detail::require_output_cap("klen*d", 1LL * klen * d);
  std::vector<double> pos(static_cast<std::size_t>(klen));
  for (int m = 0; m < klen; ++m) pos[std::size_t(m)] = double(klen - 1 - m);
  std::vector<float> out(pos.size() * std::size_t(d));
  sinusoidal_table(pos.data(), pos.size(), d, 10000.0, SinusoidalLayout::concatenated, out.data());
  return out;
}

std::vector<float> rel_shift(const float* x, int qlen, int klen, bool zero_triu) {
  detail::require_int_range("qlen", qlen, 1, kMaxAttnLen);
  detail::require_int_range("klen", klen, 1, kMaxAttnLen);
  need("x", x);
  const std::size_t Q = std::size_t(qlen), Kl = std::size_t(klen);
  std::vector<float> out(Q * Kl);
  // Padded buffer P = [qlen, klen+1] with a zero column first; output flat t reads P flat t + qlen.
  for (std::size_t t = 0; t < Q * Kl; ++t) {
    const std::size_t f = t + Q, row = f / (Kl + 1), col = f % (Kl + 1);
    out[t] = col == 0 ? 0.f : x[row * Kl + col - 1];
  }
  if (zero_triu)  // x · tril(ones(qlen, klen), klen − qlen): zero where j > i + klen − qlen
    for (long long i = 0; i < qlen; ++i)
      for (long long j = std::max(0LL, i + klen - qlen + 1); j < klen; ++j) out[std::size_t(i * klen + j)] = 0.f;
  return out;
}

XLTerms xl_scores(const float* q, const float* k, const float* r, const float* u, const float* v, int qlen, int klen,
                  int d, bool causal) {
  detail::require_int_range("qlen", qlen, 1, kMaxAttnLen);
  detail::require_int_range("klen", klen, qlen, kMaxAttnLen);
  detail::require_int_range("d", d, 1, kMaxHeadDim);
  need("q", q);
  need("k", k);
  need("r", r);
  need("u", u);
  need("v", v);
  const std::size_t Q = std::size_t(qlen), Kl = std::size_t(klen), D = std::size_t(d);
  std::vector<float> qu(Q * D), qv(Q * D);
  for (std::size_t i = 0; i < Q; ++i)
    for (std::size_t c = 0; c < D; ++c) {
      qu[i * D + c] = q[i * D + c] + u[c];
      qv[i * D + c] = q[i * D + c] + v[c];
    }
  XLTerms t;
  t.ac = dots(qu.data(), Q, k, Kl, D, 1.f);
  const auto bd_raw = dots(qv.data(), Q, r, Kl, D, 1.f);
  t.bd = rel_shift(bd_raw.data(), qlen, klen);
  t.a = dots(q, Q, k, Kl, D, 1.f);
  const auto b_raw = dots(q, Q, r, Kl, D, 1.f);
  t.b = rel_shift(b_raw.data(), qlen, klen);
  const auto uk = dots(u, 1, k, Kl, D, 1.f), vr = dots(v, 1, r, Kl, D, 1.f);
  std::vector<float> d_raw(Q * Kl);
  t.c.resize(Q * Kl);
  for (std::size_t i = 0; i < Q; ++i)
    for (std::size_t j = 0; j < Kl; ++j) {
      t.c[i * Kl + j] = uk[j];
      d_raw[i * Kl + j] = vr[j];
    }
  t.d = rel_shift(d_raw.data(), qlen, klen);
  const float scale = static_cast<float>(1.0 / std::sqrt(double(d)));
  const std::size_t mlen = Kl - Q;
  t.score.resize(Q * Kl);
  for (std::size_t i = 0; i < Q; ++i)
    for (std::size_t j = 0; j < Kl; ++j) {
      const std::size_t e = i * Kl + j;
      t.score[e] = causal && j > i + mlen ? kNegInf : (t.ac[e] + t.bd[e]) * scale;
    }
  return t;
}

// ------------------------------------------------------------------------------------------------ T5
namespace {
void check_t5(bool bidirectional, int num_buckets, int max_distance) {
  detail::require_int_range("num_buckets", num_buckets, 2, 1 << 20);
  if (bidirectional && num_buckets < 4)
    detail::fail("num_buckets", "must be >= 4 when bidirectional (half the buckets per direction) (got " +
                                    std::to_string(num_buckets) + ")");
  const int max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
  if (max_distance <= max_exact)
    detail::fail("max_distance", "must be > " + std::to_string(max_exact) + " (the exact-bucket range " +
                                     (bidirectional ? std::string("num_buckets/4") : std::string("num_buckets/2")) +
                                     ") (got " + std::to_string(max_distance) + ")");
}

int t5_bucket_unchecked(long long rp, bool bidirectional, int nb, int max_distance) {
  int ret = 0;
  long long n;
  if (bidirectional) {
    nb /= 2;
    if (rp > 0) ret += nb;
    n = rp < 0 ? -rp : rp;
  } else {
    n = rp < 0 ? -rp : 0;
  }
  const int max_exact = nb / 2;
  if (n < max_exact) return ret + static_cast<int>(n);
  // float32 throughout, as `torch.log(relative_position.float() / max_exact) / math.log(...) * (...)`.
  const float ratio = static_cast<float>(n) / static_cast<float>(max_exact);
  const float denom = static_cast<float>(std::log(double(max_distance) / double(max_exact)));
  const float scaled = std::log(ratio) / denom * static_cast<float>(nb - max_exact);
  const long long large = max_exact + static_cast<long long>(scaled);  // .to(torch.long): toward zero
  return ret + static_cast<int>(std::min<long long>(large, nb - 1));
}
}  // namespace

int t5_relative_position_bucket(long long relative_position, bool bidirectional, int num_buckets, int max_distance) {
  check_t5(bidirectional, num_buckets, max_distance);
  if (relative_position > 2147483647LL || relative_position < -2147483647LL)
    detail::fail("relative_position", "must satisfy |relative_position| <= 2147483647 (got " + std::to_string(relative_position) + ")");
  return t5_bucket_unchecked(relative_position, bidirectional, num_buckets, max_distance);
}

void t5_bucket_matrix(int q_len, int k_len, bool bidirectional, int num_buckets, int max_distance, int query_offset,
                      int* out) {
  check_t5(bidirectional, num_buckets, max_distance);
  detail::require_int_range("q_len", q_len, 1, kMaxAttnLen);
  detail::require_int_range("k_len", k_len, 1, kMaxAttnLen);
  detail::require_int_range("query_offset", query_offset, 0, kMaxSeqLen);
  detail::require_output_cap("q_len*k_len", 1LL * q_len * k_len);
  // The bucket depends only on δ = j − (query_offset + i): one bucket per δ (q_len + k_len − 1 logs instead of
  // q_len·k_len), then every row is a slice of that vector.
  const long long base = 1LL * query_offset + q_len - 1;
  std::vector<int> by_delta(std::size_t(base + k_len));
  for (std::size_t t = 0; t < by_delta.size(); ++t)
    by_delta[t] = t5_bucket_unchecked(static_cast<long long>(t) - base, bidirectional, num_buckets, max_distance);
  for (int i = 0; i < q_len; ++i)
    simd::copy(by_delta.data() + (q_len - 1 - i), out + std::ptrdiff_t(i) * k_len, std::size_t(k_len));
}

std::vector<int> t5_bucket_matrix(int q_len, int k_len, bool bidirectional, int num_buckets, int max_distance,
                                  int query_offset) {
  detail::require_int_range("q_len", q_len, 1, kMaxAttnLen);
  detail::require_int_range("k_len", k_len, 1, kMaxAttnLen);
  std::vector<int> b(std::size_t(q_len) * k_len);
  t5_bucket_matrix(q_len, k_len, bidirectional, num_buckets, max_distance, query_offset, b.data());
  return b;
}

std::vector<float> t5_bias(const float* table, int num_buckets, int heads, int q_len, int k_len, bool bidirectional,
                           int max_distance, int query_offset) {
  detail::require_int_range("heads", heads, 1, kMaxHeads);
  const auto b = t5_bucket_matrix(q_len, k_len, bidirectional, num_buckets, max_distance, query_offset);
  need("table", table);
  detail::require_output_cap("heads*q_len*k_len", 1LL * heads * q_len * k_len);
  const std::size_t QK = b.size(), H = std::size_t(heads);
  std::vector<float> out(H * QK);
  for (std::size_t h = 0; h < H; ++h)
    for (std::size_t e = 0; e < QK; ++e) out[h * QK + e] = table[std::size_t(b[e]) * H + h];
  return out;
}

// ------------------------------------------------------------------------------------------- DeBERTa
namespace {
void check_deberta_buckets(int bucket_size, int max_position) {
  if (bucket_size > 0 && max_position <= 0)
    detail::fail("max_relative_positions", "required (>= 1) when position_buckets > 0 (Hugging Face uses "
                                           "max_position_embeddings when the config's value is < 1) (got " +
                                               std::to_string(max_position) + ")");
  if (bucket_size > 0 && max_position > 0) {
    detail::require_int_range("position_buckets", bucket_size, 2, 1 << 20);
    if (max_position - 1 <= bucket_size / 2)
      detail::fail("max_relative_positions", "must be > position_buckets/2 + 1 = " + std::to_string(bucket_size / 2 + 1) +
                                                 " for log buckets (got " + std::to_string(max_position) + ")");
  }
}

long long deberta_bucket_unchecked(long long rp, int bucket_size, int max_position) {
  const long long mid = bucket_size / 2;
  const long long abs_pos = (rp < mid && rp > -mid) ? mid - 1 : (rp < 0 ? -rp : rp);
  if (abs_pos <= mid) return rp;
  // float32 as the reference: abs_pos / mid, torch.log, torch.log(torch.tensor((max_position − 1)/mid)), ceil.
  const float num = std::log(static_cast<float>(abs_pos) / static_cast<float>(mid));
  const float den = std::log(static_cast<float>(double(max_position - 1) / double(mid)));
  const float log_pos = std::ceil(num / den * static_cast<float>(mid - 1)) + static_cast<float>(mid);
  const float sign = rp > 0 ? 1.f : (rp < 0 ? -1.f : 0.f);
  return static_cast<long long>(log_pos * sign);
}
}  // namespace

long long deberta_log_bucket(long long relative_position, int bucket_size, int max_position) {
  detail::require_int_range("position_buckets", bucket_size, 2, 1 << 20);
  detail::require_int_range("max_relative_positions", max_position, 1, 1 << 30);
  check_deberta_buckets(bucket_size, max_position);
  if (relative_position > 2147483647LL || relative_position < -2147483647LL)
    detail::fail("relative_position", "must satisfy |relative_position| <= 2147483647 (got " + std::to_string(relative_position) + ")");
  return deberta_bucket_unchecked(relative_position, bucket_size, max_position);
}

std::vector<int> deberta_relative_positions(int q_len, int k_len, int bucket_size, int max_position) {
  detail::require_int_range("q_len", q_len, 1, kMaxAttnLen);
  detail::require_int_range("k_len", k_len, 1, kMaxAttnLen);
  check_deberta_buckets(bucket_size, max_position);
  const bool log = bucket_size > 0 && max_position > 0;
  std::vector<int> r(std::size_t(q_len) * k_len);
  for (int i = 0; i < q_len; ++i)
    for (int j = 0; j < k_len; ++j)
      r[std::size_t(i) * k_len + j] = static_cast<int>(log ? deberta_bucket_unchecked(i - j, bucket_size, max_position) : i - j);
  return r;
}

DebertaTerms deberta_scores(const float* q, const float* k, const float* pos_key, const float* pos_query, int n, int d,
                            int position_buckets, int max_relative_positions) {
  check_qk(n, n, d);
  need("q", q);
  need("k", k);
  const int span = position_buckets > 0 ? position_buckets : max_relative_positions;
  if (span < 1)
    detail::fail("max_relative_positions", "must be >= 1 when position_buckets <= 0 (got " +
                                               std::to_string(max_relative_positions) + ")");
  detail::require_int_range("position span", span, 1, 1 << 20);
  detail::require_output_cap("2*span*d", 2LL * span * d);
  const auto rel = deberta_relative_positions(n, n, position_buckets, max_relative_positions);
  const int factor = 1 + (pos_key ? 1 : 0) + (pos_query ? 1 : 0);
  DebertaTerms t;
  // scale = torch.sqrt(torch.tensor(d, dtype=float32) * scale_factor): float32 product and sqrt.
  t.scale = std::sqrt(static_cast<float>(d) * static_cast<float>(factor));
  const std::size_t N = std::size_t(n), D = std::size_t(d), S2 = 2 * std::size_t(span);
  t.c2c = dots(q, N, k, N, D, 1.f);
  for (auto& x : t.c2c) x /= t.scale;
  auto idx = [&](std::size_t e) { return static_cast<std::size_t>(std::clamp<long long>(rel[e] + span, 0, 2LL * span - 1)); };
  if (pos_key) {
    const auto a = dots(q, N, pos_key, S2, D, 1.f);  // [n, 2·span]
    t.c2p.resize(N * N);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) t.c2p[i * N + j] = a[i * S2 + idx(i * N + j)] / t.scale;
  }
  if (pos_query) {
    const auto b = dots(k, N, pos_query, S2, D, 1.f);  // [n(keys), 2·span]
    t.p2c.resize(N * N);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = 0; j < N; ++j) t.p2c[i * N + j] = b[j * S2 + idx(i * N + j)] / t.scale;
  }
  t.score = t.c2c;
  for (std::size_t e = 0; e < N * N; ++e) {
    if (pos_key) t.score[e] += t.c2p[e];
    if (pos_query) t.score[e] += t.p2c[e];
  }
  return t;
}

// ---------------------------------------------------------------------------------------------- TUPE
std::vector<float> tupe_position_scores(const float* p, const float* uq, const float* uk, int n, int d_model, int heads,
                                        int head_dim) {
  detail::require_int_range("n", n, 1, kMaxAttnLen);
  detail::require_int_range("d_model", d_model, 1, kMaxHeadDim);
  detail::require_int_range("heads", heads, 1, kMaxHeads);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  detail::require_output_cap("d_model*heads*head_dim", 1LL * d_model * heads * head_dim);
  detail::require_output_cap("heads*n*n", 1LL * heads * n * n);
  need("p", p);
  need("uq", uq);
  need("uk", uk);
  const std::size_t N = std::size_t(n), M = std::size_t(d_model), H = std::size_t(heads), Dh = std::size_t(head_dim),
                    W = H * Dh;
  // Per-head projections [heads, n, head_dim], accumulated in float64 and rounded once.
  std::vector<float> pq(H * N * Dh), pk(H * N * Dh);
  std::vector<double> aq(W), ak(W);
  for (std::size_t i = 0; i < N; ++i) {
    std::fill(aq.begin(), aq.end(), 0.0);
    std::fill(ak.begin(), ak.end(), 0.0);
    for (std::size_t m = 0; m < M; ++m) {
      const double x = p[i * M + m];
      for (std::size_t c = 0; c < W; ++c) {
        aq[c] += x * uq[m * W + c];
        ak[c] += x * uk[m * W + c];
      }
    }
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t c = 0; c < Dh; ++c) {
        pq[(h * N + i) * Dh + c] = static_cast<float>(aq[h * Dh + c]);
        pk[(h * N + i) * Dh + c] = static_cast<float>(ak[h * Dh + c]);
      }
  }
  const float scale = static_cast<float>(1.0 / std::sqrt(2.0 * double(head_dim)));
  std::vector<float> out(H * N * N);
  for (std::size_t h = 0; h < H; ++h)
    kernels::dot_rows_simd(pq.data() + h * N * Dh, N, pk.data() + h * N * Dh, N, Dh, scale, out.data() + h * N * N);
  return out;
}
}  // namespace posenc
