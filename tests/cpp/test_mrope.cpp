#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>

#include "posenc/posenc.hpp"
#include "util.hpp"

using namespace posenc;

namespace {
constexpr double kTableUlps = 2.0;
using testutil::error_of;
}  // namespace

TEST_CASE("M-RoPE (Qwen2-VL, mrope_section [16, 24, 24]): each frequency follows its stream") {
  const auto inv = rope_inv_freq(128, 1e6);
  const std::vector<double> t{0, 3, 3, 3, 7}, h{0, 3, 3, 4, 7}, w{0, 3, 4, 5, 7};
  std::vector<float> c(5 * 64), s(c.size());
  mrope_tables(inv, {16, 24, 24}, t.data(), h.data(), w.data(), 5, c.data(), s.data());
  double worst = 0;
  for (int p = 0; p < 5; ++p)
    for (int i = 0; i < 64; ++i) {
      const double pos = i < 16 ? t[p] : i < 40 ? h[p] : w[p];
      const double a = pos * std::pow(1e6, -2.0 * i / 128);
      worst = std::max({worst, testutil::ulp_error(c[p * 64 + i], std::cos(a)),
                        testutil::ulp_error(s[p * 64 + i], std::sin(a))});
    }
  CHECK(worst <= kTableUlps);
  // Text tokens (t = h = w) reduce to plain RoPE.
  std::vector<float> c2(5 * 64), s2(c2.size());
  rope_tables(inv, t.data(), 5, c2.data(), s2.data());
  for (int i = 0; i < 64; ++i) CHECK(c[i] == c2[i]);
  for (int i = 0; i < 64; ++i) CHECK(c[4 * 64 + i] == c2[4 * 64 + i]);
}

TEST_CASE("2D axial RoPE (Qwen2-VL vision): [h·φ, w·φ] with φ_k = θ^(-2k/(d/2))") {
  std::vector<double> ph, pw;
  axial2d_grid(3, 4, ph, pw);
  REQUIRE(ph.size() == 12);
  CHECK(ph[5] == 1);
  CHECK(pw[5] == 1);
  CHECK(ph[11] == 2);
  CHECK(pw[11] == 3);
  const int d = 32;  // q = 8 frequencies per axis
  std::vector<float> c(12 * 16), s(c.size());
  axial2d_tables(d, 10000, ph.data(), pw.data(), 12, c.data(), s.data());
  double worst = 0;
  for (int p = 0; p < 12; ++p)
    for (int k = 0; k < 8; ++k) {
      const double phi = std::pow(10000.0, -2.0 * k / 16.0);
      worst = std::max({worst, testutil::ulp_error(c[p * 16 + k], std::cos(ph[p] * phi)),
                        testutil::ulp_error(s[p * 16 + 8 + k], std::sin(pw[p] * phi))});
    }
  CHECK(worst <= kTableUlps);
  // Relative in both axes: scores of patches (r1,c1),(r2,c2) depend only on (r1−r2, c1−c2).
  const auto q = testutil::random_vec(d, 1), k = testutil::random_vec(d, 2);
  auto score = [&](double r1, double c1, double r2, double c2) {
    float cq[16], sq[16], ck[16], sk[16];
    axial2d_tables(d, 10000, &r1, &c1, 1, cq, sq);
    axial2d_tables(d, 10000, &r2, &c2, 1, ck, sk);
    std::vector<float> a(d), b(d);
    rope_apply(q.data(), a.data(), RopeShape{1, 1, d, d}, RopeLayout::half_split, cq, sq);
    rope_apply(k.data(), b.data(), RopeShape{1, 1, d, d}, RopeLayout::half_split, ck, sk);
    return testutil::dot(a.data(), b.data(), d);
  };
  CHECK(score(5, 2, 1, 7) == Approx(score(105, 40, 101, 45)).margin(2e-5));
}

TEST_CASE("M-RoPE and axial RoPE reject bad input") {
  const double p[1] = {0};
  float c[64], s[64];
  CHECK(error_of([&] { mrope_tables(rope_inv_freq(128, 1e4), {16, 24, 23}, p, p, p, 1, c, s); })
            .rfind("mrope_section: sections must sum to rotary_dim/2 = 64", 0) == 0);
  CHECK(error_of([&] { mrope_tables(rope_inv_freq(8, 1e4), {-1, 3, 2}, p, p, p, 1, c, s); }).rfind("mrope_section:", 0) == 0);
  CHECK(error_of([&] { axial2d_tables(30, 1e4, p, p, 1, c, s); }).rfind("rotary_dim: must be a multiple of 4", 0) == 0);
  const double bad[1] = {INFINITY};
  CHECK(error_of([&] { axial2d_tables(32, 1e4, p, bad, 1, c, s); }).rfind("positions_w:", 0) == 0);
}

TEST_CASE("interleaved M-RoPE (Qwen3-VL, [24, 20, 20]): h on i = 1 mod 3, w on i = 2 mod 3, t elsewhere") {
  const auto st = mrope_streams({24, 20, 20}, 64, true);
  for (int i = 0; i < 64; ++i) {
    const int want = (i % 3 == 1 && i < 60) ? 1 : (i % 3 == 2 && i < 60) ? 2 : 0;
    CHECK(st[i] == want);
  }
  const auto inv = rope_inv_freq(128, 5e6);
  const std::vector<double> t{4, 9}, h{5, 10}, w{6, 11};
  std::vector<float> c(2 * 64), s(c.size());
  mrope_tables(inv, {24, 20, 20}, t.data(), h.data(), w.data(), 2, c.data(), s.data(), true);
  double worst = 0;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 64; ++i) {
      const double pos = st[i] == 0 ? t[p] : st[i] == 1 ? h[p] : w[p];
      worst = std::max(worst, testutil::ulp_error(c[p * 64 + i], std::cos(pos * inv[i])));
    }
  CHECK(worst <= kTableUlps);
  CHECK(error_of([] { mrope_streams({4, 30, 30}, 64, true); }).rfind("mrope_section: interleaved", 0) == 0);
}

namespace {
// Token ids as in Qwen2-VL's config: vision_start 151652, vision_end 151653, image 151655, video 151656; text 1.
constexpr long long T = 1, VS = 151652, VE = 151653, IM = 151655, VI = 151656;
MropeIdsOptions qwen(double tokens_per_second = std::nan(""), bool split = false) {
  MropeIdsOptions o;
  o.image_token_id = IM;
  o.video_token_id = VI;
  o.vision_start_token_id = VS;
  o.spatial_merge_size = 2;
  o.tokens_per_second = tokens_per_second;
  o.split_video_frames = split;
  return o;
}
std::vector<long long> seq(std::initializer_list<std::pair<long long, int>> runs) {
  std::vector<long long> v;
  for (auto [id, n] : runs) v.insert(v.end(), static_cast<std::size_t>(n), id);
  return v;
}
void check_rows(const MropeIds& r, const std::vector<int>& t, const std::vector<int>& h, const std::vector<int>& w) {
  const std::size_t L = t.size();
  REQUIRE(r.position_ids.size() == 3 * L);
  for (std::size_t k = 0; k < L; ++k) {
    INFO("token " << k);
    CHECK(r.position_ids[k] == t[k]);
    CHECK(r.position_ids[L + k] == h[k]);
    CHECK(r.position_ids[2 * L + k] == w[k]);
  }
}
}  // namespace

TEST_CASE("M-RoPE position ids (get_rope_index): text, image, text") {
  // "a b <vs> [image 1x4x4 patches → 2x2 merged] <ve> c"
  const auto ids = seq({{T, 2}, {VS, 1}, {IM, 4}, {VE, 1}, {T, 1}});
  const auto r = mrope_position_ids(ids, {{1, 4, 4}}, {}, {}, qwen());
  check_rows(r, {0, 1, 2, 3, 3, 3, 3, 5, 6}, {0, 1, 2, 3, 3, 4, 4, 5, 6}, {0, 1, 2, 3, 4, 3, 4, 5, 6});
  CHECK(r.rope_deltas == 6 + 1 - 9);
  // a wide image 1x4x8 → 2x4: text resumes at start + max(h, w) = 3 + 4
  const auto ids2 = seq({{T, 2}, {VS, 1}, {IM, 8}, {VE, 1}});
  const auto r2 = mrope_position_ids(ids2, {{1, 4, 8}}, {}, {}, qwen());
  check_rows(r2, {0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 7}, {0, 1, 2, 3, 3, 3, 3, 4, 4, 4, 4, 7},
             {0, 1, 2, 3, 4, 5, 6, 3, 4, 5, 6, 7});
  CHECK(r2.rope_deltas == 7 + 1 - 12);
}

TEST_CASE("M-RoPE position ids: videos in Qwen2-VL, Qwen2.5-VL (time-scaled) and Qwen3-VL (split frames)") {
  // video of 4 temporal grids, 2x2 patches → 4x1x1 merged tokens
  const auto ids = seq({{T, 2}, {VS, 1}, {VI, 4}, {VE, 1}});
  SECTION("Qwen2-VL: t index = frame") {
    const auto r = mrope_position_ids(ids, {}, {{4, 2, 2}}, {}, qwen());
    check_rows(r, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 3, 3, 3, 7}, {0, 1, 2, 3, 3, 3, 3, 7});
    CHECK(r.rope_deltas == 0);
  }
  SECTION("Qwen2.5-VL: t index = frame · second_per_grid_t · tokens_per_second") {
    const auto r = mrope_position_ids(ids, {}, {{4, 2, 2}}, {2.0}, qwen(2));
    check_rows(r, {0, 1, 2, 3, 7, 11, 15, 16}, {0, 1, 2, 3, 3, 3, 3, 16}, {0, 1, 2, 3, 3, 3, 3, 16});
    CHECK(r.rope_deltas == 16 + 1 - 8);
    // second_per_grid_t 0.5 is truncated to 0 by the reference (integer tensor): all frames at t = start
    const auto r2 = mrope_position_ids(ids, {}, {{4, 2, 2}}, {0.5}, qwen(2));
    check_rows(r2, {0, 1, 2, 3, 3, 3, 3, 4}, {0, 1, 2, 3, 3, 3, 3, 4}, {0, 1, 2, 3, 3, 3, 3, 4});
  }
  SECTION("Qwen3-VL: one block per frame, timestamps in between are text") {
    // "<0.5 s> <vs> [frame 0: 2x2] <ve> <1.5 s> <vs> [frame 1: 2x2] <ve>" for a 2x4x4 video
    const auto ids3 = seq({{T, 1}, {VS, 1}, {VI, 4}, {VE, 1}, {T, 1}, {VS, 1}, {VI, 4}, {VE, 1}});
    const auto r = mrope_position_ids(ids3, {}, {{2, 4, 4}}, {}, qwen(std::nan(""), true));
    check_rows(r, {0, 1, 2, 2, 2, 2, 4, 5, 6, 7, 7, 7, 7, 9}, {0, 1, 2, 2, 3, 3, 4, 5, 6, 7, 7, 8, 8, 9},
               {0, 1, 2, 3, 2, 3, 4, 5, 6, 7, 8, 7, 8, 9});
    CHECK(r.rope_deltas == 9 + 1 - 14);
  }
}

TEST_CASE("M-RoPE position ids: a large image, and text only") {
  // 1 x 28 x 42 patches (a 392x588 image at patch 14) → 14 x 21 merged tokens
  const auto ids = seq({{T, 3}, {VS, 1}, {IM, 14 * 21}, {VE, 1}, {T, 2}});
  const auto r = mrope_position_ids(ids, {{1, 28, 42}}, {}, {}, qwen());
  const std::size_t L = ids.size();
  for (int k = 0; k < 14 * 21; ++k) {
    CHECK(r.position_ids[4 + k] == 4);
    CHECK(r.position_ids[L + 4 + k] == 4 + k / 21);
    CHECK(r.position_ids[2 * L + 4 + k] == 4 + k % 21);
  }
  CHECK(r.position_ids[L - 3] == 4 + 21);  // <ve> = start + max(14, 21)
  CHECK(r.rope_deltas == (4 + 21 + 2) + 1 - long(L));
  const auto t = mrope_position_ids(seq({{T, 5}}), {}, {}, {}, qwen());
  check_rows(t, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4}, {0, 1, 2, 3, 4});
  CHECK(t.rope_deltas == 0);
}

TEST_CASE("M-RoPE position ids reject mismatched grids and token runs") {
  const auto ids = seq({{T, 2}, {VS, 1}, {IM, 4}, {VE, 1}});
  CHECK(error_of([&] { mrope_position_ids(ids, {}, {}, {}, qwen()); }).rfind("image_grid_thw: has fewer grids", 0) == 0);
  CHECK(error_of([&] { mrope_position_ids(ids, {{1, 4, 6}}, {}, {}, qwen()); }).rfind("input_ids: image block 0", 0) == 0);
  CHECK(error_of([&] { mrope_position_ids(ids, {{1, 4, 4}, {1, 4, 4}}, {}, {}, qwen()); }).rfind("image_grid_thw: has 2", 0) == 0);
  CHECK(error_of([&] { mrope_position_ids(ids, {{1, 3, 4}}, {}, {}, qwen()); }).rfind("image_grid_thw[0]: h and w", 0) == 0);
  CHECK(error_of([&] { mrope_position_ids(ids, {{1, 4, 4}}, {{1, 2, 2}}, {1, 2}, qwen()); }).rfind("second_per_grid_ts:", 0) == 0);
}

TEST_CASE("2D axial RoPE, Pixtral's variant: h on θ_0, θ_2, …, w on θ_1, θ_3, … of one spectrum") {
  // Pixtral-12B vision: head_dim 64, rope_theta 10000
  const int d = 64;
  const double h[2] = {0, 5}, w[2] = {3, 7};
  std::vector<float> c(2 * 32), s(c.size());
  axial2d_tables(d, 1e4, h, w, 2, c.data(), s.data(), Axial2dVariant::pixtral);
  double worst = 0;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 32; ++i) {
      const int j = i < 16 ? 2 * i : 2 * (i - 16) + 1;  // spectrum index
      const double a = (i < 16 ? h[p] : w[p]) * std::pow(1e4, -2.0 * j / d);
      worst = std::max({worst, testutil::ulp_error(c[p * 32 + i], std::cos(a)), testutil::ulp_error(s[p * 32 + i], std::sin(a))});
    }
  CHECK(worst <= kTableUlps);
  // the h half equals Qwen2-VL's, the w half does not
  std::vector<float> cq(c.size()), sq(c.size());
  axial2d_tables(d, 1e4, h, w, 2, cq.data(), sq.data());
  for (int i = 0; i < 16; ++i) CHECK(c[32 + i] == cq[32 + i]);
  CHECK(c[32 + 17] != cq[32 + 17]);
}
