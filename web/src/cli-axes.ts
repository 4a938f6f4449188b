// `posenc inspect` for configs whose positions are not one text axis: diffusers transformers (Wan, HunyuanVideo, Cosmos,
// Flux, CogVideoX), vision encoders (DINOv3, Pixtral), a VLM's vision tower (Qwen2-VL / Qwen2.5-VL / Qwen3-VL, Pixtral
// `vision_config`), and dual chunk attention's reach (Qwen2.5-1M). Numbers come from the package (pe.ropeAxesFromConfig,
// pe.dualChunkDistances); this file only decides which reader a config needs and prints what they return.
import type { Posenc } from './posenc.js';
import type { RopeAxesFromConfig, RopeAxis } from './config/axes.js';
import type { RopeFromConfig } from './config/rope_from_config.js';
import { isObj } from './config/checks.js';
import type { Obj } from './config/checks.js';

/** Top-level model types read per image axis only (no text model in the file). */
const VISION_ONLY = /^(dinov3_?vit|pixtral|siglip2?(_vision_model)?)$/i;
/** Keys that say a config also describes a text model (a VLM's language half). */
const TEXT_KEYS = ['text_config', 'hidden_size', 'head_dim', 'num_attention_heads', 'rope_theta', 'rope_parameters', 'rope_scaling', 'max_position_embeddings'];

/**
 * How a parsed config.json is read: 'axes' (per-axis RoPE only: diffusers, vision encoders, a bare vision tower),
 * 'text' (a language model; with `vision` when it also has a vision_config).
 */
export function configKind(c: Obj): { kind: 'axes' | 'text'; vision: boolean } {
  if (typeof c._class_name === 'string') return { kind: 'axes', vision: false };
  if (typeof c.model_type === 'string' && VISION_ONLY.test(c.model_type)) return { kind: 'axes', vision: false };
  const vision = isObj(c.vision_config);
  if (vision && !TEXT_KEYS.some((k) => c[k] !== undefined)) return { kind: 'axes', vision: false };
  return { kind: 'text', vision };
}

/** Where the axis's position unit comes from, for its wavelengths. */
const UNIT: Record<RopeAxis['position_form'], string> = {
  integer: 'patches',
  center_normalized: 'coordinate units ([−1, 1] spans the image)',
  fps_scaled: 'frames at base_fps',
  crop_linspace: 'patches of the base grid',
  pipeline_ids: 'latent patches (text tokens: 0)',
};
const FORM: Record<RopeAxis['position_form'], string> = {
  integer: 'integer grid 0…n−1',
  center_normalized: 'normalised patch centres 2(i+½)/n − 1',
  fps_scaled: 'frame i · base_fps/fps (image: i)',
  crop_linspace: 'linspace over the crop of the base grid',
  pipeline_ids: 'pipeline ids: text 0, image (0, row, col)',
};

/** Fastest and slowest wavelength (in position units) of an axis: 2π / (angle_scale · inv_freq). */
export function wavelengths(a: RopeAxis): { fastest: number; slowest: number } {
  let hi = 0, lo = Infinity;
  for (const f of a.inv_freq) { hi = Math.max(hi, f); lo = Math.min(lo, f); }
  return { fastest: (2 * Math.PI) / (a.angle_scale * hi), slowest: (2 * Math.PI) / (a.angle_scale * lo) };
}

const g = (x: number) => String(Number(x.toPrecision(6)));

/** A position list, shortened: a, b, c, …, z. */
function positionsText(p: Float64Array): string {
  const all = Array.from(p, g);
  return all.length <= 6 ? all.join(', ') : `${all.slice(0, 3).join(', ')}, …, ${all.slice(-2).join(', ')} (${all.length})`;
}

const PAIRING = {
  interleaved: 'interleaved: pair p rotates channels (2p, 2p + 1)',
  half_split: 'half_split: pair p rotates channels (p, p + rotary_dim/2)',
};

/** The text summary of one per-axis reading; `indent` prefixes every line (a VLM's tower is nested under its file). */
export function axesSummary(r: RopeAxesFromConfig, indent = '  '): string[] {
  const lines = [
    `${indent}reader              ${r.model} (${r.class_name}${r.source ? `, read from ${r.source.replace(/\.$/, '')}` : ''})`,
    `${indent}head_dim            ${r.head_dim}, rotary_dim ${r.rotary_dim} over ${r.axes.length} axes (${r.axes.map((a) => a.name).join(', ')})`,
    `${indent}pairing             ${PAIRING[r.layout]}`];
  const rows = [['axis', 'rotary_dim', 'base', 'pairs', 'positions', 'wavelength fastest … slowest']];
  for (const a of r.axes) {
    const w = wavelengths(a);
    rows.push([a.name, String(a.rotary_dim), g(a.base) + (a.ntk_factor !== 1 ? ` (10000 · NTK ${g(a.ntk_factor)})` : ''),
      `${a.pairs[0]}…${a.pairs[1] - 1}`, FORM[a.position_form] + (a.base_fps !== null ? `, base_fps ${a.base_fps}` : ''),
      `${g(w.fastest)} … ${g(w.slowest)} ${UNIT[a.position_form]}`]);
  }
  const wd = rows[0].map((_, j) => Math.max(...rows.map((x) => x[j].length)));
  lines.push(...rows.map((x) => `${indent}  ${x.map((s, j) => s.padEnd(wd[j])).join('  ').trimEnd()}`));
  for (const a of r.axes) if (a.positions) lines.push(`${indent}  ${a.name} positions: ${positionsText(a.positions)}`);
  if (r.axes.some((a) => a.angle_scale !== 1)) lines.push(`${indent}angle               2π · coordinate · inv_freq (wavelength = 1/inv_freq)`);
  if (r.axes.some((a) => a.positions)) {
    lines.push(`${indent}tokens              ${r.axes.reduce((n, a) => n * a.positions!.length, 1)} (row-major over ${r.axes.map((a) => a.name).join(', ')}; last axis fastest)`);
  }
  if (r.unrotated_prefix_tokens) lines.push(`${indent}unrotated prefix    ${r.unrotated_prefix_tokens} tokens (CLS + registers) before the patches`);
  if (r.learned_absolute) {
    const l = r.learned_absolute;
    lines.push(`${indent}learned absolute    also a ${l.grid_per_side}×${l.grid_per_side} table (num_position_embeddings ${l.num_position_embeddings}), ${l.resize}`);
  }
  lines.push(`${indent}reference           ${r.reference}`);
  for (const w of r.warnings) lines.push(`${indent}warning: ${w}`);
  return lines;
}

/** Parses `--grid 21,60,104` (or 21x60x104). */
export function gridOf(v: string | boolean | undefined): number[] | undefined {
  if (v === undefined) return undefined;
  const s = String(v);
  const parts = s.split(/[,x×]/);
  if (!parts.every((p) => /^\d+$/.test(p.trim()))) throw new Error(`--grid: must be sizes per axis like 21,60,104 or 16,16 (got '${s}')`);
  return parts.map((p) => Number(p));
}

/** The largest relative distance dual chunk attention encodes over positions 0…last (pe.dualChunkDistances). */
export function dualChunkReach(pe: Posenc, d: NonNullable<RopeFromConfig['dual_chunk']>, last: number): { positions: number; max_distance: number } {
  // The distance grows with the query's offset in its chunk and shrinks with the key's (key 0: offset 0). The query
  // min(last, 2L − 1) meets key 0 at the largest: within chunk 0 (last < L) its true distance last; in chunk 1 the
  // successive distance min(q − L + L, chunk_size) ≥ L − 1, the intra-chunk largest; older chunks get min(2L − 1,
  // chunk_size), the same as q = 2L − 1's. (tests/js/cli-axes.test.mjs checks it against every pair.)
  const L = d.chunk_len;
  const q = [Math.min(last, 2 * L - 1)];
  const r = pe.dualChunkDistances({ chunk_size: d.chunk_size, local_size: d.local_size, q_positions: q, k_positions: [0] });
  return { positions: last + 1, max_distance: r.max_distance };
}

export function dualChunkLines(d: NonNullable<RopeFromConfig['dual_chunk']>, reach: { positions: number; max_distance: number }): string[] {
  return [`  dual chunk          chunk_size ${d.chunk_size}, local_size ${d.local_size} (chunks of ${d.chunk_len})${d.original_max_position_embeddings ? `, original ${d.original_max_position_embeddings}` : ''}`,
    `  distance seen       at most ${reach.max_distance} over positions 0…${reach.positions - 1} (vLLM DualChunkRotaryEmbedding; transformers ignores the key)`];
}
