// Benchmark entry points (used by tests/bench/run.mjs, not part of the typed API): each times a workload of
// tests/bench/workloads.hpp inside wasm on warm buffers, so the figures measure the kernels, not the JS↔wasm
// copies (which the runner measures separately through the public API).
#include <string>

#include "../../tests/bench/workloads.hpp"
#include "common.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val times_js(const std::vector<double>& t) {
  return val::global("Float64Array").new_(emscripten::typed_memory_view(t.size(), t.data()));
}

val bench_run_js(std::string name, int reps, val sample_indices) {
  return guarded([&] {
    auto w = bench::make(name);
    const auto t = bench::time_runs(w, reps);
    const auto idx = from_js<double>(sample_indices);
    std::vector<float> sample;
    for (double i : idx) sample.push_back(w.at(std::size_t(i)));
    val o = val::object();
    o.set("ms", times_js(t));
    o.set("sample", f32(sample));
    o.set("size", double(w.size));
    o.set("bytes", w.bytes);
    return o;
  });
}

val bench_copy_js(double bytes, int reps) { return times_js(bench::copy_runs(std::size_t(bytes), reps)); }

val bench_peak_js(double iters) {
  const auto [ms, flops] = bench::multiply_add_peak((long long)iters);
  val o = val::object();
  o.set("ms", ms);
  o.set("flops", flops);
  return o;
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_bench) {
  emscripten::function("benchRun", &bench_run_js);
  emscripten::function("benchCopy", &bench_copy_js);
  emscripten::function("benchPeak", &bench_peak_js);
}
