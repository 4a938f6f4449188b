// How inference engines read the same config.json, where they differ from transformers (the reference):
// `pe.ropeFromConfig(config, { engine: 'vllm' | 'llama.cpp' })`. Each rule rewrites the transformers result of one layer
// type and leaves a note citing the engine's code at a commit. What is not listed here, the engine computes as
// transformers does (within float32 rounding, which is not modelled: engine tables are float32, these are float64).
import type { RawModule } from '../raw.js';
import { rawScaling } from '../rope_config.js';
import { check } from '../validate.js';
import type { ConfigRope, RopeFromConfig } from './rope_from_config.js';

export type Engine = 'transformers' | 'vllm' | 'llama.cpp';
export const ENGINES: readonly Engine[] = ['transformers', 'vllm', 'llama.cpp'];

/** Where each rule comes from (code at a commit; issues with the numbers they report). */
const SOURCES = {
  vllm_get_rope: 'vllm-project/vllm@07b12f1b vllm/model_executor/layers/rotary_embedding/__init__.py (get_rope)',
  vllm_dynamic: 'vllm-project/vllm@3cfbaf33 vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py',
  vllm_longrope: 'vllm-project/vllm@17d618b0 vllm/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py',
  llamacpp_hparams: 'ggml-org/llama.cpp@00342301 src/llama-model.cpp (llama_model::load_hparams)',
  llamacpp_factors: 'ggml-org/llama.cpp src/llama-model.cpp llama_model::get_rope_factors (PR #8262)',
  llamacpp_convert: 'ggml-org/llama.cpp@a458664f convert_hf_to_gguf.py (TextModel.set_gguf_parameters; LlamaModel.generate_extra_tensors)',
} as const;

export interface EngineOptions {
  /** llama.cpp: the context allocated per sequence (`-c`; default: the model's max_position_embeddings, as `-c 0`). */
  n_ctx?: number;
  /** vLLM: `--max-model-len` (default: the model's max_position_embeddings). */
  max_model_len?: number;
}

/** 1 + 0.1·ln(factor) (YaRN's magnitude; vLLM `yarn_get_mscale(factor)`), 1 for factor ≤ 1. */
export const yarnMscale = (factor: number, mscale = 1): number => (factor <= 1 ? 1 : 0.1 * mscale * Math.log(factor) + 1);

function recompute(raw: RawModule, r: ConfigRope, params: Record<string, unknown>, seq: number): ConfigRope {
  const x = check(raw.ropeInvFreqScaled(rawScaling(params), seq));
  return {
    ...r, rope_type: params.rope_type as ConfigRope['rope_type'], params: params as unknown as ConfigRope['params'],
    inv_freq: x.invFreq, attention_scaling: x.attentionScaling, effective_base: x.effectiveBase, factor: x.factor,
    yarn_correction_range: x.yarn, llama3_bands: x.bands, longrope_factors: x.longropeFactors,
  };
}

/** One layer type's RoPE as the engine computes it; notes say what differs and why. */
function engineRope(raw: RopeRaw, r: ConfigRope, ctx: Ctx): ConfigRope {
  const p = r.params as unknown as Record<string, unknown>;
  const mp = r.max_position_embeddings ?? 0;
  if (ctx.engine === 'vllm') {
    if (r.rope_type === 'yarn' && !ctx.mla) {
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
      // base·((max_len/max_position) − (factor − 1))^(d/(d−2)) with max_len = max_position·factor: the base itself
      const v = recompute(raw.raw, r, p, 0);
      ctx.note(`${r.source}: dynamic NTK built once at max_len = max_position_embeddings·factor, where its base formula gives ` +
        `rope_theta unchanged: the unscaled frequencies at every length (transformers rescales past max_position_embeddings = ${mp}) (${SOURCES.vllm_dynamic})`);
      return v;
    }
    if (r.rope_type === 'longrope') {
      const orig = r.original_max_position_embeddings ?? mp;
      const len = ctx.max_model_len ?? mp;
      const v = recompute(raw.raw, r, p, len > orig ? len : 0);
      ctx.note(`${r.source}: LongRoPE factors chosen once by max_model_len = ${len} ${len > orig ? '>' : '≤'} original_max_position_embeddings = ${orig}: ` +
        `${v.longrope_factors} for every position (transformers: by the current sequence length) (${SOURCES.vllm_longrope})`);
      return v;
    }
    return r;
  }
  if (ctx.engine === 'llama.cpp') {
    if (r.rope_type === 'dynamic' && !r.ntk_alpha) {
      ctx.note(`${r.source}: dynamic NTK has no GGUF form — the converter writes no scaling for it (\`elif rope_type == "dynamic": pass\`), ` +
        `so llama.cpp rotates with the unscaled rope_theta at every length (${SOURCES.llamacpp_convert})`);
      return recompute(raw.raw, r, { ...p, rope_type: 'default' }, 0);
    }
    if (r.rope_type === 'longrope') {
      const orig = r.original_max_position_embeddings ?? mp;
      const n = ctx.n_ctx ?? mp;
      const v = recompute(raw.raw, r, p, n > orig ? n : 0);
      ctx.note(`${r.source}: LongRoPE factors chosen by the allocated context n_ctx = ${n} ${n > orig ? '>' : '≤'} n_ctx_orig = ${orig}: ` +
        `${v.longrope_factors} factors for every position (transformers: by the current sequence length) (${SOURCES.llamacpp_factors})`);
      return v;
    }
    if (r.rope_type === 'llama3') {
      // rope_freqs = the per-pair divisor θ_default/θ_llama3, stored as F32; llama.cpp divides the unscaled θ by it
      const d = recompute(raw.raw, r, { ...p, rope_type: 'default' }, 0);
      const inv = d.inv_freq.map((t, i) => t / Math.fround(t / r.inv_freq[i]));
      ctx.note(`${r.source}: llama3 scaling read from the rope_freqs tensor (F32 divisors of the unscaled frequencies written by the converter), ` +
        `not from the config: frequencies equal up to float32 rounding of the divisors (${SOURCES.llamacpp_convert})`);
      return { ...r, inv_freq: inv };
    }
    return r;
  }
  return r;
}

interface RopeRaw { raw: RawModule }
interface Ctx { engine: Engine; mla: boolean; n_ctx?: number; max_model_len?: number; note: (s: string) => void }
const fmt = (x: number) => String(Number(x.toPrecision(6)));

/** Gemma 3: llama.cpp hard-codes its sliding layers' RoPE (base 10000, no scaling), as transformers does. */
const SWA_OWN_ROPE = new Set(['gemma3', 'gemma3_text', 'gemma_embedding']);

/** The transformers result `r` of `ropeFromConfig`, as `engine` reads the same config. */
export function applyEngine(raw: RawModule, r: RopeFromConfig, engine: Engine, opts: EngineOptions): RopeFromConfig & { engine: Engine; engine_notes: string[] } {
  const notes: string[] = [];
  if (engine === 'transformers') return { ...r, engine, engine_notes: notes };
  const ctx: Ctx = { engine, mla: r.mla !== null, n_ctx: opts.n_ctx, max_model_len: opts.max_model_len, note: (s) => notes.push(s) };
  const rr: RopeRaw = { raw };
  const full = r.layer_types.full_attention;
  const types: Record<string, ConfigRope | false> = {};
  for (const [t, x] of Object.entries(r.layer_types)) {
    if (!x) {
      types[t] = false;
      continue;
    }
    let y = engineRope(rr, x, ctx);
    // llama.cpp: one scaling per file (the full-attention layers'); sliding layers keep their own base (freq_base_swa)
    // but inherit the scaling unless the architecture overrides it
    if (engine === 'llama.cpp' && t !== 'full_attention' && full && !SWA_OWN_ROPE.has(r.model_type ?? '')) {
      const fp = full.params as unknown as Record<string, unknown>;
      const xp = x.params as unknown as Record<string, unknown>;
      if (full.rope_type !== x.rope_type || fp.factor !== xp.factor) {
        const { rope_theta: _t, rotary_dim: _d, partial_rotary_factor: _p, ...scaling } = fp;
        const params = { ...scaling, rope_theta: x.rope_theta, rotary_dim: x.rotary_dim };
        y = engineRope(rr, recompute(raw, { ...x, source: `${x.source} (inheriting ${full.source})` }, params, r.seq_len ?? 0), ctx);
        notes.push(`${x.source}: ${t} layers rotate with the full-attention layers' scaling (rope_type '${full.rope_type}'` +
          `${fp.factor !== undefined ? `, factor ${fp.factor}` : ''}) and their own base ${x.rope_theta}: the GGUF holds one scaling, and ` +
          `"by default assume that the sliding-window layers use the same scaling type as the non-sliding-window layers" (${SOURCES.llamacpp_hparams}; cf. llama.cpp #14367)`);
      }
    }
    types[t] = y;
  }
  const top = types[r.layer_type] as ConfigRope;
  return { ...r, ...top, layer_types: types, engine, engine_notes: notes };
}
