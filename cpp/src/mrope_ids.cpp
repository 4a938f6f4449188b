#include "posenc/mrope_ids.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "posenc/error.hpp"

namespace posenc {
namespace {
std::string grid_name(bool video, std::size_t k) {
  return std::string(video ? "video_grid_thw[" : "image_grid_thw[") + std::to_string(k) + "]";
}
}  // namespace

MropeIds mrope_position_ids(const std::vector<long long>& ids, const std::vector<std::array<long long, 3>>& images,
                            const std::vector<std::array<long long, 3>>& videos_in,
                            const std::vector<double>& second_per_grid_ts, const MropeIdsOptions& o) {
  detail::require_int_range("input_ids.length", static_cast<long long>(ids.size()), 1, kMaxSeqLen);
  detail::require_int_range("spatial_merge_size", o.spatial_merge_size, 1, 1024);
  if (!std::isnan(o.tokens_per_second) && !(std::isfinite(o.tokens_per_second) && o.tokens_per_second >= 0))
    detail::fail("tokens_per_second", "must be a finite number >= 0 (got " + detail::format_number(o.tokens_per_second) + ")");
  if (!second_per_grid_ts.empty() && second_per_grid_ts.size() != videos_in.size())
    detail::fail("second_per_grid_ts", "needs one entry per video (" + std::to_string(videos_in.size()) + "), got " +
                                           std::to_string(second_per_grid_ts.size()));
  for (double v : second_per_grid_ts)
    if (!std::isfinite(v) || v < 0) detail::fail("second_per_grid_ts", "every entry must be a finite number >= 0");
  const long long m = o.spatial_merge_size;
  auto check_grid = [&](const std::array<long long, 3>& g, bool video, std::size_t k) {
    for (long long v : g)
      if (v < 1 || v > kMaxSeqLen) detail::fail(grid_name(video, k).c_str(), "every entry must be an integer in [1, 1048576]");
    if (g[1] % m || g[2] % m)
      detail::fail(grid_name(video, k).c_str(), "h and w must be multiples of spatial_merge_size = " + std::to_string(m));
  };
  for (std::size_t k = 0; k < images.size(); ++k) check_grid(images[k], false, k);
  // Videos as blocks: (grid, seconds per grid, index of the video it came from).
  struct Block { std::array<long long, 3> g; double spg; std::size_t video; };
  std::vector<Block> videos;
  for (std::size_t k = 0; k < videos_in.size(); ++k) {
    check_grid(videos_in[k], true, k);
    const double spg = second_per_grid_ts.empty() ? 1.0 : second_per_grid_ts[k];
    if (o.split_video_frames)
      for (long long f = 0; f < videos_in[k][0]; ++f) videos.push_back({{1, videos_in[k][1], videos_in[k][2]}, spg, k});
    else
      videos.push_back({videos_in[k], spg, k});
  }

  const std::size_t L = ids.size();
  MropeIds r;
  r.position_ids.assign(3 * L, 0);
  std::size_t n_img = 0, n_vid = 0;
  long long next = 0;  // first id of the text that follows
  long long max_id = -1;
  auto put = [&](std::size_t pos, long long t, long long h, long long w) {
    if (std::max({t, h, w}) > 2147483647LL) detail::fail("input_ids", "position ids exceed 2^31 - 1");
    r.position_ids[pos] = static_cast<std::int32_t>(t);
    r.position_ids[L + pos] = static_cast<std::int32_t>(h);
    r.position_ids[2 * L + pos] = static_cast<std::int32_t>(w);
    max_id = std::max({max_id, t, h, w});
  };
  std::size_t i = 0;
  while (i < L) {
    const bool starts_block = i > 0 && ids[i - 1] == o.vision_start_token_id &&
                              (ids[i] == o.image_token_id || ids[i] == o.video_token_id);
    if (!starts_block) {
      put(i, next, next, next);
      ++next, ++i;
      continue;
    }
    const bool video = ids[i] == o.video_token_id;
    const std::size_t k = video ? n_vid++ : n_img++;
    if (k >= (video ? videos.size() : images.size()))
      detail::fail(video ? "video_grid_thw" : "image_grid_thw",
                   "has fewer grids than the " + std::string(video ? "video" : "image") +
                       " blocks in input_ids (block " + std::to_string(k) + " starts at index " + std::to_string(i) + ")");
    const auto& g = video ? videos[k].g : images[k];
    const long long gt = g[0], gh = g[1] / m, gw = g[2] / m, n = gt * gh * gw;
    long long run = 0;
    while (i + run < L && ids[i + run] == ids[i]) ++run;
    if (run != n)
      detail::fail("input_ids", std::string(video ? "video" : "image") + " block " + std::to_string(k) + " at index " +
                                    std::to_string(i) + " needs " + std::to_string(n) + " pad tokens (t*h*w/" +
                                    std::to_string(m * m) + "), got " + std::to_string(run));
    // Qwen2.5-VL: images have second_per_grid_t = 0; a video's becomes an integer tensor before the multiply.
    const double step =
        std::isnan(o.tokens_per_second) ? 1.0 : video ? std::trunc(videos[k].spg) * o.tokens_per_second : 0.0;
    const long long start = next;
    for (long long t = 0; t < gt; ++t)
      for (long long h = 0; h < gh; ++h)
        for (long long w = 0; w < gw; ++w)
          put(i + static_cast<std::size_t>((t * gh + h) * gw + w), start + static_cast<long long>(double(t) * step),
              start + h, start + w);
    i += static_cast<std::size_t>(n);
    next = max_id + 1;
  }
  if (n_img != images.size())
    detail::fail("image_grid_thw", "has " + std::to_string(images.size()) + " grids but input_ids has " +
                                       std::to_string(n_img) + " image blocks (vision_start_token_id then image tokens)");
  if (n_vid != videos.size())
    detail::fail("video_grid_thw", std::to_string(videos.size()) + " video blocks expected" +
                                       (o.split_video_frames ? " (one per frame: Qwen3-VL)" : "") + ", input_ids has " +
                                       std::to_string(n_vid));
  r.rope_deltas = max_id + 1 - static_cast<long long>(L);
  return r;
}
}  // namespace posenc
