// The RoPE of a VLM's vision tower as the text-config reader reports it (`vision_rope` of ropeFromConfig; per-axis
// detail: config/axes.ts): Pixtral's `vision_config` and the Qwen2-VL / Qwen2.5-VL / Qwen3-VL towers.
import { PosencError, show } from '../validate.js';
import { isObj, posInt, finite, opt } from './checks.js';
import type { Obj } from './checks.js';

/** A vision tower's 2-D RoPE: the variant (how the two axes share the frequencies), its dimension and base. */
export interface VisionRope { variant: 'pixtral' | 'qwen2_vl'; rotary_dim: number; rope_theta: number; max_patches_per_side: number | null }

/** Pixtral (`vision_config.model_type` 'pixtral': head_dim, rope_theta, image_size/patch_size) or Qwen-VL vision RoPE. */
export function visionRopeOf(c: Obj, warnings: string[]): VisionRope | null {
  const vc = c.vision_config;
  if (!isObj(vc)) return null;
  const mt = typeof c.model_type === 'string' ? c.model_type : '';
  let r: VisionRope;
  if (vc.model_type === 'pixtral') {
    const side = vc.image_size != null && vc.patch_size != null
      ? Math.floor(posInt('vision_config.image_size', vc.image_size) / posInt('vision_config.patch_size', vc.patch_size)) : null;
    // v5 writes the base inside rope_parameters (Mistral 3 / Devstral 2), older configs at the top of vision_config
    const vp = isObj(vc.rope_parameters) ? vc.rope_parameters : {};
    const thetaKey = vp.rope_theta != null ? 'vision_config.rope_parameters.rope_theta' : 'vision_config.rope_theta';
    r = { variant: 'pixtral', rotary_dim: posInt('vision_config.head_dim', vc.head_dim),
      rope_theta: opt(vp.rope_theta ?? vc.rope_theta, (v) => finite(thetaKey, v)) ?? 10000, max_patches_per_side: side };
  } else if (/^qwen(2|2_5|3)_vl/.test(mt)) {
    // HF Qwen2VisionTransformer: VisionRotaryEmbedding(head_dim // 2) with theta 10000 on (row, column)
    const wk = vc.embed_dim != null ? 'embed_dim' : 'hidden_size';
    if (vc[wk] == null || vc.num_heads == null) {
      warnings.push('vision_config: no embed_dim / hidden_size and num_heads, so no vision_rope');
      return null;
    }
    const rotary_dim = Math.floor(posInt(`vision_config.${wk}`, vc[wk]) / posInt('vision_config.num_heads', vc.num_heads));
    r = { variant: 'qwen2_vl', rotary_dim, rope_theta: 10000, max_patches_per_side: null };
  } else {
    return null;
  }
  if (r.rotary_dim % 4) throw new PosencError(`vision_config: the vision head_dim ${r.rotary_dim} must be a multiple of 4 for 2-D axial RoPE`);
  return r;
}
