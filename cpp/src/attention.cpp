#include "posenc/attention.hpp"

#include <cmath>
#include <limits>

#include "posenc/error.hpp"
#include "generator.hpp"
#include "parallel.hpp"
#include "simd.hpp"

namespace posenc {
namespace {

using gen::fnv1a;
using gen::stream;

bool is_space(std::uint32_t cp) {
  return cp == ' ' || (cp >= 0x09 && cp <= 0x0D) || cp == 0x3000 || cp == 0xA0;
}

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
}  // namespace

std::vector<std::string> tokenize(const std::string& text) {
  // Decode UTF-8 into (code point, byte range) and validate.
  struct CP {
    std::uint32_t cp;
    std::size_t begin, end;
  };
  std::vector<CP> cps;
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned c = b[i];
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len > n) detail::fail("text", "must be valid UTF-8 (bad byte at offset " + std::to_string(i) + ")");
    std::uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (std::size_t k = 1; k < len; ++k) {
      if ((b[i + k] & 0xC0) != 0x80) detail::fail("text", "must be valid UTF-8 (bad byte at offset " + std::to_string(i + k) + ")");
      cp = (cp << 6) | (b[i + k] & 0x3F);
    }
    cps.push_back({cp, i, i + len});
    i += len;
  }
  bool has_space = false;
  for (const auto& c : cps) has_space = has_space || is_space(c.cp);
  std::vector<std::string> tokens;
  if (!has_space) {
    for (const auto& c : cps) tokens.push_back(text.substr(c.begin, c.end - c.begin));
    return tokens;
  }
  std::size_t start = std::string::npos;
  for (const auto& c : cps) {
    if (is_space(c.cp)) {
      if (start != std::string::npos) tokens.push_back(text.substr(start, c.begin - start));
      start = std::string::npos;
    } else if (start == std::string::npos) {
      start = c.begin;
    }
  }
  if (start != std::string::npos) tokens.push_back(text.substr(start));
  return tokens;
}

TextQK text_qk(const std::string& text, int head_dim, std::uint64_t seed) {
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  TextQK r;
  r.tokens = tokenize(text);
  if (r.tokens.empty()) detail::fail("text", "must contain at least one token");
  const std::size_t n = r.tokens.size(), d = static_cast<std::size_t>(head_dim);
  detail::require_int_range("text (token count)", static_cast<long long>(n), 1, 8192);
  detail::require_output_cap("tokens*head_dim", static_cast<long long>(n * d));
  detail::require_output_cap("head_dim*head_dim", static_cast<long long>(d * d));
  r.head_dim = head_dim;
  const auto wq = stream(seed ^ 0x5157ULL, d * d), wk = stream(seed ^ 0x4B57ULL, d * d);
  const double inv_sqrt = 1.0 / std::sqrt(double(d));
  r.q.resize(n * d);
  r.k.resize(n * d);
  std::vector<double> aq(d), ak(d);
  for (std::size_t t = 0; t < n; ++t) {
    const auto x = stream(fnv1a(r.tokens[t]) ^ seed, d);
    std::fill(aq.begin(), aq.end(), 0.0);
    std::fill(ak.begin(), ak.end(), 0.0);
    for (std::size_t row = 0; row < d; ++row) {
      const double xr = x[row];
      for (std::size_t c = 0; c < d; ++c) {
        aq[c] += xr * wq[row * d + c];
        ak[c] += xr * wk[row * d + c];
      }
    }
    for (std::size_t c = 0; c < d; ++c) {
      r.q[t * d + c] = static_cast<float>(aq[c] * inv_sqrt);
      r.k[t * d + c] = static_cast<float>(ak[c] * inv_sqrt);
    }
  }
  return r;
}

void attention_scores(const float* q, const float* k, int seq, int head_dim, const AttentionOptions& o, float* out) {
  detail::require_int_range("seq", seq, 1, 8192);
  detail::require_int_range("head_dim", head_dim, 1, kMaxHeadDim);
  detail::require_output_cap("seq*seq", 1LL * seq * seq);
  const std::size_t n = static_cast<std::size_t>(seq) * head_dim;
  std::vector<float> rq, rk;
  if (o.rope) {
    const RopeShape shape{seq, 1, head_dim, o.rotary_dim};
    const auto inv = rope_inv_freq(o.rotary_dim == 0 ? head_dim : o.rotary_dim, o.rope_theta);
    std::vector<double> pos;
    const std::size_t ns = static_cast<std::size_t>(seq);
    std::vector<float> c(ns * inv.size()), s(c.size());  // one pair of tables for q and k
    rope_tables(inv, detail::positions_or_range(nullptr, ns, pos), ns, c.data(), s.data());
    rq.resize(n);
    rk.resize(n);
    rope_apply(q, rq.data(), shape, o.layout, c.data(), s.data());
    rope_apply(k, rk.data(), shape, o.layout, c.data(), s.data());
    q = rq.data();
    k = rk.data();
  }
  kernels::scores_simd(q, k, seq, head_dim, o.causal, static_cast<float>(1.0 / std::sqrt(double(head_dim))), o.softmax, out);
}

std::vector<float> attention_scores(const float* q, const float* k, int seq, int head_dim,
                                    const AttentionOptions& o) {
  detail::require_int_range("seq", seq, 1, 8192);
  std::vector<float> s(static_cast<std::size_t>(seq) * seq);
  attention_scores(q, k, seq, head_dim, o, s.data());
  return s;
}

namespace kernels {

void scores_scalar(const float* q, const float* k, int seq, int d, bool causal, float scale, bool softmax, float* out) {
  for (int i = 0; i < seq; ++i) {
    for (int j = 0; j < seq; ++j) {
      if (causal && j > i) {
        out[i * seq + j] = kNegInf;
        continue;
      }
      float acc = 0.f;
      for (int c = 0; c < d; ++c) acc += q[i * d + c] * k[j * d + c];
      out[i * seq + j] = acc * scale;
    }
  }
  if (softmax) softmax_rows_scalar(out, seq, seq, causal);
}

#if POSENC_SIMD
namespace {
// GEMM-style register tile: MR query rows × NR = 2·W keys in 2·MR vector accumulators; per channel c two loads
// from the packed key panel and MR broadcasts of q[i][c]. Every lane accumulates its cell over c = 0 … d−1 in
// order, as the scalar twin does, so both give identical floats.
constexpr int kMR = 4;

// r[0, n) = v, vector stores.
void fill(float* r, int n, float v) {
  using simd::fbatch;
  constexpr int W = static_cast<int>(fbatch::size);
  int j = 0;
  for (const fbatch b(v); j + W <= n; j += W) b.store_unaligned(r + j);
  for (; j < n; ++j) r[j] = v;
}

// e^x for x ≤ 0 (softmax's max-subtracted scores), float32: Cephes' expf — x = n·ln2 + r (ln2 in two parts),
// e^r by its degree-7 polynomial on |r| ≤ ln2/2 (≤ 1 ulp), 2^n by the exponent bits. x below −87.3 (e^x < 2^-126,
// where the scalar twin's std::exp goes subnormal) gives 2^-126·e^r instead: an absolute difference < 1.2e-38.
// n = round(x·log2 e) by the 1.5·2^23 shifter: t = x·log2 e + 1.5·2^23 holds n in its low mantissa bits, so both n
// and 2^n come from t with plain float and integer adds (no float→int conversion, which wasm SIMD lowers to a
// saturating sequence). Fewer vector instructions than xsimd::exp, which also handles overflow, NaN
// and subnormal results. NaN stays NaN.
XSIMD_INLINE simd::fbatch exp_nonpositive(simd::fbatch x) {
  using simd::fbatch;
  using ibatch = xsimd::batch<int32_t, simd::arch>;
  const fbatch shifter(12582912.f);  // 1.5·2^23
  const fbatch lo(-87.3365447f);
  // max that keeps a NaN x (one instruction each): wasm's pmax(a, b) is a < b ? b : a, x86's max returns its second
  // operand when either is NaN
#if defined(__wasm_simd128__)
  x = xsimd::max(x, lo);
#else
  x = xsimd::max(lo, x);
#endif
  const fbatch t = x * fbatch(1.44269504088896341f) + shifter;
  const fbatch n = t - shifter;
  const fbatch r = (x - n * fbatch(0.693359375f)) - n * fbatch(-2.12194440e-4f);
  const fbatch z = r * r;
  const fbatch p = ((((((fbatch(1.9875691500e-4f) * r + fbatch(1.3981999507e-3f)) * r + fbatch(8.3334519073e-3f)) * r +
                       fbatch(4.1665795894e-2f)) * r + fbatch(1.6666665459e-1f)) * r + fbatch(5.0000001201e-1f)) * z + r) +
                   fbatch(1.f);
  // bits(t) = bits(1.5·2^23) + n; 2^n = (n + 127) << 23
  const ibatch e = (xsimd::bitwise_cast<int32_t>(t) - ibatch(0x4B400000 - 127)) << 23;
  return p * xsimd::bitwise_cast<float>(e);
}

// Softmax of r[0, n) in place (max-subtracted, float32) and zeros in r[n, cols).
void softmax_row(float* r, int n, int cols) {
  using simd::fbatch;
  constexpr int W = static_cast<int>(fbatch::size);
  int j = 0;
  fbatch vm(kNegInf);
  for (; j + W <= n; j += W) vm = xsimd::max(vm, fbatch::load_unaligned(r + j));
  float m = xsimd::reduce_max(vm);
  for (; j < n; ++j) m = std::max(m, r[j]);
  const fbatch bm(m);
  fbatch vs(0.f);
  float sum = 0.f;
  for (j = 0; j + W <= n; j += W) {
    const fbatch e = exp_nonpositive(fbatch::load_unaligned(r + j) - bm);
    e.store_unaligned(r + j);
    vs += e;
  }
  for (; j < n; ++j) sum += (r[j] = std::exp(r[j] - m));
  sum += xsimd::reduce_add(vs);
  const fbatch inv(1.f / sum);
  for (j = 0; j + W <= n; j += W) (fbatch::load_unaligned(r + j) * inv).store_unaligned(r + j);
  for (; j < n; ++j) r[j] *= 1.f / sum;
  fill(r + n, cols - n, 0.f);
}

// qp: the MR query rows packed channel-major ([c][MR]), so the MR broadcasts of channel c and the two key loads
// come from two pointers advanced once per channel (no per-row address arithmetic in the loop).
template <int MR>
void score_tile(const float* qp, int d, const float* panel, float scale, float* out, std::size_t ldo, int ncols) {
  using simd::fbatch;
  constexpr int W = static_cast<int>(fbatch::size);
  fbatch acc[MR][2];
  for (auto& row : acc) row[0] = row[1] = fbatch(0.f);
  const float* kp = panel;
  for (const float* end = qp + std::size_t(d) * MR; qp != end; qp += MR, kp += 2 * W) {
    const fbatch k0 = fbatch::load_aligned(kp), k1 = fbatch::load_aligned(kp + W);
    for (int a = 0; a < MR; ++a) {
      const fbatch qa(qp[a]);
      acc[a][0] += qa * k0;
      acc[a][1] += qa * k1;
    }
  }
  const fbatch sc(scale);
  for (int a = 0; a < MR; ++a) {
    float* o = out + std::size_t(a) * ldo;
    if (ncols == 2 * W) {
      (acc[a][0] * sc).store_unaligned(o);
      (acc[a][1] * sc).store_unaligned(o + W);
    } else {
      alignas(64) float t[2 * W];
      (acc[a][0] * sc).store_aligned(t);
      (acc[a][1] * sc).store_aligned(t + W);
      for (int j = 0; j < ncols; ++j) o[j] = t[j];
    }
  }
}
}  // namespace
#endif

void scores_simd(const float* q, const float* k, int seq, int d, bool causal, float scale, bool softmax, float* out) {
#if POSENC_SIMD
  // Keys in panels of NR = 2·W, each packed channel-major ([c][NR], zero-padded past seq) so the tile loads them
  // as vectors. Query rows outer (each output row is written once, left to right); causal: only the panels
  // holding some key j ≤ i (the cells past the diagonal are masked below).
  using simd::fbatch;
  constexpr int NR = 2 * static_cast<int>(fbatch::size);
  const int npanels = (seq + NR - 1) / NR;
  const std::size_t psize = std::size_t(d) * NR;
  std::vector<float, xsimd::aligned_allocator<float, 64>> panels(std::size_t(npanels) * psize);
  for (int p = 0; p < npanels; ++p)
    for (int c = 0; c < d; ++c)
      for (int b = 0; b < NR; ++b) {
        const int j = p * NR + b;
        panels[std::size_t(p) * psize + std::size_t(c) * NR + b] = j < seq ? k[std::size_t(j) * d + c] : 0.f;
      }
  // Each block of rows is finished while it is in cache: masked (−∞ past the diagonal) or, with softmax,
  // normalised (zeros past the diagonal) — no second pass over the seq² matrix.
  // Blocks of kTiles·kMR query rows: each key panel is loaded into L1 once for all the block's tiles (a quarter of
  // the panel traffic of one tile at a time), and the block's rows (kTiles·kMR·seq floats) stay in L2 for the
  // softmax. Query rows are packed channel-major per tile (see score_tile).
  constexpr int kTiles = 4, kRows = kMR * kTiles;
  auto block = [&](std::vector<float>& qp, auto tile, int i, int mr, int ntiles) {
    const int last = i + mr * ntiles;  // rows i … last−1
    for (int t = 0; t < ntiles; ++t)
      for (int c = 0; c < d; ++c)
        for (int a = 0; a < mr; ++a) qp[(std::size_t(t) * d + c) * mr + a] = q[std::size_t(i + t * mr + a) * d + c];
    const int jend = causal ? std::min(seq, last) : seq;
    for (int p = 0; p * NR < jend; ++p)
      for (int t = 0; t < ntiles; ++t) {
        const int r0 = i + t * mr;
        if (causal && p * NR >= r0 + mr) continue;  // every key of the panel is past the tile's diagonal
        tile(qp.data() + std::size_t(t) * d * mr, d, panels.data() + std::size_t(p) * psize, scale,
             out + std::size_t(r0) * seq + p * NR, seq, std::min(NR, seq - p * NR));
      }
    for (int r = i; r < last; ++r) {
      float* row = out + std::size_t(r) * seq;
      if (softmax) softmax_row(row, causal ? r + 1 : seq, seq);
      else if (causal) fill(row + r + 1, seq - r - 1, kNegInf);
    }
  };
  // Full blocks of kRows rows, in parts (threads build, parallel.hpp). Causal rows cost in proportion to their
  // index, so a part takes block j together with block nb−1−j: equal work per pair.
  const int nb = seq / kRows;
  const std::size_t units = causal ? std::size_t(nb + 1) / 2 : std::size_t(nb);
  detail::parallel_for(units, 1, 16, [&](std::size_t b, std::size_t e) {
    std::vector<float> qp(std::size_t(d) * kRows);
    for (std::size_t u = b; u < e; ++u) {
      block(qp, score_tile<kMR>, int(u) * kRows, kMR, kTiles);
      const int mirror = nb - 1 - int(u);
      if (causal && mirror != int(u)) block(qp, score_tile<kMR>, mirror * kRows, kMR, kTiles);
    }
  });
  std::vector<float> qp(std::size_t(d) * kRows);
  int i = nb * kRows;
  for (; i + kMR <= seq; i += kMR) block(qp, score_tile<kMR>, i, kMR, 1);
  for (; i < seq; ++i) block(qp, score_tile<1>, i, 1, 1);
#else
  scores_scalar(q, k, seq, d, causal, scale, softmax, out);
#endif
}

void softmax_rows_scalar(float* s, int rows, int cols, bool causal) {
  for (int i = 0; i < rows; ++i) {
    float* r = s + static_cast<std::size_t>(i) * cols;
    const int n = causal ? std::min(i + 1, cols) : cols;
    float m = kNegInf;
    for (int j = 0; j < n; ++j) m = std::max(m, r[j]);
    float sum = 0.f;
    for (int j = 0; j < n; ++j) sum += (r[j] = std::exp(r[j] - m));
    const float inv = 1.f / sum;
    for (int j = 0; j < n; ++j) r[j] *= inv;
    for (int j = n; j < cols; ++j) r[j] = 0.f;
  }
}

void softmax_rows_simd(float* s, int rows, int cols, bool causal) {
#if POSENC_SIMD
  for (int i = 0; i < rows; ++i) softmax_row(s + static_cast<std::size_t>(i) * cols, causal ? std::min(i + 1, cols) : cols, cols);
#else
  softmax_rows_scalar(s, rows, cols, causal);
#endif
}
}  // namespace kernels
}  // namespace posenc
