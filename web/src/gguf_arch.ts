// The RoPE pairing of each GGUF architecture. A .gguf file does not say how q/k channels are paired: llama.cpp
// hard-codes it per architecture in `llama_model_rope_type` (src/llama-model.cpp). This table mirrors that function at
// ggml-org/llama.cpp commit 00395eb285c7c6821ff372e3ca41dae9da33c2c7 (architecture names from src/llama-arch.cpp
// LLM_ARCH_NAMES at the same commit):
//   NORM   — "normal" RoPE on consecutive pairs (2i, 2i+1): posenc layout 'interleaved' (Meta's LLaMA, GPT-J style);
//   NEOX   — pairs offset by n_rot/2 (i, i + n_rot/2): posenc layout 'half_split' (HF rotate_half, GPT-NeoX);
//   MROPE  — multimodal RoPE, NEOX pairing with [t, h, w] sections (rope.dimension_sections; Qwen2-VL);
//   IMROPE — interleaved M-RoPE, NEOX pairing with the sections interleaved (Qwen3-VL, Qwen3.5);
//   NONE   — no RoPE (learned or ALiBi positions, or recurrent models).
// ('vision' — LLAMA_ROPE_TYPE_VISION — is used by llama.cpp's CLIP vision encoders only, never by a text architecture.)
// glm4, glm4moe and hunyuan_vl switch to MROPE when the file has rope.dimension_sections with sections 0 and 1 > 0
// (llama_hparams::use_mrope).

export type GgufPairing = 'norm' | 'neox' | 'mrope' | 'imrope' | 'vision' | 'none';

const NONE = ['clip', 'gpt2', 'gptj', 'mpt', 'refact', 'bloom', 'mamba', 'mamba2', 'jamba', 'jina-bert-v2', 't5', 't5encoder', 'jais',
  'rwkv6', 'rwkv6qwen2', 'rwkv7', 'arwkv7', 'wavtokenizer-dec', 'nemotron_h', 'nemotron_h_moe', 'kimi-linear'];
const NORM = ['llama', 'llada', 'llama4', 'deci', 'baichuan', 'starcoder', 'internlm2', 'minicpm', 'xverse', 'command-r', 'cohere2',
  'cohere2moe', 'olmo', 'arctic', 'deepseek', 'deepseek2', 'deepseek2-ocr', 'deepseek32', 'deepseek4', 'plm', 'chatglm', 'granite',
  'granitemoe', 'granitehybrid', 'chameleon', 'bailingmoe', 'neo-bert', 'smollm3', 'arcee', 'ernie4_5', 'ernie4_5-moe', 'mistral3',
  'eagle3', 'mistral4', 'llama-embed', 'maincoder', 'glm-dsa'];
const NEOX = ['falcon', 'falcon-h1', 'grok', 'dbrx', 'bert', 'jina-bert-v3', 'modern-bert', 'nomic-bert', 'nomic-bert-moe', 'eurobert',
  'stablelm', 'bitnet', 'qwen', 'qwen2', 'dream', 'qwen2moe', 'qwen3', 'qwen3moe', 'llada-moe', 'rnd1', 'olmo2', 'olmoe', 'phi2', 'phi3',
  'phimoe', 'plamo', 'plamo2', 'plamo3', 'gemma', 'gemma2', 'gemma3', 'gemma3n', 'gemma4', 'gemma4-assistant', 'gemma-embedding',
  'starcoder2', 'openelm', 'gptneox', 'codeshell', 'orion', 'nemotron', 'exaone', 'exaone4', 'exaone-moe', 'minicpm3', 'bailingmoe2',
  'dots1', 'hunyuan-moe', 'jais2', 'gpt-oss', 'hunyuan-dense', 'hy_v3', 'lfm2', 'lfm2moe', 'smallthinker', 'seed_oss', 'grovemoe',
  'apertus', 'minimax-m2', 'cogvlm', 'pangu-embedded', 'afmoe', 'laguna', 'qwen3next', 'mimo2', 'step35', 'talkie', 'mellum', 'dflash'];
const MROPE = ['qwen2vl', 'paddleocr'];
const IMROPE = ['qwen3vl', 'qwen3vlmoe', 'qwen35', 'qwen35moe'];
/** Architectures whose pairing depends on rope.dimension_sections: [without sections, with]. */
const BY_SECTIONS: Record<string, [GgufPairing, GgufPairing]> = { glm4: ['norm', 'mrope'], glm4moe: ['neox', 'mrope'], hunyuan_vl: ['neox', 'mrope'] };

const TABLE = new Map<string, GgufPairing>([
  ...NONE.map((a) => [a, 'none'] as const), ...NORM.map((a) => [a, 'norm'] as const), ...NEOX.map((a) => [a, 'neox'] as const),
  ...MROPE.map((a) => [a, 'mrope'] as const), ...IMROPE.map((a) => [a, 'imrope'] as const),
]);

/** The commit of llama.cpp the table mirrors. */
export const LLAMA_CPP_COMMIT = '00395eb285c7c6821ff372e3ca41dae9da33c2c7';

/** llama.cpp's pairing for an architecture, or null when the architecture is not in the table. */
export function ggufPairing(arch: string, sections: readonly number[] | null): GgufPairing | null {
  const by = BY_SECTIONS[arch];
  if (by) return sections !== null && sections.length >= 2 && sections[0] > 0 && sections[1] > 0 ? by[1] : by[0];
  return TABLE.get(arch) ?? null;
}

// ——— The layer schedule llama.cpp fixes per architecture (ggml-org/llama.cpp 6c8dcaa, src/models/<arch>.cpp
// load_arch_hparams and the graph's build code). A .gguf stores at most a period or a per-layer list; which one the
// loader reads, its default, whether the first layer of a period is the dense one, and which layers the graph does not
// rotate are in code.

/** How an architecture's loader lays out its sliding layers, and what RoPE they get. */
export interface SwaRule {
  /** Default period (attention.sliding_window_pattern as a scalar; a per-layer array is ignored unless `array`). */
  period: number;
  /** llama_hparams::set_swa_pattern(period, dense_first): layer il is dense when il % period == 0 (else the last of each period). */
  denseFirst: boolean;
  /** When the loader turns sliding layers on: always, only with attention.sliding_window > 0, or for a 64-layer model. */
  when: 'always' | 'window' | 'layers64' | 'llama4';
  /**
   * The sliding layers' RoPE: 'all' = the full layers' base (unless rope.freq_base_swa) and scaling; 'none' = base
   * rope.freq_base_swa or 10000, no scaling; 'plain' = the full layers' base, no scaling (Olmo 3's graph).
   */
  inherit: 'all' | 'none' | 'plain';
  /** Name of the sliding kind ('chunked_attention' for Llama 4's chunked attention). */
  kind?: string;
  /** The graph rotates only the sliding layers (the others are NoPE). */
  ropeOnlySliding?: boolean;
  /** The loader reads a per-layer array too (get_key_or_arr into is_swa_impl). */
  array?: boolean;
  /** Source line, for the notes. */
  at: string;
}
export const SWA_RULES: Record<string, SwaRule> = {
  gemma2: { period: 2, denseFirst: false, when: 'always', inherit: 'all', at: 'models/gemma2.cpp:4-14' },
  gemma3: { period: 6, denseFirst: false, when: 'window', inherit: 'none', at: 'models/gemma3.cpp:4-14' },
  'gemma-embedding': { period: 6, denseFirst: false, when: 'always', inherit: 'none', at: 'models/gemma-embedding.cpp:4-12' },
  gemma3n: { period: 5, denseFirst: false, when: 'always', inherit: 'none', at: 'models/gemma3n.cpp:4-13' },
  cohere2: { period: 4, denseFirst: false, when: 'always', inherit: 'all', ropeOnlySliding: true, at: 'models/cohere2.cpp:4-13, :91 (rope only if is_swa)' },
  'gpt-oss': { period: 2, denseFirst: false, when: 'always', inherit: 'all', at: 'models/openai-moe.cpp:6-15' },
  exaone4: { period: 4, denseFirst: false, when: 'layers64', inherit: 'all', ropeOnlySliding: true, at: 'models/exaone4.cpp:4-13, :116 (use_rope = is_swa(il))' },
  'exaone-moe': { period: 4, denseFirst: false, when: 'always', inherit: 'all', at: 'models/exaone-moe.cpp:4-13' },
  olmo2: { period: 4, denseFirst: false, when: 'window', inherit: 'plain', at: 'models/olmo2.cpp:6-15, :120-133 (sliding: freq_scale 1, ext_factor 0, attn_factor 1)' },
  'modern-bert': { period: 3, denseFirst: true, when: 'window', inherit: 'none', at: 'models/modern-bert.cpp:4-10' },
  smallthinker: { period: 4, denseFirst: true, when: 'window', inherit: 'all', ropeOnlySliding: true, at: 'models/smallthinker.cpp:4-18, :108 (use_rope = il % n_no_rope_layer_step != 0)' },
  afmoe: { period: 4, denseFirst: false, when: 'window', inherit: 'all', at: 'models/afmoe.cpp:11-23' },
  plamo3: { period: 8, denseFirst: false, when: 'window', inherit: 'none', at: 'models/plamo3.cpp:5-11' },
  llama4: { period: 4, denseFirst: false, when: 'llama4', inherit: 'all', kind: 'chunked_attention', at: 'models/llama4.cpp:8-25' },
};

/** Architectures in llama_model_rope_type whose graph never rotates q/k: learned absolute positions. */
export const LEARNED_POSITIONS: Record<string, string> = {
  starcoder: 'models/starcoder.cpp:19, :75 (position_embd added to the input; no ggml_rope in the graph)',
  bert: 'models/bert.cpp:33, :101 (position_embd for LLM_ARCH_BERT; rope only for nomic-bert / jina-bert-v3, :137)',
};

/** Hybrid architectures' recurrent (non-attention, never rotated) layers. */
export const RECURRENT_RULES: Record<string, { by: 'interval' | 'kv0'; kind: string; at: string }> = {
  qwen35: { by: 'interval', kind: 'linear_attention', at: 'models/qwen35.cpp:21-25' },
  qwen35moe: { by: 'interval', kind: 'linear_attention', at: 'models/qwen35moe.cpp:24-28' },
  qwen3next: { by: 'interval', kind: 'linear_attention', at: 'models/qwen3next.cpp:21-25' },
  lfm2: { by: 'kv0', kind: 'conv', at: 'models/lfm2.cpp:10' },
  lfm2moe: { by: 'kv0', kind: 'conv', at: 'models/lfm2moe.cpp:13' },
  granitehybrid: { by: 'kv0', kind: 'mamba', at: 'models/granite-hybrid.cpp:23' },
  plamo2: { by: 'kv0', kind: 'mamba', at: 'models/plamo2.cpp:19' },
};

/** NoPE layers set in code: layer il is not rotated when (il + 1) % step == 0 (SmolLM3: step 4, llama.cpp 6c8dcaa src/models/smollm3, lines 5 and 69). */
export const NOPE_STEP: Record<string, { step: number; at: string }> = {
  smollm3: { step: 4, at: 'models/smollm3.cpp:5, :69' },
  afmoe: { step: 4, at: 'models/afmoe.cpp:137 (n_no_rope_layer_step: llama_hparams default 4)' },
};

/**
 * NORM architectures whose converter class permutes the q/k rows of a Hugging Face checkpoint (rotate_half pairs) into
 * consecutive pairs (convert_hf_to_gguf.py at ggml-org/llama.cpp a458664f: `LlamaModel.permute` in the class's
 * modify_tensors). Only these: other NORM classes write q/k as stored, because their checkpoints pair consecutive
 * channels themselves (Llama4Model and MistralModel set `undo_permute = False`; DeepseekV2Model never permutes).
 */
export const CONVERTER_PERMUTES: Record<string, string> = {
  llama: 'LlamaModel.modify_tensors (undo_permute; not MistralModel, which converts Mistral-format checkpoints with undo_permute = False)',
  mistral3: 'Mistral3Model, a LlamaModel (undo_permute)',
  minicpm: 'MiniCPMModel.modify_tensors',
};
/** NORM architectures whose converter writes q/k unpermuted: their checkpoints pair consecutive channels themselves (a458664f). */
export const CONVERTER_KEEPS: Record<string, string> = {
  llama4: 'Llama4Model: undo_permute = False (Llama 4 rotates adjacent pairs through view_as_complex)',
  deepseek2: 'DeepseekV2Model: no permutation (DeepSeek rotates adjacent pairs)',
};
