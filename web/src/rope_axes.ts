// Positions beyond one text axis: the per-axis RoPE of image / video models' configs (config/axes.ts) and dual chunk
// attention's remapped distances (config/dual_chunk.ts).
import { Core } from './core.js';
import { PosencError, show } from './validate.js';
import { any, array, int, num, optional, parse } from './options.js';
import type { Schema } from './options.js';
import { ropeAxesOf } from './config/axes.js';
import type { RopeAxesFromConfig, RopeAxesOptions } from './config/axes.js';
import { MAX_POSITION, dualChunkDistancesOf } from './config/dual_chunk.js';
import type { DualChunkDistances } from './config/dual_chunk.js';

export type { RopeAxesFromConfig, RopeAxesOptions, RopeAxis, AxisPositionForm } from './config/axes.js';
export type { DualChunkDistances } from './config/dual_chunk.js';

const AXES: Schema = { grid: optional(any()), fps: optional(num({ min: 1e-3, max: 1e6 })) };
const DCA: Schema = { chunk_size: int(1, MAX_POSITION), local_size: int(0, MAX_POSITION), q_positions: array(1 << 20), k_positions: array(1 << 20) };

/** Options of {@link Posenc.dualChunkDistances}; names as `dual_chunk_attention_config`. */
export interface DualChunkDistancesOptions {
  /** Qwen2.5-1M: 262144. */
  chunk_size: number;
  /** Qwen2.5-1M: 8192 (must be < chunk_size). */
  local_size: number;
  /** Query positions (integers in [0, 2^40]). */
  q_positions: ArrayLike<number>;
  /** Key positions (integers in [0, 2^40]); pairs with key > query are masked (causal). */
  k_positions: ArrayLike<number>;
}

function integers(name: string, v: ArrayLike<number>): ArrayLike<number> {
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (!Number.isInteger(x) || x < 0 || x > MAX_POSITION) throw new PosencError(`${name}[${i}]: must be an integer in [0, 2^40] (got ${show(x)})`);
  }
  return v;
}

export class RopeAxesApi extends Core {
  /**
   * The RoPE of an image or video model's config, per position axis — a diffusers transformer `config.json`
   * (`_class_name` WanTransformer3DModel, HunyuanVideoTransformer3DModel, CosmosTransformer3DModel, FluxTransformer2DModel,
   * CogVideoXTransformer3DModel), a vision encoder (`model_type` 'dinov3_vit'), or a VLM's `vision_config` (Pixtral,
   * Qwen2-VL, Qwen2.5-VL, Qwen3-VL; the same tower as ropeFromConfig's `vision_rope`). Per axis: rotary_dim, base (Cosmos:
   * 10000·rope_scale^(d/(d−2))), inv_freq (from the C++ core: exactly {@link Posenc.ropeInvFreq}'s at that base and
   * dimension — Pixtral's w: the odd frequencies of one spectrum), which rotation pairs it drives, and how its positions
   * are formed ('integer', 'center_normalized', 'fps_scaled', 'crop_linspace', 'pipeline_ids'; values with options.grid).
   * `layout` says which channels form pair p. Text LLMs: {@link Posenc.ropeFromConfig}.
   * Accuracy: inv_freq as ropeInvFreq (float64, within 4 ulp of base^(−2k/d)); positions exact for integer forms, within
   * 2 ulp for normalised / fps-scaled / linspace ones. Caps: grid sides ≤ 2^20 (≤ 2^26 tokens), fps in [1e-3, 1e6].
   * @throws PosencError naming the key and the rule; for models without RoPE (SigLIP / SigLIP 2: learned 2-D tables,
   * CogVideoX without use_rotary_positional_embeddings) a PosencError saying what positions they use.
   */
  ropeAxesFromConfig(config: unknown, options: RopeAxesOptions = {}): RopeAxesFromConfig {
    const o = parse('ropeAxesFromConfig', AXES, options);
    return ropeAxesOf(this.raw, config, { grid: o.grid, fps: o.fps });
  }

  /**
   * Dual chunk attention's effective relative distances (vLLM `DualChunkRotaryEmbedding` with its flash-attention
   * backend; Qwen2.5-1M: chunk_size 262144, local_size 8192): matrix [q_positions.length, k_positions.length] of the
   * distance each pair's rotation encodes, and its kind. L = chunk_size − local_size; intra-chunk pairs keep i − j;
   * a key in the previous chunk gets min(i mod L + L, chunk_size) − (j mod L); older keys min(2L − 1, chunk_size) − (j mod L).
   * So no pair is ever further apart than chunk_size. Exact (integer arithmetic in float64). Not modelled: vLLM's
   * length-dependent softmax scaling_factor and the sparse ("critical") path.
   * @throws PosencError for local_size ≥ chunk_size, non-integer or negative positions, more than 2^24 pairs.
   */
  dualChunkDistances(options: DualChunkDistancesOptions): DualChunkDistances {
    const o = parse('dualChunkDistances', DCA, options);
    return dualChunkDistancesOf(o.chunk_size, o.local_size, integers('q_positions', o.q_positions), integers('k_positions', o.k_positions));
  }
}
