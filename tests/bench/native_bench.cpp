// Native reference for `npm run bench`: the same workloads as the wasm build, compiled with g++ (-march=native).
// Usage: posenc_native_bench <reps> <workload> [sample indices…]  → one JSON object on stdout.
//        posenc_native_bench <reps> copy <bytes> | peak <iterations>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "workloads.hpp"

using namespace posenc;

static void print_times(const std::vector<double>& t) {
  std::printf("\"ms\":[");
  for (std::size_t i = 0; i < t.size(); ++i) std::printf("%s%.6f", i ? "," : "", t[i]);
  std::printf("]");
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const int reps = std::atoi(argv[1]);
  const std::string name = argv[2];
  std::printf("{");
  if (name == "copy") {
    print_times(bench::copy_runs(std::size_t(std::atoll(argv[3])), reps));
  } else if (name == "peak") {
    const auto [ms, flops] = bench::multiply_add_peak(std::atoll(argv[3]));
    std::printf("\"ms\":%.6f,\"flops\":%.1f", ms, flops);
  } else {
    auto w = bench::make(name);
    print_times(bench::time_runs(w, reps));
    std::printf(",\"size\":%zu,\"bytes\":%.1f,\"sample\":[", w.size, w.bytes);
    for (int i = 3; i < argc; ++i) std::printf("%s%.9g", i > 3 ? "," : "", double(w.at(std::size_t(std::atoll(argv[i])))));
    std::printf("]");
  }
  std::printf("}\n");
  return 0;
}
