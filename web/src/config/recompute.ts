// One layer type's RoPE recomputed by the C++ core from other parameters (the engines' readings, config/engines.ts
// and config/mlx.ts, start from transformers' result and change its parameters).
import type { RawModule } from '../raw.js';
import { rawScaling } from '../rope_config.js';
import { check } from '../validate.js';
import type { ConfigRope } from './result.js';

/** The RoPE of `r` recomputed by the C++ core from other parameters (and a sequence length). */
export function recompute(raw: RawModule, r: ConfigRope, params: Record<string, unknown>, seq: number): ConfigRope {
  const x = check(raw.ropeInvFreqScaled(rawScaling(params), seq));
  return {
    ...r, rope_type: params.rope_type as ConfigRope['rope_type'], params: params as unknown as ConfigRope['params'],
    inv_freq: x.invFreq, attention_scaling: x.attentionScaling, effective_base: x.effectiveBase, factor: x.factor,
    yarn_correction_range: x.yarn, llama3_bands: x.bands, longrope_factors: x.longropeFactors,
  };
}

