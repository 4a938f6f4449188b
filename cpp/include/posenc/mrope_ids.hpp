// posenc — M-RoPE position ids of a multimodal token sequence, as Hugging Face's `get_rope_index` of
// Qwen2-VL (`modeling_qwen2_vl.py`), Qwen2.5-VL (`modeling_qwen2_5_vl.py`) and Qwen3-VL (`modeling_qwen3_vl.py`).
//
// Every token gets three ids (t, h, w). Walking the sequence: a run of text tokens continues 1-D positions
// (t = h = w = next); each vision block — `vision_start_token_id` followed by the image's (or video's) pad tokens —
// takes its grid (t, h, w) from image_grid_thw / video_grid_thw in order, merged spatially to
// (t, h/m, w/m) (m = spatial_merge_size), and gets ids start + (t_idx, h_idx, w_idx) over the merged grid in
// row-major (t, h, w) order, where start is where the text before it ended. The text after a block continues at
// 1 + the largest id so far. rope_deltas = max id + 1 − L (what generation adds to later positions).
// Temporal index t_idx of frame k:
//  * Qwen2-VL: k;
//  * Qwen2.5-VL (tokens_per_second set): images 0; videos: ⌊k · trunc(second_per_grid_t) · tokens_per_second⌋ — the
//    reference casts second_per_grid_t to an integer tensor first, so 0.5 s per grid gives t_idx = 0 for every
//    frame (reproduced, not corrected);
//  * Qwen3-VL (split_video_frames): each video of t grids is t separate one-frame blocks (the processor puts a
//    timestamp text between frames), so t_idx = 0 and time advances through the text positions.
// One unpadded sequence (no attention_mask); token ids are compared, never interpreted otherwise.
#pragma once
#include <array>
#include <cstdint>
#include <limits>
#include <vector>

namespace posenc {

struct MropeIdsOptions {
  long long image_token_id = 0, video_token_id = 0, vision_start_token_id = 0;
  int spatial_merge_size = 2;
  /// Qwen2.5-VL: video time scaling (vision_config.tokens_per_second); NaN = none (Qwen2-VL, Qwen3-VL).
  double tokens_per_second = std::numeric_limits<double>::quiet_NaN();
  /// Qwen3-VL: each video grid row (t, h, w) becomes t rows (1, h, w), one per frame block.
  bool split_video_frames = false;
};

struct MropeIds {
  std::vector<std::int32_t> position_ids;  ///< [3, L] row-major: t ids, then h ids, then w ids
  long long rope_deltas = 0;
};

/// Throws Error naming the parameter: a grid entry not positive or h/w not divisible by spatial_merge_size,
/// fewer/more grids than vision blocks, a block whose pad-token run is not exactly t·h·w/m² long, ids > 2^31−1.
MropeIds mrope_position_ids(const std::vector<long long>& input_ids,
                            const std::vector<std::array<long long, 3>>& image_grid_thw,
                            const std::vector<std::array<long long, 3>>& video_grid_thw,
                            const std::vector<double>& second_per_grid_ts, const MropeIdsOptions& o);
}  // namespace posenc
