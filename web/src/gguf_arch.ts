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
