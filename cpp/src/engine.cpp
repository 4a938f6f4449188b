#include "posenc/engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "generator.hpp"
#include "posenc/absolute.hpp"
#include "posenc/alibi.hpp"
#include "posenc/attention.hpp"
#include "posenc/error.hpp"
#include "posenc/relative.hpp"
#include "posenc/sinusoidal.hpp"
#include "posenc/xpos.hpp"

namespace posenc {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
constexpr const char* kSchemeNames[] = {"none", "sinusoidal", "learned", "multiplicative", "shaw", "transformer_xl",
                                        "t5", "deberta", "tupe", "rope", "alibi", "xpos"};

using Mat = std::vector<float>;

/// Row-major [seq, d] copy of head h of x [seq, heads, d].
Mat head_of(const float* x, int seq, int heads, int d, int h) {
  Mat out(std::size_t(seq) * d);
  for (int s = 0; s < seq; ++s)
    std::copy_n(x + (std::size_t(s) * heads + h) * d, d, out.data() + std::size_t(s) * d);
  return out;
}

/// [na, nb] = scale · a bᵀ.
Mat dots(const Mat& a, std::size_t na, const Mat& b, std::size_t nb, int d, float scale) {
  Mat out(na * nb);
  kernels::dot_rows_simd(a.data(), na, b.data(), nb, std::size_t(d), scale, out.data());
  return out;
}

/// x [n, d] · W [d, d].
Mat project(const Mat& x, std::size_t n, const Mat& w, int d) {
  Mat out(n * d, 0.f);
  for (std::size_t r = 0; r < n; ++r)
    for (int c = 0; c < d; ++c) {
      const float xv = x[r * d + c];
      const float* wr = w.data() + std::size_t(c) * d;
      float* o = out.data() + r * d;
      for (int j = 0; j < d; ++j) o[j] += xv * wr[j];
    }
  return out;
}

Mat seeded(std::uint64_t seed, const char* name, int h, std::size_t n, float scale) {
  return gen::stream(seed ^ gen::fnv1a(name) ^ (std::uint64_t(h) * 0x9E3779B97F4A7C15ULL), n, scale);
}

std::vector<double> range(int n) {
  std::vector<double> p(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) p[std::size_t(i)] = i;
  return p;
}

/// Absolute position vectors p [seq, d] of a scheme (sinusoid or learned table).
Mat absolute_positions(const SchemeParams& s, int seq, int d, std::uint64_t seed) {
  if (s.type == AttentionScheme::learned) {
    if (s.learned_table.empty()) return seeded(seed, "learned", 0, std::size_t(seq) * d, 1.0f);
    if (s.learned_rows < seq)
      detail::fail("scheme.table", "has " + std::to_string(s.learned_rows) + " rows, fewer than seq = " + std::to_string(seq));
    detail::require_size("scheme.table", s.learned_table.size(), std::size_t(s.learned_rows) * d);
    return Mat(s.learned_table.begin(), s.learned_table.begin() + std::ptrdiff_t(seq) * d);
  }
  Mat p(std::size_t(seq) * d);
  const auto pos = range(seq);
  sinusoidal_table(pos.data(), pos.size(), d, s.base, SinusoidalLayout::interleaved, p.data());
  return p;
}

/// Rotates (RoPE or xPos) one head's rows [seq, d] at positions 0 … seq−1.
Mat rotate(const Mat& x, int seq, int d, const SchemeParams& s, bool is_key) {
  Mat out(x.size());
  if (s.type == AttentionScheme::xpos) {
    XposOptions o;
    o.scale_base = s.scale_base;
    o.gamma = s.gamma;
    o.rope_theta = s.rope.rope_theta;
    xpos_apply(x.data(), out.data(), RopeShape{seq, 1, d, s.rope.rotary_dim}, 0, is_key, o);
    return out;
  }
  RopeScaling sc = s.rope;
  if (sc.rotary_dim == 0) sc.rotary_dim = d;
  const auto f = rope_inv_freq_scaled(sc, seq);
  const auto pos = range(seq);
  std::vector<float> c(std::size_t(seq) * f.inv_freq.size()), sn(c.size());
  rope_tables_scaled(f.inv_freq, f.attention_scaling, pos.data(), pos.size(), c.data(), sn.data());
  rope_apply(x.data(), out.data(), RopeShape{seq, 1, d, sc.rotary_dim}, s.layout, c.data(), sn.data());
  return out;
}

using Terms = std::vector<std::pair<std::string, Mat>>;

/// The terms of one head (each [seq, seq], scaled, unmasked).
Terms head_terms(const Mat& q, const Mat& k, int seq, int heads, int d, int h, const SchemeParams& s, bool causal,
                 std::uint64_t seed) {
  const std::size_t n = std::size_t(seq);
  const float inv_sqrt = float(1.0 / std::sqrt(double(d)));
  const float proj = inv_sqrt;  // seeded matrices: uniform[−1, 1)/√d
  Terms t;
  switch (s.type) {
    case AttentionScheme::none:
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      break;
    case AttentionScheme::sinusoidal:
    case AttentionScheme::learned: {
      const Mat p = absolute_positions(s, seq, d, seed);
      const Mat pq = project(p, n, seeded(seed, "U_q", h, std::size_t(d) * d, proj), d);
      const Mat pk = project(p, n, seeded(seed, "U_k", h, std::size_t(d) * d, proj), d);
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      t.emplace_back("content_position", dots(q, n, pk, n, d, inv_sqrt));
      t.emplace_back("position_content", dots(pq, n, k, n, d, inv_sqrt));
      t.emplace_back("position_position", dots(pq, n, pk, n, d, inv_sqrt));
      break;
    }
    case AttentionScheme::multiplicative: {
      const Mat p = absolute_positions(s, seq, d, seed);
      Mat qp(q.size()), kp(k.size());
      multiplicative_pe(q.data(), p.data(), q.size(), qp.data());
      multiplicative_pe(k.data(), p.data(), k.size(), kp.data());
      t.emplace_back("content_content", dots(qp, n, kp, n, d, inv_sqrt));
      break;
    }
    case AttentionScheme::shaw: {
      const int K = s.max_relative_position;
      detail::require_int_range("scheme.max_relative_position", K, 1, 1 << 16);
      const Mat table = seeded(seed, "shaw_K", h, std::size_t(2 * K + 1) * d, proj);
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      t.emplace_back("content_position", shaw_scores(q.data(), nullptr, table.data(), seq, seq, d, K));
      break;
    }
    case AttentionScheme::transformer_xl: {
      // r_δ = W_R·[sin δω | cos δω] for δ = i − j ∈ [−(n−1), n−1]; row δ + n − 1.
      std::vector<double> delta(2 * n - 1);
      for (std::size_t r = 0; r < delta.size(); ++r) delta[r] = double(r) - double(n - 1);
      Mat R(delta.size() * d);
      sinusoidal_table(delta.data(), delta.size(), d, 10000.0, SinusoidalLayout::concatenated, R.data());
      const Mat r = project(R, delta.size(), seeded(seed, "W_R", h, std::size_t(d) * d, proj), d);
      const Mat u = seeded(seed, "u", h, std::size_t(d), 1.0f), v = seeded(seed, "v", h, std::size_t(d), 1.0f);
      const Mat qr = dots(q, n, r, delta.size(), d, inv_sqrt);  // [n, 2n−1]
      const Mat uk = dots(u, 1, k, n, d, inv_sqrt);              // [1, n]
      const Mat vr = dots(v, 1, r, delta.size(), d, inv_sqrt);   // [1, 2n−1]
      Mat b(n * n), c(n * n), dd(n * n);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const std::size_t row = i + n - 1 - j;
          b[i * n + j] = qr[i * (2 * n - 1) + row];
          c[i * n + j] = uk[j];
          dd[i * n + j] = vr[row];
        }
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      t.emplace_back("content_position", std::move(b));
      t.emplace_back("position_content", std::move(c));
      t.emplace_back("position_position", std::move(dd));
      break;
    }
    case AttentionScheme::t5: {
      // Checked before the seeded table is sized by it (t5_bias checks the rest, with the same words).
      detail::require_int_range("scheme.num_buckets", s.num_buckets, 2, 1 << 20);
      detail::require_output_cap("scheme.num_buckets*heads", 1LL * s.num_buckets * heads);
      const Mat table = seeded(seed, "t5_bias", 0, std::size_t(s.num_buckets) * heads, 1.0f);
      const Mat all = t5_bias(table.data(), s.num_buckets, heads, seq, seq, !causal, s.max_distance);
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      t.emplace_back("bias", Mat(all.begin() + std::ptrdiff_t(h * n * n), all.begin() + std::ptrdiff_t((h + 1) * n * n)));
      break;
    }
    case AttentionScheme::deberta: {
      const int span = s.position_buckets > 0 ? s.position_buckets : s.max_relative_positions;
      detail::require_int_range("scheme.max_relative_positions", s.max_relative_positions, 1, 1 << 16);
      detail::require_int_range("scheme.position_buckets", s.position_buckets, 0, 1 << 16);
      const Mat rel = seeded(seed, "deberta_rel", 0, std::size_t(2 * span) * d, 1.0f);
      const Mat pk = project(rel, std::size_t(2 * span), seeded(seed, "deberta_W_k", h, std::size_t(d) * d, proj), d);
      const Mat pq = project(rel, std::size_t(2 * span), seeded(seed, "deberta_W_q", h, std::size_t(d) * d, proj), d);
      auto r = deberta_scores(q.data(), k.data(), pk.data(), pq.data(), seq, d, s.position_buckets, s.max_relative_positions);
      t.emplace_back("content_content", std::move(r.c2c));
      t.emplace_back("content_position", std::move(r.c2p));
      t.emplace_back("position_content", std::move(r.p2c));
      break;
    }
    case AttentionScheme::tupe: {
      const Mat p = absolute_positions(s, seq, d, seed);
      const Mat uq = seeded(seed, "U_q", h, std::size_t(d) * d, proj), uk = seeded(seed, "U_k", h, std::size_t(d) * d, proj);
      t.emplace_back("content_content", dots(q, n, k, n, d, float(1.0 / std::sqrt(2.0 * d))));
      t.emplace_back("position_position", tupe_position_scores(p.data(), uq.data(), uk.data(), seq, d, 1, d));
      break;
    }
    case AttentionScheme::rope:
    case AttentionScheme::xpos:
      t.emplace_back("content_content", dots(rotate(q, seq, d, s, false), n, rotate(k, seq, d, s, true), n, d, inv_sqrt));
      break;
    case AttentionScheme::alibi: {
      const auto slopes = alibi_slopes(heads);
      Mat bias(n * n);
      kernels::alibi_bias_simd(slopes[std::size_t(h)], seq, seq, 0, causal ? AlibiMode::causal : AlibiMode::symmetric, bias.data());
      t.emplace_back("content_content", dots(q, n, k, n, d, inv_sqrt));
      t.emplace_back("bias", std::move(bias));
      break;
    }
  }
  return t;
}
}  // namespace

AttentionScheme attention_scheme_from_name(const std::string& name, const char* param) {
  for (int i = 0; i < 12; ++i)
    if (name == kSchemeNames[i]) return AttentionScheme(i);
  detail::fail(param, "must be one of none, sinusoidal, learned, multiplicative, shaw, transformer_xl, t5, deberta, tupe, "
                      "rope, alibi, xpos (got '" + name + "')");
}

const char* attention_scheme_name(AttentionScheme s) { return kSchemeNames[int(s)]; }

AttentionResult attention(const float* q, const float* k, const float* v, int seq, int heads, int head_dim,
                          const SchemeParams& scheme, bool causal, std::uint64_t seed) {
  detail::require_int_range("seq", seq, 1, 4096);
  detail::require_int_range("heads", heads, 1, kMaxHeads);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  if (int(scheme.type) < 0 || int(scheme.type) > 11) detail::fail("scheme.type", "unknown scheme");
  detail::require_output_cap("heads*seq*seq*(terms+2)", 6LL * heads * seq * seq);
  AttentionResult r;
  r.heads = heads;
  r.seq = seq;
  r.head_dim = head_dim;
  const std::size_t n = std::size_t(seq), nn = n * n;
  r.scores.assign(std::size_t(heads) * nn, 0.f);
  for (int h = 0; h < heads; ++h) {
    const Mat qh = head_of(q, seq, heads, head_dim, h), kh = head_of(k, seq, heads, head_dim, h);
    Terms t = head_terms(qh, kh, seq, heads, head_dim, h, scheme, causal, seed);
    if (h == 0)
      for (auto& [name, m] : t) r.terms.emplace_back(name, Mat(std::size_t(heads) * nn));
    for (std::size_t ti = 0; ti < t.size(); ++ti) {
      float* dst = r.terms[ti].second.data() + std::size_t(h) * nn;
      float* sc = r.scores.data() + std::size_t(h) * nn;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const bool masked = causal && j > i;
          const float val = masked ? kNegInf : t[ti].second[i * n + j];
          dst[i * n + j] = val;
          sc[i * n + j] = masked ? kNegInf : sc[i * n + j] + val;
        }
    }
  }
  r.probs = r.scores;
  kernels::softmax_rows_simd(r.probs.data(), heads * seq, seq, false);
  if (causal)  // rows were softmaxed over all columns: −∞ entries give exactly 0 already
    for (std::size_t i = 0; i < r.probs.size(); ++i)
      if (r.scores[i] == kNegInf) r.probs[i] = 0.f;
  r.output.assign(n * std::size_t(heads) * head_dim, 0.f);
  for (int h = 0; h < heads; ++h)
    for (std::size_t i = 0; i < n; ++i) {
      float* o = r.output.data() + (i * heads + h) * head_dim;
      for (std::size_t j = 0; j < n; ++j) {
        const float w = r.probs[std::size_t(h) * nn + i * n + j];
        if (w == 0.f) continue;
        const float* vj = v + (j * heads + h) * head_dim;
        for (int c = 0; c < head_dim; ++c) o[c] += w * vj[c];
      }
    }
  return r;
}

TextQKV text_qkv(const std::string& text, int heads, int head_dim, std::uint64_t seed) {
  detail::require_int_range("heads", heads, 1, 64);
  detail::require_int_range("head_dim", head_dim, 1, 1024);
  TextQKV r;
  r.tokens = tokenize(text);
  if (r.tokens.empty()) detail::fail("text", "must contain at least one token");
  const std::size_t n = r.tokens.size(), d = std::size_t(head_dim), H = std::size_t(heads);
  detail::require_int_range("text (token count)", static_cast<long long>(n), 1, 4096);
  r.q.resize(n * H * d);
  r.k.resize(n * H * d);
  r.v.resize(n * H * d);
  const double inv_sqrt = 1.0 / std::sqrt(double(d));
  for (std::size_t h = 0; h < H; ++h) {
    const std::uint64_t hk = std::uint64_t(h) << 32;
    const auto wq = gen::stream(seed ^ 0x5157ULL ^ hk, d * d), wk = gen::stream(seed ^ 0x4B57ULL ^ hk, d * d),
               wv = gen::stream(seed ^ 0x5657ULL ^ hk, d * d);
    std::vector<double> aq(d), ak(d), av(d);
    for (std::size_t t = 0; t < n; ++t) {
      const auto x = gen::stream(gen::fnv1a(r.tokens[t]) ^ seed, d);
      std::fill(aq.begin(), aq.end(), 0.0);
      std::fill(ak.begin(), ak.end(), 0.0);
      std::fill(av.begin(), av.end(), 0.0);
      for (std::size_t row = 0; row < d; ++row) {
        const double xr = x[row];
        for (std::size_t c = 0; c < d; ++c) {
          aq[c] += xr * wq[row * d + c];
          ak[c] += xr * wk[row * d + c];
          av[c] += xr * wv[row * d + c];
        }
      }
      float* qo = r.q.data() + (t * H + h) * d;
      float* ko = r.k.data() + (t * H + h) * d;
      float* vo = r.v.data() + (t * H + h) * d;
      for (std::size_t c = 0; c < d; ++c) {
        qo[c] = float(aq[c] * inv_sqrt);
        ko[c] = float(ak[c] * inv_sqrt);
        vo[c] = float(av[c] * inv_sqrt);
      }
    }
  }
  return r;
}

double permutation_change(const std::string& text, int i, int j, int heads, int head_dim, const SchemeParams& scheme,
                          bool causal, std::uint64_t seed) {
  const auto a = text_qkv(text, heads, head_dim, seed);
  const int n = int(a.tokens.size());
  detail::require_int_range("i", i, 0, n - 1);
  detail::require_int_range("j", j, 0, n - 1);
  std::vector<int> perm(static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) perm[std::size_t(t)] = t == i ? j : t == j ? i : t;
  // The swapped sequence: the same per-token vectors at permuted rows (token identity fixes q, k, v).
  const std::size_t row = std::size_t(heads) * head_dim;
  std::vector<float> q(a.q.size()), k(a.k.size()), v(a.v.size());
  for (int t = 0; t < n; ++t) {
    const std::size_t src = std::size_t(perm[std::size_t(t)]) * row, dst = std::size_t(t) * row;
    std::copy_n(a.q.data() + src, row, q.data() + dst);
    std::copy_n(a.k.data() + src, row, k.data() + dst);
    std::copy_n(a.v.data() + src, row, v.data() + dst);
  }
  const auto ra = attention(a.q.data(), a.k.data(), a.v.data(), n, heads, head_dim, scheme, causal, seed);
  const auto rb = attention(q.data(), k.data(), v.data(), n, heads, head_dim, scheme, causal, seed);
  double worst = 0;
  const std::size_t N = std::size_t(n);
  for (int h = 0; h < heads; ++h)
    for (std::size_t x = 0; x < N; ++x)
      for (std::size_t y = 0; y < N; ++y) {
        const float sb = rb.scores[h * N * N + x * N + y];
        const float sa = ra.scores[h * N * N + std::size_t(perm[x]) * N + std::size_t(perm[y])];
        // A causal mask belongs to positions, not tokens: a pair masked in either order is not compared.
        if (std::isinf(sa) || std::isinf(sb)) continue;
        worst = std::max(worst, std::fabs(double(sb) - double(sa)));
      }
  return worst;
}

LinearAttentionResult linear_attention_rope(const float* q, const float* k, const float* v, int seq, int d, int dv,
                                            bool causal, double rope_theta, LinearForm form) {
  detail::require_int_range("seq", seq, 1, kMaxSeqLen);
  detail::require_int_range("head_dim", d, 2, kMaxHeadDim);
  detail::require_even("head_dim", d);
  detail::require_int_range("v_dim", dv, 1, kMaxHeadDim);
  detail::require_output_cap("seq*v_dim", 1LL * seq * dv);
  detail::require_output_cap("seq*head_dim", 1LL * seq * d);
  const std::size_t n = std::size_t(seq), D = std::size_t(d), DV = std::size_t(dv);
  auto phi = [](float x) { return x > 0 ? x + 1.0f : std::exp(x); };  // elu(x) + 1
  Mat fq(n * D), fk(n * D);
  for (std::size_t i = 0; i < n * D; ++i) fq[i] = phi(q[i]), fk[i] = phi(k[i]);
  Mat rq(fq.size()), rk(fk.size());
  rope_apply_positions(fq.data(), rq.data(), RopeShape{seq, 1, d, d}, RopeLayout::half_split, rope_theta, nullptr);
  rope_apply_positions(fk.data(), rk.data(), RopeShape{seq, 1, d, d}, RopeLayout::half_split, rope_theta, nullptr);
  // States: M = Σ_j rk_j v_jᵀ [D, DV], z_rot = Σ_j rk_j, z_plain = Σ_j φ(k_j); prefix sums when causal.
  std::vector<double> M(D * DV, 0.0), zr(D, 0.0), zp(D, 0.0);
  auto add = [&](std::size_t j) {
    for (std::size_t c = 0; c < D; ++c) {
      const double kc = rk[j * D + c];
      zr[c] += kc;
      zp[c] += fk[j * D + c];
      for (std::size_t e = 0; e < DV; ++e) M[c * DV + e] += kc * v[j * DV + e];
    }
  };
  if (!causal)
    for (std::size_t j = 0; j < n; ++j) add(j);
  LinearAttentionResult r;
  r.output.assign(n * DV, 0.f);
  r.denominator.assign(n, 0.f);
  std::vector<double> num(DV);
  for (std::size_t i = 0; i < n; ++i) {
    if (causal) add(i);
    std::fill(num.begin(), num.end(), 0.0);
    double den = 0;
    for (std::size_t c = 0; c < D; ++c) {
      const double qc = rq[i * D + c];
      for (std::size_t e = 0; e < DV; ++e) num[e] += qc * M[c * DV + e];
      den += form == LinearForm::naive ? qc * zr[c] : double(fq[i * D + c]) * zp[c];
    }
    r.denominator[i] = float(den);
    for (std::size_t e = 0; e < DV; ++e) r.output[i * DV + e] = float(num[e] / den);
  }
  return r;
}
}  // namespace posenc
