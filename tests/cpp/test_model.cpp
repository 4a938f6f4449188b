// The language model's forward pass (model_llama.cpp) against a naive float64 forward written here from the
// definitions, not from posenc: each score as q · R((p_i − p_j)·θ)ᵀ… in its relative form — the query turned by the
// (clipped, for ReRoPE) relative angle against the unrotated key — so that the session's absolute rotations, its
// ReRoPE second score, GQA, log-n and the attention factor are all checked against another formulation. Tolerance
// NLL_TOL (2e-4 absolute on each loss) covers float32 against float64. And the loader: a GGUF written here byte by byte
// with F16 and Q8_0 tensors (ggml-common.h block_q8_0: float16 d, 32 int8 q) decodes to d·q exactly.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "posenc/learned.hpp"
#include "posenc/model.hpp"

using namespace posenc;

namespace {
constexpr double NLL_TOL = 2e-4;

std::vector<float> rnd(std::size_t n, std::mt19937& g, float s) {
  std::normal_distribution<float> d(0.f, s);
  std::vector<float> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

std::shared_ptr<LmModel> random_model(bool interleaved, bool tied) {
  std::mt19937 g(7);
  auto m = std::make_shared<LmModel>();
  LmHparams& h = m->hp;
  h.n_layer = 2, h.n_embd = 24, h.n_head = 4, h.n_head_kv = 2, h.head_dim = 6, h.n_ff = 20, h.n_vocab = 40, h.rotary_dim = 4;
  h.rms_eps = 1e-5, h.rope_theta = 100, h.n_ctx_train = 16, h.interleaved = interleaved;
  const int E = h.n_embd, Q = h.n_head * h.head_dim, K = h.n_head_kv * h.head_dim, F = h.n_ff, V = h.n_vocab;
  m->tok_embd = rnd(std::size_t(V) * E, g, 1.f);
  for (int l = 0; l < h.n_layer; ++l) {
    LmLayer L;
    L.attn_norm = rnd(E, g, 0.3f), L.ffn_norm = rnd(E, g, 0.3f);
    for (auto& x : L.attn_norm) x += 1;
    for (auto& x : L.ffn_norm) x += 1;
    L.wq = rnd(std::size_t(E) * Q, g, 0.5f), L.wk = rnd(std::size_t(E) * K, g, 0.5f), L.wv = rnd(std::size_t(E) * K, g, 0.3f);
    L.wo = rnd(std::size_t(Q) * E, g, 0.3f), L.w_gate = rnd(std::size_t(E) * F, g, 0.3f), L.w_up = rnd(std::size_t(E) * F, g, 0.3f);
    L.w_down = rnd(std::size_t(F) * E, g, 0.3f);
    m->layers.push_back(L);
  }
  m->out_norm = rnd(E, g, 0.1f);
  for (auto& x : m->out_norm) x += 1;
  m->output = rnd(std::size_t(E) * V, g, 0.3f);
  m->tied = tied;
  return m;
}

// Rotates the rotary pairs of one head vector by angle·inv_freq[i].
void turn(std::vector<double>& v, double angle, const LmRope& r, int R) {
  for (int i = 0; i < R / 2; ++i) {
    const int a = r.interleaved ? 2 * i : i, b = r.interleaved ? 2 * i + 1 : i + R / 2;
    const double c = std::cos(angle * r.inv_freq[i]), s = std::sin(angle * r.inv_freq[i]), x = v[a], y = v[b];
    v[a] = x * c - y * s, v[b] = x * s + y * c;
  }
}

std::vector<double> naive_nll(const LmModel& m, const LmRope& r, const std::vector<int>& ids) {
  const LmHparams& h = m.hp;
  const int T = int(ids.size()), E = h.n_embd, H = h.n_head, D = h.head_dim, F = h.n_ff, V = h.n_vocab, G = H / h.n_head_kv;
  auto lin = [](const std::vector<double>& x, const std::vector<float>& w, int in, int out) {  // w: [in][out]
    std::vector<double> y(out, 0.0);
    for (int i = 0; i < in; ++i)
      for (int o = 0; o < out; ++o) y[o] += x[i] * w[std::size_t(i) * out + o];
    return y;
  };
  auto norm = [&](const std::vector<double>& x, const std::vector<float>& g) {
    double ss = 0;
    for (double v : x) ss += v * v;
    std::vector<double> y(x.size());
    for (std::size_t e = 0; e < x.size(); ++e) y[e] = x[e] / std::sqrt(ss / x.size() + h.rms_eps) * g[e];
    return y;
  };
  std::vector<std::vector<double>> x(T);
  for (int t = 0; t < T; ++t) x[t].assign(m.tok_embd.begin() + std::size_t(ids[t]) * E, m.tok_embd.begin() + std::size_t(ids[t] + 1) * E);
  for (int l = 0; l < h.n_layer; ++l) {
    const LmLayer& L = m.layers[l];
    std::vector<std::vector<double>> q(T), k(T), v(T);
    for (int t = 0; t < T; ++t) {
      const auto hn = norm(x[t], L.attn_norm);
      q[t] = lin(hn, L.wq, E, H * D), k[t] = lin(hn, L.wk, E, h.n_head_kv * D), v[t] = lin(hn, L.wv, E, h.n_head_kv * D);
    }
    for (int i = 0; i < T; ++i) {
      std::vector<double> out(H * D, 0.0);
      const double logn = r.logn_base > 0 ? std::max(1.0, std::log(i + 1.0) / std::log(r.logn_base)) : 1.0;
      for (int hh = 0; hh < H; ++hh) {
        std::vector<double> s(i + 1);
        for (int j = 0; j <= i; ++j) {
          double rel = i - j;
          if (r.rerope_window > 0 && rel >= r.rerope_window) rel = r.rerope_window + (rel - r.rerope_window) * r.rerope_leaky;
          std::vector<double> qv(q[i].begin() + hh * D, q[i].begin() + (hh + 1) * D);
          const std::vector<double> kv(k[j].begin() + (hh / G) * D, k[j].begin() + (hh / G + 1) * D);
          turn(qv, rel, r, h.rotary_dim);
          double dot = 0;
          for (int d = 0; d < D; ++d) dot += qv[d] * kv[d];
          s[j] = dot * r.attention_factor * r.attention_factor * logn / std::sqrt(double(D));
        }
        double mx = -1e300, sum = 0;
        for (double z : s) mx = std::max(mx, z);
        for (double& z : s) sum += (z = std::exp(z - mx));
        for (int j = 0; j <= i; ++j)
          for (int d = 0; d < D; ++d) out[hh * D + d] += s[j] / sum * v[j][(hh / G) * D + d];
      }
      const auto o = lin(out, L.wo, H * D, E);
      for (int e = 0; e < E; ++e) x[i][e] += o[e];
      const auto hn = norm(x[i], L.ffn_norm);
      auto gt = lin(hn, L.w_gate, E, F);
      const auto up = lin(hn, L.w_up, E, F);
      for (int f = 0; f < F; ++f) gt[f] = gt[f] / (1 + std::exp(-gt[f])) * up[f];
      const auto dn = lin(gt, L.w_down, F, E);
      for (int e = 0; e < E; ++e) x[i][e] += dn[e];
    }
  }
  std::vector<double> nll;
  for (int t = 0; t + 1 < T; ++t) {
    const auto logits = lin(norm(x[t], m.out_norm), m.output, E, V);
    double mx = -1e300, sum = 0;
    for (double z : logits) mx = std::max(mx, z);
    for (double z : logits) sum += std::exp(z - mx);
    nll.push_back(std::log(sum) + mx - logits[ids[t + 1]]);
  }
  return nll;
}

std::vector<float> session_nll(std::shared_ptr<const LmModel> m, const LmRope& r, const std::vector<int>& ids, int chunk) {
  const int T = int(ids.size());
  LmSession s(m, r, T);
  std::vector<int> tg(ids.begin() + 1, ids.end());
  tg.push_back(-1);
  std::vector<float> nll(T);
  for (int a = 0; a < T; a += chunk) s.feed(ids.data() + a, std::min(chunk, T - a), tg.data() + a, nll.data() + a, nullptr, nullptr);
  nll.pop_back();
  return nll;
}

LmRope rope_of(const LmModel& m) {
  LmRope r;
  r.interleaved = m.hp.interleaved;
  for (int i = 0; i < m.hp.rotary_dim / 2; ++i) r.inv_freq.push_back(std::pow(m.hp.rope_theta, -2.0 * i / m.hp.rotary_dim));
  return r;
}
}  // namespace

TEST_CASE("model: the session's forward pass equals a naive float64 forward in relative form") {
  std::vector<int> ids;
  std::mt19937 g(3);
  for (int t = 0; t < 37; ++t) ids.push_back(int(g() % 40));
  for (bool interleaved : {true, false}) {
    auto m = random_model(interleaved, false);
    LmRope plain = rope_of(*m), re = plain, leaky = plain, logn = plain, yarnish = plain, offset = plain;
    re.rerope_window = 8;
    leaky.rerope_window = 5, leaky.rerope_leaky = 0.25;
    logn.logn_base = 4;
    yarnish.attention_factor = 1.2, yarnish.inv_freq[1] /= 3;
    offset.position_offset = 12345;
    for (const LmRope* r : {&plain, &re, &leaky, &logn, &yarnish, &offset}) {
      const auto want = naive_nll(*m, *r, ids);
      for (int chunk : {37, 5, 1}) {
        const auto got = session_nll(m, *r, ids, chunk);
        for (std::size_t t = 0; t < want.size(); ++t) REQUIRE(std::fabs(got[t] - want[t]) <= NLL_TOL);
      }
    }
  }
}

TEST_CASE("model: bad session parameters are refused by name") {
  auto m = random_model(true, false);
  LmRope r = rope_of(*m);
  r.inv_freq.pop_back();
  REQUIRE_THROWS_WITH(LmSession(m, r, 8), Catch::Contains("inv_freq: must hold rotary_dim / 2 = 2"));
  r = rope_of(*m);
  r.rerope_leaky = 1;
  REQUIRE_THROWS_WITH(LmSession(m, r, 8), Catch::Contains("rerope_leaky"));
  LmSession s(m, rope_of(*m), 4);
  const int ids[5] = {1, 2, 3, 4, 5};
  REQUIRE_THROWS_WITH(s.feed(ids, 5, nullptr, nullptr, nullptr, nullptr), Catch::Contains("capacity"));
  const int bad[1] = {40};
  REQUIRE_THROWS_WITH(s.feed(bad, 1, nullptr, nullptr, nullptr, nullptr), Catch::Contains("token id 40"));
  REQUIRE(s.n_past() == 0);
}

namespace {
struct W {
  std::vector<std::uint8_t> b;
  void raw(const void* p, std::size_t n) { b.insert(b.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n); }
  void u32(std::uint32_t v) { raw(&v, 4); }
  void u64(std::uint64_t v) { raw(&v, 8); }
  void str(const std::string& s) { u64(s.size()), raw(s.data(), s.size()); }
  void kv_u32(const std::string& k, std::uint32_t v) { str(k), u32(4), u32(v); }
};
std::uint16_t half(float x) {  // exact for the values used here (small integers and powers of two)
  std::uint32_t u;
  std::memcpy(&u, &x, 4);
  const std::uint32_t e = (u >> 23) & 0xFF;
  return std::uint16_t(((u >> 16) & 0x8000) | (x == 0 ? 0 : ((e - 112) << 10) | ((u >> 13) & 0x3FF)));
}
}  // namespace

TEST_CASE("model: GGUF F32, F16 and Q8_0 tensors decode as ggml defines them; refusals name the tensor") {
  // n_embd 32, 1 layer, 4 heads of 8, 2 kv heads, n_ff 32, vocab 32: every row a whole Q8_0 block
  const int E = 32, V = 32;
  struct Tn { std::string name; std::vector<std::uint64_t> ne; std::uint32_t type; };
  const std::vector<Tn> ts = {{"token_embd.weight", {32, 32}, 1}, {"output_norm.weight", {32}, 0}, {"blk.0.attn_norm.weight", {32}, 0},
    {"blk.0.attn_q.weight", {32, 32}, 8}, {"blk.0.attn_k.weight", {32, 16}, 8}, {"blk.0.attn_v.weight", {32, 16}, 8},
    {"blk.0.attn_output.weight", {32, 32}, 8}, {"blk.0.ffn_norm.weight", {32}, 0}, {"blk.0.ffn_gate.weight", {32, 32}, 8},
    {"blk.0.ffn_up.weight", {32, 32}, 8}, {"blk.0.ffn_down.weight", {32, 32}, 8}};
  auto bytes_of = [](const Tn& t) {
    std::uint64_t n = 1;
    for (auto d : t.ne) n *= d;
    return t.type == 0 ? 4 * n : t.type == 1 ? 2 * n : n / 32 * 34;
  };
  W w;
  w.raw("GGUF", 4), w.u32(3), w.u64(ts.size()), w.u64(8);
  w.str("general.architecture"), w.u32(8), w.str("llama");
  w.kv_u32("llama.block_count", 1), w.kv_u32("llama.embedding_length", E), w.kv_u32("llama.attention.head_count", 4);
  w.kv_u32("llama.attention.head_count_kv", 2), w.kv_u32("llama.feed_forward_length", 32), w.kv_u32("llama.context_length", 64);
  w.kv_u32("llama.rope.dimension_count", 8);
  std::uint64_t off = 0;
  for (const auto& t : ts) {
    w.str(t.name), w.u32(std::uint32_t(t.ne.size()));
    for (auto d : t.ne) w.u64(d);
    w.u32(t.type), w.u64(off);
    off += (bytes_of(t) + 31) / 32 * 32;
  }
  while (w.b.size() % 32) w.b.push_back(0);
  for (const auto& t : ts) {
    const std::size_t start = w.b.size(), nb = bytes_of(t);
    if (t.type == 0) for (std::size_t k = 0; k < nb / 4; ++k) { const float f = 1.f + float(k % 3); w.raw(&f, 4); }
    else if (t.type == 1) for (std::size_t k = 0; k < nb / 2; ++k) { const std::uint16_t h = half(float(int(k % 7) - 3)); w.raw(&h, 2); }
    else for (std::size_t blk = 0; blk < nb / 34; ++blk) {
      const std::uint16_t d = half(0.25f * float(1 + blk % 4));
      w.raw(&d, 2);
      for (int q = 0; q < 32; ++q) { const std::int8_t v = std::int8_t((q * 5 + int(blk)) % 255 - 127); w.raw(&v, 1); }
    }
    while ((w.b.size() - start) % 32) w.b.push_back(0);
  }
  const LmModel m = lm_from_gguf(w.b.data(), w.b.size());
  REQUIRE(m.hp.n_vocab == V);
  REQUIRE(m.tied);
  REQUIRE(m.tok_embd[10] == float(int(10 % 7) - 3));      // F16
  REQUIRE(m.out_norm[4] == 1.f + float(4 % 3));            // F32
  // Q8_0: attn_q row o (ne[1] index), column i (ne[0]) is block o (32 per row), weight d·q; stored transposed [in][out]
  for (int o : {0, 5, 31})
    for (int i : {0, 7, 31}) {
      const float d = 0.25f * float(1 + o % 4), q = float((i * 5 + o) % 255 - 127);
      REQUIRE(m.layers[0].wq[std::size_t(i) * 32 + o] == d * q);
    }
  auto cut = w.b;
  cut.resize(cut.size() - 40);
  REQUIRE_THROWS_WITH(lm_from_gguf(cut.data(), cut.size()), Catch::Contains("tensor 'blk.0.ffn_down.weight' needs bytes"));
  auto wrong = w.b;
  const std::string key = "llama.feed_forward_length";
  auto at = std::search(wrong.begin(), wrong.end(), key.begin(), key.end()) - wrong.begin() + key.size() + 4;
  wrong[at] = 33;  // n_ff 33: the ffn tensors' shapes no longer match
  REQUIRE_THROWS_WITH(lm_from_gguf(wrong.data(), wrong.size()), Catch::Contains("tensor 'blk.0.ffn_gate.weight' has shape [32, 32], the hyperparameters need [33, 32]"));
  // a type id that posenc does not read, even one past INT_MAX (the fuzzer's finding: it was negated as an int), is named
  for (std::uint32_t type : {2u, 0x80000000u}) {
    auto odd = w.b;
    const std::string up = "blk.0.ffn_up.weight";
    const auto t = std::search(odd.begin(), odd.end(), up.begin(), up.end()) - odd.begin() + up.size() + 4 + 16;
    std::memcpy(&odd[std::size_t(t)], &type, 4);
    REQUIRE_THROWS_WITH(lm_from_gguf(odd.data(), odd.size()),
                        Catch::Contains("tensor 'blk.0.ffn_up.weight' has ggml type " + std::to_string(type)));
  }
}
