// A Llama checkpoint in Hugging Face's layout (config.json + model.safetensors + tokenizer.json) written as the .gguf
// llama.cpp's converter makes of it, for tests and `npm run bench` (the wllama and llama.cpp peers read only .gguf).
// Written from the converter's documented behaviour (llama.cpp convert_hf_to_gguf.py, LlamaModel at b4000+), not from
// posenc: tensor names (token_embd, blk.N.attn_q …, output_norm; no output.weight when the embeddings are tied), q and k
// rows permuted from transformers' half-split pairing to GGUF's consecutive pairs (LlamaModel.permute: per head,
// reshape (2, head_dim/2) → swap → flatten), F32 data, dims innermost first, and the llama.* keys from config.json.
// The vocabulary is written as a SentencePiece list ("llama"): the pieces of tokenizer.json in id order, scores −id
// (earlier merges first; the converter's LlamaHfVocab writes a placeholder score), types NORMAL / CONTROL / BYTE.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { T, ggufFile } from './gguf-writer.mjs';

function safetensors(file) {
  const b = readFileSync(file);
  const n = Number(b.readBigUInt64LE(0));
  const header = JSON.parse(b.subarray(8, 8 + n).toString('utf8'));
  const get = (name) => {
    const t = header[name];
    if (!t) return null;
    if (t.dtype !== 'F32') throw new Error(`hf-to-gguf: ${name} is ${t.dtype}; only F32 checkpoints are converted here`);
    const [a, z] = t.data_offsets;
    return { shape: t.shape, data: new Float32Array(b.buffer.slice(b.byteOffset + 8 + n + a, b.byteOffset + 8 + n + z)) };
  };
  return get;
}

/** Rows of w [heads·head_dim, in] from half-split to consecutive pairs within each head (convert_hf_to_gguf permute). */
function permute(w, heads, cols) {
  const rows = w.length / cols, D = rows / heads, half = D / 2, out = new Float32Array(w.length);
  for (let h = 0; h < heads; h++)
    for (let i = 0; i < half; i++)
      for (const [src, dst] of [[i, 2 * i], [half + i, 2 * i + 1]])
        out.set(w.subarray((h * D + src) * cols, (h * D + src + 1) * cols), (h * D + dst) * cols);
  return out;
}

/** The .gguf bytes of the checkpoint in `dir`. */
export function hfToGguf(dir) {
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const tok = JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8'));
  const get = safetensors(join(dir, 'model.safetensors'));
  const H = cfg.num_attention_heads, KV = cfg.num_key_value_heads ?? H, E = cfg.hidden_size, D = cfg.head_dim ?? E / H;
  const tensors = [];
  const add = (name, hf, map = (x) => x) => {
    // safetensors from torch keep one of two tied tensors, named in __metadata__ (here lm_head.weight for both)
    const t = get(hf) ?? (hf === 'model.embed_tokens.weight' && cfg.tie_word_embeddings ? get('lm_head.weight') : null);
    if (!t) throw new Error(`hf-to-gguf: ${hf} missing`);
    tensors.push({ name, dims: [...t.shape].reverse(), type: 0, data: new Uint8Array(map(t.data, t.shape).buffer) });
  };
  add('token_embd.weight', 'model.embed_tokens.weight');
  for (let l = 0; l < cfg.num_hidden_layers; l++) {
    const p = `model.layers.${l}.`;
    add(`blk.${l}.attn_norm.weight`, p + 'input_layernorm.weight');
    add(`blk.${l}.attn_q.weight`, p + 'self_attn.q_proj.weight', (w, s) => permute(w, H, s[1]));
    add(`blk.${l}.attn_k.weight`, p + 'self_attn.k_proj.weight', (w, s) => permute(w, KV, s[1]));
    add(`blk.${l}.attn_v.weight`, p + 'self_attn.v_proj.weight');
    add(`blk.${l}.attn_output.weight`, p + 'self_attn.o_proj.weight');
    add(`blk.${l}.ffn_norm.weight`, p + 'post_attention_layernorm.weight');
    add(`blk.${l}.ffn_gate.weight`, p + 'mlp.gate_proj.weight');
    add(`blk.${l}.ffn_up.weight`, p + 'mlp.up_proj.weight');
    add(`blk.${l}.ffn_down.weight`, p + 'mlp.down_proj.weight');
  }
  add('output_norm.weight', 'model.norm.weight');
  if (!cfg.tie_word_embeddings) add('output.weight', 'lm_head.weight');

  const V = cfg.vocab_size, pieces = new Array(V).fill('');
  for (const [piece, id] of Object.entries(tok.model.vocab)) pieces[id] = piece;
  const special = new Set((tok.added_tokens ?? []).filter((t) => t.special).map((t) => t.id));
  const types = pieces.map((p, id) => (special.has(id) ? 3 : /^<0x[0-9A-F]{2}>$/.test(p) ? 6 : 1));
  const kv = [
    ['general.architecture', T.str, 'llama'],
    ['general.name', T.str, cfg._name_or_path ?? 'converted'],
    ['general.file_type', T.u32, 0],
    ['llama.context_length', T.u32, cfg.max_position_embeddings],
    ['llama.embedding_length', T.u32, E],
    ['llama.block_count', T.u32, cfg.num_hidden_layers],
    ['llama.feed_forward_length', T.u32, cfg.intermediate_size],
    ['llama.rope.dimension_count', T.u32, D],
    ['llama.attention.head_count', T.u32, H],
    ['llama.attention.head_count_kv', T.u32, KV],
    ['llama.attention.layer_norm_rms_epsilon', T.f32, cfg.rms_norm_eps],
    ['llama.rope.freq_base', T.f32, cfg.rope_theta ?? 10000],
    ['llama.vocab_size', T.u32, V],
    ['tokenizer.ggml.model', T.str, 'llama'],
    ['tokenizer.ggml.tokens', T.arr, [T.str, pieces]],
    ['tokenizer.ggml.scores', T.arr, [T.f32, pieces.map((_, id) => -id)]],
    ['tokenizer.ggml.token_type', T.arr, [T.i32, types]],
    ['tokenizer.ggml.bos_token_id', T.u32, cfg.bos_token_id],
    ['tokenizer.ggml.eos_token_id', T.u32, cfg.eos_token_id],
    ...(pieces.includes('<unk>') ? [['tokenizer.ggml.unknown_token_id', T.u32, pieces.indexOf('<unk>')]] : []),
    ['tokenizer.ggml.add_bos_token', T.bool, true],
  ];
  return ggufFile({ kv, tensors });
}
