// The GGUF header reader: files written here byte by byte from the format (ggml docs/gguf.md), read back from every
// prefix length (the incremental contract), and the refusals.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "posenc/posenc.hpp"

using namespace posenc;

namespace {
using Bytes = std::vector<std::uint8_t>;

struct W {
  Bytes b;
  bool v1 = false;
  void raw(const void* p, std::size_t n) {
    const auto* c = static_cast<const std::uint8_t*>(p);
    for (std::size_t i = 0; i < n; ++i) b.push_back(c[i]);
  }
  void u32(std::uint32_t v) { raw(&v, 4); }
  void u64(std::uint64_t v) { raw(&v, 8); }
  void count(std::uint64_t v) { v1 ? u32(std::uint32_t(v)) : u64(v); }
  void str(const std::string& s) { count(s.size()), raw(s.data(), s.size()); }
};

// A header: kv = {u32 key, f32 key, string key, i32 array key}, one F32 tensor of 4 values (data included).
Bytes sample(std::uint32_t version, std::uint32_t alignment = 32) {
  W w;
  w.v1 = version == 1;
  w.raw("GGUF", 4);
  w.u32(version);
  w.count(1);
  w.count(alignment == 32 ? 4 : 5);
  if (alignment != 32) w.str("general.alignment"), w.u32(4), w.u32(alignment);
  w.str("general.architecture"), w.u32(8), w.str("llama");
  w.str("llama.rope.freq_base"), w.u32(6);
  const float base = 500000.f;
  w.raw(&base, 4);
  w.str("llama.context_length"), w.u32(4), w.u32(131072);
  w.str("llama.rope.dimension_sections"), w.u32(9), w.u32(5), w.count(4);
  for (int s : {16, 24, 24, 0}) w.u32(std::uint32_t(s));
  w.str("rope_freqs.weight"), w.u32(1), w.count(4), w.u32(0), w.u64(0);
  while (w.b.size() % alignment) w.b.push_back(0);
  for (float f : {1.f, 1.f, 2.5f, 8.f}) w.raw(&f, 4);
  return w.b;
}
}  // namespace

TEST_CASE("gguf: versions 1-3 read the keys, tensors, alignment and data offset") {
  for (std::uint32_t v : {1u, 2u, 3u}) {
    for (std::uint32_t a : {32u, 64u}) {
      const Bytes f = sample(v, a);
      const GgufRead r = gguf_read_header(f.data(), f.size(), f.size());
      REQUIRE(r.need == 0);
      const GgufHeader& h = r.header;
      CHECK(h.version == v);
      CHECK(h.alignment == a);
      CHECK(h.data_offset == f.size() - 16);
      REQUIRE(h.kv.size() == (a == 32 ? 4u : 5u));
      const auto& kv = h.kv[a == 32 ? 0 : 1];
      CHECK(kv.key == "general.architecture");
      CHECK(kv.value.str == "llama");
      CHECK(h.kv.back().value.items.size() == 4);
      CHECK(h.kv.back().value.items[1].num == 24);
      REQUIRE(h.tensors.size() == 1);
      CHECK(h.tensors[0].name == "rope_freqs.weight");
      CHECK(h.tensors[0].dims == std::vector<std::uint64_t>{4});
      const auto vals = gguf_tensor_values(f.data() + h.data_offset, 16, 0, 4);
      CHECK(vals == std::vector<double>{1, 1, 2.5, 8});
    }
  }
}

TEST_CASE("gguf: every prefix either asks for more bytes or gives the same header") {
  const Bytes f = sample(3);
  const GgufRead full = gguf_read_header(f.data(), f.size(), f.size());
  for (std::size_t n = 0; n < full.header.data_offset; ++n) {
    const GgufRead r = gguf_read_header(f.data(), n, f.size());
    if (r.need) {
      CHECK(r.need > n);
      CHECK(r.need <= full.header.data_offset);
    } else {
      CHECK(r.header.kv.size() == full.header.kv.size());
      CHECK(r.header.data_offset == full.header.data_offset);
    }
  }
  // a truncated file (the prefix is the whole file) is an error, not a request for more
  CHECK_THROWS_WITH(gguf_read_header(f.data(), 40, 40), Catch::Contains("gguf: key length 20 runs past the end of the file"));
  CHECK_THROWS_WITH(gguf_read_header(f.data(), 18, 18), Catch::Contains("gguf: key-value count needs 8 bytes but the file has 2 left (truncated file?) (at byte 16)"));
}

TEST_CASE("gguf: refusals name the rule") {
  Bytes f = sample(3);
  Bytes be = f;
  std::swap(be[4], be[7]);
  std::swap(be[5], be[6]);
  CHECK_THROWS_WITH(gguf_read_header(be.data(), be.size(), be.size()), Catch::Contains("big-endian GGUF"));
  Bytes bad = f;
  bad[0] = 'X';
  CHECK_THROWS_WITH(gguf_read_header(bad.data(), bad.size(), bad.size()), Catch::Contains("not a GGUF file"));
  Bytes v9 = f;
  v9[4] = 9;
  CHECK_THROWS_WITH(gguf_read_header(v9.data(), v9.size(), v9.size()), Catch::Contains("version 9 is not supported"));
  // a key length of 2^62 is refused from the length alone, before anything is allocated
  Bytes huge = f;
  const std::uint64_t len = 1ULL << 62;
  std::memcpy(huge.data() + 24, &len, 8);
  CHECK_THROWS_WITH(gguf_read_header(huge.data(), huge.size(), huge.size()), Catch::Contains("runs past the end of the file"));
  CHECK_THROWS_WITH(gguf_tensor_values(f.data(), 8, 0, 4), Catch::Contains("needs 16 bytes"));
  CHECK_THROWS_WITH(gguf_tensor_values(f.data(), 8, 2, 1), Catch::Contains("is not F32 (0), F16 (1) or BF16 (30)"));
}

TEST_CASE("gguf: F16 and BF16 tensors decode exactly") {
  const std::uint8_t h[] = {0x00, 0x3C, 0x00, 0xC1, 0x01, 0x00};  // 1.0, -2.5, 2^-24 (subnormal)
  CHECK(gguf_tensor_values(h, 6, 1, 3) == std::vector<double>{1.0, -2.5, std::ldexp(1.0, -24)});
  const std::uint8_t b[] = {0x80, 0x3F, 0x20, 0xC0};  // 1.0, -2.5
  CHECK(gguf_tensor_values(b, 4, 30, 2) == std::vector<double>{1.0, -2.5});
}
