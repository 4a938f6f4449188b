// RoPE extras and context extension. Expected values are computed here independently: closed forms, and a
// float64 transcription of the Hugging Face formulas written separately from the library's code.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;
using testutil::ulp_error;

namespace {
constexpr double kPublished4Decimals = 5e-5;  // the seed's freqs_cis is printed with 4 decimals
constexpr double kTableUlps = 2.0;            // accuracy contract
constexpr double kFreqRel = 1e-13;            // float64 formulas evaluated in a different order
const double kPi = std::acos(-1.0);

using testutil::error_of;
bool starts(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

double base_freq(double theta, int d, int i) { return 1.0 / std::pow(theta, double(2 * i) / double(d)); }

void check_rel(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("i=" << i << " got " << got[i] << " want " << want[i]);
    CHECK(std::fabs(got[i] - want[i]) <= tol * std::fabs(want[i]));
  }
}

// Phi-3 128k (Phi3ForCausalLM text config as published for Phi-3-vision-128k-instruct), rope_scaling lists.
const std::vector<double> kPhi3Long = {
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547, 1.2299998998641968,
    1.2299998998641968, 1.2999999523162842, 1.4499999284744263, 1.5999999046325684, 1.6499998569488525,
    1.8999998569488525, 2.859999895095825,  3.68999981880188,   5.419999599456787,  5.489999771118164,
    5.489999771118164,  9.09000015258789,   11.579999923706055, 15.65999984741211,  15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055, 30.009998321533203,
    32.35000228881836,  32.590003967285156, 35.56000518798828,  39.95000457763672,  53.840003967285156,
    56.20000457763672,  57.95000457763672,  59.29000473022461,  59.77000427246094,  59.920005798339844,
    61.190006256103516, 61.96000671386719,  62.50000762939453,  63.3700065612793,   63.48000717163086,
    63.48000717163086,  63.66000747680664,  63.850006103515625, 64.08000946044922,  64.760009765625,
    64.80001068115234,  64.81001281738281,  64.81001281738281};
const std::vector<double> kPhi3Short = {
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002, 1.4000000000000004,
    1.4500000000000004, 1.5500000000000005, 1.8500000000000008, 1.9000000000000008, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001,
    2.000000000000001, 2.000000000000001, 2.000000000000001, 2.1000000000000005, 2.1000000000000005, 2.2,
    2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3499999999999996, 2.3999999999999995,
    2.3999999999999995, 2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975,
    3.049999999999997, 3.049999999999997, 3.049999999999997};
}  // namespace

TEST_CASE("freqs_cis complex form reproduces the seed's d = 8 worked example") {
  const double re[3][4] = {{1, 1, 1, 1}, {0.5403, 0.9950, 0.9999, 1.0000}, {-0.4161, 0.9801, 0.9998, 1.0000}};
  const double im[3][4] = {{0, 0, 0, 0}, {0.8415, 0.0998, 0.0100, 0.0010}, {0.9093, 0.1987, 0.0200, 0.0020}};
  const double pos[3] = {0, 1, 2};
  const auto z = rope_freqs_cis(rope_inv_freq(8, 10000.0), pos, 3);
  REQUIRE(z.size() == 24);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 4; ++i) {
      CHECK(std::fabs(z[(p * 4 + i) * 2] - re[p][i]) <= kPublished4Decimals);
      CHECK(std::fabs(z[(p * 4 + i) * 2 + 1] - im[p][i]) <= kPublished4Decimals);
    }
  // Complex multiplication of the interleaved head by freqs_cis is RoPE with the interleaved layout.
  const auto x = testutil::random_vec(3 * 8, 9);
  std::vector<float> y(x.size());
  rope_apply_positions(x.data(), y.data(), RopeShape{3, 1, 8, 8}, RopeLayout::interleaved, 10000.0, pos);
  for (int p = 0; p < 3; ++p)
    for (int i = 0; i < 4; ++i) {
      const float a = x[p * 8 + 2 * i], b = x[p * 8 + 2 * i + 1];
      const float c = z[(p * 4 + i) * 2], s = z[(p * 4 + i) * 2 + 1];
      CHECK(y[p * 8 + 2 * i] == a * c - b * s);
      CHECK(y[p * 8 + 2 * i + 1] == a * s + b * c);
    }
}

TEST_CASE("partial_rotary_factor / rotary_pct: rotary_dim = int(head_dim * factor)") {
  CHECK(rotary_dim_for(128, 1.0) == 128);
  CHECK(rotary_dim_for(80, 0.4) == 32);
  CHECK(rotary_dim_for(64, 0.25) == 16);   // GPT-NeoX/Pythia rotary_pct 0.25
  CHECK(rotary_dim_for(96, 0.75) == 72);
  CHECK(starts(error_of([] { rotary_dim_for(10, 0.5); }), "rotary_dim: must be even (got 5"));
  CHECK(starts(error_of([] { rotary_dim_for(64, 0.0); }), "partial_rotary_factor: must be a number in (0, 1]"));
  CHECK(starts(error_of([] { rotary_dim_for(64, 1.5); }), "partial_rotary_factor:"));
  CHECK(starts(error_of([] { rotary_dim_for(64, 0.01); }), "partial_rotary_factor:"));
}

TEST_CASE("default and linear scaling") {
  RopeScaling s;
  s.rotary_dim = 64;
  s.rope_theta = 10000;
  auto r = rope_inv_freq_scaled(s);
  CHECK(r.attention_scaling == 1.0);
  for (int i = 0; i < 32; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(1e4, 64, i)).epsilon(kFreqRel));
  s.rope_type = RopeType::linear;
  s.factor = 4.0;
  r = rope_inv_freq_scaled(s);
  for (int i = 0; i < 32; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(1e4, 64, i) / 4.0).epsilon(kFreqRel));
  // Linear scaling = position interpolation: tables at position p equal default tables at p / factor.
  const double pos[3] = {0, 100, 4096}, pos_div[3] = {0, 25, 1024};
  float c1[96], s1[96], c2[96], s2[96];
  rope_tables(r.inv_freq, pos, 3, c1, s1);
  rope_tables(rope_inv_freq(64, 1e4), pos_div, 3, c2, s2);
  for (int k = 0; k < 96; ++k) {
    CHECK(std::fabs(c1[k] - c2[k]) <= 2 * testutil::ulp_at(c2[k]));
    CHECK(std::fabs(s1[k] - s2[k]) <= 2 * testutil::ulp_at(s2[k]) + 1e-12);
  }
}

TEST_CASE("static NTK-aware: highest frequency kept, lowest divided by exactly the factor") {
  RopeScaling s;
  s.rope_type = RopeType::ntk;
  s.rotary_dim = 128;
  s.rope_theta = 10000;
  s.factor = 8;
  const auto r = rope_inv_freq_scaled(s);
  CHECK(r.inv_freq[0] == 1.0);
  // last pair: (b·s^(d/(d−2)))^(−(d−2)/d) = b^(−(d−2)/d) / s
  CHECK(r.inv_freq[63] == Approx(base_freq(1e4, 128, 63) / 8.0).epsilon(kFreqRel));
  const double nb = 10000 * std::pow(8.0, 128.0 / 126.0);
  for (int i = 0; i < 64; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(nb, 128, i)).epsilon(kFreqRel));
}

TEST_CASE("dynamic NTK: unchanged up to max_position_embeddings, HF formula beyond") {
  RopeScaling s;
  s.rope_type = RopeType::dynamic;
  s.rotary_dim = 128;
  s.rope_theta = 10000;
  s.factor = 2;
  s.max_position_embeddings = 4096;
  for (long long L : {0LL, 100LL, 4096LL}) {
    const auto r = rope_inv_freq_scaled(s, L);
    for (int i = 0; i < 64; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(1e4, 128, i)).epsilon(kFreqRel));
  }
  // L = 2·L0, factor 2 → base · (2·2 − 1)^(128/126) = base · 3^(64/63)
  const auto r = rope_inv_freq_scaled(s, 8192);
  const double nb = 10000 * std::pow(3.0, 64.0 / 63.0);
  for (int i = 0; i < 64; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(nb, 128, i)).epsilon(kFreqRel));
  CHECK(r.attention_scaling == 1.0);
}

TEST_CASE("llama3 (Llama 3.1 8B config) against the band rule") {
  // config.json: rope_theta 500000, hidden_size 4096, num_attention_heads 32, rope_scaling
  // {factor 8, low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192, rope_type llama3}
  RopeScaling s;
  s.rope_type = RopeType::llama3;
  s.rotary_dim = 4096 / 32;
  s.rope_theta = 500000;
  s.factor = 8;
  s.low_freq_factor = 1;
  s.high_freq_factor = 4;
  s.original_max_position_embeddings = 8192;
  const auto r = rope_inv_freq_scaled(s);
  CHECK(r.attention_scaling == 1.0);
  int n_hi = 0, n_lo = 0, n_mid = 0;
  for (int i = 0; i < 64; ++i) {
    const double f = base_freq(5e5, 128, i), period = 2 * kPi / f;
    double want;
    if (period < 8192.0 / 4) {
      want = f, ++n_hi;
    } else if (period > 8192.0 / 1) {
      want = f / 8, ++n_lo;
    } else {  // linear in 1/period between the band edges
      const double t = (8192.0 / period - 1.0) / 3.0;
      want = f / 8 + t * (f - f / 8);
      ++n_mid;
    }
    INFO("i=" << i);
    CHECK(r.inv_freq[i] == Approx(want).epsilon(1e-12));
  }
  CHECK(n_hi > 0);
  CHECK(n_lo > 0);
  CHECK(n_mid > 0);
}

TEST_CASE("yarn: Qwen2.5 (factor 4) and DeepSeek-V3 (mscale) against a float64 transcription of HF") {
  auto hf_yarn = [](double base, int dim, double factor, double orig, double bf, double bs, bool trunc) {
    auto cdim = [&](double rot) { return dim * std::log(orig / (rot * 2 * kPi)) / (2 * std::log(base)); };
    double lo = cdim(bf), hi = cdim(bs);
    if (trunc) lo = std::floor(lo), hi = std::ceil(hi);
    lo = std::max(lo, 0.0);
    hi = std::min(hi, double(dim - 1));
    if (lo == hi) hi += 0.001;
    std::vector<double> out;
    for (int i = 0; i < dim / 2; ++i) {
      const double pf = std::pow(base, double(2 * i) / dim);
      const double ramp = std::min(1.0, std::max(0.0, (i - lo) / (hi - lo)));
      const double extrap_w = 1 - ramp;
      out.push_back((1 / (factor * pf)) * (1 - extrap_w) + (1 / pf) * extrap_w);
    }
    return out;
  };
  SECTION("Qwen2.5-7B-Instruct with the README's yarn block") {
    // rope_theta 1e6, hidden 3584 / 28 heads = 128, rope_scaling {factor 4, original 32768, type yarn}
    RopeScaling s;
    s.rope_type = RopeType::yarn;
    s.rotary_dim = 3584 / 28;
    s.rope_theta = 1e6;
    s.factor = 4;
    s.max_position_embeddings = 32768;
    s.original_max_position_embeddings = 32768;
    const auto r = rope_inv_freq_scaled(s);
    check_rel(r.inv_freq, hf_yarn(1e6, 128, 4, 32768, 32, 1, true), kFreqRel);
    CHECK(r.attention_scaling == Approx(0.1 * std::log(4.0) + 1).epsilon(1e-15));
    s.truncate = false;
    check_rel(rope_inv_freq_scaled(s).inv_freq, hf_yarn(1e6, 128, 4, 32768, 32, 1, false), kFreqRel);
  }
  SECTION("DeepSeek-V3: qk_rope_head_dim 64, factor 40, mscale = mscale_all_dim = 1") {
    RopeScaling s;
    s.rope_type = RopeType::yarn;
    s.rotary_dim = 64;
    s.rope_theta = 10000;
    s.factor = 40;
    s.beta_fast = 32;
    s.beta_slow = 1;
    s.mscale = 1.0;
    s.mscale_all_dim = 1.0;
    s.max_position_embeddings = 163840;
    s.original_max_position_embeddings = 4096;
    const auto r = rope_inv_freq_scaled(s);
    check_rel(r.inv_freq, hf_yarn(1e4, 64, 40, 4096, 32, 1, true), kFreqRel);
    CHECK(r.attention_scaling == 1.0);  // equal mscales cancel
    s.mscale = 0.707;
    s.mscale_all_dim = 0.5;
    CHECK(rope_inv_freq_scaled(s).attention_scaling ==
          Approx((0.0707 * std::log(40.0) + 1) / (0.05 * std::log(40.0) + 1)).epsilon(1e-15));
    s.attention_factor = 1.25;
    CHECK(rope_inv_freq_scaled(s).attention_scaling == 1.25);
    // factor unset → max_position_embeddings / original
    s.factor = std::nan("");
    check_rel(rope_inv_freq_scaled(s).inv_freq, hf_yarn(1e4, 64, 40, 4096, 32, 1, true), kFreqRel);
  }
}

TEST_CASE("longrope (Phi-3 128k): short factors at init, long factors past the original length") {
  RopeScaling s;
  s.rope_type = RopeType::longrope;
  s.rotary_dim = 3072 / 32;
  s.rope_theta = 10000;
  s.short_factor = kPhi3Short;
  s.long_factor = kPhi3Long;
  s.max_position_embeddings = 131072;
  s.original_max_position_embeddings = 4096;
  const double want_scale = std::sqrt(1 + std::log(32.0) / std::log(4096.0));  // factor = 131072/4096 = 32
  for (long long L : {0LL, 4096LL, 4097LL, 131072LL}) {
    const auto r = rope_inv_freq_scaled(s, L);
    const auto& ext = L > 4096 ? kPhi3Long : kPhi3Short;
    for (int i = 0; i < 48; ++i) CHECK(r.inv_freq[i] == Approx(base_freq(1e4, 96, i) / ext[i]).epsilon(kFreqRel));
    CHECK(r.attention_scaling == Approx(want_scale).epsilon(1e-15));
  }
}

TEST_CASE("scaled tables keep the 2-ulp contract up to 2^20") {
  RopeScaling s;
  s.rope_type = RopeType::yarn;
  s.rotary_dim = 128;
  s.rope_theta = 1e6;
  s.factor = 4;
  s.original_max_position_embeddings = 32768;
  const auto r = rope_inv_freq_scaled(s);
  std::vector<double> pos;
  std::mt19937 g(5);
  std::uniform_int_distribution<int> big(0, 1 << 20);
  for (int t = 0; t < 3000; ++t) pos.push_back(big(g));
  pos.push_back(1 << 20);
  std::vector<float> c(pos.size() * 64), sn(c.size());
  rope_tables_scaled(r.inv_freq, r.attention_scaling, pos.data(), pos.size(), c.data(), sn.data());
  double worst = 0;
  for (std::size_t p = 0; p < pos.size(); ++p)
    for (std::size_t i = 0; i < 64; ++i) {
      const double a = pos[p] * r.inv_freq[i];
      worst = std::max({worst, ulp_error(c[p * 64 + i], r.attention_scaling * std::cos(a)),
                        ulp_error(sn[p * 64 + i], r.attention_scaling * std::sin(a))});
    }
  INFO("worst " << worst);
  CHECK(worst <= kTableUlps);
}

TEST_CASE("angle-table SIMD kernel equals its scalar twin") {
  for (std::size_t nf : testutil::edge_sizes(kernels::simd_float_lanes())) {
    std::vector<double> inv(nf), pos{0, 1, 5, 77777, 1 << 20};
    for (std::size_t i = 0; i < nf; ++i) inv[i] = std::pow(1e4, -double(i) / double(nf + 1));
    const std::size_t stride = nf + 3;
    std::vector<float> c1(pos.size() * stride, 7.f), s1(c1), c2(c1), s2(c1);
    kernels::angle_tables_simd(inv.data(), nf, pos.data(), pos.size(), 1.25, c1.data(), s1.data(), stride);
    kernels::angle_tables_scalar(inv.data(), nf, pos.data(), pos.size(), 1.25, c2.data(), s2.data(), stride);
    for (std::size_t k = 0; k < c1.size(); ++k) {
      CHECK(std::fabs(c1[k] - c2[k]) <= testutil::ulp_at(c2[k]));
      CHECK(std::fabs(s1[k] - s2[k]) <= testutil::ulp_at(s2[k]));
    }
  }
}

TEST_CASE("rope scaling rejects bad parameters with the field's name") {
  RopeScaling s;
  s.rotary_dim = 64;
  s.rope_type = RopeType::linear;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "factor: is required for rope_type 'linear'"));
  s.factor = 0.5;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "factor: must be a finite number >= 1 (got 0.5)"));
  s.factor = 2;
  s.rotary_dim = 63;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "rotary_dim: must be even (got 63)"));
  s.rotary_dim = 64;
  s.rope_type = RopeType::longrope;
  s.original_max_position_embeddings = 4096;
  s.short_factor.assign(32, 1.0);
  s.long_factor.assign(31, 1.0);
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "long_factor: length must equal rotary_dim/2 = 32 (got 31)"));
  s.rope_type = RopeType::llama3;
  s.original_max_position_embeddings = 8192;
  s.low_freq_factor = 4;
  s.high_freq_factor = 1;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "high_freq_factor: must be >= low_freq_factor"));
  s.original_max_position_embeddings = 0;  // unset: "required", not a range error on 0
  CHECK(starts(error_of([&] { llama3_bands(s); }), "original_max_position_embeddings: is required for rope_type 'llama3'"));
  s.original_max_position_embeddings = 8192;
  s.rope_type = RopeType::dynamic;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "max_position_embeddings:"));
  s.rope_type = RopeType::yarn;
  s.beta_fast = 0.5;
  CHECK(starts(error_of([&] { rope_inv_freq_scaled(s); }), "beta_fast: must be >= beta_slow"));
  CHECK(starts(error_of([] { rope_type_from_name("ntk-by-parts"); }), "rope_type: must be one of"));
  CHECK(rope_type_from_name("su") == RopeType::longrope);
  CHECK(rope_type_from_name("yarn") == RopeType::yarn);
  const double bad[1] = {std::nan("")};
  float c[4], sn[4];
  CHECK(starts(error_of([&] { rope_tables_scaled(rope_inv_freq(8, 1e4), 1.0, bad, 1, c, sn); }), "positions:"));
  CHECK(starts(error_of([&] { rope_tables_scaled(rope_inv_freq(8, 1e4), 0.0, bad, 1, c, sn); }), "attention_scaling:"));
}

TEST_CASE("yarn correction range: the pair indices where the wavelength equals L/beta") {
  // Qwen2.5-7B yarn block: d 128, rope_theta 1e6, original 32768, beta 32 / 1.
  RopeScaling s;
  s.rope_type = RopeType::yarn;
  s.rotary_dim = 128;
  s.rope_theta = 1e6;
  s.factor = 4;
  s.original_max_position_embeddings = 32768;
  const auto y = yarn_correction_range(s);
  // identity: pair i has wavelength 2π·b^(2i/d); at low_raw it is L/beta_fast, at high_raw L/beta_slow
  CHECK(2 * kPi * std::pow(1e6, 2 * y.low_raw / 128) == Approx(32768.0 / 32).epsilon(1e-13));
  CHECK(2 * kPi * std::pow(1e6, 2 * y.high_raw / 128) == Approx(32768.0 / 1).epsilon(1e-13));
  CHECK(y.low == std::floor(y.low_raw));
  CHECK(y.high == std::ceil(y.high_raw));
  CHECK(y.low == 23);   // 64·ln(32768/(64π))/ln(1e6) = 23.60
  CHECK(y.high == 40);  // 64·ln(32768/(2π))/ln(1e6) = 39.65
}

TEST_CASE("llama3 bands and Llama 4's equal factors (a step)") {
  RopeScaling s;
  s.rope_type = RopeType::llama3;
  s.rotary_dim = 128;
  s.rope_theta = 500000;
  s.factor = 8;
  s.low_freq_factor = 1;
  s.high_freq_factor = 4;
  s.original_max_position_embeddings = 8192;
  const auto b = llama3_bands(s);
  CHECK(b.high_freq_wavelen == 2048);
  CHECK(b.low_freq_wavelen == 8192);
  CHECK(2 * kPi * std::pow(5e5, 2 * b.high_freq_dim / 128) == Approx(2048).epsilon(1e-13));
  CHECK(2 * kPi * std::pow(5e5, 2 * b.low_freq_dim / 128) == Approx(8192).epsilon(1e-13));
  // pairs below high_freq_dim kept, above low_freq_dim scaled, between smoothed
  CHECK(b.n_kept == int(std::ceil(b.high_freq_dim)));
  CHECK(b.n_kept + b.n_smoothed == int(std::floor(b.low_freq_dim)) + 1);
  CHECK(b.n_kept + b.n_smoothed + b.n_scaled == 64);
  CHECK(b.n_smoothed > 0);
  // Llama 4 Scout: {factor 16, low_freq_factor 1, high_freq_factor 1, original 8192}: no band, a step at 8192
  s.factor = 16;
  s.high_freq_factor = 1;
  const auto r = rope_inv_freq_scaled(s);
  CHECK(r.bands.n_smoothed == 0);
  int scaled = 0;
  for (int i = 0; i < 64; ++i) {
    const double f = base_freq(5e5, 128, i);
    const bool longer = 2 * kPi / f > 8192;
    scaled += longer;
    CHECK(r.inv_freq[i] == Approx(longer ? f / 16 : f).epsilon(1e-15));
  }
  CHECK(scaled == r.bands.n_scaled);
  CHECK(scaled > 0);
}

TEST_CASE("dynamic NTK base: rope_theta up to max_position_embeddings, b·(2f−(f−1))^(d/(d−2)) at 2x") {
  RopeScaling s;
  s.rope_type = RopeType::dynamic;
  s.rotary_dim = 128;
  s.rope_theta = 10000;
  s.factor = 2;
  s.max_position_embeddings = 4096;
  CHECK(dynamic_ntk_base(s, 0) == 10000);
  CHECK(dynamic_ntk_base(s, 4096) == 10000);
  CHECK(dynamic_ntk_base(s, 8192) == Approx(10000 * std::pow(3.0, 128.0 / 126.0)).epsilon(1e-15));
  const auto r = rope_inv_freq_scaled(s, 8192);
  CHECK(r.effective_base == dynamic_ntk_base(s, 8192));
  CHECK(r.inv_freq[1] == Approx(std::pow(r.effective_base, -2.0 / 128)).epsilon(1e-15));
  s.max_position_embeddings = 0;
  CHECK(starts(error_of([&] { dynamic_ntk_base(s, 1); }), "max_position_embeddings: is required for rope_type 'dynamic'"));
}

TEST_CASE("proportional (Gemma 4 global layers): whole-head frequencies, the first partial share non-zero") {
  // rope_parameters.full_attention {partial_rotary_factor 0.25, rope_theta 1e6, rope_type proportional}, head 512
  RopeScaling s;
  s.rope_type = RopeType::proportional;
  s.rotary_dim = 512;
  s.rope_theta = 1e6;
  s.partial_rotary_factor = 0.25;
  const auto r = rope_inv_freq_scaled(s);
  REQUIRE(r.inv_freq.size() == 256);
  for (int i = 0; i < 256; ++i) CHECK(r.inv_freq[i] == (i < 64 ? Approx(base_freq(1e6, 512, i)).epsilon(1e-15) : Approx(0.0)));
  CHECK(r.attention_scaling == 1);
  s.factor = 2;  // factor divides every frequency
  CHECK(rope_inv_freq_scaled(s).inv_freq[3] == Approx(base_freq(1e6, 512, 3) / 2).epsilon(1e-15));
  s.partial_rotary_factor = 1.0;  // = default RoPE over the head
  s.factor = std::nan("");
  check_rel(rope_inv_freq_scaled(s).inv_freq, rope_inv_freq(512, 1e6), 1e-15);
}

TEST_CASE("DeepSeek softmax-scale factor and Llama 4 attention temperature: closed forms") {
  RopeScaling s;
  s.rope_type = RopeType::yarn;
  s.rotary_dim = 64;
  s.factor = 40;
  s.mscale = 1;
  s.mscale_all_dim = 1;
  s.original_max_position_embeddings = 4096;
  const double m = 0.1 * std::log(40.0) + 1;
  CHECK(rope_inv_freq_scaled(s).softmax_scale_factor == Approx(m * m).epsilon(1e-15));
  CHECK(yarn_get_mscale(40, 1) == Approx(m).epsilon(1e-15));
  CHECK(yarn_get_mscale(1, 5) == 1);
  s.mscale_all_dim = 0;
  CHECK(rope_inv_freq_scaled(s).softmax_scale_factor == 1);
  const double pos[4] = {0, 8190, 8191, 16383};
  const auto t = llama4_attn_scales(pos, 4, 8192, 0.1);
  CHECK(t[0] == 1);
  CHECK(t[1] == 1);
  CHECK(t[2] == Approx(1 + 0.1 * std::log(2.0)).epsilon(1e-15));
  CHECK(t[3] == Approx(1 + 0.1 * std::log(3.0)).epsilon(1e-15));
}
