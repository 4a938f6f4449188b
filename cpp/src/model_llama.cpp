// posenc — the Llama family's builder: the forward pass of one chunk of tokens (conventions in posenc/model.hpp).
// Per layer: h = RMSNorm(x)·g; q, k, v = h·Wq, h·Wk, h·Wv; RoPE on q and k (and ReRoPE's second pair); keys and values
// appended to the cache (keys transposed); causal grouped-query attention in tiles of 4 query rows of one head: their
// scores over the cached keys and their weighted sum of the values as small matrix products (lm::gemm);
// x += attn·Wo; x += (silu(h·Wgate) ⊙ h·Wup)·Wdown with h = RMSNorm(x)·g. Then RMSNorm and the output head, in blocks
// of rows, each row reduced at once to its loss and top-1 hit. As transformers' LlamaForCausalLM (modeling_llama.py)
// and llama.cpp's llm_build_llama compute it.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "model_kernels.hpp"
#include "model_positions.hpp"
#include "parallel.hpp"
#include "posenc/error.hpp"
#include "posenc/model.hpp"
#include "posenc/xpos.hpp"

namespace posenc {
using detail::fail;
namespace lm = detail::lm;

LmSession::LmSession(std::shared_ptr<const LmModel> model, LmRope rope, int capacity, LmProbe probe)
    : m_(std::move(model)), rope_(std::move(rope)), probe_(probe), cap_(capacity) {
  if (!m_) fail("model", "null");
  const LmHparams& hp = m_->hp;
  detail::require_int_range("capacity", capacity, 1, kLmMaxContext);
  if (rope_.inv_freq.size() != std::size_t(hp.rotary_dim / 2)) {
    fail("inv_freq", "must hold rotary_dim / 2 = " + std::to_string(hp.rotary_dim / 2) + " frequencies (got " +
                         std::to_string(rope_.inv_freq.size()) + ")");
  }
  for (double f : rope_.inv_freq)
    if (!(std::isfinite(f) && f >= 0 && f <= 1e6)) fail("inv_freq", "entries must be finite in [0, 1e6] (got " + detail::format_number(f) + ")");
  if (!(std::isfinite(rope_.attention_factor) && rope_.attention_factor > 0 && rope_.attention_factor <= 100))
    fail("attention_factor", "must be in (0, 100] (got " + detail::format_number(rope_.attention_factor) + ")");
  detail::require_int_range("rerope_window", rope_.rerope_window, 0, kLmMaxContext);
  if (!(rope_.rerope_leaky >= 0 && rope_.rerope_leaky < 1))
    fail("rerope_leaky", "must be in [0, 1) (got " + detail::format_number(rope_.rerope_leaky) + ")");
  if (!(rope_.logn_base == 0 || (std::isfinite(rope_.logn_base) && rope_.logn_base >= 2 && rope_.logn_base <= 1e9)))
    fail("logn_base", "must be 0 (off) or in [2, 1e9] (got " + detail::format_number(rope_.logn_base) + ")");
  if (!(std::isfinite(rope_.position_offset) && std::fabs(rope_.position_offset) <= 1e9))
    fail("position_offset", "must be finite with |offset| ≤ 1e9 (got " + detail::format_number(rope_.position_offset) + ")");
  if (probe_.layer >= 0) {
    detail::require_int_range("probe.layer", probe_.layer, 0, hp.n_layer - 1);
    detail::require_int_range("probe.head", probe_.head, 0, hp.n_head - 1);
    detail::require_int_range("probe.row_end", probe_.row_end, 0, capacity);
    detail::require_int_range("probe.row_begin", probe_.row_begin, 0, probe_.row_end);
    if (1LL * (probe_.row_end - probe_.row_begin) * probe_.row_end > (1LL << 24))
      fail("probe", "rows × keys must be ≤ 2^24 floats (got " + std::to_string(1LL * (probe_.row_end - probe_.row_begin) * probe_.row_end) + ")");
    rows_.assign(std::size_t(probe_.row_end - probe_.row_begin) * probe_.row_end, 0.f);
  }
  detail::require_int_range("probe.gauge_end", probe_.gauge_end, 0, capacity);
  detail::require_int_range("probe.gauge_begin", probe_.gauge_begin, 0, std::max(probe_.gauge_end, 0));
  detail::require_int_range("probe.far", probe_.far, 1, kLmMaxContext);
  detail::require_int_range("probe.near", probe_.near, 1, kLmMaxContext);
  const std::size_t kv = std::size_t(hp.n_layer) * hp.n_head_kv * hp.head_dim * cap_;
  kt_.assign(kv, 0.f);
  v_.assign(kv, 0.f);
  if (rope_.rerope_window > 0) k2t_.assign(kv, 0.f);
  far_.assign(std::size_t(hp.n_layer) * hp.n_head, 0.0);
  near_.assign(far_.size(), 0.0);
  dist_bias_ = lm::distance_bias(*m_, cap_);
  if (hp.position == LmPosition::xpos) {
    for (double z : xpos_zeta(hp.rotary_dim, 0.4)) xpos_log_zeta_.push_back(std::log(z));
    xpos_shift_ = std::floor(-(cap_ + rope_.position_offset) / 2);  // torchscale: min_pos = −(length + offset) // 2
    const double c_max = std::max(std::fabs(rope_.position_offset + xpos_shift_), std::fabs(rope_.position_offset + cap_ - 1 + xpos_shift_));
    const double limit = xpos_max_centred(hp.rotary_dim, XposOptions{hp.xpos_scale_base, 0.4, hp.rope_theta});
    if (c_max > limit)
      fail("capacity", "xpos scales by ζ^(±c/" + detail::format_number(hp.xpos_scale_base) + "), within 2^±64 only for centred positions |c| ≤ " +
                           detail::format_number(limit) + " (got " + detail::format_number(c_max) + ")");
  }
}

struct LlamaBuilder {
  LmSession& s;
  const LmModel& m;
  const LmHparams& hp;

  // Rotates head vectors x (n_heads × head_dim at stride head_dim) by angle·inv_freq per pair, times mult (and xPos's
  // ζ_i^xpos_e per pair).
  void rotate(float* x, int n_heads, double pos, double mult, double xpos_e = 0) const {
    const int R = hp.rotary_dim, D = hp.head_dim, half = R / 2;
    for (int i = 0; i < half; ++i) {
      const double a = pos * s.rope_.inv_freq[i];
      const double sc = xpos_e != 0 ? mult * std::exp(xpos_e * s.xpos_log_zeta_[i]) : mult;
      const float c = static_cast<float>(std::cos(a) * sc), sn = static_cast<float>(std::sin(a) * sc);
      const int i0 = s.rope_.interleaved ? 2 * i : i, i1 = s.rope_.interleaved ? 2 * i + 1 : i + half;
      for (int h = 0; h < n_heads; ++h) {
        float* v = x + std::size_t(h) * D;
        const float x0 = v[i0], x1 = v[i1];
        v[i0] = x0 * c - x1 * sn;
        v[i1] = x0 * sn + x1 * c;
      }
    }
    if (mult != 1.0)
      for (int h = 0; h < n_heads; ++h)
        for (int d = R; d < D; ++d) x[std::size_t(h) * D + d] *= static_cast<float>(mult);
  }

  void run(const int* ids, int n, const int* targets, float* nll, std::uint8_t* hit, float* last_logits) {
    const int E = hp.n_embd, H = hp.n_head, KV = hp.n_head_kv, D = hp.head_dim, F = hp.n_ff, V = hp.n_vocab;
    const int Q = H * D, K = KV * D, past = s.n_past_, cap = s.cap_;
    const LmRope& rp = s.rope_;  // the cache's columns past n_past_ are overwritten by the next feed if this one throws
    const bool rerope = rp.rerope_window > 0;
    std::vector<float> x(std::size_t(n) * E), h(x.size()), q(std::size_t(n) * Q), k(std::size_t(n) * K), v(k.size()),
        att(q.size()), q2(rerope ? q.size() : 0), k2(rerope ? k.size() : 0), g(std::size_t(n) * F), u(g.size());
    for (int t = 0; t < n; ++t) std::copy_n(m.tok_embd.data() + std::size_t(ids[t]) * E, E, x.data() + std::size_t(t) * E);
    if (hp.position == LmPosition::learned || hp.position == LmPosition::sinusoidal) {
      std::vector<double> pos(n);
      for (int t = 0; t < n; ++t) pos[t] = past + t + rp.position_offset;
      lm::add_absolute(m, pos.data(), n, x.data());
    }
    const bool xpos = hp.position == LmPosition::xpos;
    const float inv_sqrt_d = static_cast<float>(1.0 / std::sqrt(double(D)));
    const double af = rp.attention_factor;
    for (int il = 0; il < hp.n_layer; ++il) {
      const LmLayer& L = m.layers[il];
      lm::rmsnorm(x.data(), n, E, L.attn_norm.data(), hp.rms_eps, h.data());
      lm::matmul(h.data(), n, E, L.wq.data(), Q, q.data(), false);
      lm::matmul(h.data(), n, E, L.wk.data(), K, k.data(), false);
      lm::matmul(h.data(), n, E, L.wv.data(), K, v.data(), false);
      const std::size_t layer_off = std::size_t(il) * KV * D * cap;
      for (int t = 0; t < n; ++t) {
        const double p = past + t + rp.position_offset;
        const double logn = rp.logn_base > 0 ? std::max(1.0, std::log(past + t + 1.0) / std::log(rp.logn_base)) : 1.0;
        float* qt = q.data() + std::size_t(t) * Q;
        float* kt = k.data() + std::size_t(t) * K;
        if (rerope) {
          std::copy_n(qt, Q, q2.data() + std::size_t(t) * Q);
          std::copy_n(kt, K, k2.data() + std::size_t(t) * K);
          const double w = rp.rerope_window, lk = rp.rerope_leaky;
          rotate(q2.data() + std::size_t(t) * Q, H, w * (1 - lk) + p * lk, af * logn * inv_sqrt_d);
          rotate(k2.data() + std::size_t(t) * K, KV, p * lk, af);
        }
        const double xe = xpos ? (p + s.xpos_shift_) / hp.xpos_scale_base : 0;  // q·ζ^(c/scale_base), k·ζ^(−c/scale_base)
        rotate(qt, H, p, af * logn * inv_sqrt_d, xe);  // the score's 1/√d folded into q
        rotate(kt, KV, p, af, -xe);
        for (int c = 0; c < K; ++c) {
          const std::size_t at = layer_off + std::size_t(c) * cap + past + t;  // [kv head][d] = c, column = token
          s.kt_[at] = kt[c];
          if (rerope) s.k2t_[at] = k2[std::size_t(t) * K + c];
        }
        std::copy_n(v.data() + std::size_t(t) * K, K, s.v_.data() + layer_off + std::size_t(past + t) * K);  // [token][kv head][d]
      }
      attention(il, n, q.data(), q2.data(), att.data());
      lm::matmul(att.data(), n, Q, L.wo.data(), E, x.data(), true);
      lm::rmsnorm(x.data(), n, E, L.ffn_norm.data(), hp.rms_eps, h.data());
      lm::matmul(h.data(), n, E, L.w_gate.data(), F, g.data(), false);
      lm::matmul(h.data(), n, E, L.w_up.data(), F, u.data(), false);
      lm::swiglu(g.data(), u.data(), g.size());
      lm::matmul(g.data(), n, F, L.w_down.data(), E, x.data(), true);
    }
    lm::rmsnorm(x.data(), n, E, m.out_norm.data(), hp.rms_eps, h.data());
    // the head in blocks of 16–64 rows (their logits ≤ 512 KiB where the vocabulary allows): the weights read once per block
    const int kRows = std::max(16, std::min(64, (1 << 17) / V));
    detail::parallel_for(std::size_t(n), kRows, 2 * kRows, [&](std::size_t b, std::size_t e) {
      std::vector<float> logits(std::size_t(kRows) * V);
      for (std::size_t t0 = b; t0 < e; t0 += kRows) {
        const int rows = static_cast<int>(std::min<std::size_t>(kRows, e - t0));
        lm::matmul_rows(h.data() + t0 * E, rows, E, m.output.data(), V, logits.data(), false);   // not nested in the pool
        for (int r = 0; r < rows; ++r) {
          const std::size_t t = t0 + r;
          const float* l = logits.data() + std::size_t(r) * V;
          for (int c = 0; c < V; ++c)
            if (!std::isfinite(l[c])) {
              fail("model", "the forward pass overflowed float32 at token " + std::to_string(past + int(t)) +
                                " (logit " + std::to_string(c) + " is " + detail::format_number(l[c]) + "): the weights are too large");
            }
          if (last_logits && t == std::size_t(n) - 1) std::copy_n(l, V, last_logits);
          const int target = targets ? targets[t] : -1;
          if (nll) nll[t] = std::numeric_limits<float>::quiet_NaN();
          if (hit) hit[t] = 0;
          if (target < 0) continue;
          float loss = 0;
          bool top = false;
          if (!lm::row_loss(l, V, target, &loss, &top) || !std::isfinite(loss))
            fail("model", "the loss at token " + std::to_string(past + int(t)) + " overflows float32: the weights are too large");
          if (nll) nll[t] = loss;
          if (hit) hit[t] = top;
        }
      }
    });
    s.n_past_ += n;
  }

  // Attention of the chunk's n query rows (token indices past … past + n − 1) over every cached key ≤ each query, in
  // tiles of kTile rows of one head: scores = q·Kᵀ over the keys ≤ the tile's last row (lm::gemm; ReRoPE's second
  // scores for the keys ≥ w away), each row's softmax over its own keys (the rest set to 0), then out = p·V (lm::gemm).
  void attention(int il, int n, const float* q, const float* q2, float* out) {
    constexpr int kTile = 4;
    const int H = hp.n_head, KV = hp.n_head_kv, D = hp.head_dim, Q = H * D, K = KV * D, past = s.n_past_, cap = s.cap_;
    const int group = H / KV, w = s.rope_.rerope_window, tiles = (n + kTile - 1) / kTile;
    const LmProbe& pr = s.probe_;
    const std::size_t layer_off = std::size_t(il) * KV * D * cap;
    std::vector<double> far(std::size_t(n) * H, 0.0), near(far.size(), 0.0);
    const std::size_t bias_layers = s.dist_bias_.size() / (std::size_t(H) * cap);  // 0: no bias; 1: shared; n_layer
    const float* bias = bias_layers ? s.dist_bias_.data() + std::size_t(bias_layers > 1 ? il : 0) * H * cap : nullptr;
    // items (tile, head) in an order whose contiguous halves hold as many early (short) as late (long) tiles
    detail::parallel_for(std::size_t(tiles) * H, 1, 8, [&](std::size_t b, std::size_t e) {
      std::vector<float> p(std::size_t(kTile) * cap), p2(w > 0 ? p.size() : 0);
      for (std::size_t item = b; item < e; ++item) {
        const int k = static_cast<int>(item / H), hh = static_cast<int>(item % H);
        const int tile = k % 2 == 0 ? k / 2 : tiles - 1 - k / 2;
        const int t0 = tile * kTile, R = std::min(kTile, n - t0), i0 = past + t0, len = i0 + R;
        const int kvh = hh / group;
        const float* kt = s.kt_.data() + layer_off + std::size_t(kvh) * D * cap;
        lm::gemm(q + std::size_t(t0) * Q + std::size_t(hh) * D, Q, R, D, kt, cap, len, p.data(), cap, false);
        const int split_last = w > 0 ? std::max(0, len - w) : 0;  // keys j < i − w + 1 are ≥ w away: ReRoPE's second score
        if (split_last > 0) {
          lm::gemm(q2 + std::size_t(t0) * Q + std::size_t(hh) * D, Q, R, D, s.k2t_.data() + layer_off + std::size_t(kvh) * D * cap, cap,
                   split_last, p2.data(), cap, false);
          for (int r = 0; r < R; ++r) std::copy_n(p2.data() + std::size_t(r) * cap, std::max(0, i0 + r - w + 1), p.data() + std::size_t(r) * cap);
        }
        for (int r = 0; r < R; ++r) {
          const int i = i0 + r, t = t0 + r;
          float* pr_row = p.data() + std::size_t(r) * cap;
          if (bias) {
            const float* b = bias + std::size_t(hh) * cap;  // b[i − j]
            for (int j = 0; j <= i; ++j) pr_row[j] += b[i - j];
          }
          lm::softmax(pr_row, i + 1);
          std::fill(pr_row + i + 1, pr_row + len, 0.f);
          if (il == pr.layer && hh == pr.head && i >= pr.row_begin && i < pr.row_end)
            std::copy_n(pr_row, std::min(i + 1, pr.row_end), s.rows_.data() + std::size_t(i - pr.row_begin) * pr.row_end);
          if (i >= pr.gauge_begin && i < pr.gauge_end) {
            double f = 0, nr = 0;
            for (int j = 0; j <= i - pr.far; ++j) f += pr_row[j];
            for (int j = std::max(0, i - pr.near + 1); j <= i; ++j) nr += pr_row[j];
            far[std::size_t(t) * H + hh] = f;
            near[std::size_t(t) * H + hh] = nr;
          }
        }
        lm::gemm(p.data(), cap, R, len, s.v_.data() + layer_off + std::size_t(kvh) * D, K, D, out + std::size_t(t0) * Q + std::size_t(hh) * D, Q, false);
      }
    });
    for (int t = 0; t < n; ++t)
      for (int hh = 0; hh < H; ++hh) {
        s.far_[std::size_t(il) * H + hh] += far[std::size_t(t) * H + hh];
        s.near_[std::size_t(il) * H + hh] += near[std::size_t(t) * H + hh];
      }
  }
};

void LmSession::feed(const int* ids, int n, const int* targets, float* nll, std::uint8_t* hit, float* last_logits) {
  detail::require_int_range("n", n, 1, kLmMaxChunk);
  if (n > cap_ - n_past_) {
    fail("ids", "the session holds " + std::to_string(n_past_) + " of its " + std::to_string(cap_) + " positions; " +
                    std::to_string(n) + " more do not fit (capacity)");
  }
  const int V = m_->hp.n_vocab;
  for (int t = 0; t < n; ++t) {
    if (ids[t] < 0 || ids[t] >= V) fail("ids", "token id " + std::to_string(ids[t]) + " at " + std::to_string(t) + " is outside the vocabulary [0, " + std::to_string(V) + ")");
    if (targets && (targets[t] < -1 || targets[t] >= V))
      fail("targets", "token id " + std::to_string(targets[t]) + " at " + std::to_string(t) + " is outside [−1, " + std::to_string(V) + ")");
  }
  for (int t = 0; t < n; ++t)
    if (n_past_ + t >= probe_.gauge_begin && n_past_ + t < probe_.gauge_end) ++gauge_count_;
  LlamaBuilder{*this, *m_, m_->hp}.run(ids, n, targets, nll, hit, last_logits);
}
}  // namespace posenc
