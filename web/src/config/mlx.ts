// MLX (mlx-lm) as an engine: how its model files and `initialize_rope` read a config's RoPE where they depart from
// transformers. Everything cited is ml-explore/mlx-lm at d78bf58e217c904ec282ed8da9b947491f78c022:
// mlx_lm/models/rope_utils.py (initialize_rope, SuScaledRoPE, YarnRoPE, Llama3RoPE, DynamicNTKScalingRoPE) and the
// model files named in MLX_MODELS. mlx-lm converts Hugging Face checkpoints without permuting q/k, so its
// `traditional` flag is the pairing of the checkpoint's channels: traditional=True pairs (2i, 2i + 1).
import type { RawModule } from '../raw.js';
import { PosencError } from '../validate.js';
import type { ConfigRope } from './result.js';
import { recompute } from './recompute.js';

const AT = 'ml-explore/mlx-lm@d78bf58e';
const UTILS = `${AT} mlx_lm/models/rope_utils.py`;

/**
 * What a model file does with RoPE: `traditional` (true = interleaved pairs; null = the config's `rope_traditional`,
 * default false), `scaling` (false: a plain `nn.RoPE`, the config's scaling dict is never read), `longrope` (the file
 * builds SuScaledRoPE itself, for LongRoPE configs).
 */
interface MlxModel { traditional: boolean | null; scaling: boolean }
const MLX_MODELS: Record<string, MlxModel> = {
  llama: { traditional: null, scaling: true }, mistral: { traditional: null, scaling: true }, ministral3: { traditional: false, scaling: true },
  qwen2: { traditional: null, scaling: true }, qwen3: { traditional: false, scaling: true }, qwen3_moe: { traditional: false, scaling: false },
  qwen3_next: { traditional: false, scaling: true }, qwen3_5: { traditional: false, scaling: true }, qwen2_vl: { traditional: null, scaling: true },
  qwen2_5_vl: { traditional: null, scaling: true }, phi3: { traditional: null, scaling: true }, phi: { traditional: false, scaling: false },
  gemma2: { traditional: null, scaling: false }, gemma3_text: { traditional: false, scaling: true }, deepseek_v3: { traditional: true, scaling: true },
  deepseek_v32: { traditional: true, scaling: true }, minicpm3: { traditional: false, scaling: true }, olmo3: { traditional: false, scaling: true },
  gpt_oss: { traditional: false, scaling: true }, exaone4: { traditional: false, scaling: true }, lfm2: { traditional: false, scaling: false },
  llama4: { traditional: true, scaling: true }, llama4_text: { traditional: true, scaling: false }, glm4: { traditional: true, scaling: false },
  cohere2: { traditional: true, scaling: false }, ernie4_5: { traditional: true, scaling: true }, telechat3: { traditional: false, scaling: true },
};

/** The mlx-lm model file for a model type; PosencError when mlx-lm has none. */
export function mlxModel(mt: string): MlxModel {
  const m = MLX_MODELS[mt];
  if (!m) {
    throw new PosencError(`engine: mlx-lm has no model file for model_type '${mt || '(none)'}' among those posenc models ` +
      `(${AT} mlx_lm/models/: ${Object.keys(MLX_MODELS).join(', ')})`);
  }
  return m;
}

/** 0.1·m·ln(s) + 1 for s > 1, else 1 (rope_utils.py YarnRoPE.yarn_get_mscale). */
const mscale = (s: number, m: number) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
const fmt = (x: number) => String(Number(x.toPrecision(6)));

interface Ctx { model_type: string; length: number | null; note: (s: string) => void }

/** One layer type's RoPE as mlx-lm computes it. */
export function mlxRope(raw: RawModule, r: ConfigRope, ctx: Ctx, dict: Record<string, unknown>): ConfigRope {
  const m = mlxModel(ctx.model_type);
  const p = r.params as unknown as Record<string, unknown>;
  const file = `${AT} mlx_lm/models/${ctx.model_type}.py`;
  let out = r;
  if (m.traditional !== null) {
    const layout = m.traditional ? 'interleaved' : 'half_split';
    if (layout !== r.layout) {
      ctx.note(`${r.source}: pairs ${layout === 'interleaved' ? '(2i, 2i + 1)' : '(i, i + d/2)'} of the checkpoint's q/k — traditional=${m.traditional ? 'True' : 'False'} ` +
        `in code (transformers: ${r.layout}) (${file})`);
    }
    out = { ...out, layout };
  }
  if (!m.scaling && r.rope_type !== 'default') {
    ctx.note(`${r.source}: rope_type '${r.rope_type}' is not read — the model file builds a plain nn.RoPE(base=rope_theta), so positions use the ` +
      `unscaled frequencies at every length (${file})`);
    return recompute(raw, out, { rope_type: 'default', rope_theta: p.rope_theta, rotary_dim: r.rotary_dim }, 0);
  }
  switch (r.rope_type) {
    case 'yarn': {
      // YarnRoPE: the dict's factor; original_max_position_embeddings default 4096; floor/ceil always (truncate is not
      // read); magnitude get_mscale(factor, mscale)/get_mscale(factor, mscale_all_dim), defaults 1 and 0 (attention_factor not read)
      const factor = Number(p.factor);
      const orig = typeof dict.original_max_position_embeddings === 'number' ? dict.original_max_position_embeddings : 4096;
      if (orig !== r.original_max_position_embeddings) {
        ctx.note(`${r.source}.original_max_position_embeddings: missing — YarnRoPE's default 4096 (transformers: max_position_embeddings = ${r.original_max_position_embeddings}) (${UTILS})`);
      }
      const v = recompute(raw, out, { ...p, original_max_position_embeddings: orig, truncate: true, attention_factor: undefined }, 0);
      const s = mscale(factor, typeof p.mscale === 'number' ? p.mscale : 1) / mscale(factor, typeof p.mscale_all_dim === 'number' ? p.mscale_all_dim : 0);
      if (Math.abs(s - r.attention_scaling) > 1e-12 * s) {
        ctx.note(`${r.source}: attention_scaling ${fmt(s)} (transformers: ${fmt(r.attention_scaling)}) — YarnRoPE's mscale is ` +
          `get_mscale(factor, mscale)/get_mscale(factor, mscale_all_dim) with defaults 1 and 0; attention_factor is not read (${UTILS})`);
      }
      if (p.truncate === false) ctx.note(`${r.source}.truncate: false is not read — YarnRoPE always floors/ceils the correction range (${UTILS})`);
      return { ...v, attention_scaling: s };
    }
    case 'longrope': {
      // SuScaledRoPE: long_factor at every position; scale long_mscale, else sqrt(1 + ln(max/orig)/ln(orig)) (attention_factor not read)
      const orig = r.original_max_position_embeddings ?? 4096;
      const maxPos = r.max_position_embeddings ?? 131072;
      const v = recompute(raw, out, { ...p, attention_factor: undefined, factor: undefined, max_position_embeddings: maxPos }, orig + 1);
      const s = typeof p.long_mscale === 'number' ? p.long_mscale : maxPos / orig <= 1 ? 1 : Math.sqrt(1 + Math.log(maxPos / orig) / Math.log(orig));
      ctx.note(`${r.source}: LongRoPE's long_factor at every position, whatever the length (SuScaledRoPE keeps only _freqs = long_factor·base^(2i/d)) ` +
        `(transformers: short_factor up to original_max_position_embeddings = ${orig}) (${UTILS})`);
      if (Math.abs(s - v.attention_scaling) > 1e-12) ctx.note(`${r.source}: attention_scaling ${fmt(s)} (transformers: ${fmt(r.attention_scaling)}) — attention_factor is not read (${UTILS})`);
      return { ...v, attention_scaling: s };
    }
    case 'llama3': {
      // Llama3RoPE: original_max_position_embeddings default 8192, low/high_freq_factor defaults 1 and 4
      if (dict.original_max_position_embeddings === undefined) {
        ctx.note(`${r.source}.original_max_position_embeddings: missing — Llama3RoPE uses 8192 (transformers: max_position_embeddings) (${UTILS})`);
        return recompute(raw, out, { ...p, original_max_position_embeddings: 8192 }, 0);
      }
      return out;
    }
    case 'dynamic': {
      // DynamicNTKScalingRoPE: the base at seq_len = max(current length, max_position_embeddings), recomputed per call
      return ctx.length === null ? out : recompute(raw, out, p, ctx.length);
    }
    default:
      return out;
  }
}
