// Embind bindings of the research schemes (cpp/include/posenc/research.hpp): KERPLE, Sandwich, FIRE, CoPE,
// stick-breaking, PaTH. Conventions as bindings.cpp; float64 curves returned as fresh Float64Arrays. Array inputs
// are addresses of float64 data the TS layer (web/src/research.ts) has sized and checked.
#include <vector>

#include "common.hpp"
#include "posenc/posenc.hpp"

using emscripten::val;
using namespace posenc;

namespace {
using namespace posenc::bindings;

val kerple_bias_js(int kernel, double r1, double r2, double count) {
  return guarded([&] {
    return f64(kerple_bias(static_cast<KerpleKernel>(kernel), r1, r2, as_count("count", count)));
  });
}

val sandwich_bias_js(int head_dim, int num_heads, int head, double count) {
  return guarded([&] { return f64(sandwich_bias(head_dim, num_heads, head, as_count("count", count))); });
}

val fire_distance_js(double c, double L, double query_position, double count) {
  return guarded([&] {
    return f64(fire_distance(c, L, as_count("query_position", query_position), as_count("count", count)));
  });
}

val cope_positions_js(std::uintptr_t logits, double n, double npos) {
  return guarded([&] { return f64(cope_positions(at<const double>(logits), as_count("n", n), as_count("npos", npos))); });
}

val stick_breaking_weights_js(std::uintptr_t logits, double n) {
  return guarded([&] { return f64(stick_breaking_weights(at<const double>(logits), as_count("n", n))); });
}

val path_scores_js(std::uintptr_t q, std::uintptr_t k, std::uintptr_t w, std::uintptr_t beta, double n, int head_dim) {
  return guarded([&] {
    return f64(path_scores(at<const double>(q), at<const double>(k), at<const double>(w), at<const double>(beta),
                           as_count("n", n), head_dim));
  });
}
}  // namespace

EMSCRIPTEN_BINDINGS(posenc_research) {
  emscripten::function("kerpleBias", &kerple_bias_js);
  emscripten::function("sandwichBias", &sandwich_bias_js);
  emscripten::function("fireDistance", &fire_distance_js);
  emscripten::function("copePositions", &cope_positions_js);
  emscripten::function("stickBreakingWeights", &stick_breaking_weights_js);
  emscripten::function("pathScores", &path_scores_js);
}
