// Positions beyond one text axis: the per-axis RoPE of image / video models' configs (config/axes.ts) and dual chunk
// attention's remapped distances (config/dual_chunk.ts).
import { Core } from './core.js';
import { PosencError, check, show } from './validate.js';
import { any, array, int, num, optional, out, parse } from './options.js';
import { tableOutputs } from './rope.js';
import type { Out } from './rope.js';
import type { Schema } from './options.js';
import { ropeAxesOf } from './config/axes.js';
import type { RopeAxesFromConfig, RopeAxesOptions } from './config/axes.js';
import { MAX_POSITION, dualChunkDistancesOf } from './config/dual_chunk.js';
import type { DualChunkDistances } from './config/dual_chunk.js';
import { MAX_OUT, MAX_SIDE, resizeGridOf } from './grid_resize.js';
import { WasmBuffer } from './buffers.js';

export type { RopeAxesFromConfig, RopeAxesOptions, RopeAxis, AxisPositionForm } from './config/axes.js';
export type { DualChunkDistances } from './config/dual_chunk.js';

const AXES: Schema = { grid: optional(any()), fps: optional(num({ min: 1e-3, max: 1e6 })) };
const TABLES: Schema = { grid: any(), fps: optional(num({ min: 1e-3, max: 1e6 })), out: out() };
const RESIZE: Schema = { table: array(MAX_OUT), rows: int(1, MAX_SIDE), cols: int(1, MAX_SIDE), dim: int(1, 1 << 16, 1), height: int(1, MAX_SIDE), width: int(1, MAX_SIDE) };
const DCA: Schema = { chunk_size: int(1, MAX_POSITION), local_size: int(0, MAX_POSITION), q_positions: array(1 << 20), k_positions: array(1 << 20) };

/** Options of {@link Posenc.ropeAxesTables}. */
export interface RopeAxesTableOptions {
  /** Patch-grid size per axis ([t, h, w] or [h, w]); tokens in row-major order (last axis fastest), as diffusers flattens them. */
  grid: number[];
  /** Cosmos: frames per second (see ropeAxesFromConfig). */
  fps?: number;
  /** Where to write the tables. Default: new arrays. */
  out?: { cos: Out; sin: Out };
}

/** Options of {@link Posenc.resizePositionGrid}. */
export interface ResizePositionGridOptions {
  /** The learned table, row-major [rows, cols, dim] (channels last: SigLIP 2's position_embedding.weight reshaped to (side, side, embed_dim)). */
  table: ArrayLike<number>;
  rows: number;
  cols: number;
  /** Channels per grid cell. Default 1. */
  dim?: number;
  /** The patch grid to resize to (SigLIP 2: `spatial_shapes[i]` = (height, width)). */
  height: number;
  width: number;
}

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
   * cos / sin tables [tokens, rotary_dim/2] of a multi-axis RoPE over a patch grid (computed by the core's M-RoPE kernel,
   * the M-RoPE table kernel, with each axis's own frequencies): token k at grid index (a₀, a₁, a₂) (last axis fastest), pair p
   * of axis a: angle = angle_scale · positions_a[a_a] · inv_freq_a[p − pairs_a[0]], as {@link Posenc.ropeAxesFromConfig}
   * gives them for `config` at `grid`. Apply with the result's `layout` (pe.ropeApplyTables, rotary_dim = head_dim).
   * Rows are row-major over the grid; the Qwen-VL vision towers feed their patches in spatial-merge blocks (m×m patches
   * together, `rot_pos_emb`), so reorder rows for them (the angles per (row, column) are the same).
   * Accuracy: angles formed in float64, cos/sin within 2 float32 ulp (plus 1e-7 absolute) of float64.
   * Caps: at most 2^20 tokens, 2^26 table entries.
   */
  ropeAxesTables(config: unknown, options: RopeAxesTableOptions): { cos: Float32Array; sin: Float32Array } {
    const o = parse('ropeAxesTables', TABLES, options);
    const r = ropeAxesOf(this.raw, config, { grid: o.grid, fps: o.fps });
    const n = (o.grid as number[]).reduce((a, b) => a * b, 1);
    if (n > 1 << 20) throw new PosencError(`grid: at most 2^20 tokens (got ${(o.grid as number[]).join('·')} = ${n})`);
    // three streams t, h, w for the kernel; a 2-D model gets an empty t section
    const axes = r.axes.length === 3 ? r.axes : [null, ...r.axes];
    const streams = axes.map(() => new Float64Array(n));
    const sides = axes.map((a) => (a ? a.positions!.length : 1));
    for (let k = 0; k < n; k++) {
      let rest = k;
      for (let a = 2; a >= 0; a--) {
        const i = rest % sides[a];
        rest = (rest - i) / sides[a];
        streams[a][k] = axes[a] ? axes[a]!.positions![i] : 0;
      }
    }
    const inv = new Float64Array(r.rotary_dim / 2);
    for (const a of r.axes) inv.set(a.inv_freq.map((f) => f * a.angle_scale), a.pairs[0]);
    const st = this.heap.call();
    const pInv = st.input('inv_freq', inv, 'f64', inv.length);
    const [t, h, w] = streams.map((s, i) => st.input(`positions[${i}]`, s, 'f64', n));
    const tab = tableOutputs(st, o.out, n * inv.length);
    const sec = axes.map((a) => (a ? a.inv_freq.length : 0));
    check(this.raw.mropeTables(pInv, inv.length, sec[0], sec[1], sec[2], t, h, w, n, false, tab.cos.address, tab.sin.address));
    return tab.finish();
  }

  /**
   * A learned 2-D position table resized to another patch grid as SigLIP 2 does for every image (transformers
   * Siglip2VisionEmbeddings.resize_positional_embeddings: F.interpolate bilinear, align_corners=False, antialias=True):
   * separable, per axis PyTorch's antialiased linear weights (upsampling: bilinear with clamped edges; downsampling by s: a
   * triangle filter s input cells wide, e.g. [1, 3, 3, 1]/8 for s = 2). Returns [height, width, dim] row-major, float64.
   * Positions stay absolute and are stretched to the image: a patch's embedding depends on its place as a fraction of
   * the grid, not on a patch count. Accuracy: float64 sums of at most 2·⌈s⌉ + 1 taps per axis (PyTorch runs float32).
   * Caps: sides ≤ 4096, dim ≤ 65536, table and output ≤ 2^26 entries each. `table` may be a wasm buffer (pe.alloc).
   * @throws PosencError for a table whose length is not rows · cols · dim, non-finite entries, or too large a table or output.
   */
  resizePositionGrid(options: ResizePositionGridOptions): Float64Array {
    const o = parse('resizePositionGrid', RESIZE, options);
    const table = o.table instanceof WasmBuffer ? o.table.array : (o.table as ArrayLike<number>);   // a wasm buffer: its view
    return resizeGridOf(table, o.rows, o.cols, o.dim, o.height, o.width);
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
