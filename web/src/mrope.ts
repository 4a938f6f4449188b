// Multimodal RoPE (cpp/src/mrope.cpp): Qwen2-VL M-RoPE and 2D axial RoPE tables.
import { Core } from './core.js';
import type { Out } from './rope.js';
import { ropeInvFreqOf, tableOutputs } from './rope.js';
import { PosencError, check, show } from './validate.js';
import { any, array, bool, int, num, numbers, oneOf, optional, out, parse, value } from './options.js';
import type { Schema } from './options.js';

const MROPE: Schema = { rotary_dim: int(2, 8192), rope_theta: num({ gt: 0 }, 10000), mrope_section: any(), positions: any(),
  mrope_interleaved: bool(false), out: out() };
const AXIAL: Schema = { rotary_dim: int(4, 8192), rope_theta: num({ gt: 0 }, 10000), positions_h: optional(array(2 ** 20)),
  positions_w: optional(array(2 ** 20)), grid: optional(any()), variant: oneOf(['qwen2_vl', 'pixtral'], 'qwen2_vl'), out: out() };
const AXIAL_VARIANTS: Record<'qwen2_vl' | 'pixtral', number> = { qwen2_vl: 0, pixtral: 1 };

/** A list of exactly n entries (an Array). */
function list(name: string, v: unknown, n: number): unknown[] {
  if (!Array.isArray(v) || v.length !== n) throw new PosencError(`${name}: must be a list of ${n} entries (got ${show(v)})`);
  return v;
}
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
  /** Where to write the tables. Default: new arrays. */
  out?: { cos: Out; sin: Out };
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
  /** Where to write the tables. Default: new arrays. */
  out?: { cos: Out; sin: Out };
}


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
    const o = parse('mropeTables', MROPE, options);
    const sec = list('mrope_section', o.mrope_section, 3);
    const pos = list('positions', o.positions, 3);
    const section = sec.map((v, i) => value(`mrope_section[${i}]`, int(0, 4096), v));
    const streams = pos.map((v, i) => numbers(`positions[${i}]`, v, 2 ** 20)), n = streams[0].length;
    const inv = ropeInvFreqOf(this.raw, o.rotary_dim, o.rope_theta);
    const st = this.heap.call();
    const [t, h, w] = streams.map((s, i) => st.input(`positions[${i}]`, s, 'f64', n));
    const pInv = st.input('inv_freq', inv, 'f64', inv.length), r = tableOutputs(st, o.out, n * inv.length);
    check(this.raw.mropeTables(pInv, inv.length, section[0], section[1], section[2], t, h, w, n, o.mrope_interleaved, r.cos.address, r.sin.address));
    return r.finish();
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
    parse('mropePositionIds', { config: any(), input_ids: array(2 ** 20), image_grid_thw: optional(any()), video_grid_thw: optional(any()),
      second_per_grid_ts: optional(array(2 ** 20)) }, options);
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
    const o = parse('axial2dTables', AXIAL, options);
    let h: ArrayLike<number>, w: ArrayLike<number>;
    if (o.grid !== undefined) {
      const g = list('grid', o.grid, 2).map((v, i) => value(`grid[${i}]`, int(1, 2 ** 20), v));
      const r = check(this.raw.axial2dGrid(g[0], g[1]));
      h = r.positions_h;
      w = r.positions_w;
    } else {
      h = value('positions_h', array(2 ** 20), o.positions_h);
      w = value('positions_w', array(2 ** 20), o.positions_w);
    }
    const n = h.length, st = this.heap.call();
    const ph = st.input('positions_h', h, 'f64', n), pw = st.input('positions_w', w, 'f64', n);
    const r = tableOutputs(st, o.out, n * (o.rotary_dim >> 1));
    check(this.raw.axial2dTables(o.rotary_dim, o.rope_theta, ph, pw, n, AXIAL_VARIANTS[o.variant as 'qwen2_vl' | 'pixtral'], r.cos.address, r.sin.address));
    return r.finish();
  }
}
