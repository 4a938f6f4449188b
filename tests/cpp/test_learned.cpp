#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kCosineAbs = 1e-5;  // float32 dot / float64 norms vs a float64 cosine, |value| ≤ 1

using Bytes = std::vector<std::uint8_t>;

void put(Bytes& b, const void* p, std::size_t n) {
  const auto* c = static_cast<const std::uint8_t*>(p);
  for (std::size_t i = 0; i < n; ++i) b.push_back(c[i]);  // (insert() trips a GCC 12 false -Wstringop-overflow)
}

// A .npy file written by hand from the format description (version 1.0, header padded to 64 bytes).
Bytes npy_dict(std::string h, const void* data, std::size_t nbytes, int version = 1) {
  const std::size_t pre = version == 1 ? 10 : 12;
  while ((pre + h.size() + 1) % 64) h += ' ';
  h += '\n';
  Bytes b{0x93, 'N', 'U', 'M', 'P', 'Y', std::uint8_t(version), 0};
  const std::uint32_t hl = std::uint32_t(h.size());
  put(b, &hl, version == 1 ? 2 : 4);
  put(b, h.data(), h.size());
  put(b, data, nbytes);
  return b;
}

Bytes npy(const std::string& descr, const std::string& shape, const void* data, std::size_t nbytes,
          const std::string& fortran = "False", int version = 1) {
  return npy_dict("{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + shape + ", }", data, nbytes, version);
}

Bytes safetensors(const std::string& header, const Bytes& data) {
  Bytes b;
  const std::uint64_t n = header.size();
  put(b, &n, 8);
  put(b, header.data(), header.size());
  b.insert(b.end(), data.begin(), data.end());
  return b;
}
}  // namespace

TEST_CASE("npy: float32 and float64 2-D tables parse exactly") {
  std::vector<float> f(3 * 4);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = float(i) * 0.25f - 1.f;
  const auto b = npy("<f4", "(3, 4)", f.data(), f.size() * 4);
  const Table t = table_from_npy(b.data(), b.size());
  CHECK(t.rows == 3);
  CHECK(t.cols == 4);
  CHECK(t.data == f);
  std::vector<double> d{0.1, -2.5, 1e-3, 7.0, 1.0 / 3, 2.0};
  const auto b2 = npy("<f8", "(2, 3)", d.data(), d.size() * 8, "False", 2);
  const Table t2 = table_from_npy(b2.data(), b2.size());
  CHECK(t2.rows == 2);
  for (std::size_t i = 0; i < d.size(); ++i) CHECK(t2.data[i] == static_cast<float>(d[i]));
}

TEST_CASE("npy: malformed files are rejected with a clear message") {
  std::vector<float> f(6, 1.f);
  auto bad = [&](const Bytes& b, const char* prefix) {
    CHECK_THROWS_WITH(table_from_npy(b.data(), b.size()), Catch::StartsWith(prefix));
  };
  bad(Bytes{1, 2, 3}, "npy: not a .npy file");
  bad(npy(">f4", "(2, 3)", f.data(), 24), "npy: big-endian");
  bad(npy("<i4", "(2, 3)", f.data(), 24), "npy: dtype '<i4' is not supported");
  bad(npy("<f4", "(2, 3)", f.data(), 24, "True"), "npy: fortran_order True");
  bad(npy("<f4", "(6,)", f.data(), 24), "npy: array must be 2-D [positions, dim] (got shape [6])");
  bad(npy("<f4", "(2, 3)", f.data(), 20), "npy: data holds 20 bytes but shape [2, 3] of '<f4' needs 24");
  bad(npy("<f4", "(0, 3)", f.data(), 0), "npy: table shape [0, 3]");
  auto cut = npy("<f4", "(2, 3)", f.data(), 24);
  cut.resize(30);
  bad(cut, "npy: header length");
}

TEST_CASE("safetensors: F32/F64/F16/BF16 tensors chosen by name") {
  // data: wpe.weight F32 [2,2] at 0..16, h.F16 [1,3] at 16..22, b.BF16 [1,2] at 22..26, d.F64 [1,1] at 26..34
  Bytes data;
  const float f[4] = {1.5f, -2.f, 0.f, 65504.f};
  put(data, f, 16);
  const std::uint16_t h[3] = {0x3C00 /*1*/, 0xC000 /*-2*/, 0x0001 /*2^-24*/};
  put(data, h, 6);
  const std::uint16_t bf[2] = {0x3F80 /*1*/, 0xC0A0 /*-5*/};
  put(data, bf, 4);
  const double d = 0.1;
  put(data, &d, 8);
  const std::string header =
      R"({"__metadata__":{"format":"pt"},"wpe.weight":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
      R"("h":{"dtype":"F16","shape":[1,3],"data_offsets":[16,22]},"b":{"dtype":"BF16","shape":[1,2],"data_offsets":[22,26]},)"
      R"("d\u0030":{"dtype":"F64","shape":[1,1],"data_offsets":[26,34]}})";
  const auto file = safetensors(header, data);
  const auto list = safetensors_list(file.data(), file.size());
  REQUIRE(list.size() == 4);
  CHECK(list[0].name == "wpe.weight");
  CHECK(list[3].name == "d0");
  const Table w = table_from_safetensors(file.data(), file.size(), "wpe.weight");
  CHECK(w.rows == 2);
  CHECK(w.data == std::vector<float>(f, f + 4));
  const Table th = table_from_safetensors(file.data(), file.size(), "h");
  CHECK(th.data == std::vector<float>{1.f, -2.f, std::ldexp(1.f, -24)});
  const Table tb = table_from_safetensors(file.data(), file.size(), "b");
  CHECK(tb.data == std::vector<float>{1.f, -5.f});
  CHECK(table_from_safetensors(file.data(), file.size(), "d0").data[0] == 0.1f);
  CHECK_THROWS_WITH(table_from_safetensors(file.data(), file.size(), ""), Catch::StartsWith("name: required"));
  CHECK_THROWS_WITH(table_from_safetensors(file.data(), file.size(), "wte.weight"),
                    Catch::StartsWith("name: no tensor 'wte.weight' in the file (it holds 'wpe.weight', 'h', 'b', 'd0')"));
  // half: every finite binary16 value is exact in float (spot checks of the largest and an inf)
  CHECK(half_to_float(0x7BFF) == 65504.f);
  CHECK(std::isinf(half_to_float(0xFC00)));
}

TEST_CASE("safetensors: malformed files are rejected") {
  auto bad = [](const Bytes& b, const char* prefix) {
    CHECK_THROWS_WITH(table_from_safetensors(b.data(), b.size(), ""), Catch::StartsWith(prefix));
  };
  bad(Bytes{1, 2}, "safetensors: file too short");
  bad(safetensors("{", {}), "safetensors: malformed JSON header");
  Bytes big = safetensors("{}", {});
  big[0] = 0xFF;
  bad(big, "safetensors: header length 255 exceeds");
  bad(safetensors(R"({"a":{"dtype":"I64","shape":[1,1],"data_offsets":[0,8]}})", Bytes(8)),
      "safetensors: tensor 'a' has dtype I64");
  bad(safetensors(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", Bytes(16)),
      "safetensors: tensor 'a' must be 2-D");
  bad(safetensors(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})", Bytes(8)),
      "safetensors: tensor 'a': data_offsets [0, 16] lie outside the 8 data bytes");
  bad(safetensors(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})", Bytes(12)),
      "safetensors: tensor 'a' spans 12 bytes but shape [2, 2] of F32 needs 16");
  bad(safetensors(R"({})", {}), "safetensors: file holds no tensors");
}

TEST_CASE("Table lookup: rows by position, errors past the table unless clamp") {
  const int rows = 5, cols = 3;
  std::vector<float> t(rows * cols);
  for (int i = 0; i < rows * cols; ++i) t[i] = float(i);
  std::vector<double> pos{4, 0, 2};
  const auto out = table_lookup(t.data(), rows, cols, pos.data(), pos.size(), false);
  for (std::size_t r = 0; r < pos.size(); ++r)
    for (int c = 0; c < cols; ++c) CHECK(out[r * cols + c] == t[int(pos[r]) * cols + c]);
  std::vector<double> past{1, 5};
  CHECK_THROWS_WITH(table_lookup(t.data(), rows, cols, past.data(), 2, false),
                    Catch::StartsWith("positions: position 5 at index 1 is outside the table's rows [0, 4]"));
  std::vector<double> wild{7, -2};
  const auto cl = table_lookup(t.data(), rows, cols, wild.data(), 2, true);
  CHECK(cl[0] == t[4 * cols]);
  CHECK(cl[cols] == t[0]);
  std::vector<double> frac{1.5};
  CHECK_THROWS_WITH(table_lookup(t.data(), rows, cols, frac.data(), 1, true), Catch::StartsWith("positions: every position must be an integer"));
}

TEST_CASE("Table similarity: dot and cosine against float64; sinusoid rows give Σcos((a−b)ω)/(d/2)") {
  const int rows = 24, d = 16;
  const auto pe = sinusoidal_table(rows, d);
  const auto dot = table_similarity(pe.data(), rows, d, Similarity::dot);
  const auto cos = table_similarity(pe.data(), rows, d, Similarity::cosine);
  for (int a = 0; a < rows; ++a)
    for (int b = 0; b < rows; ++b) {
      double closed = 0;  // PE(a)·PE(b) = Σ_i cos((a−b)·ω_i); every row has norm √(d/2)
      for (int i = 0; i < d / 2; ++i) closed += std::cos((a - b) * std::pow(10000.0, -2.0 * i / d));
      CHECK(dot[a * rows + b] == Approx(closed).margin(1e-5));
      CHECK(cos[a * rows + b] == Approx(closed / (d / 2)).margin(kCosineAbs));
    }
  std::vector<float> z{0, 0, 1, 2};
  const auto zc = table_similarity(z.data(), 2, 2, Similarity::cosine);
  CHECK(zc[0] == 0.f);
  CHECK(zc[3] == Approx(1.0).margin(kCosineAbs));
  CHECK_THROWS_WITH(table_similarity(pe.data(), 17000, 1, Similarity::dot), Catch::StartsWith("rows*rows:"));
}

TEST_CASE("Mutated .npy / .safetensors bytes: a consistent table or an Error, never a bad read") {
  // Seeded byte flips, truncations and extensions of valid files. Under the sanitizer build (ASan/UBSan) this also
  // proves the parsers never read outside the given bytes.
  std::vector<float> f(6 * 4);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = float(i) * 0.5f - 3.f;
  Bytes raw(f.size() * 4);
  std::memcpy(raw.data(), f.data(), raw.size());
  const Bytes good_npy = npy("<f4", "(6, 4)", f.data(), raw.size());
  const Bytes good_st = safetensors(R"({"wpe.weight":{"dtype":"F32","shape":[6,4],"data_offsets":[0,96]}})", raw);
  std::mt19937 g(99);
  int parsed = 0, rejected = 0;
  for (int which = 0; which < 2; ++which) {
    for (int t = 0; t < 3000; ++t) {
      Bytes b = which == 0 ? good_npy : good_st;
      const int kind = int(g() % 3);
      if (kind == 0) {
        for (int k = 1 + int(g() % 4); k > 0; --k) b[g() % b.size()] = std::uint8_t(g());
      } else if (kind == 1) {
        b.resize(g() % b.size());
      } else {
        b.resize(b.size() + 1 + g() % 64, std::uint8_t(g()));
      }
      // The header-only check (first bytes, then the header) refuses exactly what the full read refuses.
      bool header_ok = true;
      try {
        const std::size_t probe = std::min(b.size(), kTableHeaderProbe);
        if (which == 0) npy_check_header(b.data(), npy_header_length(b.data(), probe, b.size()), b.size());
        else {
          const std::string nm = "wpe.weight";
          safetensors_check_header(b.data(), safetensors_header_length(b.data(), probe, b.size()), b.size(), &nm);
        }
      } catch (const Error&) {
        header_ok = false;
      }
      try {
        const Table tb = which == 0 ? table_from_npy(b.data(), b.size()) : table_from_safetensors(b.data(), b.size(), "wpe.weight");
        CHECK(header_ok);
        CHECK(tb.data.size() == std::size_t(tb.rows) * std::size_t(tb.cols));
        ++parsed;
      } catch (const Error& e) {
        CHECK((!header_ok || std::string(e.what()).find("overflows float32") != std::string::npos));
        ++rejected;
      }
    }
  }
  CHECK(parsed > 0);
  CHECK(rejected > 0);
}

TEST_CASE("npy header is the Python dict literal it is (issue 15)") {
  std::vector<float> f(6);
  for (std::size_t i = 0; i < f.size(); ++i) f[i] = float(i) + 0.25f;
  auto table = [&](const std::string& dict) {
    const auto b = npy_dict(dict, f.data(), 24);
    return table_from_npy(b.data(), b.size());
  };
  // A repeated key keeps its last value, as numpy's ast.literal_eval dict does (the substring search took the first).
  const Table t = table("{'descr': '<i4', 'fortran_order': True, 'descr': '<f4', 'shape': (2, 3), 'fortran_order': False}");
  CHECK(t.rows == 2);
  CHECK(t.cols == 3);
  CHECK(t.data[5] == 5.25f);
  // Text inside a string value is never a key: the substring search read descr "<f8', 'shape': (3, 2)" and shape (3, 2).
  const Table u = table(R"j({'descr': "<f8', 'shape': (3, 2)", 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), })j");
  CHECK(u.rows == 2);
  CHECK(u.cols == 3);
  // Python spellings numpy has written: double quotes, a trailing comma, Python 2 longs, no spaces.
  CHECK(table(R"({"descr":"<f4","fortran_order":False,"shape":(2L,3L)})").cols == 3);
  CHECK(table("{'shape': (6, 1), 'fortran_order': False, 'descr': '<f4'}").rows == 6);
  auto bad = [&](const std::string& dict, const char* prefix) {
    const auto b = npy_dict(dict, f.data(), 24);
    CHECK_THROWS_WITH(table_from_npy(b.data(), b.size()), Catch::StartsWith(prefix));
  };
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'extra': 1}", "npy: unexpected header key 'extra'");
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", "npy: shape must be a tuple");
  bad("{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}", "npy: fortran_order must be True or False");
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", "npy: shape entries must be non-negative integers");
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", "npy: malformed header dict: expected '}'");
  bad("{'descr': '<f4', 'fortran_order': False}", "npy: header lacks the key 'shape'");
  bad("{descr: '<f4'}", "npy: malformed header dict: keys must be strings");
  bad("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2, 3)}", "npy: descr must be a string (structured dtypes");
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)} x", "npy: malformed header dict: trailing characters");
  bad("{'descr': '<f4', 'fortran_order': False, 'shape': " + std::string(20, '(') + "2" + std::string(20, ')') + "}",
      "npy: malformed header dict: nesting deeper than 8");
}

TEST_CASE("Table files refuse float64 values that overflow float32 (issue 15)") {
  const std::vector<double> d{1.0, 1e39, 2.0, 3.0};
  const auto b = npy("<f8", "(2, 2)", d.data(), 32);
  CHECK_THROWS_WITH(table_from_npy(b.data(), b.size()), Catch::StartsWith("npy: value 9.9999999999999994e+38 at element 1 overflows float32"));
  Bytes raw(32);
  std::memcpy(raw.data(), d.data(), 32);
  const auto st = safetensors(R"({"t":{"dtype":"F64","shape":[2,2],"data_offsets":[0,32]}})", raw);
  CHECK_THROWS_WITH(table_from_safetensors(st.data(), st.size(), "t"), Catch::StartsWith("safetensors: value 9.9999999999999994e+38"));
  // The largest double that rounds to FLT_MAX is kept; stored ∞ is kept (not finite in).
  const std::vector<double> edge{3.4028235e38, -3.4028235677973362e38, HUGE_VAL, 0.0};
  const auto e = npy("<f8", "(2, 2)", edge.data(), 32);
  const Table te = table_from_npy(e.data(), e.size());
  CHECK(te.data[0] == std::numeric_limits<float>::max());
  CHECK(te.data[1] == -std::numeric_limits<float>::max());
  CHECK(std::isinf(te.data[2]));
}

TEST_CASE("safetensors refuses overlapping, out-of-range and repeated entries (issue 15)") {
  auto bad = [](const std::string& header, std::size_t n, const char* prefix) {
    const auto b = safetensors(header, Bytes(n));
    CHECK_THROWS_WITH(safetensors_list(b.data(), b.size()), Catch::StartsWith(prefix));
  };
  bad(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"b":{"dtype":"F32","shape":[2,2],"data_offsets":[8,24]}})", 24,
      "safetensors: tensors 'a' [0, 16] and 'b' [8, 24] overlap");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}})", 8,
      "safetensors: tensors 'a' [0, 4] and 'b' [0, 4] overlap");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,9007199254740991]}})", 4, "safetensors: tensor 'a': data_offsets [0, 9007199254740991] lie outside");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[4,0]}})", 4, "safetensors: tensor 'a': data_offsets [4, 0] lie outside");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},"a":{"dtype":"F32","shape":[1,1],"data_offsets":[4,8]}})", 8,
      "safetensors: tensor 'a': listed twice");
  bad(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1,1],"data_offsets":[0,4]}})", 4, "safetensors: tensor 'a': dtype given twice");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[4,8]}})", 8, "safetensors: data bytes [0, 4) of 8 belong to no tensor");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1,1],"data_offsets":[8,12]}})", 12,
      "safetensors: data bytes [4, 8) of 12 belong to no tensor");
  bad(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]}})", 5, "safetensors: data bytes [4, 5) of 5 belong to no tensor");
  // Adjacent tensors and an empty one inside another's span do not overlap.
  const auto ok = safetensors(R"({"a":{"dtype":"F32","shape":[1,1],"data_offsets":[0,4]},"e":{"dtype":"F32","shape":[0,1],"data_offsets":[2,2]},)"
                              R"("b":{"dtype":"F32","shape":[1,1],"data_offsets":[4,8]}})", Bytes(8));
  CHECK(safetensors_list(ok.data(), ok.size()).size() == 3);
}

TEST_CASE("Table files are checked from their first bytes, before any copy (issue 15)") {
  std::vector<float> f(6, 1.f);
  const auto good = npy("<f4", "(2, 3)", f.data(), 24);
  const std::size_t hl = npy_header_length(good.data(), kTableHeaderProbe, good.size());
  CHECK(hl == 128);
  npy_check_header(good.data(), hl, good.size());
  // A 1.9 GB file is refused on its first 16 bytes: wrong magic, or a header that does not match the declared size.
  const std::size_t huge = 1900000000;
  Bytes zeros(16);
  CHECK_THROWS_WITH(npy_header_length(zeros.data(), 16, huge), Catch::StartsWith("npy: not a .npy file"));
  CHECK(safetensors_header_length(zeros.data(), 16, huge) == 8);  // header length 0: an empty header, not JSON
  CHECK_THROWS_WITH(safetensors_check_header(zeros.data(), 16, huge, nullptr), Catch::StartsWith("safetensors: malformed JSON header"));
  CHECK_THROWS_WITH(npy_check_header(good.data(), hl, huge), Catch::StartsWith("npy: data holds 1899999872 bytes but shape [2, 3]"));
  Bytes longhdr = good;
  longhdr[8] = 0xFF, longhdr[9] = 0xFF;  // header length 65535 bytes: past the end of this file
  CHECK_THROWS_WITH(npy_header_length(longhdr.data(), 16, longhdr.size()), Catch::StartsWith("npy: header length 65535 runs past"));
  Bytes v2 = npy("<f4", "(2, 3)", f.data(), 24, "False", 2);
  v2[10] = 0x10;  // version 2 header length 1 MiB + 64: over the 65,536-byte cap
  CHECK_THROWS_WITH(npy_header_length(v2.data(), 16, huge), Catch::StartsWith("npy: header length 1048692 exceeds 65536 bytes"));
  CHECK_THROWS_WITH(npy_header_length(good.data(), 8, good.size()), Catch::StartsWith("bytes: pass the first min(size, 16) bytes"));
  CHECK_THROWS_WITH(npy_check_header(good.data(), 20, good.size()), Catch::StartsWith("bytes: the header check needs the first 128 bytes"));
  // safetensors: the header alone decides, and a selected tensor is checked too.
  const auto st = safetensors(R"({"t":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]}})", Bytes(24));
  const std::size_t sl = safetensors_header_length(st.data(), 16, st.size());
  CHECK(sl == st.size() - 24);
  const std::string t = "t", u = "u";
  CHECK(safetensors_check_header(st.data(), sl, st.size(), &t).size() == 1);
  CHECK_THROWS_WITH(safetensors_check_header(st.data(), sl, st.size(), &u), Catch::StartsWith("name: no tensor 'u'"));
  // A header that describes 24 of 1.9 GB data bytes: refused before the data is copied.
  CHECK_THROWS_WITH(safetensors_check_header(st.data(), sl, huge, nullptr),
                    Catch::StartsWith("safetensors: data bytes [24, 1899999935) of 1899999935 belong to no tensor"));
}

TEST_CASE("Cosine similarity is finite for any finite table (issue 15)") {
  // Rows of 3e37: their float32 dot products overflowed to ∞ and the cosine became ∞/∞ = NaN.
  const std::vector<float> t{3e37f, 3e37f, 3e37f, -3e37f, 1e-30f, 0.f, 0.f, 0.f};
  const auto c = table_similarity(t.data(), 4, 2, Similarity::cosine);
  for (float x : c) CHECK(std::isfinite(x));
  CHECK(c[0] == Approx(1.0).margin(kCosineAbs));        // row 0 with itself
  CHECK(c[1] == Approx(0.0).margin(kCosineAbs));        // (1, 1) ⟂ (1, −1)
  CHECK(c[2] == Approx(std::sqrt(0.5)).margin(kCosineAbs));  // (1, 1) · (1, 0)
  CHECK(c[10] == Approx(1.0).margin(kCosineAbs));       // a tiny row is still a direction
  CHECK(c[15] == 0.f);                                   // a zero row gives 0
}
