// Internal: the documented seeded generator (see cpp/include/posenc/attention.hpp and engine.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace posenc::gen {

inline std::uint64_t splitmix64(std::uint64_t& z) {
  z += 0x9E3779B97F4A7C15ULL;
  std::uint64_t r = z;
  r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ULL;
  r = (r ^ (r >> 27)) * 0x94D049BB133111EBULL;
  return r ^ (r >> 31);
}

/// float((z >> 40)·2^-23 − 1) ∈ [−1, 1), exact in float32.
inline float uniform(std::uint64_t z) { return static_cast<float>(double(z >> 40) * 0x1p-23 - 1.0); }

/// n values of the stream with key `key`, each multiplied by `scale` (in float32).
inline std::vector<float> stream(std::uint64_t key, std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (auto& x : v) x = uniform(splitmix64(key)) * scale;
  return v;
}

inline std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ULL;
  return h;
}
}  // namespace posenc::gen
