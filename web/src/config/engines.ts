// How inference engines read the same config.json, where they differ from transformers (the reference):
// `pe.ropeFromConfig(config, { engine: 'vllm' | 'llama.cpp' | 'mlx' })`. Each rule rewrites the transformers result of
// one layer type and leaves a note citing the engine's code at a commit. What is not listed here, the engine computes as
// transformers does (within float32 rounding, which is not modelled: engine tables are float32, these are float64).
// Every result states the context length it assumed (`context`): LongRoPE's factor set follows it, and each engine
// defaults it differently.
import type { RawModule } from '../raw.js';
import { check } from '../validate.js';
import { recompute } from './recompute.js';
import type { ConfigRope, Engine, EngineContext, RopeFromConfig } from './result.js';
import { mlxRope, mlxModel } from './mlx.js';

export type { Engine, EngineContext } from './result.js';
export const ENGINES: readonly Engine[] = ['transformers', 'vllm', 'llama.cpp', 'mlx'];

/** Where each rule comes from (code at a commit; issues with the numbers they report). */
export const SOURCES: Record<string, string> = {
  vllm_get_rope: 'vllm-project/vllm@07b12f1b vllm/model_executor/layers/rotary_embedding/__init__.py (get_rope)',
  vllm_dynamic: 'vllm-project/vllm@50feac95 vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py (_compute_cos_sin_cache)',
  vllm_longrope: 'vllm-project/vllm@63c2b7ab vllm/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py',
  vllm_max_len: 'vllm-project/vllm@ee92a6f3 vllm/transformers_utils/model_arch_config_convertor.py (derive_max_model_len_info)',
  llamacpp_hparams: 'ggml-org/llama.cpp@00342301 src/llama-model.cpp (llama_model::load_hparams)',
  llamacpp_factors: 'ggml-org/llama.cpp@6c8dcaa src/llama-model.cpp (llama_model::get_rope_factors: long when n_ctx_seq > n_ctx_orig_yarn)',
  llamacpp_ctx: 'ggml-org/llama.cpp@6c8dcaa src/llama-context.cpp (llama_context_default_params: n_ctx 512; n_ctx_seq = GGML_PAD(n_ctx, 256))',
  llamacpp_cli_ctx: 'ggml-org/llama.cpp@001d906a common/common.h (common_params: n_ctx = 0, "0 == context the model was trained with"; ' +
    'fit_params = true, fit_params_min_ctx = 4096) and src/llama-context.cpp (n_ctx == 0 ? n_ctx_train; GGML_PAD(n_ctx, 256))',
  llamacpp_llama4: 'ggml-org/llama.cpp@6c8dcaa src/models/llama4.cpp (load_arch_hparams: n_attn_temp_floor_scale 8192, f_attn_temp_scale 0.1, offset 1)',
  llamacpp_convert: 'ggml-org/llama.cpp@a458664f convert_hf_to_gguf.py (TextModel.set_gguf_parameters; LlamaModel.generate_extra_tensors)',
};

export interface EngineOptions {
  /** The current sequence length (transformers' dynamic NTK and LongRoPE choice; MLX's dynamic NTK). */
  seq_len?: number;
  /** llama.cpp: the context allocated per sequence (`-c`); default and 0: the trained context (llama-cli, llama-server). */
  n_ctx?: number;
  /** vLLM: `--max-model-len`; default as vLLM derives it (LongRoPE: original_max_position_embeddings). */
  max_model_len?: number;
  /** Each layer type's scaling dict as the config wrote it (MLX reads some keys with defaults of its own). */
  dicts?: Record<string, Record<string, unknown>>;
}

/** 1 + 0.1·ln(factor) (YaRN's magnitude; vLLM `yarn_get_mscale(factor)`), 1 for factor ≤ 1. */
export const yarnMscale = (factor: number, mscale = 1): number => (factor <= 1 ? 1 : 0.1 * mscale * Math.log(factor) + 1);

/** llama.cpp pads the per-sequence context to a multiple of 256 (one sequence: n_ctx_seq = n_ctx, padded). */
const pad256 = (n: number) => Math.ceil(n / 256) * 256;

/**
 * llama.cpp's context for a model trained at `trained` tokens (the GGUF's context_length; null: unknown): `n_ctx` when
 * given (> 0), else what llama-cli and llama-server run with, `-c 0` = the trained context; padded to 256.
 */
export function llamacppContext(nCtx: number | undefined, trained: number | null): EngineContext {
  if (nCtx !== undefined && nCtx > 0) {
    return { length: pad256(nCtx), source: `options.n_ctx = ${nCtx} (-c), padded to a multiple of 256 (${SOURCES.llamacpp_ctx})` };
  }
  const given = nCtx === 0 ? 'options.n_ctx = 0 (-c 0)' : 'default';
  if (trained === null || !(trained > 0)) {
    return { length: null, source: `${given}: llama-cli and llama-server take the trained context (-c 0), which the model does not state ` +
      `(llama.cpp refuses to run it: pass n_ctx) (${SOURCES.llamacpp_cli_ctx})` };
  }
  return { length: pad256(trained), source: `${given}: the trained context n_ctx_train = ${trained}, padded to a multiple of 256 — what ` +
    `llama-cli and llama-server run with (-c 0; they lower it to fit free device memory, not below 4096); the library's ` +
    `llama_context_default_params has 512: pass n_ctx: 512 (${SOURCES.llamacpp_cli_ctx})` };
}

/** The context each engine runs with for this config: the user's value, else the engine's own default. */
export function engineContext(r: RopeFromConfig, engine: Engine, o: EngineOptions): EngineContext {
  const top = r.layer_types[r.layer_type] as ConfigRope;
  const mp = top.max_position_embeddings;
  if (engine === 'transformers' || engine === 'mlx') {
    const who = engine === 'mlx' ? 'MLX allocates no context: dynamic NTK follows the current length, LongRoPE always uses long_factor'
      : 'transformers picks dynamic NTK\'s base and LongRoPE\'s factors from the current sequence length';
    return o.seq_len !== undefined ? { length: o.seq_len, source: `options.seq_len (${who})` }
      : { length: null, source: `none given: the result is at initialisation, the current length 0 (${who})` };
  }
  if (engine === 'llama.cpp') return llamacppContext(o.n_ctx, mp);   // the converter writes context_length = max_position_embeddings
  if (o.max_model_len !== undefined) return { length: o.max_model_len, source: `options.max_model_len (--max-model-len) (${SOURCES.vllm_get_rope})` };
  const isLong = Object.values(r.layer_types).some((t) => t && t.rope_type === 'longrope');
  if (isLong && top.original_max_position_embeddings !== null) {
    return { length: top.original_max_position_embeddings, source: `vLLM's default for LongRoPE models: original_max_position_embeddings ` +
      `(short factors, "to avoid performance degradation for shorter sequences") (${SOURCES.vllm_max_len})` };
  }
  if (mp === null) return { length: null, source: `vLLM derives max_model_len from max_position_embeddings, which the config does not set (${SOURCES.vllm_max_len})` };
  const scaled = !['default', 'longrope', 'llama3'].includes(top.rope_type) && top.factor !== null && Number.isFinite(top.factor);
  const base = top.rope_type === 'yarn' ? top.original_max_position_embeddings ?? mp : mp;
  const length = scaled ? Math.floor(base * (top.factor as number)) : mp;
  return { length, source: `vLLM's derived max_model_len: ${scaled ? `${top.rope_type === 'yarn' ? 'original_max_position_embeddings' : 'max_position_embeddings'} × factor` : 'max_position_embeddings'} (${SOURCES.vllm_max_len})` };
}

interface Ctx { engine: Engine; mla: boolean; length: number | null; model_type: string; note: (s: string) => void }
const fmt = (x: number) => String(Number(x.toPrecision(6)));

/** One layer type's RoPE as the engine computes it; notes say what differs and why. */
function engineRope(raw: RawModule, r: ConfigRope, ctx: Ctx, dict: Record<string, unknown>): ConfigRope {
  const p = r.params as unknown as Record<string, unknown>;
  const mp = r.max_position_embeddings ?? 0;
  if (ctx.engine === 'mlx') return mlxRope(raw, r, ctx, dict);
  if (ctx.engine === 'vllm') {
    // TeleChat3's variant has its own class in vLLM, whose magnitude is the one read (telechat3_scaling_rope.py)
    if (r.rope_type === 'yarn' && !ctx.mla && dict.rope_type !== 'telechat3-yarn') {
      const s = yarnMscale(r.factor ?? 1);
      if (Math.abs(s - r.attention_scaling) > 1e-12 * s) {
        ctx.note(`${r.source}: attention_scaling ${fmt(s)} (transformers: ${fmt(r.attention_scaling)}) — vLLM's get_rope passes only ` +
          'extrapolation_factor, attn_factor, beta_fast, beta_slow, apply_yarn_scaling, truncate to YaRNScalingRotaryEmbedding, whose ' +
          `mscale is yarn_get_mscale(factor)·attn_factor = 1 + 0.1·ln(${r.factor}); attention_factor, mscale, mscale_all_dim are not read ` +
          `(${SOURCES.vllm_get_rope}; vLLM #48621)`);
      }
      return { ...r, attention_scaling: s };
    }
    if (r.rope_type === 'dynamic' && !r.ntk_alpha) {
      // one cache of max_len = max_position·factor positions, its base transformers' formula at that length:
      // base·(factor·max_len/max_position − (factor − 1))^(d/(d−2)) = base·(factor² − factor + 1)^(d/(d−2))
      const f = r.factor ?? 1;
      const v = recompute(raw, r, p, Math.floor(mp * f));
      ctx.note(`${r.source}: dynamic NTK built once for max_len = max_position_embeddings·factor = ${Math.floor(mp * f)} positions, with the base ` +
        `transformers would use at that length (${fmt(v.effective_base)} = rope_theta·(factor² − factor + 1)^(d/(d−2))), at every position ` +
        `(transformers: rope_theta up to max_position_embeddings = ${mp}, rescaled past it) (${SOURCES.vllm_dynamic})`);
      return v;
    }
    if (r.rope_type === 'longrope') {
      const orig = r.original_max_position_embeddings ?? mp;
      const len = ctx.length ?? orig;
      const v = recompute(raw, r, { ...p, attention_factor: undefined, factor: undefined }, len > orig ? len : 0);
      ctx.note(`${r.source}: LongRoPE factors chosen once by max_model_len = ${len} ${len > orig ? '>' : '≤'} original_max_position_embeddings = ${orig}: ` +
        `${v.longrope_factors} for every position (transformers: by the current sequence length) (${SOURCES.vllm_longrope})`);
      if (p.attention_factor !== undefined && Math.abs(v.attention_scaling - r.attention_scaling) > 1e-12) {
        ctx.note(`${r.source}: attention_scaling ${fmt(v.attention_scaling)} = sqrt(1 + ln(max_position_embeddings/original)/ln(original)) ` +
          `(transformers: attention_factor ${fmt(r.attention_scaling)}) — vLLM reads short_mscale / long_mscale, not attention_factor (${SOURCES.vllm_longrope})`);
      }
      return v;
    }
    return r;
  }
  if (ctx.engine === 'llama.cpp') {
    if (r.rope_type === 'dynamic' && !r.ntk_alpha) {
      ctx.note(`${r.source}: dynamic NTK has no GGUF form — the converter writes no scaling for it (\`elif rope_type == "dynamic": pass\`), ` +
        `so llama.cpp rotates with the unscaled rope_theta at every length (${SOURCES.llamacpp_convert})`);
      return recompute(raw, r, { ...p, rope_type: 'default' }, 0);
    }
    if (r.rope_type === 'longrope') {
      const orig = r.original_max_position_embeddings ?? mp;
      const n = ctx.length ?? mp;
      const v = recompute(raw, r, p, n > orig ? n : 0);
      ctx.note(`${r.source}: LongRoPE factors chosen by the allocated context n_ctx_seq = ${n} ${n > orig ? '>' : '≤'} n_ctx_orig = ${orig}: ` +
        `${v.longrope_factors} factors for every position (transformers: by the current sequence length) (${SOURCES.llamacpp_factors})`);
      return v;
    }
    if (r.rope_type === 'yarn' && p.truncate === false) {
      // ggml's YaRN always floors/ceils the correction range, and the converter writes no truncate key
      ctx.note(`${r.source}.truncate: false is not honoured — ggml_rope_yarn_corr_dims floors and ceils the correction range ` +
        '(ggml-org/llama.cpp@6c8dcaa ggml/src/ggml.c; convert_hf_to_gguf.py writes no truncate key)');
      return recompute(raw, r, { ...p, truncate: true }, 0);
    }
    if (r.rope_type === 'llama3') {
      // rope_freqs = the per-pair divisor θ_default/θ_llama3, stored as F32; llama.cpp divides the unscaled θ by it
      const d = recompute(raw, r, { ...p, rope_type: 'default' }, 0);
      const inv = d.inv_freq.map((t, i) => t / Math.fround(t / r.inv_freq[i]));
      ctx.note(`${r.source}: llama3 scaling read from the rope_freqs tensor (F32 divisors of the unscaled frequencies written by the converter), ` +
        `not from the config: frequencies equal up to float32 rounding of the divisors (${SOURCES.llamacpp_convert})`);
      return { ...r, inv_freq: inv };
    }
    return r;
  }
  return r;
}

/**
 * Sliding layers whose RoPE llama.cpp sets in code, as transformers has it: Gemma 3 (base 10000, no scaling) and OLMo 3
 * (plain RoPE at the full layers' base: freq_scale 1, ext_factor 0, attn_factor 1 — ggml-org/llama.cpp@6c8dcaa
 * src/models/olmo2.cpp, load_arch_hparams and the is_swa branch of the graph).
 */
const SWA_OWN_ROPE = new Set(['gemma3', 'gemma3_text', 'gemma_embedding', 'olmo3']);

/** What applyEngine adds to a ropeFromConfig result. */
export interface EngineReading { engine: Engine; engine_notes: string[]; context: EngineContext }

/** The transformers result `r` of `ropeFromConfig`, as `engine` reads the same config. */
export function applyEngine(raw: RawModule, r: RopeFromConfig, engine: Engine, opts: EngineOptions): RopeFromConfig & EngineReading {
  const notes: string[] = [];
  const context = engineContext(r, engine, opts);
  if (engine === 'transformers') return { ...r, engine, engine_notes: notes, context };
  const mt = r.model_type ?? '';
  const ctx: Ctx = { engine, mla: r.mla !== null, length: context.length, model_type: mt, note: (s) => notes.push(s) };
  if (engine === 'mlx') mlxModel(mt); // throws for a model type mlx-lm has no file for
  const full = r.layer_types.full_attention;
  const types: Record<string, ConfigRope | false> = {};
  for (const [t, x] of Object.entries(r.layer_types)) {
    if (!x) {
      types[t] = false;
      continue;
    }
    const dict = opts.dicts?.[t] ?? {};
    let y = engineRope(raw, x, ctx, dict);
    // llama.cpp: one scaling per file (the full-attention layers'); sliding layers keep their own base (freq_base_swa)
    // but inherit the scaling unless the architecture overrides it
    if (engine === 'llama.cpp' && t !== 'full_attention' && full && !SWA_OWN_ROPE.has(mt)) {
      const fp = full.params as unknown as Record<string, unknown>;
      const xp = x.params as unknown as Record<string, unknown>;
      if (full.rope_type !== x.rope_type || fp.factor !== xp.factor) {
        const { rope_theta: _t, rotary_dim: _d, partial_rotary_factor: _p, ...scaling } = fp;
        const params = { ...scaling, rope_theta: x.rope_theta, rotary_dim: x.rotary_dim };
        y = engineRope(raw, recompute(raw, { ...x, source: `${x.source} (inheriting ${full.source})` }, params, r.seq_len ?? 0), ctx, dict);
        notes.push(`${x.source}: ${t} layers rotate with the full-attention layers' scaling (rope_type '${full.rope_type}'` +
          `${fp.factor !== undefined ? `, factor ${fp.factor}` : ''}) and their own base ${x.rope_theta}: the GGUF holds one scaling, and ` +
          `"by default assume that the sliding-window layers use the same scaling type as the non-sliding-window layers" (${SOURCES.llamacpp_hparams}; cf. llama.cpp #14367)`);
      }
    }
    types[t] = y;
  }
  let { attn_temperature, layers } = r;
  if (mt.startsWith('llama4') && r.layers?.some((l) => !l.rope)) {
    // llama.cpp and mlx-lm scale the NoPE layers' queries whatever the config says (llama.cpp's converter writes no key for it)
    const fixed = { floor_scale: 8192, attn_scale: 0.1, form: 'llama4' as const };
    if (engine !== 'vllm' && (!attn_temperature || attn_temperature.floor_scale !== 8192 || attn_temperature.attn_scale !== 0.1)) {
      notes.push(`attn_temperature: NoPE layers' queries × 1 + 0.1·ln(1 + ⌊(p + 1)/8192⌋) in code, whatever the config's attn_temperature_tuning, ` +
        `floor_scale, attn_scale (transformers: ${attn_temperature ? `floor_scale ${attn_temperature.floor_scale}, attn_scale ${attn_temperature.attn_scale}` : 'none'}) ` +
        `(${engine === 'mlx' ? 'ml-explore/mlx-lm@d78bf58e mlx_lm/models/llama4.py (Attention: attn_temperature_tuning default 4, floor_scale 8192, attn_scale 0.1)' : SOURCES.llamacpp_llama4})`);
      const at = r.seq_len ? check(raw.llama4AttnScales(Float64Array.of(r.seq_len - 1), 8192, 0.1))[0] : null;
      attn_temperature = { ...fixed, scale_at_seq_len: at };
    }
    if (engine === 'mlx' && layers && mt !== 'llama4_text') {
      const hard = layers.map((l, i) => ({ ...l, rope: (i + 1) % 4 !== 0 }));
      if (hard.some((l, i) => l.rope !== layers![i].rope)) {
        notes.push('layers: every 4th layer is NoPE in code (`use_rope = int((layer_idx + 1) % 4 != 0)`), whatever no_rope_layers says ' +
          '(ml-explore/mlx-lm@d78bf58e mlx_lm/models/llama4.py)');
        layers = hard;
      }
    }
  }
  const top = types[r.layer_type] as ConfigRope;
  return { ...r, ...top, layer_types: types, layers, attn_temperature, engine, engine_notes: notes, context };
}
