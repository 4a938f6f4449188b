// What a .gguf file's RoPE is, in the shape of pe.ropeFromConfig's result: the `{arch}.rope.*` keys, head sizes and
// context length read as llama.cpp's loader reads them (src/llama-model.cpp load_hparams at ggml-org/llama.cpp
// 00395eb285c7c6821ff372e3ca41dae9da33c2c7: freq_base default 10000, scaling.type default "linear", factor from
// rope.scaling.factor or the legacy rope.scale_linear (0 = none), original_context_length default context_length,
// key_length default embedding_length / head_count, dimension_count default key_length), the rope_freqs /
// rope_factors_long / rope_factors_short tensors, and the pairing from gguf_arch.ts. Computed by the same C++ core
// as ropeFromConfig (ropeInvFreqScaled).
import type { RawModule } from './raw.js';
import { rawScaling } from './rope_config.js';
import type { RopeScalingParams, RopeType } from './rope_config.js';
import type { ConfigRope, RopeFromConfig } from './config/rope_from_config.js';
import { PosencError, check } from './validate.js';
import type { GgufFile, GgufHeader, GgufValue } from './gguf_source.js';
import { CONVERTER_KEEPS, CONVERTER_PERMUTES, LEARNED_POSITIONS, LLAMA_CPP_COMMIT, NOPE_STEP, RECURRENT_RULES, SWA_RULES, ggufPairing } from './gguf_arch.js';
import type { GgufPairing, SwaRule } from './gguf_arch.js';

/** One layer type's RoPE read from a .gguf (layout null: the architecture is not in llama.cpp's table). */
export interface GgufRope extends Omit<ConfigRope, 'layout'> {
  layout: 'half_split' | 'interleaved' | null;
}
/** Result of {@link Posenc.ropeFromGGUF}: {@link RopeFromConfig}'s fields, plus what the file itself says. */
export interface RopeFromGGUF extends Omit<RopeFromConfig, 'layout' | 'layer_types'> {
  layout: 'half_split' | 'interleaved' | null;
  layer_types: Record<string, GgufRope | false>;
  gguf: {
    architecture: string;
    version: number;
    /** llama.cpp's rope type for the architecture (llama_model_rope_type); null when unknown. */
    pairing: GgufPairing | null;
    /** The RoPE keys and tensors the result was read from, as stored (uint64/int64 as BigInt). */
    keys: Record<string, GgufValue>;
    tensors: { rope_freqs: Float64Array | null; rope_factors_long: Float64Array | null; rope_factors_short: Float64Array | null };
    /** Bytes of the file read (header window + the rope tensors). */
    bytes_read: number;
    file_size: number;
  };
}

const ROPE_KEYS = ['rope.dimension_count', 'rope.dimension_count_swa', 'rope.dimension_sections', 'rope.freq_base', 'rope.freq_base_swa',
  'rope.scale_linear', 'rope.scaling.type', 'rope.scaling.factor', 'rope.scaling.alpha', 'rope.scaling.attn_factor',
  'rope.scaling.original_context_length', 'rope.scaling.finetuned', 'rope.scaling.yarn_log_multiplier', 'rope.scaling.yarn_ext_factor',
  'rope.scaling.yarn_attn_factor', 'rope.scaling.yarn_beta_fast', 'rope.scaling.yarn_beta_slow', 'context_length', 'embedding_length',
  'block_count', 'attention.head_count', 'attention.head_count_kv', 'attention.key_length', 'attention.value_length',
  'attention.key_length_mla', 'attention.value_length_mla', 'attention.key_length_swa', 'attention.value_length_swa',
  'attention.sliding_window', 'attention.sliding_window_pattern', 'attention.temperature_length', 'attention.temperature_scale'];

const AT = 'ggml-org/llama.cpp@6c8dcaa src/';
/** The YaRN keys each loader reads (6c8dcaa src/models/<arch>.cpp load_arch_hparams); absent = none. */
const YARN_READS: Record<string, string[]> = {
  grok: ['yarn_ext_factor', 'yarn_attn_factor', 'yarn_beta_fast', 'yarn_beta_slow'],
  mistral3: ['yarn_beta_fast', 'yarn_beta_slow', 'yarn_log_multiplier'],
};
/** Loaders (6c8dcaa) that read a per-layer sliding list; not in SWA_RULES (their graphs not yet checked). */
const ARRAY_SWA = ['gemma4', 'gemma4-assistant', 'mimo2', 'step35', 'dflash', 'cohere2moe', 'mellum', 'laguna'];

export async function ropeFromGgufFile(raw: RawModule, file: GgufFile, seq: number | undefined): Promise<RopeFromGGUF> {
  const h: GgufHeader = file.header;
  const md = h.metadata;
  const arch = md['general.architecture'];
  if (typeof arch !== 'string') throw new PosencError('gguf: general.architecture is missing (required: it names the {arch}.* keys)');
  const keys: Record<string, GgufValue> = {};
  for (const k of ROPE_KEYS) if (`${arch}.${k}` in md) keys[`${arch}.${k}`] = md[`${arch}.${k}`];
  const warnings: string[] = [];
  const key = (k: string) => `${arch}.${k}`;
  const num = (k: string): number | null => {
    const v = md[key(k)];
    if (v === undefined || v === null) return null;
    if (Array.isArray(v)) {
      const first = v.find((x) => typeof x === 'number' && x > 0);
      if (typeof first !== 'number') throw new PosencError(`gguf: ${key(k)} must be a number or a per-layer array of numbers`);
      if (v.some((x) => x !== first && x !== 0)) warnings.push(`${key(k)}: differs per layer; the first layer's ${first} is used`);
      return first;
    }
    const n = Number(v);
    if (typeof v === 'string' || typeof v === 'boolean' || !Number.isFinite(n)) throw new PosencError(`gguf: ${key(k)} must be a number (got ${String(v)})`);
    return n;
  };
  const sectionsV = md[key('rope.dimension_sections')];
  const sections = Array.isArray(sectionsV) ? sectionsV.map(Number) : null;
  const pairing = ggufPairing(arch, sections);
  if (pairing === null) {
    warnings.push(`general.architecture '${arch}' is not in llama.cpp's llama_model_rope_type table (llama.cpp ${LLAMA_CPP_COMMIT.slice(0, 10)}): ` +
      'the channel pairing (NORM = interleaved, NEOX = half-split) is not in the file, so layout is null');
  }
  if (pairing === 'none') throw new PosencError(`gguf: architecture '${arch}' uses no RoPE in llama.cpp (llama_model_rope_type: NONE)`);
  if (LEARNED_POSITIONS[arch]) {
    throw new PosencError(`gguf: architecture '${arch}' uses learned absolute positions, not RoPE: llama_model_rope_type lists it, but its graph ` +
      `never rotates q/k (${AT}${LEARNED_POSITIONS[arch]})`);
  }
  if (h.version === 1) warnings.push('GGUF version 1: current llama.cpp refuses to load v1 files (gguf.cpp)');

  const nEmbd = num('embedding_length'), nHead = num('attention.head_count');
  const keyLen = num('attention.key_length');
  const headDim = keyLen ?? (nEmbd !== null && nHead ? Math.floor(nEmbd / nHead) : null);
  if (headDim === null) throw new PosencError(`gguf: ${key('attention.key_length')} or ${key('embedding_length')} and ${key('attention.head_count')} are required`);
  const rotary = num('rope.dimension_count') ?? headDim;
  const ctx = num('context_length');
  const base = num('rope.freq_base');
  if (base === null) warnings.push(`${key('rope.freq_base')}: absent; llama.cpp uses 10000`);
  const theta = base ?? 10000;
  const typeV = md[key('rope.scaling.type')];
  const stype = typeV === undefined ? 'linear' : String(typeV);
  if (!['none', 'linear', 'yarn', 'longrope'].includes(stype)) {
    throw new PosencError(`gguf: ${key('rope.scaling.type')} '${stype}' is not one of 'none', 'linear', 'yarn', 'longrope' (llama.cpp refuses it)`);
  }
  const factorRaw = num('rope.scaling.factor') ?? num('rope.scale_linear') ?? 0;
  const factor = factorRaw === 0 ? 1 : factorRaw;
  const orig = num('rope.scaling.original_context_length') ?? ctx;
  const freqs = await file.tensor('rope_freqs.weight');
  const long = await file.tensor('rope_factors_long.weight'), short = await file.tensor('rope_factors_short.weight');

  const params: RopeScalingParams = { rope_type: 'default', rope_theta: theta, rotary_dim: rotary };
  if (ctx !== null) params.max_position_embeddings = ctx;
  if (long || short) {
    if (!long || !short) throw new PosencError('gguf: rope_factors_long.weight and rope_factors_short.weight must both be present (LongRoPE)');
    Object.assign(params, { rope_type: 'longrope', long_factor: long, short_factor: short });
    if (orig !== null) params.original_max_position_embeddings = orig;
    const af = num('rope.scaling.attn_factor');
    if (af !== null) params.attention_factor = af;
    warnings.push(`LongRoPE: llama.cpp picks rope_factors_long for every position when the context it allocates (n_ctx per sequence) exceeds ` +
      `${key('rope.scaling.original_context_length')} = ${orig}, else rope_factors_short (llama_model::get_rope_factors); HF picks by the ` +
      'current sequence length. The factors here follow seq_len');
  } else if (stype === 'yarn') {
    // Only some loaders read the YaRN keys (6c8dcaa: grok.cpp:24-27 all four, mistral3.cpp:7-9 the betas and the log
    // multiplier, deepseek2/deepseek32 the log multiplier); the others run with llama_hparams' defaults (beta 32 / 1)
    const reads = YARN_READS[arch] ?? [];
    const yk = (k: string, dflt: number) => {
      const v = num(`rope.scaling.${k}`);
      if (v !== null && !reads.includes(k) && v !== dflt) {
        warnings.push(`${key(`rope.scaling.${k}`)} = ${v}: llama.cpp's ${arch} loader does not read it (${dflt} is used)`);
      }
      return reads.includes(k) ? v ?? dflt : dflt;
    };
    Object.assign(params, { rope_type: 'yarn', factor, beta_fast: yk('yarn_beta_fast', 32), beta_slow: yk('yarn_beta_slow', 1) });
    if (orig !== null) params.original_max_position_embeddings = orig;
    // llama_context (llama-context.cpp:194-231): with ext_factor ≠ 0 the cos/sin factor is YaRN's get_mscale(factor) (or
    // the log-multiplier ratio), whatever yarn_attn_factor says, times rope.scaling.attn_factor
    const yaf = num('rope.scaling.yarn_attn_factor');
    if (yaf !== null && yaf !== 1) {
      warnings.push(`${key('rope.scaling.yarn_attn_factor')} = ${yaf}: not applied — ${reads.includes('yarn_attn_factor') ? 'read by the loader, but ' : ''}` +
        'llama_context replaces the YaRN attention factor by get_mscale(factor) (src/llama-context.cpp:194-229 at 6c8dcaa)');
    }
    const ext = reads.includes('yarn_ext_factor') ? num('rope.scaling.yarn_ext_factor') : null;
    if (ext !== null && ext !== 1) warnings.push(`${key('rope.scaling.yarn_ext_factor')} = ${ext}: llama.cpp blends the YaRN ramp by it; the frequencies here use HF's full ramp (1)`);
    const logMulY = reads.includes('yarn_log_multiplier') ? num('rope.scaling.yarn_log_multiplier') : null;
    const ra = num('rope.scaling.attn_factor') ?? 1;
    const mscale = (m: number) => (factor <= 1 ? 1 : 0.1 * m * Math.log(factor) + 1);
    if (logMulY !== null && logMulY !== 0) params.attention_factor = (mscale(1) / mscale(logMulY)) * ra;   // mistral3: mscale 1 / mscale_all_dim
    else if (ra !== 1) params.attention_factor = mscale(1) * ra;
    } else if (stype === 'linear' && factor !== 1) {
    Object.assign(params, { rope_type: 'linear', factor });
  } else if (stype === 'none' && factorRaw !== 0) {
    warnings.push(`${key('rope.scaling.factor')} = ${factorRaw} with scaling type 'none': not applied`);
  }
  const kMla = num('attention.key_length_mla');
  // MLA's rotary part is its own head: DeepSeek's (key_length_mla) and MiniCPM3's (q/kv LoRA ranks, rope dims < key_length)
  const isMla = kMla !== null || arch.startsWith('deepseek2') || arch === 'deepseek32' || arch === 'minicpm3';
  const logMul = num('rope.scaling.yarn_log_multiplier') ?? 0;
  // DeepSeek: the converter stores yarn_log_multiplier = 0.1·mscale_all_dim, and llama.cpp cancels YaRN's cos/sin
  // factor (HF: get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim), 1 when mscale = mscale_all_dim)
  if (isMla && params.rope_type === 'yarn' && logMul) params.mscale = params.mscale_all_dim = logMul / 0.1;
  const alpha = num('rope.scaling.alpha');
  if (alpha !== null) warnings.push(`${key('rope.scaling.alpha')} = ${alpha} (NTK alpha): recorded in gguf.keys, not applied to the frequencies here`);
  const layout = pairing === null ? null : pairing === 'norm' ? 'interleaved' : 'half_split';
  if (pairing === 'norm') {
    const by = CONVERTER_PERMUTES[arch];
    warnings.push(`${arch}: llama.cpp rotates consecutive pairs (NORM, layout 'interleaved') of q/k as stored in the file; ` + (by
      ? `for this architecture the converter permutes the q/k rows of a Hugging Face checkpoint (convert_hf_to_gguf.py ${by}) so that ` +
        "this equals HF's rotate_half ('half_split') on the original weights"
      : CONVERTER_KEEPS[arch] ? `the converter writes this architecture's q/k rows unpermuted (convert_hf_to_gguf.py ${CONVERTER_KEEPS[arch]})`
        : 'whether the converter permuted the q/k rows is not recorded in the file'));
  }
  const compute = (p: RopeScalingParams, source: string, hd: number): GgufRope => {
    let r;
    try {
      r = check(raw.ropeInvFreqScaled(rawScaling(p as unknown as Record<string, unknown>), seq ?? 0));
    } catch (e) {
      if (e instanceof PosencError) throw new PosencError(`gguf: ${source}: ${e.message}`);
      throw e;
    }
    let inv = r.invFreq;
    let type = p.rope_type as RopeType;
    let f = r.factor;
    // llama_model::get_rope_factors returns the layer's rope_freqs for every layer that rotates (the loaders create it
    // for all layers, TENSOR_DUPLICATED), sliding ones included
    if (freqs && p.rope_type !== 'longrope') {
      if (freqs.length !== inv.length) throw new PosencError(`gguf: rope_freqs.weight has ${freqs.length} values (expected rotary_dim/2 = ${inv.length})`);
      if (!freqs.every((x) => Number.isFinite(x) && x > 0)) throw new PosencError('gguf: rope_freqs.weight values must be finite and > 0');
      inv = inv.map((x, i) => x / freqs[i]);
      if (type === 'default') {
        type = 'llama3';
        f = Math.max(...freqs);
      }
    }
    return {
      rope_type: type, source, head_dim: hd, rotary_dim: p.rotary_dim, partial_rotary_factor: p.rotary_dim / hd, rope_theta: p.rope_theta ?? 10000,
      max_position_embeddings: p.max_position_embeddings ?? null, original_max_position_embeddings: p.original_max_position_embeddings ?? null,
      inv_freq: inv, attention_scaling: r.attentionScaling, effective_base: r.effectiveBase, factor: f, yarn_correction_range: r.yarn,
      llama3_bands: r.bands, longrope_factors: r.longropeFactors, layout, params: p,
    };
  };
  // MLA: the rotary part is its own head (qk_rope_head_dim = rope.dimension_count), as ropeFromConfig reports it
  const top = compute(params, `${arch}.rope`, isMla ? rotary : headDim);
  if (freqs) {
    warnings.push('rope_freqs.weight: inv_freq[i] = freq_base^(−2i/n_rot) / rope_freqs[i] (ggml_rope_ext freq_factors; the converter stores ' +
      'Llama 3 scaling this way): factor is the largest divisor; low_freq_factor / high_freq_factor are not in the file, so llama3_bands is null');
  }
  const sched = schedule(arch, md, key, num, warnings);
  const layer_types: Record<string, GgufRope | false> = {};
  let layers: RopeFromConfig['layers'] = null;
  if (sched) {
    layers = sched.layers;
    for (const l of sched.layers) {
      if (l.type in layer_types) continue;
      const rotates = sched.layers.some((x) => x.type === l.type && x.rope);
      if (!rotates) layer_types[l.type] = false;
      else if (l.type !== sched.slidingKind) layer_types[l.type] = top;
      else {
        const rule = sched.rule!;
        const hdSwa = num('attention.key_length_swa') ?? headDim;
        const rotSwa = num('rope.dimension_count_swa') ?? rotary;
        const baseSwa = num('rope.freq_base_swa') ?? (rule.inherit === 'none' ? 10000 : theta);
        const pSwa: RopeScalingParams = rule.inherit === 'all' ? { ...params, rope_theta: baseSwa, rotary_dim: rotSwa }
          : { rope_type: 'default', rope_theta: baseSwa, rotary_dim: rotSwa };
        if (rule.inherit === 'all' && params.rope_type !== 'default') {
          warnings.push(`sliding layers: llama.cpp applies the full layers' ${params.rope_type} scaling to them too (${AT}${rule.at}); HF may not`);
        } else if (rule.inherit !== 'all' && params.rope_type !== 'default') {
          warnings.push(`sliding layers: plain RoPE at base ${baseSwa}, without the full layers' ${params.rope_type} scaling (${AT}${rule.at})`);
        }
        const src = key('rope.freq_base_swa') in md ? `${arch}.rope.freq_base_swa` : `${arch}.rope (sliding layers, ${rule.at})`;
        layer_types[l.type] = compute(pSwa, src, hdSwa);
      }
    }
  } else {
    layer_types.full_attention = top;
  }
  const firstRope = Object.keys(layer_types).find((k) => layer_types[k] !== false) ?? 'full_attention';
  let mla: RopeFromConfig['mla'] = null;
  if (isMla) {
    const qk = kMla ?? headDim;
    const m = params.rope_type === 'yarn' && factor > 1 ? 1 + logMul * Math.log(factor) : 1;
    mla = { qk_rope_head_dim: rotary, qk_nope_head_dim: qk - rotary, qk_head_dim: qk, v_head_dim: num('attention.value_length_mla') ?? num('attention.value_length'),
      rope_interleave: pairing === 'norm', softmax_scale: (m * m) / Math.sqrt(qk), softmax_scale_factor: m * m };
    if (logMul) {
      warnings.push(`${key('rope.scaling.yarn_log_multiplier')} = ${logMul} = 0.1·mscale_all_dim (the converter's form of HF's mscale_all_dim = ` +
        `${logMul / 0.1}): llama.cpp scales the softmax by (1 + ${logMul}·ln factor)² and cancels YaRN's cos/sin factor, as HF does when ` +
        'mscale = mscale_all_dim (mscale itself is not in the file)');
    }
  }
  let attn_temperature: RopeFromConfig['attn_temperature'] = null;
  const tScale = num('attention.temperature_scale');
  if (tScale !== null) {
    const floor = num('attention.temperature_length') ?? orig ?? 8192;
    const form = arch === 'llama4' ? 'llama4' : 'ministral3';
    const q = seq === undefined || seq < 1 ? null : form === 'llama4' ? seq - 1 : seq - 2;
    const at = q === null ? null : q < 0 ? 1 : check(raw.llama4AttnScales(Float64Array.of(q), floor, tScale))[0];
    attn_temperature = { floor_scale: floor, attn_scale: tScale, form, scale_at_seq_len: at };
  }
  const mrope = pairing === 'mrope' || pairing === 'imrope';
  return {
    ...top, layer_type: firstRope, layer_types, layers, model_type: arch, seq_len: seq ?? null, mla, attn_temperature,
    mrope_section: mrope && sections ? [sections[0], sections[1], sections[2]] : null, mrope_interleaved: mrope ? pairing === 'imrope' : null,
    vision_rope: null, dual_chunk: null, warnings,
    gguf: { architecture: arch, version: h.version, pairing, keys, tensors: { rope_freqs: freqs, rope_factors_long: long, rope_factors_short: short },
      bytes_read: h.bytes_read, file_size: h.file_size },
  };
}

interface Schedule {
  layers: { type: string; rope: boolean }[];
  /** The kind name of the sliding layers (null: none). */
  slidingKind: string | null;
  rule: SwaRule | null;
}

/**
 * Per layer: sliding or not, recurrent or not, rotated or not — as llama.cpp 6c8dcaa's loader and graph decide them for
 * the architecture (tables in gguf_arch.ts, each with its source line). Null when every layer is the same RoPE layer.
 */
function schedule(arch: string, md: GgufHeader['metadata'], key: (k: string) => string, num: (k: string) => number | null,
  warnings: string[]): Schedule | null {
  const n = num('block_count');
  if (n === null || !Number.isInteger(n) || n < 1) return null;
  const swa = new Array<boolean>(n).fill(false), recr = new Array<boolean>(n).fill(false), nope = new Array<boolean>(n).fill(false);
  let rule: SwaRule | null = SWA_RULES[arch] ?? null;
  let kind = 'sliding_attention';
  const patV = md[key('attention.sliding_window_pattern')];
  const window = md[key('attention.sliding_window')];
  if (rule) {
    const on = rule.when === 'always' || (rule.when === 'window' && Number(window ?? 0) > 0) || (rule.when === 'layers64' && n === 64) ||
      (rule.when === 'llama4' && !(window !== undefined && Number(window) === 0));
    if (!on) rule = null;
  }
  if (rule) {
    kind = rule.kind ?? kind;
    let period = rule.period;
    if (Array.isArray(patV)) {
      if (rule.array) patV.forEach((v, il) => { if (il < n) swa[il] = v === true || v === 1; });
      else warnings.push(`${key('attention.sliding_window_pattern')}: a per-layer list, which llama.cpp's ${arch} loader does not read ` +
        `(get_key_or_arr into a scalar returns false): the default period ${period} applies (${AT}${rule.at})`);
    } else if (patV !== undefined && patV !== null) {
      period = Number(patV);
    } else {
      warnings.push(`${arch}: the sliding-window period ${period} (every ${rule.denseFirst ? 'first' : `${period}th`} layer global) is llama.cpp's default ` +
        `in code, not in the file (${AT}${rule.at})`);
    }
    if (!(Array.isArray(patV) && rule.array)) {
      for (let il = 0; il < n; il++) swa[il] = period === 0 || (rule.denseFirst ? il % period !== 0 : il % period < period - 1);
    }
    if (rule.ropeOnlySliding) for (let il = 0; il < n; il++) nope[il] = !swa[il];
  } else if (patV !== undefined && patV !== null && !(arch in SWA_RULES)) {
    if (ARRAY_SWA.includes(arch)) {
      // loaders that read the per-layer list (get_key_or_arr into is_swa_impl) or a period; their sliding layers' RoPE
      // is taken as the full layers' with rope.freq_base_swa (not yet checked against each graph)
      if (Array.isArray(patV)) patV.forEach((v, il) => { if (il < n) swa[il] = v === true || v === 1; });
      else { const p = Number(patV); for (let il = 0; il < n; il++) swa[il] = p === 0 || il % p < p - 1; }
      rule = { period: 0, denseFirst: false, when: 'always', inherit: 'all', at: `models/${arch}.cpp load_arch_hparams` };
    } else {
      warnings.push(`${key('attention.sliding_window_pattern')}: llama.cpp's ${arch} loader does not read it (no sliding layers; ` +
        `${AT}models/ load_arch_hparams): every layer is treated as a full-attention layer`);
    }
  }
  if (arch === 'llama4' && rule) {
    for (let il = 0; il < n; il++) nope[il] = (il + 1) % 4 === 0;   // models/llama4.cpp:145 (n_no_rope_layer_step 4)
    warnings.push(`llama4: every 4th layer is NoPE (llama_hparams n_no_rope_layer_step = 4, ${AT}models/llama4.cpp:145), chunked attention on the others`);
  } else if (arch === 'llama4') {
    // sliding_window = 0: n_no_rope_layer_step = n_layer, meant as "always use rope" (llama4.cpp:11), but the graph's
    // (il + 1) % n_no_rope_layer_step != 0 (:145) leaves the last layer unrotated
    nope[n - 1] = true;
    warnings.push(`llama4 with ${key('attention.sliding_window')} = 0: llama.cpp rotates every layer but the last (n_no_rope_layer_step = n_layer, ` +
      `${AT}models/llama4.cpp:11 and :145)`);
  }
  const nopeRule = NOPE_STEP[arch];
  if (nopeRule) for (let il = 0; il < n; il++) nope[il] = nope[il] || (il + 1) % nopeRule.step === 0;
  const rr = RECURRENT_RULES[arch];
  if (rr) {
    if (rr.by === 'interval') {
      const list = md[key('attention.recurrent_layers')];
      if (Array.isArray(list)) list.forEach((v, il) => { if (il < n) recr[il] = v === true || Number(v) !== 0; });
      else {
        const every = num('full_attention_interval') ?? 4;
        for (let il = 0; il < n; il++) recr[il] = (il + 1) % every !== 0;
      }
    } else {
      const kv = md[key('attention.head_count_kv')];
      if (Array.isArray(kv)) kv.forEach((v, il) => { if (il < n) recr[il] = Number(v) === 0; });
    }
  }
  if (!swa.some(Boolean) && !recr.some(Boolean) && !nope.some(Boolean)) return null;
  const rk = rr ? rr.kind : 'recurrent';
  return {
    layers: Array.from({ length: n }, (_, il) => ({ type: recr[il] ? rk : swa[il] ? kind : 'full_attention', rope: !recr[il] && !nope[il] })),
    slidingKind: swa.some(Boolean) ? kind : null, rule,
  };
}
