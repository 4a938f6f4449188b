// The benchmark's workloads, shared by the wasm bench bindings (cpp/bindings/bench.cpp) and the native bench
// (tests/bench/native_bench.cpp): each runs one posenc core call on prepared, warm buffers.
// Inputs are the deterministic sequence input(i) = ((h ^ h >> 16) >> 8)·2^-23 − 1 with h = i·0x9E3779B1 mod 2^32,
// exact in float32 and reproduced by tests/bench/plain.mjs.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "posenc/posenc.hpp"

namespace posenc::bench {

inline float input(std::uint32_t i) {
  std::uint32_t h = i * 0x9E3779B1u;
  h ^= h >> 16;
  return float(double(h >> 8) * 0x1p-23 - 1.0);
}

inline std::vector<float> inputs(std::size_t n, std::uint32_t offset) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = input(std::uint32_t(offset + i));
  return v;
}

/// A prepared workload: run() does the timed work; sample() returns output values at the given indices.
struct Workload {
  std::function<void()> run;
  std::function<float(std::size_t)> at;
  std::size_t size = 0;  ///< output elements
  double bytes = 0;      ///< bytes read + written by one run (for bandwidth fractions)
};

/// name: rope_tables | rope_apply | scores | decay_ones | decay_random | sinusoidal | alibi | t5
inline Workload make(const std::string& name) {
  Workload w;
  if (name == "rope_tables") {  // positions 0 … 4095, rotary_dim 64: cos and sin [4096, 32]
    const int seq = 4096, rot = 64;
    std::vector<double> pos(seq);
    for (int i = 0; i < seq; ++i) pos[std::size_t(i)] = i;
    auto c = std::make_shared<std::vector<float>>(std::size_t(seq) * rot / 2), s = std::make_shared<std::vector<float>>(c->size());
    w.run = [=] { rope_tables(rope_inv_freq(rot, 10000.0), pos.data(), pos.size(), c->data(), s->data()); };
    w.at = [=](std::size_t i) { return i < c->size() ? (*c)[i] : (*s)[i - c->size()]; };
    w.size = 2 * c->size();
    w.bytes = 4.0 * double(w.size);
  } else if (name == "rope_apply") {
    const int seq = 4096, heads = 32, hd = 128;
    const std::size_t n = std::size_t(seq) * heads * hd;
    auto q = std::make_shared<std::vector<float>>(inputs(n, 0)), k = std::make_shared<std::vector<float>>(inputs(n, 1u << 28));
    auto qo = std::make_shared<std::vector<float>>(n), ko = std::make_shared<std::vector<float>>(n);
    const auto inv = rope_inv_freq(hd, 10000.0);
    std::vector<double> pos(seq);
    for (int i = 0; i < seq; ++i) pos[std::size_t(i)] = i;
    auto c = std::make_shared<std::vector<float>>(std::size_t(seq) * hd / 2), s = std::make_shared<std::vector<float>>(c->size());
    rope_tables(inv, pos.data(), pos.size(), c->data(), s->data());
    w.run = [=] {
      rope_apply(q->data(), qo->data(), {seq, heads, hd, hd}, RopeLayout::half_split, c->data(), s->data());
      rope_apply(k->data(), ko->data(), {seq, heads, hd, hd}, RopeLayout::half_split, c->data(), s->data());
    };
    w.at = [=](std::size_t i) { return i < n ? (*qo)[i] : (*ko)[i - n]; };
    w.size = 2 * n;
    w.bytes = 4.0 * n * 4;  // read q, k; write both outputs
  } else if (name == "scores") {
    const int seq = 2048, d = 128;
    auto q = std::make_shared<std::vector<float>>(inputs(std::size_t(seq) * d, 0));
    auto k = std::make_shared<std::vector<float>>(inputs(std::size_t(seq) * d, 1u << 28));
    auto out = std::make_shared<std::vector<float>>(std::size_t(seq) * seq);
    AttentionOptions o;
    o.rope = true;
    o.causal = true;
    w.run = [=] { attention_scores(q->data(), k->data(), seq, d, o, out->data()); };
    w.at = [=](std::size_t i) { return (*out)[i]; };
    w.size = std::size_t(seq) * seq;
    w.bytes = 4.0 * seq * seq;
  } else if (name == "decay_ones" || name == "decay_random") {
    const int d = 512;
    const long long count = 65536;
    auto q = std::make_shared<std::vector<float>>(name == "decay_ones" ? std::vector<float>(d, 1.f) : inputs(d, 0));
    auto k = std::make_shared<std::vector<float>>(name == "decay_ones" ? std::vector<float>(d, 1.f) : inputs(d, 1u << 28));
    auto out = std::make_shared<std::vector<float>>();
    const auto inv = rope_inv_freq(d, 10000.0);
    w.run = [=] { *out = rope_inner_product_sweep(q->data(), k->data(), d, d, RopeLayout::interleaved, inv, 0, 0, count); };
    w.at = [=](std::size_t i) { return (*out)[i]; };
    w.size = std::size_t(count);
    w.bytes = 4.0 * count;
  } else if (name == "sinusoidal") {
    const std::size_t n = 8192;
    const int d = 1024;
    auto out = std::make_shared<std::vector<float>>(n * d);
    w.run = [=] { sinusoidal_table(nullptr, n, d, 10000.0, SinusoidalLayout::interleaved, out->data()); };
    w.at = [=](std::size_t i) { return (*out)[i]; };
    w.size = n * d;
    w.bytes = 4.0 * n * d;
  } else if (name == "alibi") {
    const int heads = 32, n = 2048;
    auto out = std::make_shared<std::vector<float>>(std::size_t(heads) * n * n);
    const auto slopes = alibi_slopes(heads);
    w.run = [=] { alibi_bias(slopes, n, n, AlibiMode::symmetric, out->data()); };  // 2^27 floats: one call
    w.at = [=](std::size_t i) { return (*out)[i]; };
    w.size = out->size();
    w.bytes = 4.0 * double(out->size());
  } else if (name == "t5") {
    const int n = 2048;
    auto out = std::make_shared<std::vector<int>>(std::size_t(n) * n);
    w.run = [=] { t5_bucket_matrix(n, n, true, 32, 128, 0, out->data()); };
    w.at = [=](std::size_t i) { return float((*out)[i]); };
    w.size = std::size_t(n) * n;
    w.bytes = 4.0 * n * n;
  } else {
    detail::fail("workload", "unknown workload '" + name + "'");
  }
  return w;
}

/// Milliseconds of each of `reps` runs (after one warm-up run that also touches every output page).
// Warm-up as in run.mjs (at least 5 runs and 200 ms, at most 30): under V8 the first runs may execute the baseline
// tier, replaced by optimised code only for later calls.
inline std::vector<double> time_runs(Workload& w, int reps) {
  const auto w0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 30 && (i < 5 || std::chrono::steady_clock::now() - w0 < std::chrono::milliseconds(200)); ++i) w.run();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    w.run();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return t;
}

}  // namespace posenc::bench

#if defined(POSENC_BENCH_XSIMD)
#include <xsimd/xsimd.hpp>
#endif

namespace posenc::bench {
/// Milliseconds of copying `bytes` between two warm buffers, the machine's memory limit (the workloads count
/// read + write bytes the same way). With SIMD, a vector load/store loop (wasm's memcpy without bulk memory
/// moves 8 bytes at a time and would understate the limit); else memcpy.
inline std::vector<double> copy_runs(std::size_t bytes, int reps) {
  std::vector<float> a(bytes / 4, 1.f), b(bytes / 4, 2.f);
  std::vector<double> t;
  for (int r = 0; r <= reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
#if defined(POSENC_BENCH_XSIMD)
    using B = xsimd::batch<float>;
    for (std::size_t i = 0; i + B::size <= a.size(); i += B::size) B::load_unaligned(&a[i]).store_unaligned(&b[i]);
#else
    std::memcpy(b.data(), a.data(), a.size() * 4);
#endif
    a[std::size_t(r) % a.size()] = b[std::size_t(r * 7) % b.size()];
    if (r) t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return t;
}
}  // namespace posenc::bench

#if defined(POSENC_BENCH_XSIMD)
namespace posenc::bench {
/// Peak multiply-add throughput of the SIMD build: 12 independent chains acc = acc·a + b over `iters` steps.
/// Returns {milliseconds, flops}.
inline std::pair<double, double> multiply_add_peak(long long iters) {
  using B = xsimd::batch<float>;
  constexpr int C = 12;  // independent chains: enough to cover the multiply and add latencies
  B acc[C];
  for (int u = 0; u < C; ++u) acc[u] = B(float(u));
  const B a(0.9999999f), b(1e-7f);
  const auto t0 = std::chrono::steady_clock::now();
  for (long long it = 0; it < iters; ++it)
    for (int u = 0; u < C; ++u) acc[u] = acc[u] * a + b;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  volatile float sink = 0;
  for (int u = 0; u < C; ++u) sink = sink + xsimd::reduce_add(acc[u]);
  return {ms, double(iters) * C * B::size * 2};
}
}  // namespace posenc::bench
#else
namespace posenc::bench {
/// Without SIMD: the same 8 chains on scalars.
inline std::pair<double, double> multiply_add_peak(long long iters) {
  float acc[8];
  for (int u = 0; u < 8; ++u) acc[u] = float(u);
  const auto t0 = std::chrono::steady_clock::now();
  for (long long it = 0; it < iters; ++it)
    for (int u = 0; u < 8; ++u) acc[u] = acc[u] * 0.9999999f + 1e-7f;
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  volatile float sink = 0;
  for (int u = 0; u < 8; ++u) sink = sink + acc[u];
  return {ms, double(iters) * 8 * 2};
}
}  // namespace posenc::bench
#endif
