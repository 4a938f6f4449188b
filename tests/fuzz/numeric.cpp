// libFuzzer target: the numeric entry points of the xPos, absolute, learned, decay and engine families with
// fuzzer-chosen sizes, options and values (user-sized buffers). Invariant ("finite in, finite out"): a call either
// throws posenc::Error or, when every input is finite and inside the documented range, returns only finite values.
// The first byte picks the function; the rest feeds its arguments (sizes kept small so a run explores options).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "posenc/posenc.hpp"

namespace {
using namespace posenc;

class Input {
 public:
  Input(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  std::uint8_t byte() { return i_ < n_ ? d_[i_++] : 0; }
  int integer(int lo, int hi) {  // uniform-ish in [lo, hi]
    const unsigned r = unsigned(byte()) | unsigned(byte()) << 8;
    return lo + int(r % unsigned(hi - lo + 1));
  }
  bool flag() { return byte() & 1; }
  // Edge values first (what breaks numerics), else raw bits: any double, NaN and ±∞ included.
  double real() {
    static const double edge[] = {0.0, 1.0, -1.0, 0.5, 2.0, 3.0, 1e-300, 5e-324, 1e300, 1.7976931348623157e308,
                                  2147483647.0, -2147483647.0, 65536.0, 1e5, 18130.0, 36260.0, 1e4, 512.0, 0.4, 1e-8};
    const std::uint8_t k = byte();
    if (k < 160) return edge[k % (sizeof edge / sizeof *edge)] * (k & 32 ? -1 : 1);
    std::uint64_t u = 0;
    for (int b = 0; b < 8; ++b) u = u << 8 | byte();
    double v;
    std::memcpy(&v, &u, 8);
    return v;
  }
  // An integer position, including ones beyond the ±2^31 range (refused).
  long long position() {
    const double v = real();
    return std::isfinite(v) ? (long long)std::fmax(-4e12, std::fmin(4e12, v)) : 0;
  }
  // A value the documented ranges admit for activations and table entries (|v| ≤ 2^20).
  float activation() { return float(std::fmod(real(), 1048576.0)); }

 private:
  const std::uint8_t* d_;
  std::size_t n_, i_ = 0;
};

bool finite(const std::vector<double>& v) {
  for (double x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

template <class V>
void expect_finite(const char* what, const V& out, bool inputs_finite) {
  if (!inputs_finite) return;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!std::isfinite(out[i])) {
      std::fprintf(stderr, "%s: non-finite output %g at %zu from finite input\n", what, double(out[i]), i);
      std::abort();
    }
}

std::vector<float> activations(Input& in, std::size_t n) {
  std::vector<float> v(n);
  for (auto& x : v) x = in.activation();
  for (auto& x : v)
    if (!std::isfinite(x)) x = 0;
  return v;
}

void run(Input& in) {
  switch (in.byte() % 9) {
    case 0: {  // xpos_tables
      const int rot = in.integer(0, 66), n = in.integer(0, 8);
      XposOptions o{in.real(), in.real(), in.real()};
      std::vector<double> pos(static_cast<std::size_t>(n)), cen(pos.size());
      for (auto& p : pos) p = in.real();
      for (auto& c : cen) c = in.real();
      const bool own = in.flag(), down = in.flag();
      std::vector<float> c(pos.size() * std::size_t(std::max(rot, 0) / 2)), s(c.size());
      xpos_tables(rot, o, pos.data(), own ? nullptr : cen.data(), pos.size(), down, c.data(), s.data());
      const bool ok = finite(pos) && (own || finite(cen)) && finite({o.scale_base, o.gamma, o.rope_theta});
      expect_finite("xpos_tables cos", c, ok);
      expect_finite("xpos_tables sin", s, ok);
      break;
    }
    case 1: {  // xpos_apply
      const int seq = in.integer(0, 6), heads = in.integer(1, 2), hd = in.integer(1, 34), rot = in.integer(0, 34);
      const int offset = in.flag() ? in.integer(0, 40000) : in.integer(-2, 70000) * 16;
      XposOptions o{in.real(), in.real(), in.real()};
      const bool down = in.flag();
      auto x = activations(in, std::size_t(seq) * heads * hd);
      std::vector<float> y(x.size());
      xpos_apply(x.data(), y.data(), RopeShape{seq, heads, hd, rot}, offset, down, o, in.flag() ? RopeLayout::interleaved : RopeLayout::half_split);
      expect_finite("xpos_apply", y, finite({o.scale_base, o.gamma, o.rope_theta}));
      break;
    }
    case 2: {  // sinusoid_t2t
      const int d = in.integer(0, 66), n = in.integer(0, 8);
      const double lo = in.real(), hi = in.real();
      std::vector<double> pos(static_cast<std::size_t>(n));
      for (auto& p : pos) p = in.real();
      std::vector<float> out(pos.size() * std::size_t(std::max(d, 0)));
      sinusoid_t2t(pos.data(), pos.size(), d, lo, hi, out.data());
      expect_finite("sinusoid_t2t", out, finite(pos) && finite({lo, hi}));
      break;
    }
    case 3: {  // sinusoid_recursive
      const int n = in.integer(0, 64), d = in.integer(0, 66);
      const double base = in.real();
      expect_finite("sinusoid_recursive", sinusoid_recursive(std::size_t(n), d, base,
                    in.flag() ? SinusoidalLayout::interleaved : SinusoidalLayout::concatenated), std::isfinite(base));
      break;
    }
    case 4: {  // table_lookup, table_similarity
      const int rows = in.integer(0, 8), cols = in.integer(0, 8);
      const auto t = activations(in, std::size_t(std::max(rows, 0) * std::max(cols, 0)));
      std::vector<double> pos(std::size_t(in.integer(0, 8)));
      for (auto& p : pos) p = in.flag() ? in.integer(-3, 10) : in.real();
      expect_finite("table_lookup", table_lookup(t.data(), rows, cols, pos.data(), pos.size(), in.flag()), true);
      // dot: finite while |Σ a·b| ≤ FLT_MAX, true for |entries| ≤ 2^20 and cols ≤ 8; cosine: always.
      expect_finite("table_similarity", table_similarity(t.data(), rows, cols, in.flag() ? Similarity::dot : Similarity::cosine), true);
      break;
    }
    case 5: {  // rope_inner_product_sweep
      const int hd = in.integer(1, 34), rot = in.integer(0, 34);
      const auto q = activations(in, std::size_t(hd)), k = activations(in, std::size_t(hd));
      std::vector<double> inv(std::size_t(in.integer(0, 18)));
      for (auto& f : inv) f = in.real();
      const long long qp = in.flag() ? in.integer(-100, 100) : in.position();
      const long long ks = in.flag() ? in.integer(-100, 100) : in.position();
      const long long count = in.integer(0, 300);
      expect_finite("rope_inner_product_sweep", rope_inner_product_sweep(q.data(), k.data(), hd, rot,
                    in.flag() ? RopeLayout::interleaved : RopeLayout::half_split, inv, qp, ks, count), finite(inv));
      break;
    }
    case 6: {  // rope_decay_bound
      std::vector<double> inv(std::size_t(in.integer(0, 18)));
      for (auto& f : inv) f = in.real();
      expect_finite("rope_decay_bound", rope_decay_bound(inv, in.integer(0, 300)), finite(inv));
      break;
    }
    case 7:    // permutation_change and attention with fuzzed scheme options
    case 8: {
      SchemeParams s;
      s.type = AttentionScheme(in.integer(0, 11));
      s.base = in.real();
      s.max_relative_position = in.integer(-2, 40);
      s.num_buckets = in.integer(-2, 40);
      s.max_distance = in.integer(-2, 200);
      s.position_buckets = in.integer(-2, 300);
      s.max_relative_positions = in.integer(-2, 600);
      s.rope.rope_theta = in.real();
      s.scale_base = in.real();
      s.gamma = in.real();
      const bool ok = finite({s.base, s.rope.rope_theta, s.scale_base, s.gamma});
      const int heads = in.integer(1, 2), hd = 2 * in.integer(1, 8);
      const bool causal = in.flag();
      std::string text;
      for (int t = in.integer(1, 6); t > 0; --t) text += std::string(1, char('a' + in.integer(0, 3))) + " ";
      const int n = int(text.size() / 2);
      if (in.byte() % 2 == 0) {
        const double change = permutation_change(text, in.integer(0, n - 1), in.integer(0, n - 1), heads, hd, s, causal, in.byte());
        expect_finite("permutation_change", std::vector<double>{change}, ok);
        if (s.type == AttentionScheme::none && change != 0) std::abort();
      } else {
        const auto qkv = text_qkv(text, heads, hd, in.byte());
        const auto r = attention(qkv.q.data(), qkv.k.data(), qkv.v.data(), n, heads, hd, s, causal, in.byte());
        expect_finite("attention probs", r.probs, ok);
        expect_finite("attention output", r.output, ok);
      }
      break;
    }
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  try {
    run(in);
  } catch (const posenc::Error&) {
  }
  return 0;
}
