// Reading a Hugging Face `config.json` into what its positions need: one RoPE per layer type, the layer schedule,
// and the attention variants that change positions (MLA split RoPE, NoPE layers, Llama 4 temperature, M-RoPE).
// Follows transformers' `RotaryEmbeddingConfigMixin` (`convert_rope_params_to_dict`, `standardize_rope_params`,
// `validate_rope`) and the model configs named below; nothing is computed here (config/rope_from_config.ts does, in C++).
import { ALWAYS, KEYS, ropeTypeOf } from '../rope_config.js';
import type { RopeType } from '../rope_config.js';
import { PosencError, show } from '../validate.js';
import { closest } from './suggest.js';
import { isObj, posInt, finite, opt } from './checks.js';
import type { Obj } from './checks.js';
import { HF_DEFAULTS, INTERLEAVED, checkFamily, checkRopeType, ntkAlpha, readVariant } from './families.js';
import { dualChunkOf } from './dual_chunk.js';
import type { DualChunk } from './dual_chunk.js';
import { visionRopeOf } from './vision_rope.js';
import type { VisionRope } from './vision_rope.js';

/** Channel pairing of the checkpoint's q/k: `half_split` (HF `rotate_half`) or `interleaved` (GPT-J, Cohere, MLA). */
export type ConfigLayout = 'half_split' | 'interleaved';

/** One layer type's RoPE as read (flat HF names), before computing. */
export interface RopeSpec {
  /** Key path the parameters came from, e.g. `rope_parameters.full_attention`, `text_config.rope_scaling`. */
  source: string;
  rope_type: RopeType;
  head_dim: number;
  /** Key path of head_dim (`head_dim`, `global_head_dim`, `qk_rope_head_dim`, or `hidden_size` when derived). */
  head_dim_source: string;
  /** GPT-J / CodeGen `rotary_dim`, else null (then int(head_dim · partial_rotary_factor); proportional: head_dim). */
  rotary_dim: number | null;
  partial_rotary_factor: number;
  /** Key path of partial_rotary_factor (or `rotary_pct`), null when defaulted to 1. */
  partial_rotary_factor_source: string | null;
  rope_theta: number;
  max_position_embeddings: number | null;
  original_max_position_embeddings: number | null;
  /** HunYuan's dynamic NTK `alpha` (then read as 'default' at the base θ·alpha^(d/(d−2))), else null. */
  ntk_alpha: number | null;
  /** The scaling dict's own keys (factor, beta_fast, …), validated. */
  dict: Record<string, unknown>;
  /** rope_type as the config wrote it (a variant such as 'telechat3-yarn' is read as the type it extends). */
  written_type: string;
}

export interface ConfigPlan {
  /** `''` or `'text_config.'`: where the text model's keys are. */
  text_path: string;
  model_type: string | null;
  /** RoPE per layer type; `false` for a type whose layers use no RoPE (Llama 4 `full_attention`, linear attention). */
  types: Record<string, RopeSpec | false>;
  /** The type whose RoPE the model's rotary embedding uses by default. */
  default_type: string;
  layers: { type: string; rope: boolean }[] | null;
  layout: ConfigLayout;
  mla: { qk_rope_head_dim: number; qk_nope_head_dim: number; v_head_dim: number | null; rope_interleave: boolean;
    indexer_layout: ConfigLayout | null } | null;
  attn_temperature: { floor_scale: number; attn_scale: number; form: 'llama4' | 'ministral3' } | null;
  mrope: { mrope_section: [number, number, number]; mrope_interleaved: boolean } | null;
  /** The vision tower's 2-D axial RoPE (Pixtral; Qwen2-VL / 2.5-VL / 3-VL), for {@link Posenc.axial2dTables}. */
  vision_rope: VisionRope | null;
  /** Qwen2.5-1M's `dual_chunk_attention_config` (vLLM DualChunkRotaryEmbedding), null when absent. */
  dual_chunk: DualChunk | null;
  warnings: string[];
}

/** Position-related keys of a text config (for typo reports); real keys close to them are listed to avoid false alarms. */
const POSITION_KEYS = ['rope_theta', 'rope_scaling', 'rope_parameters', 'partial_rotary_factor', 'rotary_pct', 'rotary_emb_base',
  'rotary_dim', 'head_dim', 'global_head_dim', 'max_position_embeddings', 'original_max_position_embeddings', 'rope_local_base_freq',
  'layer_types', 'sliding_window_pattern', 'no_rope_layers', 'no_rope_layer_interval', 'nope_layer_interval', 'qk_rope_head_dim',
  'qk_nope_head_dim', 'rope_interleave', 'attn_temperature_tuning', 'floor_scale', 'attn_scale', 'global_rope_theta',
  'local_rope_theta', 'global_attn_every_n_layers', 'full_attention_interval', 'num_attention_heads', 'hidden_size', 'num_hidden_layers', 'text_config',
  'dual_chunk_attention_config'];
const NEAR_BUT_REAL = new Set(['v_head_dim', 'qk_head_dim', 'num_key_value_heads', 'hidden_sizes', 'n_head', 'n_embd', 'rope_type',
  'use_mrope', 'vision_config', 'audio_config', 'attn_logit_softcapping', 'layer_norm_eps', 'attention_type', 'attn_type']);
/** Model types whose positions are not rotary (posenc has their schemes under other names). */
const NOT_ROPE: Record<string, string> = {
  gpt2: 'learned absolute positions', gpt_bigcode: 'learned absolute positions', opt: 'learned absolute positions',
  bert: 'learned absolute positions', roberta: 'learned absolute positions', 'xlm-roberta': 'learned absolute positions',
  distilbert: 'learned absolute positions', bart: 'learned absolute positions', whisper: 'sinusoidal / learned absolute positions',
  t5: 'T5 relative-position buckets', mt5: 'T5 relative-position buckets', bloom: 'ALiBi', mpt: 'ALiBi',
  deberta: 'DeBERTa relative positions', 'deberta-v2': 'DeBERTa relative positions',
  // vision encoders with learned tables (transformers SiglipVisionEmbeddings; Siglip2VisionEmbeddings resizes its table per image)
  siglip: 'learned absolute positions (a learned 2-D patch table)', siglip_vision_model: 'learned absolute positions (a learned 2-D patch table)',
  siglip2: 'learned 2-D absolute positions, resized bilinearly to each image\'s patch grid',
  siglip2_vision_model: 'learned 2-D absolute positions, resized bilinearly to each image\'s patch grid',
};
/** Configs whose RoPE is per image / video axis: read by ropeAxesFromConfig, not as a text model. */
const AXES_ONLY = new Set(['dinov3_vit', 'dinov3vit', 'pixtral']);

/** Layer types that never use RoPE (HF hybrid models: Gated DeltaNet, Mamba, short convolutions). */
const NO_ROPE_TYPES = new Set(['linear_attention', 'mamba', 'conv']);

/** A config.json as an object: parsed when it is text; PosencError for text that is not JSON or not an object. */
export function configObject(config: unknown): Obj {
  let c: unknown = config;
  if (typeof c === 'string') {
    try {
      c = JSON.parse(c);
    } catch (e) {
      throw new PosencError(`config: not valid JSON (${(e as Error).message})`);
    }
  }
  if (!isObj(c)) throw new PosencError('config: must be an object (a parsed config.json)');
  return c;
}

/**
 * Reads a config (object or JSON text). Throws PosencError naming the key path and the rule; returns the plan with
 * warnings for ignored keys.
 */
export function readConfig(config: unknown): ConfigPlan {
  const c = configObject(config);
  if (typeof c._class_name === 'string') {
    throw new PosencError(`_class_name: '${c._class_name.slice(0, 80)}' is a diffusers model config: its RoPE is per (t, h, w) axis — read it with ropeAxesFromConfig`);
  }
  if (typeof c.model_type === 'string' && AXES_ONLY.has(c.model_type.toLowerCase())) {
    throw new PosencError(`model_type: '${c.model_type}' is a vision encoder: its RoPE is per (h, w) axis — read it with ropeAxesFromConfig`);
  }
  const warnings: string[] = [];
  let text = c;
  let tp = '';
  if (c.text_config !== undefined && c.text_config !== null) {
    if (!isObj(c.text_config)) throw new PosencError(`text_config: must be an object (got ${show(c.text_config)})`);
    text = c.text_config;
    tp = 'text_config.';
  }
  for (const k of Object.keys(text)) {
    if (POSITION_KEYS.includes(k) || NEAR_BUT_REAL.has(k)) continue;
    const near = closest(k, POSITION_KEYS, false);
    // reported, not fatal: a model family may have its own key next to ours; HF ignores it too
    if (near) warnings.push(`${tp}${k}: ignored; did you mean '${near}'?`);
  }
  const model_type = typeof text.model_type === 'string' ? text.model_type : typeof c.model_type === 'string' ? c.model_type : null;
  const mt = model_type ?? '';
  if (NOT_ROPE[mt]) throw new PosencError(`${tp}model_type: '${mt}' uses ${NOT_ROPE[mt]}, not RoPE`);
  if (text.alibi === true) throw new PosencError(`${tp}alibi: true means ALiBi, not RoPE`);
  checkFamily(text, tp);
  const defaults = HF_DEFAULTS[mt] ?? {};
  const filled = Object.keys(defaults).filter((k) => text[k] === undefined);
  if (filled.length) {
    warnings.push(`${tp ? tp.slice(0, -1) : 'config'}: ${filled.map((k) => `${k} = ${defaults[k]}`).join(', ')} not in the config: the defaults of HF's ${mt} config class`);
    text = { ...text, ...Object.fromEntries(filled.map((k) => [k, defaults[k]])) };
  }
  const nLayers = opt(text.num_hidden_layers, (v) => posInt(`${tp}num_hidden_layers`, v));

  // head_dim: MLA's rotary part, else head_dim, else hidden_size // num_attention_heads (GPT-J: n_embd // n_head)
  let head_dim: number;
  let head_dim_source: string;
  const mlaRope = opt(text.qk_rope_head_dim, (v) => posInt(`${tp}qk_rope_head_dim`, v));
  if (mlaRope !== null) {
    [head_dim, head_dim_source] = [mlaRope, `${tp}qk_rope_head_dim`];
  } else if (text.head_dim != null) {
    [head_dim, head_dim_source] = [posInt(`${tp}head_dim`, text.head_dim), `${tp}head_dim`];
  } else {
    const hk = text.hidden_size !== undefined || text.n_embd === undefined ? 'hidden_size' : 'n_embd';
    const nk = hk === 'hidden_size' ? 'num_attention_heads' : 'n_head';
    head_dim = Math.floor(posInt(`${tp}${hk}`, text[hk]) / posInt(`${tp}${nk}`, text[nk]));
    head_dim_source = `${tp}${hk}`;
  }
  const maxPosKey = text.max_position_embeddings === undefined && text.n_positions !== undefined ? 'n_positions' : 'max_position_embeddings';
  const maxPos = opt(text[maxPosKey], (v) => posInt(`${tp}${maxPosKey}`, v));

  // the scaling dict: legacy rope_scaling wins over v5 rope_parameters (HF `rope_scaling or rope_parameters`)
  const dictKey = text.rope_scaling != null ? 'rope_scaling' : 'rope_parameters';
  const dictRaw = text[dictKey];
  if (dictRaw != null && !isObj(dictRaw)) throw new PosencError(`${tp}${dictKey}: must be an object or null (got ${show(dictRaw)})`);
  const dict: Obj = dictRaw ?? {};
  const perType = Object.keys(dict).length > 0 && Object.values(dict).every(isObj);

  // the layer schedule
  const typeList = scheduleOf(text, tp, mt, nLayers, perType ? Object.keys(dict) : null);
  const ropeFlags = ropeFlagsOf(text, tp, mt, nLayers, warnings);
  let layers: { type: string; rope: boolean }[] | null = null;
  if (typeList || ropeFlags) {
    const n = (typeList ?? ropeFlags)!.length;
    const chunked = mt.startsWith('llama4') && text.attention_chunk_size != null;
    layers = Array.from({ length: n }, (_, i) => {
      const flag = ropeFlags ? ropeFlags[i] : true;
      // Llama 4: RoPE layers attend in chunks, NoPE layers globally (HF Llama4TextConfig.layer_types)
      const type = typeList ? typeList[i] : chunked ? (flag ? 'chunked_attention' : 'full_attention') : 'full_attention';
      // Cohere2, and EXAONE 4 with a sliding window, rotate only their sliding layers (HF: global NoPE)
      const globalNope = type === 'full_attention' && (mt === 'cohere2' || (mt === 'exaone4' && text.sliding_window != null));
      const rope = flag && !NO_ROPE_TYPES.has(type) && !globalNope;
      return { type, rope };
    });
  }
  const typeNames = layers ? [...new Set(layers.map((l) => l.type))] : ['full_attention'];
  if (perType) for (const k of Object.keys(dict)) if (!typeNames.includes(k)) typeNames.push(k);

  // base values shared by every type
  const ropeThetaTop = opt(text.rope_theta, (v) => finite(`${tp}rope_theta`, v)) ?? opt(text.rotary_emb_base, (v) => finite(`${tp}rotary_emb_base`, v));
  const prfKey = text.partial_rotary_factor != null ? 'partial_rotary_factor' : text.rotary_pct != null ? 'rotary_pct' : null;
  const prfTop = prfKey ? finite(`${tp}${prfKey}`, text[prfKey]) : null;
  const rotaryDim = opt(text.rotary_dim, (v) => posInt(`${tp}rotary_dim`, v));
  const origTop = opt(text.original_max_position_embeddings, (v) => posInt(`${tp}original_max_position_embeddings`, v));

  const types: Record<string, RopeSpec | false> = {};
  let mrope: ConfigPlan['mrope'] = null;
  let betaTop: { beta: number; source: string } | null = null;
  for (const type of typeNames) {
    const usesRope = layers ? layers.some((l) => l.type === type && l.rope) : true;
    if (!usesRope && !(perType && isObj(dict[type]))) {
      types[type] = false;
      continue;
    }
    let d: Obj;
    let source: string;
    if (perType) {
      if (!isObj(dict[type])) throw new PosencError(`${tp}${dictKey}: has no entry for layer type '${type}' (keys: ${Object.keys(dict).join(', ')})`);
      [d, source] = [dict[type] as Obj, `${tp}${dictKey}.${type}`];
    } else if (type === 'sliding_attention' && text.rope_local_base_freq != null) {
      // Gemma 3: local layers use rope_local_base_freq and no scaling (rope_scaling is for the global layers)
      [d, source] = [{ rope_type: 'default', rope_theta: finite(`${tp}rope_local_base_freq`, text.rope_local_base_freq) }, `${tp}rope_local_base_freq`];
    } else if (mt === 'olmo3' && type === 'sliding_attention') {
      // OLMo 3: the sliding layers' rotary embedding is built with rope_type 'default' (no scaling, same theta)
      const kept = Object.fromEntries(['rope_theta', 'partial_rotary_factor'].filter((k) => dict[k] != null).map((k) => [k, dict[k]]));
      [d, source] = [{ ...kept, rope_type: 'default' }, kept.rope_theta !== undefined ? `${tp}${dictKey}` : `${tp}rope_theta`];
    } else if (mt === 'modernbert' && (text.global_rope_theta != null || text.local_rope_theta != null)) {
      const k = type === 'sliding_attention' && text.local_rope_theta != null ? 'local_rope_theta' : 'global_rope_theta';
      [d, source] = [{ ...dict, rope_theta: finite(`${tp}${k}`, text[k] ?? 160000) }, `${tp}${k}`];
    } else {
      [d, source] = [dict, `${tp}${dictKey}`];
    }
    // Ministral 3 / Devstral 2: a query scale by position inside the scaling dict (HF _get_llama_4_attn_scale)
    if (d.llama_4_scaling_beta != null && betaTop === null) betaTop = { beta: finite(`${source}.llama_4_scaling_beta`, d.llama_4_scaling_beta), source };
    const { llama_4_scaling_beta: _beta, ...rest } = d;
    const alpha = ntkAlpha(readVariant(rest, source), source);
    const spec = readDict(alpha ? alpha.dict : readVariant(rest, source), source, warnings);
    const rope_theta = spec.rope_theta ?? ropeThetaTop ?? 10000;
    if (rope_theta > 0 && rope_theta < 1) { // ≤ 0: the core says "> 0"
      throw new PosencError(`${spec.rope_theta !== null ? `${source}.rope_theta` : `${tp}rope_theta`}: must be >= 1, the base of θ_i = base^(−2i/d) (got ${show(rope_theta)})`);
    }
    const global = type === 'full_attention' && text.global_head_dim != null;
    const hd = global ? posInt(`${tp}global_head_dim`, text.global_head_dim) : head_dim;
    const prfDict = opt(d.partial_rotary_factor, (v) => finite(`${source}.partial_rotary_factor`, v));
    const o = spec.dict.original_max_position_embeddings as number | undefined;
    let orig: number | null = o ?? null;
    // HF standardize_rope_params: a top-level original_max_position_embeddings (Phi-3) wins over the flat dict's
    if (!perType && origTop !== null && ['yarn', 'longrope', 'llama3'].includes(spec.rope_type)) orig = origTop;
    if (orig === null && ['yarn', 'longrope', 'llama3'].includes(spec.rope_type)) {
      if (maxPos === null) {
        throw new PosencError(`${source}.original_max_position_embeddings: required for rope_type '${spec.rope_type}' (and ${tp}max_position_embeddings is not set either)`);
      }
      orig = maxPos;
      if (spec.rope_type === 'llama3') {
        warnings.push(`${source}.original_max_position_embeddings: missing; HF v5 uses max_position_embeddings = ${maxPos}, so the bands sit at the extended length`);
      }
    }
    types[type] = {
      source,
      rope_type: spec.rope_type,
      head_dim: hd,
      head_dim_source: global ? `${tp}global_head_dim` : head_dim_source,
      rotary_dim: mlaRope === null ? rotaryDim : null,
      partial_rotary_factor: prfDict ?? prfTop ?? 1,
      partial_rotary_factor_source: prfDict !== null ? `${source}.partial_rotary_factor` : prfKey ? `${tp}${prfKey}` : null,
      rope_theta,
      ntk_alpha: alpha?.alpha ?? null,
      max_position_embeddings: maxPos,
      original_max_position_embeddings: orig,
      dict: spec.dict,
      written_type: String(rest.rope_type ?? rest.type ?? 'default'),
    };
    if (d.mrope_section !== undefined) mrope = mropeOf(d, source);
  }
  const ropeTypes = typeNames.filter((t) => types[t]);
  if (ropeTypes.length === 0) throw new PosencError(`${tp}layer_types: no layer uses RoPE`);
  const default_type = types.full_attention ? 'full_attention' : ropeTypes[0];

  // MLA checkpoints pair consecutive rotary channels (DeepSeek's q_pe view), except MiniCPM3, whose attention applies
  // Llama's rotate_half to q_rot / k_rot (huggingface/transformers models/minicpm3/modular_minicpm3.py MiniCPM3Attention)
  const layout: ConfigLayout =
    mlaRope !== null ? (text.rope_interleave === false || mt === 'minicpm3' ? 'half_split' : 'interleaved')
      : INTERLEAVED.has(mt) ? 'interleaved' : 'half_split';
  const mla = mlaRope === null ? null : {
    qk_rope_head_dim: mlaRope,
    qk_nope_head_dim: opt(text.qk_nope_head_dim, (v) => posInt(`${tp}qk_nope_head_dim`, v)) ?? 128, // HF DeepseekV3Config default
    v_head_dim: opt(text.v_head_dim, (v) => posInt(`${tp}v_head_dim`, v)),
    rope_interleave: layout === 'interleaved',   // MiniCPM3: rotate_half on its rotary part
    // DeepSeek-V3.2's sparse-attention indexer rotates its own q/k (qk_rope_head_dim channels) as NeoX halves unless
    // indexer_rope_interleave (ml-explore/mlx-lm@d78bf58e mlx_lm/models/deepseek_v32.py: indexer_rope_interleave = False,
    // initialize_rope(traditional=args.indexer_rope_interleave)), while the MLA heads pair consecutive channels
    indexer_layout: text.index_topk != null || text.index_head_dim != null ? (text.indexer_rope_interleave === true ? 'interleaved' as const : 'half_split' as const) : null,
  };
  let attn_temperature: ConfigPlan['attn_temperature'] = text.attn_temperature_tuning ? {
    floor_scale: opt(text.floor_scale, (v) => finite(`${tp}floor_scale`, v)) ?? 8192,
    attn_scale: opt(text.attn_scale, (v) => finite(`${tp}attn_scale`, v)) ?? 0.1,
    form: 'llama4',
  } : null;
  if (!attn_temperature && betaTop) {
    // HF Ministral3Attention: every layer's queries × 1 + beta·ln(1 + ⌊p / original_max_position_embeddings⌋)
    const orig = (types[default_type] as RopeSpec).original_max_position_embeddings;
    if (orig === null) throw new PosencError(`${betaTop.source}.original_max_position_embeddings: required with llama_4_scaling_beta (the length of its steps)`);
    attn_temperature = { floor_scale: orig, attn_scale: betaTop.beta, form: 'ministral3' };
  }
  const vision_rope = visionRopeOf(c, warnings);
  const dual_chunk = dualChunkOf(text, tp);
  return { text_path: tp, model_type, types, default_type, layers, layout, mla, attn_temperature, mrope, vision_rope, dual_chunk, warnings: [...new Set(warnings)] };
}

/** Validates one scaling dict: rope_type, required keys, value types; typos of its keys are errors, other keys warnings. */
function readDict(d: Obj, source: string, warnings: string[]): { rope_type: RopeType; rope_theta: number | null; dict: Obj } {
  const typeKey = d.rope_type !== undefined ? 'rope_type' : 'type';
  const rope_type = ropeTypeOf(`${source}.${typeKey}`, checkRopeType(`${source}.${typeKey}`, d[typeKey] ?? 'default', d));
  const spec = KEYS[rope_type];
  const known = [...ALWAYS, ...spec.required, ...spec.optional];
  const all = [...new Set([...ALWAYS, ...Object.values(KEYS).flatMap((k) => [...k.required, ...k.optional])])];
  const out: Obj = {};
  for (const k of Object.keys(d)) {
    const v = d[k];
    const path = `${source}.${k}`;
    if (!known.includes(k)) {
      const near = all.includes(k) ? null : closest(k, known);
      if (near) throw new PosencError(`${path}: unknown key for rope_type '${rope_type}' (did you mean '${near}'?)`);
      warnings.push(`${path}: ignored (rope_type '${rope_type}' does not read it)`);
      continue;
    }
    if (k === 'rope_type' || k === 'type' || k === 'partial_rotary_factor' || k === 'mrope_section' || k === 'mrope_interleaved') continue;
    if (v === null) continue; // HF: a null value means "use the default"
    const list = k === 'short_factor' || k === 'long_factor';
    const ok = k === 'truncate' ? typeof v === 'boolean'
      : list ? Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isFinite(x))
        : typeof v === 'number' && Number.isFinite(v);
    if (!ok) throw new PosencError(`${path}: must be ${k === 'truncate' ? 'a boolean' : list ? 'a list of finite numbers' : 'a finite number'} (got ${show(v)})`);
    if (k === 'original_max_position_embeddings') posInt(path, v);
    out[k] = v;
  }
  for (const k of spec.required) if (out[k] === undefined) throw new PosencError(`${source}.${k}: required for rope_type '${rope_type}'`);
  return { rope_type, rope_theta: (out.rope_theta as number | undefined) ?? null, dict: out };
}

function mropeOf(d: Obj, source: string): NonNullable<ConfigPlan['mrope']> {
  const s = d.mrope_section;
  if (!Array.isArray(s) || s.length !== 3 || !s.every((x) => Number.isInteger(x) && x >= 0)) {
    throw new PosencError(`${source}.mrope_section: must be a list of 3 non-negative integers [t, h, w] (got ${show(s)})`);
  }
  const il = d.mrope_interleaved ?? false;
  if (typeof il !== 'boolean') throw new PosencError(`${source}.mrope_interleaved: must be a boolean (got ${show(il)})`);
  return { mrope_section: s as [number, number, number], mrope_interleaved: il };
}

/** Layer types per layer: `layer_types`, else the pattern HF derives from sliding_window_pattern / the model type. */
function scheduleOf(text: Obj, tp: string, mt: string, n: number | null, perTypeKeys: string[] | null): string[] | null {
  if (text.layer_types != null) {
    const lt = text.layer_types;
    if (!Array.isArray(lt) || !lt.every((x) => typeof x === 'string')) throw new PosencError(`${tp}layer_types: must be a list of strings`);
    if (n !== null && lt.length !== n) throw new PosencError(`${tp}layer_types: length must equal num_hidden_layers = ${n} (got ${lt.length})`);
    return lt as string[];
  }
  // HF Qwen3NextConfig: every full_attention_interval-th layer (default 4) attends with RoPE, the others are Gated DeltaNet
  if (/^qwen3_(next|5)/.test(mt) && n !== null) {
    const every = opt(text.full_attention_interval, (v) => posInt(`${tp}full_attention_interval`, v)) ?? 4;
    return Array.from({ length: n }, (_, i) => ((i + 1) % every ? 'linear_attention' : 'full_attention'));
  }
  // HF defaults: Gemma 2 alternates (pattern 2), Gemma 3 has 5 local : 1 global (6), Cohere2 3 : 1 (4)
  const defaults: Record<string, number> = { gemma2: 2, gemma3: 6, gemma3_text: 6, cohere2: 4 };
  const pat = text.sliding_window_pattern ?? (text._sliding_window_pattern as unknown) ?? defaults[mt];
  if (pat != null || mt === 'modernbert') {
    if (n === null) throw new PosencError(`${tp}num_hidden_layers: required to lay out the local/global layer pattern`);
    if (mt === 'modernbert') {
      const every = opt(text.global_attn_every_n_layers, (v) => posInt(`${tp}global_attn_every_n_layers`, v)) ?? 3;
      return Array.from({ length: n }, (_, i) => (i % every === 0 ? 'full_attention' : 'sliding_attention'));
    }
    const p = posInt(`${tp}sliding_window_pattern`, pat);
    return Array.from({ length: n }, (_, i) => ((i + 1) % p ? 'sliding_attention' : 'full_attention'));
  }
  if (perTypeKeys && perTypeKeys.length > 1) throw new PosencError(`${tp}layer_types: required when rope_parameters is keyed by layer type`);
  return null;
}

/** Per-layer RoPE on/off: Llama 4 and SmolLM3 `no_rope_layers` (1 = RoPE), else every `no_rope_layer_interval`-th off. */
function ropeFlagsOf(text: Obj, tp: string, mt: string, n: number | null, warnings: string[]): boolean[] | null {
  const list = text.no_rope_layers;
  const intervalKey = text.no_rope_layer_interval != null ? 'no_rope_layer_interval' : text.nope_layer_interval != null ? 'nope_layer_interval' : null;
  if (list != null && (!Array.isArray(list) || !list.every((x) => x === 0 || x === 1 || typeof x === 'boolean'))) {
    throw new PosencError(`${tp}no_rope_layers: must be a list of 0/1 per layer (1 = the layer uses RoPE)`);
  }
  if (Array.isArray(list) && list.length > 0) {
    if (n !== null && list.length !== n) throw new PosencError(`${tp}no_rope_layers: length must equal num_hidden_layers = ${n} (got ${list.length})`);
    return list.map((x) => Boolean(x));
  }
  if (intervalKey === null && !mt.startsWith('llama4') && mt !== 'smollm3') return null;
  if (n === null) throw new PosencError(`${tp}num_hidden_layers: required to lay out the NoPE layers`);
  const every = intervalKey ? posInt(`${tp}${intervalKey}`, text[intervalKey]) : 4;
  if (intervalKey === null) warnings.push(`${tp}no_rope_layers: empty or not set; HF's default makes every 4th layer NoPE`);
  return Array.from({ length: n }, (_, i) => (i + 1) % every !== 0);
}
