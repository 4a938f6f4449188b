// Multimodal RoPE (cpp/src/mrope.cpp): Qwen2-VL M-RoPE and 2D axial RoPE tables.
import { Core } from './core.js';
import { ropeInvFreqOf } from './rope.js';
import { PosencError, arrayOf, booleanOr, check, integer, number, object, oneOf } from './validate.js';
import { mropePositionIdsOf } from './config/rope_from_config.js';
import type { MropePositionIdsOptions } from './config/rope_from_config.js';

export type { MropePositionIdsOptions };

/** Options of {@link Posenc.mropeTables}. */
export interface MropeTableOptions {
  /** Rotated channels (Qwen2-VL: head_dim 128). */
  rotary_dim: number;
  /** Default 10000 (Qwen2-VL configs use 1000000). */
  rope_theta?: number;
  /** [t, h, w] frequency counts summing to rotary_dim/2. Qwen2-VL: [16, 24, 24]. */
  mrope_section: [number, number, number] | number[];
  /** Three position streams of equal length: [t, h, w]. */
  positions: [ArrayLike<number>, ArrayLike<number>, ArrayLike<number>];
  /** Qwen3-VL's interleaved sections (config `mrope_interleaved`); default false (Qwen2-VL's contiguous ones). */
  mrope_interleaved?: boolean;
}

/** Options of {@link Posenc.axial2dTables}. */
export interface Axial2dTableOptions {
  /** Multiple of 4. */
  rotary_dim: number;
  /** Default 10000. */
  rope_theta?: number;
  /** Row coordinate of each patch; or give `grid`. */
  positions_h?: ArrayLike<number>;
  /** Column coordinate of each patch. */
  positions_w?: ArrayLike<number>;
  /** [grid_h, grid_w]: row-major patch grid (overrides positions_h/positions_w). */
  grid?: [number, number];
  /**
   * `'qwen2_vl'` (default): both axes use φ_k = rope_theta^(−4k/rotary_dim). `'pixtral'` (HF `PixtralRotaryEmbedding`,
   * vision keys head_dim = rotary_dim, rope_theta): h uses θ_0, θ_2, …, w uses θ_1, θ_3, … of θ_j = rope_theta^(−2j/rotary_dim).
   */
  variant?: 'qwen2_vl' | 'pixtral';
}

const AXIAL_VARIANTS = { qwen2_vl: 0, pixtral: 1 };

/** Qwen2-VL M-RoPE and 2D axial RoPE. */
export class MropeApi extends Core {
  /**
   * Qwen2-VL multimodal RoPE tables [n, rotary_dim/2] (HF `apply_multimodal_rotary_pos_emb`): frequency i takes its
   * angle from the t stream for i < s_t, h for i < s_t + s_h, else w. Apply with layout `'half_split'` (the reference
   * uses `rotate_half`). Text tokens (t = h = w) get plain RoPE. With `mrope_interleaved` (Qwen3-VL,
   * `apply_interleaved_mrope`): frequency i uses h when i ≡ 1 (mod 3) and i < 3·s_h, w when i ≡ 2 (mod 3) and
   * i < 3·s_w, else t — each axis spans low and high frequencies.
   */
  mropeTables(options: MropeTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    const sec = o.mrope_section as unknown;
    if (!Array.isArray(sec) || sec.length !== 3) throw new PosencError(`mrope_section: must be a list of 3 integers (got ${JSON.stringify(sec)})`);
    const pos = o.positions as unknown;
    if (!Array.isArray(pos) || pos.length !== 3) throw new PosencError('positions: must be [t, h, w], three position streams');
    const inv = ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta);
    return check(this.raw.mropeTables(inv, integer('mrope_section[0]', sec[0]), integer('mrope_section[1]', sec[1]),
      integer('mrope_section[2]', sec[2]), arrayOf('positions_t', pos[0], Float64Array), arrayOf('positions_h', pos[1], Float64Array),
      arrayOf('positions_w', pos[2], Float64Array), booleanOr('mrope_interleaved', o.mrope_interleaved, false)));
  }

  /**
   * M-RoPE position ids of one token sequence, as Hugging Face's `get_rope_index` (Qwen2-VL, Qwen2.5-VL, Qwen3-VL):
   * `position_ids` [3, L] (t row, h row, w row) and `rope_deltas` = max id + 1 − L (what generation adds to the
   * positions of later tokens). Text continues 1-D positions (t = h = w); an image or video block — the config's
   * `vision_start_token_id` followed by exactly t·h·w/m² pad tokens (`image_token_id` / `video_token_id`),
   * m = `vision_config.spatial_merge_size` — gets start + (t, h, w) indices over its merged grid; text after it resumes at
   * 1 + the largest id. Temporal index of frame k: Qwen2-VL k; Qwen2.5-VL (vision_config.tokens_per_second)
   * ⌊k · trunc(second_per_grid_t) · tokens_per_second⌋ for videos (the reference truncates second_per_grid_t to an
   * integer first) and 0 for images; Qwen3-VL (interleaved M-RoPE) splits each video into one block per frame, the
   * processor's timestamp text between them. Exact integers; one unpadded sequence.
   * @throws PosencError for grids that do not match the blocks in input_ids (count, pad-token run length, h or w not a
   * multiple of the merge size) and for configs without the token ids.
   */
  mropePositionIds(options: MropePositionIdsOptions): { position_ids: Int32Array; rope_deltas: number } {
    return mropePositionIdsOf(this.raw, options);
  }

  /**
   * 2D axial RoPE tables for image patches [n, rotary_dim/2] (Qwen2-VL vision tower): row = [h·φ_0…h·φ_{q−1},
   * w·φ_0…w·φ_{q−1}], φ_k = rope_theta^(−2k/(rotary_dim/2)), q = rotary_dim/4. Apply with `'half_split'`. Pixtral's
   * variant (`variant: 'pixtral'`) gives w the odd frequencies of the same spectrum instead.
   * Scores depend only on the (row, column) offsets. `variant: 'pixtral'` (HF `PixtralRotaryEmbedding`): h takes the even,
   * w the odd frequencies θ_j = rope_theta^(−2j/rotary_dim) of one spectrum (rotary_dim = the vision head_dim).
   */
  axial2dTables(options: Axial2dTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = object('options', options);
    let h: Float64Array, w: Float64Array;
    if (o.grid != null) {
      const g = o.grid as unknown;
      if (!Array.isArray(g) || g.length !== 2) throw new PosencError('grid: must be [grid_h, grid_w]');
      const r = check(this.raw.axial2dGrid(integer('grid[0]', g[0]), integer('grid[1]', g[1])));
      h = r.positions_h;
      w = r.positions_w;
    } else {
      h = arrayOf('positions_h', o.positions_h, Float64Array);
      w = arrayOf('positions_w', o.positions_w, Float64Array);
    }
    return check(this.raw.axial2dTables(integer('rotary_dim', o.rotary_dim), number('rope_theta', o.rope_theta ?? 10000), h, w,
      oneOf('variant', o.variant ?? 'qwen2_vl', AXIAL_VARIANTS)));
  }
}
