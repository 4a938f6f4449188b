// What a config's positions do, computed in C++ from the plan config/read.ts makes: the result of
// `pe.ropeFromConfig`. Also the M-RoPE position-id builder's option handling (`pe.mropePositionIds`).
import type { RawModule, RawScaledInvFreq } from '../raw.js';
import { rawScaling } from '../rope_config.js';
import type { RopeScalingParams } from '../rope_config.js';
import { PosencError, check, show } from '../validate.js';
import { any, array, f64, int, oneOf, optional, parse } from '../options.js';
import type { Schema } from '../options.js';
import { configObject, readConfig } from './read.js';
import type { ConfigPlan, RopeSpec } from './read.js';
import { ENGINES, applyEngine } from './engines.js';
import type { Engine } from './engines.js';

export type { ConfigRope, RopeFromConfig } from './result.js';
import type { ConfigRope, RopeFromConfig } from './result.js';

/** Re-throws a core error with the config key path in front of its field name. */
function located<T>(spec: RopeSpec, tp: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof PosencError)) throw e;
    const m = /^([a-z_]+): (.*)$/s.exec(e.message);
    if (!m) throw e;
    const [, field, rule] = m;
    // a base from a key of its own (Gemma's rope_local_base_freq, ModernBERT's global_rope_theta, OLMo 3's rope_theta)
    const baseKey = field === 'rope_theta' && /(rope_local_base_freq|rope_theta)$/.test(spec.source);
    const path = baseKey ? spec.source
      : Object.prototype.hasOwnProperty.call(spec.dict, field) ? `${spec.source}.${field}`
        : field === 'rope_theta' ? `${tp}rope_theta`
          : field === 'rotary_dim' || field === 'partial_rotary_factor' ? spec.partial_rotary_factor_source ?? spec.head_dim_source
            : field === 'max_position_embeddings' || field === 'original_max_position_embeddings' ? `${tp}${field}`
              : `${spec.source}.${field}`;
    throw new PosencError(field === 'rotary_dim' ? `${path}: rotary_dim = int(head_dim * partial_rotary_factor) ${rule}` : `${path}: ${rule}`);
  }
}

/** Largest attention_scaling accepted: it multiplies cos and sin, its square every score (float32 tables stay finite). */
const MAX_ATTENTION_SCALING = 1e15;

/** Finite in, finite out: a result that overflows (dynamic NTK's base at a huge seq_len, a huge YaRN magnitude) is refused. */
function finiteOut(spec: RopeSpec, r: RawScaledInvFreq, seq_len: number): void {
  if (!Number.isFinite(r.effectiveBase) || !r.invFreq.every(Number.isFinite)) {
    throw new PosencError(`${spec.source}.${spec.ntk_alpha ? 'alpha' : 'factor'}: the scaled base overflows float64${seq_len ? ` at seq_len = ${seq_len}` : ''} (got effective base ${show(r.effectiveBase)})`);
  }
  if (!(r.attentionScaling <= MAX_ATTENTION_SCALING)) {
    const key = spec.dict.attention_factor !== undefined ? 'attention_factor' : spec.dict.mscale !== undefined ? 'mscale' : 'factor';
    throw new PosencError(`${spec.source}.${key}: gives attention_scaling ${show(r.attentionScaling)}, must be at most ${MAX_ATTENTION_SCALING} (it multiplies cos and sin, and its square every score)`);
  }
}

function computeRope(raw: RawModule, spec: RopeSpec, plan: ConfigPlan, seq_len: number): ConfigRope {
  return located(spec, plan.text_path, () => {
    const rotary_dim = spec.rope_type === 'proportional' ? spec.head_dim
      : spec.rotary_dim ?? check(raw.rotaryDimFor(spec.head_dim, spec.partial_rotary_factor));
    // HunYuan's dynamic NTK alpha: a fixed base θ·alpha^(d/(d−2)), computed as 'default' at that base
    const base = spec.ntk_alpha === null ? spec.rope_theta : spec.rope_theta * spec.ntk_alpha ** (rotary_dim / (rotary_dim - 2));
    const params: RopeScalingParams = {
      ...(spec.dict as Partial<RopeScalingParams>),
      rope_type: spec.rope_type,
      rope_theta: base,
      rotary_dim,
      ...(spec.rope_type === 'proportional' ? { partial_rotary_factor: spec.partial_rotary_factor } : {}),
      ...(spec.max_position_embeddings !== null ? { max_position_embeddings: spec.max_position_embeddings } : {}),
      ...(spec.original_max_position_embeddings !== null ? { original_max_position_embeddings: spec.original_max_position_embeddings } : {}),
    };
    const r: RawScaledInvFreq = check(raw.ropeInvFreqScaled(rawScaling(params as unknown as Record<string, unknown>), seq_len));
    finiteOut(spec, r, seq_len);
    return {
      rope_type: spec.ntk_alpha === null ? spec.rope_type : 'dynamic', source: spec.source, head_dim: spec.head_dim, rotary_dim,
      partial_rotary_factor: spec.partial_rotary_factor, rope_theta: spec.rope_theta, ...(spec.ntk_alpha !== null ? { ntk_alpha: spec.ntk_alpha } : {}),
      max_position_embeddings: spec.max_position_embeddings, original_max_position_embeddings: spec.original_max_position_embeddings,
      inv_freq: r.invFreq, attention_scaling: r.attentionScaling, effective_base: r.effectiveBase, factor: r.factor,
      yarn_correction_range: r.yarn, llama3_bands: r.bands, longrope_factors: r.longropeFactors, layout: plan.layout, params,
    };
  });
}

const FROM_CONFIG: Schema = {
  seq_len: optional(int(0, 2 ** 40)), engine: optional(oneOf(ENGINES)), n_ctx: optional(int(0, 2 ** 40)), max_model_len: optional(int(1, 2 ** 40)),
};

export function ropeFromConfigOf(raw: RawModule, config: unknown, options: unknown): RopeFromConfig {
  const o = parse('ropeFromConfig', FROM_CONFIG, options);
  const seq: number | undefined = o.seq_len;
  const engine: Engine | undefined = o.engine;
  if (o.n_ctx !== undefined && engine !== 'llama.cpp') throw new PosencError(`n_ctx: only with engine 'llama.cpp' (got engine '${engine ?? 'transformers'}')`);
  if (o.max_model_len !== undefined && engine !== 'vllm') throw new PosencError(`max_model_len: only with engine 'vllm' (got engine '${engine ?? 'transformers'}')`);
  const plan = readConfig(config);
  const layer_types: Record<string, ConfigRope | false> = {};
  for (const [t, spec] of Object.entries(plan.types)) layer_types[t] = spec ? computeRope(raw, spec, plan, seq ?? 0) : false;
  const top = layer_types[plan.default_type] as ConfigRope;
  const warnings = [...plan.warnings];
  for (const [t, r] of Object.entries(layer_types)) {
    if (r && r.rope_type === 'dynamic') {
      warnings.push(`${r.source}: dynamic NTK (${t}) — HF recomputes inv_freq from seq_len = max position + 1 each time it ` +
        'exceeds the longest seen so far (and restores the original once a sequence is back within max_position_embeddings); ' +
        'keys already in the KV cache keep the angles of the base they were rotated with, so past max_position_embeddings ' +
        `cached and new keys use different bases. effective_base is the base at seq_len = ${seq ?? 0}`);
    }
  }
  if (plan.mrope) {
    const half = top.rotary_dim / 2;
    const sum = plan.mrope.mrope_section.reduce((a, b) => a + b, 0);
    if (sum !== half) throw new PosencError(`${top.source}.mrope_section: must sum to rotary_dim/2 = ${half} (got ${sum})`);
  }
  let mla: RopeFromConfig['mla'] = null;
  if (plan.mla) {
    const qk = plan.mla.qk_rope_head_dim + plan.mla.qk_nope_head_dim;
    const f = top.rope_type === 'yarn' ? check(raw.ropeInvFreqScaled(rawScaling(top.params as unknown as Record<string, unknown>), 0)).softmaxScaleFactor : 1;
    mla = { ...plan.mla, qk_head_dim: qk, softmax_scale: f / Math.sqrt(qk), softmax_scale_factor: f };
  }
  let attn_temperature: RopeFromConfig['attn_temperature'] = null;
  if (plan.attn_temperature) {
    const { floor_scale, attn_scale, form } = plan.attn_temperature;
    // the core computes Llama 4's ⌊(p + 1)/floor_scale⌋; Ministral 3's ⌊p/floor_scale⌋ is that at p − 1 (p = 0: 1)
    const q = seq === undefined || seq < 1 ? null : form === 'llama4' ? seq - 1 : seq - 2;
    const at = q === null ? null : q < 0 ? 1 : check(raw.llama4AttnScales(Float64Array.of(q), floor_scale, attn_scale))[0];
    attn_temperature = { floor_scale, attn_scale, form, scale_at_seq_len: at };
  }
  const hf: RopeFromConfig = {
    ...top, layer_type: plan.default_type, layer_types, layers: plan.layers, model_type: plan.model_type, seq_len: seq ?? null,
    mla, attn_temperature, mrope_section: plan.mrope?.mrope_section ?? null, mrope_interleaved: plan.mrope?.mrope_interleaved ?? null,
    vision_rope: plan.vision_rope, dual_chunk: plan.dual_chunk, warnings,
  };
  if (plan.dual_chunk) {
    const d = plan.dual_chunk;
    warnings.push(`${d.source}: dual chunk attention (vLLM DualChunkRotaryEmbedding; transformers ignores it) — chunks of ` +
      `chunk_size − local_size = ${d.chunk_len} positions; a query sees keys of its own chunk at their true distance, older keys at ` +
      `remapped distances of at most chunk_size = ${d.chunk_size} (pe.dualChunkDistances), not a native context of max_position_embeddings`);
  }
  return engine === undefined ? hf : applyEngine(raw, hf, engine, {
    seq_len: seq, n_ctx: o.n_ctx, max_model_len: o.max_model_len,
    dicts: Object.fromEntries(Object.entries(plan.types).map(([t, s]) => [t, s ? { ...s.dict, rope_type: s.written_type } : {}])),
  });
}

/** Options of {@link Posenc.mropePositionIds}, names as HF `get_rope_index`. */
export interface MropePositionIdsOptions {
  /** The model's config.json (object or text): token ids, spatial_merge_size, tokens_per_second, the variant. */
  config: unknown;
  /** One unpadded sequence of token ids. */
  input_ids: ArrayLike<number>;
  /** [t, h, w] patch grids of the images, in order. */
  image_grid_thw?: ArrayLike<ArrayLike<number>>;
  /** [t, h, w] patch grids of the videos, in order. */
  video_grid_thw?: ArrayLike<ArrayLike<number>>;
  /** Seconds per temporal grid of each video (Qwen2.5-VL; default 1). */
  second_per_grid_ts?: ArrayLike<number>;
}

function flatGrids(name: string, v: unknown): Float64Array {
  if (v == null) return new Float64Array(0);
  if (!Array.isArray(v)) throw new PosencError(`${name}: must be a list of [t, h, w] (got ${typeof v})`);
  const out = new Float64Array(v.length * 3);
  v.forEach((g, k) => {
    if (!Array.isArray(g) && !ArrayBuffer.isView(g)) throw new PosencError(`${name}[${k}]: must be [t, h, w]`);
    const a = Array.from(g as ArrayLike<unknown>);
    if (a.length !== 3 || !a.every((x) => typeof x === 'number' && Number.isInteger(x))) throw new PosencError(`${name}[${k}]: must be 3 integers [t, h, w] (got ${show(a)})`);
    out.set(a as number[], 3 * k);
  });
  return out;
}

const ID_KEYS = ['image_token_id', 'video_token_id', 'vision_start_token_id'] as const;

const POSITION_IDS: Schema = {
  config: any(), input_ids: array(2 ** 20), image_grid_thw: optional(any()), video_grid_thw: optional(any()),
  second_per_grid_ts: optional(array(2 ** 20)),
};

export function mropePositionIdsOf(raw: RawModule, options: unknown): { position_ids: Int32Array; rope_deltas: number } {
  const o = parse('mropePositionIds', POSITION_IDS, options);
  const cfg = configObject(o.config);
  const text = (cfg.text_config ?? {}) as Record<string, unknown>;
  const vision = (cfg.vision_config ?? {}) as Record<string, unknown>;
  const ids: Record<string, number> = {};
  for (const k of ID_KEYS) {
    const v = cfg[k] ?? text[k];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new PosencError(`config.${k}: required, an integer token id (got ${show(v)})`);
    ids[k] = v;
  }
  const merge = vision.spatial_merge_size ?? 2;
  if (typeof merge !== 'number' || !Number.isInteger(merge)) throw new PosencError('config.vision_config.spatial_merge_size: must be an integer');
  const tps = vision.tokens_per_second;
  if (tps != null && (typeof tps !== 'number' || !Number.isFinite(tps))) throw new PosencError('config.vision_config.tokens_per_second: must be a finite number');
  const plan = readConfig(cfg);
  // Qwen3-VL separates video frames by timestamps (interleaved M-RoPE); Qwen2.5-VL scales time by tokens_per_second
  const split = plan.mrope?.mrope_interleaved === true || (plan.model_type ?? '').startsWith('qwen3');
  return check(raw.mropePositionIds(f64(o.input_ids), flatGrids('image_grid_thw', o.image_grid_thw),
    flatGrids('video_grid_thw', o.video_grid_thw), o.second_per_grid_ts === undefined ? new Float64Array(0) : f64(o.second_per_grid_ts), {
      image_token_id: ids.image_token_id, video_token_id: ids.video_token_id, vision_start_token_id: ids.vision_start_token_id,
      spatial_merge_size: merge, tokens_per_second: split || tps == null ? NaN : tps, split_video_frames: split,
    }));
}
