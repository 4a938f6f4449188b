// Reading the RoPE of an image / video model's config into per-axis rotary embeddings: diffusers transformers (Wan,
// HunyuanVideo, Cosmos, Flux, CogVideoX), vision encoders (DINOv3, Pixtral) and the vision tower of a VLM (Qwen2-VL,
// Qwen2.5-VL, Qwen3-VL). Every formula is taken from the reference code named at each reader (huggingface/diffusers@58eb52c0,
// huggingface/transformers at the commits named). The inverse frequencies are computed by the C++ core (ropeInvFreq);
// this file reads keys, applies each model's split of the head and its base, and forms the positions.
import type { RawModule } from '../raw.js';
import { ropeInvFreqOf } from '../rope.js';
import { PosencError, show } from '../validate.js';
import { configObject } from './read.js';
import { visionRopeOf } from './vision_rope.js';
import { isObj } from './checks.js';
import type { Obj } from './checks.js';

/** How an axis's position ids are formed from a token's place on the (t, h, w) or (h, w) patch grid (index i of n). */
export type AxisPositionForm =
  /** i = 0, 1, …, n − 1 (diffusers' `torch.arange`, transformers' row / column indices). */
  | 'integer'
  /** DINOv3 patch centres 2·(i + ½)/n − 1 in [−1, 1], whatever the resolution (angle 2π·coordinate·inv_freq). */
  | 'center_normalized'
  /** Cosmos time: i · base_fps / fps for a video, i for an image (fps not given). */
  | 'fps_scaled'
  /** CogVideoX 1.0 space: linspace(crop_start, crop_stop·(n − 1)/n, n) of the crop of the base grid (integers at the base size). */
  | 'crop_linspace'
  /** Flux: the pipeline's ids — text tokens 0 on every axis, image latents (0, row, column) of the packed latent grid. */
  | 'pipeline_ids';

/** One position axis of a multi-axis RoPE. */
export interface RopeAxis {
  /** 't', 'h', 'w' (video), 'h', 'w' (image patches), or Flux's 'index', 'h', 'w'. */
  name: string;
  /** Channels this axis rotates: 2 · inv_freq.length. */
  rotary_dim: number;
  /** The base of this axis's frequencies: rope_theta, times Cosmos's NTK factor. */
  base: number;
  /** Cosmos: rope_scale[axis]^(d/(d − 2)) multiplying 10000 (the base); 1 elsewhere. */
  ntk_factor: number;
  /** Frequencies (float64): pair k of the axis turns by angle_scale · position · inv_freq[k]. */
  inv_freq: Float64Array;
  /** 2π for DINOv3 (angles 2π·coordinate·inv_freq), 1 elsewhere. */
  angle_scale: number;
  /** [first, end) of the head's rotation pairs this axis drives (pair p: see the result's layout). */
  pairs: [number, number];
  position_form: AxisPositionForm;
  /** Cosmos's base_fps (24) for 'fps_scaled'; null elsewhere. */
  base_fps: number | null;
  /** With options.grid: the axis's position ids for its grid size (the token grid is their product, axis by axis). */
  positions: Float64Array | null;
}

/** Result of {@link Posenc.ropeAxesFromConfig}. */
export interface RopeAxesFromConfig {
  /** Which reader: 'wan', 'hunyuan_video', 'cosmos', 'flux', 'cogvideox', 'dinov3', 'pixtral', 'qwen2_vl', 'qwen3_vl'. */
  model: string;
  /** diffusers `_class_name` or transformers `model_type` (of the tower read). */
  class_name: string;
  /** Key path the axes were read from ('' or 'vision_config.'). */
  source: string;
  head_dim: number;
  /** Sum of the axes' rotary_dim (= head_dim in every model read here). */
  rotary_dim: number;
  /**
   * Rotation pair p: `interleaved` (diffusers `apply_rotary_emb`, use_real_unbind_dim −1, Wan's own) channels (2p, 2p + 1);
   * `half_split` (use_real_unbind_dim −2, transformers' rotate_half) channels (p, p + rotary_dim/2).
   */
  layout: 'interleaved' | 'half_split';
  axes: RopeAxis[];
  /** Tokens before the patches that are not rotated: DINOv3's CLS + registers (1 + num_register_tokens); else 0. */
  unrotated_prefix_tokens: number;
  /** A learned absolute table added to the patches besides RoPE (Qwen3-VL's vision pos_embed); null if none. */
  learned_absolute: { num_position_embeddings: number; grid_per_side: number; resize: string } | null;
  /** Where the formulas come from: repository@commit and file. */
  reference: string;
  warnings: string[];
}

export interface RopeAxesOptions {
  /** Patch-grid size per axis ([t, h, w] or [h, w]): fills each axis's `positions`. */
  grid?: number[];
  /** Cosmos: frames per second of the video, in [1e-3, 1e6] (temporal ids scaled by base_fps / fps); omit for an image. */
  fps?: number;
}

const DIFFUSERS = 'huggingface/diffusers@58eb52c0803ea9af3abec60841c2a093bdf1f951';
/** Largest head / axis dimension read (the core's rotary_dim cap). */
const MAX_DIM = 8192;
/** Largest grid side formed (per axis). */
export const MAX_GRID = 1 << 20;

function posInt(path: string, v: unknown, max = MAX_DIM): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > max) throw new PosencError(`${path}: must be an integer in [1, ${max}] (got ${show(v)})`);
  return v;
}
function positive(path: string, v: unknown, max = 1e12): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > max) throw new PosencError(`${path}: must be a finite number in (0, ${max}] (got ${show(v)})`);
  return v;
}
function evenDim(path: string, d: number): number {
  if (d < 2 || d % 2) throw new PosencError(`${path}: an axis's rotary dimension must be even and ≥ 2 (got ${d})`);
  return d;
}
function tuple(path: string, v: unknown, n: number, f: (p: string, x: unknown) => number): number[] {
  if (!Array.isArray(v) || v.length !== n) throw new PosencError(`${path}: must be a list of ${n} numbers (got ${show(v)})`);
  return v.map((x, i) => f(`${path}[${i}]`, x));
}

interface AxisPlan { name: string; dim: number; base: number; ntk: number; form: AxisPositionForm; angle_scale?: number;
  /** Pixtral: the axis takes every other frequency of one spectrum (offset 0 or 1) of 2·dim channels. */
  pixtral?: 0 | 1; base_fps?: number }
interface Plan { model: string; class_name: string; source: string; head_dim: number; layout: 'interleaved' | 'half_split';
  axes: AxisPlan[]; prefix: number; learned: RopeAxesFromConfig['learned_absolute']; reference: string; warnings: string[];
  /** CogVideoX 1.0: the base grid (h, w) its crop coordinates are computed against. */
  cog_base?: [number, number] }

/** diffusers transformer configs (`_class_name`): the split of the head over (t, h, w), the base, the pairing. */
function diffusersPlan(c: Obj, cls: string): Plan {
  const plan = (model: string, head_dim: number, layout: Plan['layout'], axes: AxisPlan[], file: string, warnings: string[] = []): Plan =>
    ({ model, class_name: cls, source: '', head_dim, layout, axes, prefix: 0, learned: null, reference: `${DIFFUSERS} ${file}`, warnings });
  const D = (dflt: number) => posInt('attention_head_dim', c.attention_head_dim ?? dflt);
  switch (cls) {
    case 'WanTransformer3DModel': case 'WanVACETransformer3DModel': {
      // WanRotaryPosEmbed: h_dim = w_dim = 2·(attention_head_dim // 6), t_dim the rest; get_1d_rotary_pos_embed(θ = 10000,
      // repeat_interleave_real=True); WanAttnProcessor's apply_rotary_emb pairs (2i, 2i + 1)
      const d = D(128), hw = 2 * Math.floor(d / 6);
      if (c.rope_max_seq_len !== undefined) posInt('rope_max_seq_len', c.rope_max_seq_len, MAX_GRID);
      return plan('wan', d, 'interleaved', [
        { name: 't', dim: evenDim('attention_head_dim', d - 2 * hw), base: 1e4, ntk: 1, form: 'integer' },
        { name: 'h', dim: evenDim('attention_head_dim', hw), base: 1e4, ntk: 1, form: 'integer' },
        { name: 'w', dim: hw, base: 1e4, ntk: 1, form: 'integer' }], 'src/diffusers/models/transformers/transformer_wan.py (WanRotaryPosEmbed)',
      [`rope_max_seq_len: ${c.rope_max_seq_len ?? 1024} positions per axis are tabulated (longer grids index past the table)`]);
    }
    case 'HunyuanVideoTransformer3DModel': {
      // HunyuanVideoRotaryPosEmbed(rope_axes_dim, rope_theta): get_1d_rotary_pos_embed per axis on an integer meshgrid; apply_rotary_emb default
      const dims = tuple('rope_axes_dim', c.rope_axes_dim ?? [16, 56, 56], 3, (p, x) => evenDim(p, posInt(p, x)));
      const theta = positive('rope_theta', c.rope_theta ?? 256);
      const d = D(128);
      if (dims[0] + dims[1] + dims[2] !== d) throw new PosencError(`rope_axes_dim: must sum to attention_head_dim = ${d} (got ${dims.join(' + ')})`);
      return plan('hunyuan_video', d, 'interleaved', ['t', 'h', 'w'].map((name, i) => ({ name, dim: dims[i], base: theta, ntk: 1, form: 'integer' as const })),
        'src/diffusers/models/transformers/transformer_hunyuan_video.py (HunyuanVideoRotaryPosEmbed)');
    }
    case 'CosmosTransformer3DModel': {
      // CosmosRotaryPosEmbed: dim_h = dim_w = D // 6 · 2, dim_t the rest; θ_axis = 10000 · rope_scale[axis]^(d/(d − 2));
      // time ids i / fps · base_fps (base_fps 24) for videos; cat([t, h, w] · 2) with use_real_unbind_dim −2: halves
      const d = D(128), hw = Math.floor(d / 6) * 2;
      const scale = tuple('rope_scale', c.rope_scale ?? [2, 1, 1], 3, (p, x) => positive(p, x, 1e6));
      const dims = [evenDim('attention_head_dim', d - 2 * hw), evenDim('attention_head_dim', hw), hw];
      dims.forEach((x, i) => { if (x <= 2 && scale[i] !== 1) throw new PosencError(`rope_scale[${i}]: the NTK factor rope_scale^(d/(d − 2)) needs an axis dimension d > 2 (got ${x})`); });
      return plan('cosmos', d, 'half_split', ['t', 'h', 'w'].map((name, i) => {
        const ntk = scale[i] === 1 ? 1 : scale[i] ** (dims[i] / (dims[i] - 2));
        return { name, dim: dims[i], base: 1e4 * ntk, ntk, form: i === 0 ? 'fps_scaled' as const : 'integer' as const, ...(i === 0 ? { base_fps: 24 } : {}) };
      }), 'src/diffusers/models/transformers/transformer_cosmos.py (CosmosRotaryPosEmbed)');
    }
    case 'FluxTransformer2DModel': {
      // FluxPosEmbed(theta=10000, axes_dim=axes_dims_rope): one get_1d_rotary_pos_embed per id column; apply_rotary_emb default
      const dims = tuple('axes_dims_rope', c.axes_dims_rope ?? [16, 56, 56], 3, (p, x) => evenDim(p, posInt(p, x)));
      const d = D(128);
      if (dims[0] + dims[1] + dims[2] !== d) throw new PosencError(`axes_dims_rope: must sum to attention_head_dim = ${d} (got ${dims.join(' + ')})`);
      return plan('flux', d, 'interleaved', ['index', 'h', 'w'].map((name, i) => ({ name, dim: dims[i], base: 1e4, ntk: 1, form: 'pipeline_ids' as const })),
        'src/diffusers/models/transformers/transformer_flux.py (FluxPosEmbed), pipelines/flux/pipeline_flux.py (_prepare_latent_image_ids)');
    }
    case 'CogVideoXTransformer3DModel': {
      if (c.use_rotary_positional_embeddings !== true) {
        throw new PosencError(`use_rotary_positional_embeddings: ${String(c.use_rotary_positional_embeddings ?? false).slice(0, 40)} — this CogVideoX uses ` +
          `${c.use_learned_positional_embeddings === true ? 'learned' : '3-D sinusoidal'} absolute position embeddings (CogVideoXPatchEmbed), not RoPE`);
      }
      // get_3d_rotary_pos_embed: dim_t = D // 4, dim_h = dim_w = D // 8 · 3, θ 10000, use_real (repeat_interleave) → pairs (2i, 2i + 1)
      const d = D(64), t = Math.floor(d / 4), hw = Math.floor(d / 8) * 3;
      const p = posInt('patch_size', c.patch_size ?? 2);
      const v1 = c.patch_size_t === undefined || c.patch_size_t === null;
      const r = plan('cogvideox', d, 'interleaved', [
        { name: 't', dim: evenDim('attention_head_dim', t), base: 1e4, ntk: 1, form: 'integer' },
        { name: 'h', dim: evenDim('attention_head_dim', hw), base: 1e4, ntk: 1, form: v1 ? 'crop_linspace' : 'integer' },
        { name: 'w', dim: hw, base: 1e4, ntk: 1, form: v1 ? 'crop_linspace' : 'integer' }],
      'src/diffusers/models/embeddings.py (get_3d_rotary_pos_embed), pipelines/cogvideo/pipeline_cogvideox.py (_prepare_rotary_positional_embeddings)');
      if (t + 2 * hw !== d) r.warnings.push(`attention_head_dim: the axes rotate ${t + 2 * hw} of ${d} channels`);
      r.cog_base = [Math.floor(posInt('sample_height', c.sample_height ?? 60) / p), Math.floor(posInt('sample_width', c.sample_width ?? 90) / p)];
      return r;
    }
    default:
      throw new PosencError(`_class_name: '${cls.slice(0, 80)}' is not a diffusers transformer posenc reads (WanTransformer3DModel, ` +
        'HunyuanVideoTransformer3DModel, CosmosTransformer3DModel, FluxTransformer2DModel, CogVideoXTransformer3DModel)');
  }
}

/** Vision encoders / towers (transformers): DINOv3, Pixtral, Qwen-VL, SigLIP 2 refused. */
function visionPlan(c: Obj): Plan {
  const vc = isObj(c.vision_config) ? c.vision_config : c;
  const source = vc === c ? '' : 'vision_config.';
  const mt = String(vc.model_type ?? c.model_type ?? '');
  if (/^siglip2?(_vision_model)?$/.test(mt)) {
    const n = vc.num_patches ?? 256;
    const side = typeof n === 'number' && n > 0 ? Math.floor(Math.sqrt(n)) : '√num_patches';
    throw new PosencError(`${source}model_type: '${mt}' has learned positions, not RoPE: ${mt.startsWith('siglip2') ? `a learned ${side}×${side} ` +
      `2-D table (num_patches = ${show(n)}) resized bilinearly (antialias) to each image's patch grid, added to the patches ` +
      '(transformers Siglip2VisionEmbeddings.resize_positional_embeddings)' : 'a learned absolute table (SiglipVisionEmbeddings)'}`);
  }
  if (/^dinov3_?vit$/i.test(mt)) {
    // DINOv3ViTRopePositionEmbedding: head_dim = hidden_size // num_attention_heads; inv_freq = 1/base^(arange(0, 1, 4/head_dim));
    // angles 2π·coords·inv_freq for (y, x) patch centres in [−1, 1], tiled twice, rotate_half; CLS + registers unrotated
    const head_dim = Math.floor(posInt(`${source}hidden_size`, vc.hidden_size ?? 384, 1 << 20) / posInt(`${source}num_attention_heads`, vc.num_attention_heads ?? 6));
    if (head_dim % 4) throw new PosencError(`${source}hidden_size: head_dim = hidden_size // num_attention_heads must be a multiple of 4 for DINOv3's 2-D RoPE (got ${head_dim})`);
    const base = positive(`${source}rope_theta`, vc.rope_theta ?? 100);
    const regs = vc.num_register_tokens ?? 0;
    if (typeof regs !== 'number' || !Number.isInteger(regs) || regs < 0 || regs > MAX_DIM) throw new PosencError(`${source}num_register_tokens: must be an integer in [0, ${MAX_DIM}] (got ${show(regs)})`);
    const warnings = vc.pos_embed_rescale != null || vc.pos_embed_jitter != null || vc.pos_embed_shift != null
      ? ['pos_embed_shift / pos_embed_jitter / pos_embed_rescale: random coordinate augmentation in training only (augment_patches_center_coordinates); not applied at inference'] : [];
    return { model: 'dinov3', class_name: mt, source, head_dim, layout: 'half_split', prefix: 1 + regs, learned: null, warnings,
      axes: ['h', 'w'].map((name) => ({ name, dim: head_dim / 2, base, ntk: 1, form: 'center_normalized' as const, angle_scale: 2 * Math.PI })),
      reference: 'huggingface/transformers@015e68769f9823df27f5f7372dc155277e6ff7e6 src/transformers/models/dinov3_vit/modeling_dinov3_vit.py (DINOv3ViTRopePositionEmbedding)' };
  }
  // Pixtral and the Qwen-VL towers: the config reader's vision_rope (read.ts visionRopeOf); a bare PixtralVisionConfig:
  // head_dim (default hidden_size // num_attention_heads, 1024 // 16) and rope_theta (default 10000)
  const vr = isObj(c.vision_config) ? visionRopeOf(c, []) : mt === 'pixtral' ? {
    variant: 'pixtral' as const, rope_theta: positive('rope_theta', (isObj(c.rope_parameters) ? c.rope_parameters.rope_theta : undefined) ?? c.rope_theta ?? 10000),
    rotary_dim: posInt('head_dim', c.head_dim ?? Math.floor(posInt('hidden_size', c.hidden_size ?? 1024, 1 << 20) / posInt('num_attention_heads', c.num_attention_heads ?? 16))),
    max_patches_per_side: null } : null;
  if (vr && vr.variant === 'pixtral' && vr.rotary_dim % 4) throw new PosencError(`${source}head_dim: must be a multiple of 4 for 2-D RoPE (got ${vr.rotary_dim})`);
  if (!vr) {
    throw new PosencError(`${source}model_type: '${mt.slice(0, 80)}' is not a vision model with RoPE posenc reads (diffusers _class_name ` +
      "Wan / HunyuanVideo / Cosmos / Flux / CogVideoX, 'dinov3_vit', a VLM's vision_config: Pixtral, Qwen2-VL, Qwen2.5-VL, Qwen3-VL); " +
      'for a text model use ropeFromConfig');
  }
  const q = vr.rotary_dim / 2;
  if (vr.variant === 'pixtral') {
    // PixtralRotaryEmbedding: freqs = 1/θ^(arange(0, dim, 2)/dim), h the even, w the odd ones; cat((inv, inv)) with rotate_half
    return { model: 'pixtral', class_name: 'pixtral', source, head_dim: vr.rotary_dim, layout: 'half_split', prefix: 0, learned: null, warnings: [],
      axes: [{ name: 'h', dim: q, base: vr.rope_theta, ntk: 1, form: 'integer', pixtral: 0 }, { name: 'w', dim: q, base: vr.rope_theta, ntk: 1, form: 'integer', pixtral: 1 }],
      reference: 'huggingface/transformers src/transformers/models/pixtral/modeling_pixtral.py (PixtralRotaryEmbedding), as pe.axial2dTables variant pixtral' };
  }
  // Qwen2VisionTransformer / Qwen3VLVisionModel: VisionRotaryEmbedding(head_dim // 2), θ 10000, (row, column) ids, rotate_half
  const qwen3 = /^qwen3/.test(String(c.model_type ?? ''));
  let learned: Plan['learned'] = null;
  if (qwen3) {
    const n = posInt('vision_config.num_position_embeddings', vc.num_position_embeddings ?? 2304, 1 << 24);
    const side = Math.floor(Math.sqrt(n));
    learned = { num_position_embeddings: n, grid_per_side: side, resize: `bilinear: linspace(0, ${side - 1}, h) × linspace(0, ${side - 1}, w) over the ${side}×${side} table (Qwen3VLVisionModel.fast_pos_embed_interpolate)` };
  }
  return { model: qwen3 ? 'qwen3_vl' : 'qwen2_vl', class_name: String(c.model_type), source: 'vision_config.', head_dim: vr.rotary_dim, layout: 'half_split', prefix: 0, learned, warnings: [],
    axes: ['h', 'w'].map((name) => ({ name, dim: q, base: vr.rope_theta, ntk: 1, form: 'integer' as const })),
    reference: qwen3 ? 'huggingface/transformers@00709b862bb8f14a5435bb7195592579168496e4 src/transformers/models/qwen3_vl/modeling_qwen3_vl.py (Qwen3VLVisionModel.rot_pos_emb)'
      : 'huggingface/transformers src/transformers/models/qwen2_vl/modeling_qwen2_vl.py (VisionRotaryEmbedding, Qwen2VisionTransformerPretrainedModel.rot_pos_emb)' };
}

/** Parses config (object or JSON text) and returns what to compute. */
export function planAxes(config: unknown): Plan {
  const c = configObject(config);
  if (typeof c._class_name === 'string') return diffusersPlan(c, c._class_name);
  return visionPlan(c);
}

/** The axis's positions for a grid side n (see AxisPositionForm). */
function positionsOf(p: Plan, a: AxisPlan, axis: number, n: number, fps: number | undefined): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  if (a.form === 'center_normalized') for (let i = 0; i < n; i++) out[i] = 2 * ((i + 0.5) / n) - 1;
  else if (a.form === 'fps_scaled' && fps !== undefined) for (let i = 0; i < n; i++) out[i] = (i / fps) * a.base_fps!;
  else if (a.form === 'pipeline_ids' && axis === 0) out.fill(0);
  else if (a.form === 'crop_linspace') {
    // get_resize_crop_region_for_grid((grid_h, grid_w), base_w, base_h), then torch.linspace(start, stop·(n − 1)/n, n)
    const [th, tw] = p.cog_base!;
    return cropLinspace(n, axis, th, tw, p);
  }
  return out;
}

/** Python's round(): halves to even. */
function pyRound(x: number): number {
  const f = Math.floor(x), d = x - f;
  return d > 0.5 ? f + 1 : d < 0.5 ? f : f % 2 === 0 ? f : f + 1;
}

/** CogVideoX 1.0's crop coordinates along axis 1 (h) or 2 (w) of the grid given in p.grid. */
function cropLinspace(n: number, axis: number, th: number, tw: number, p: Plan & { grid?: number[] }): Float64Array {
  const [h, w] = [p.grid![1], p.grid![2]];
  let rh: number, rw: number;
  if (h / w > th / tw) { rh = th; rw = pyRound(th / h * w); } else { rw = tw; rh = pyRound(tw / w * h); }
  const top = pyRound((th - rh) / 2), left = pyRound((tw - rw) / 2);
  const [start, stop] = axis === 1 ? [top, top + rh] : [left, left + rw];
  const end = stop * (n - 1) / n, out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = n === 1 ? start : start + (end - start) * i / (n - 1);
  return out;
}

export function ropeAxesOf(raw: RawModule, config: unknown, o: { grid?: number[]; fps?: number }): RopeAxesFromConfig {
  const p = planAxes(config) as Plan & { grid?: number[] };
  if (o.fps !== undefined && p.model !== 'cosmos') throw new PosencError(`fps: only for Cosmos (fps-scaled time ids); this is ${p.model}`);
  if (o.grid !== undefined) {
    if (!Array.isArray(o.grid) || o.grid.length !== p.axes.length) throw new PosencError(`grid: must list ${p.axes.length} sizes (${p.axes.map((a) => a.name).join(', ')}) (got ${show(o.grid)})`);
    p.grid = o.grid.map((v, i) => posInt(`grid[${i}]`, v, MAX_GRID));
    if (p.grid.reduce((a, b) => a * b, 1) > MAX_GRID * 64) throw new PosencError(`grid: at most ${MAX_GRID * 64} tokens (got ${p.grid.join('·')})`);
  }
  let pair = 0;
  const axes: RopeAxis[] = p.axes.map((a, i) => {
    let inv: Float64Array;
    if (a.pixtral !== undefined) {
      const all = ropeInvFreqOf(raw, 2 * a.dim, a.base);
      inv = all.filter((_, k) => k % 2 === a.pixtral);
    } else inv = ropeInvFreqOf(raw, a.dim, a.base);
    const pairs: [number, number] = [pair, pair + inv.length];
    pair += inv.length;
    return { name: a.name, rotary_dim: 2 * inv.length, base: a.base, ntk_factor: a.ntk, inv_freq: inv, angle_scale: a.angle_scale ?? 1, pairs,
      position_form: a.form, base_fps: a.base_fps ?? null, positions: p.grid ? positionsOf(p, a, i, p.grid[i], o.fps) : null };
  });
  const warnings = [...p.warnings];
  if (p.model === 'cosmos' && o.fps === undefined) warnings.push('fps: not given — time ids are the frame indices (an image); a video scales them by base_fps / fps = 24 / fps');
  return { model: p.model, class_name: p.class_name, source: p.source, head_dim: p.head_dim, rotary_dim: 2 * pair, layout: p.layout, axes,
    unrotated_prefix_tokens: p.prefix, learned_absolute: p.learned, reference: p.reference, warnings };
}
