// A small Llama-family language model run by the core (cpp/src/model_*.cpp): pe.loadModel(source) → LanguageModel,
// whose evaluate() gives the loss of every next-token prediction under any RoPE (a rope_scaling dict read by
// pe.ropeFromConfig, ReRoPE, log-n, swapped pairing, a position offset), optionally one head's attention rows and
// per-head attention gauges; generate() continues a prompt. Conventions: posenc/model.hpp in the C++ core.
import { Core } from './core.js';
import { ropeFromConfigOf } from './config/rope_from_config.js';
import type { RopeFromConfig } from './config/result.js';
import type { RawModule } from './raw.js';
import { readJson, readModelFile } from './model_source.js';
import type { ModelSource } from './model_source.js';
import { hfTokenizer } from './tokenizer_hf.js';
import { spmTokenizer } from './tokenizer_spm.js';
import { charTokenizer } from './tokenizer_char.js';
import type { GgufVocab, LmTokenizer } from './tokenizer_spm.js';
import { PosencError, check, show } from './validate.js';
import { lmEvaluate, lmGenerate } from './model_run.js';
import type { LmEvaluateOptions, LmEvaluation, LmGenerateOptions, LmGeneration } from './model_run.js';

export type { ModelBlob, ModelFile, ModelSource } from './model_source.js';
export type { LmTokenizer } from './tokenizer_spm.js';
export type { LmEvaluateOptions, LmEvaluation, LmGenerateOptions, LmGeneration, LmRopeUsed } from './model_run.js';
export { lossByPosition } from './model_run.js';
export type { LossBucket } from './model_run.js';

/**
 * How a model is told where a token is. Llama-family files: 'rope'. posenc's own tiny models (config.json model_type
 * 'posenc-tiny', its `position_encoding.type`; the "train short, test long" models) may use any: 'learned' (a table
 * added to the token embedding, row min(p, n_positions − 1)), 'sinusoidal' (embedding·√n_embd + the interleaved
 * sin/cos table), 'alibi' (score bias −m_h·(i − j)), 't5' (a learned bias per log-spaced distance bucket and head),
 * 'nope' (none), 'xpos' (interleaved rotary with ζ-scaled q and k), 'kerple' (bias −r1·ln(1 + r2·(i − j))).
 */
export type LmPosition = 'rope' | 'learned' | 'sinusoidal' | 'alibi' | 't5' | 'nope' | 'xpos' | 'kerple';

/** A model's shape, as read from its file (GGUF `llama.*` keys) or config.json. */
export interface LmHparams {
  arch: string;
  n_layer: number;
  n_embd: number;
  n_head: number;
  n_head_kv: number;
  head_dim: number;
  n_ff: number;
  n_vocab: number;
  rotary_dim: number;
  rms_eps: number;
  rope_theta: number;
  /** The context the file states (GGUF `llama.context_length`, config `max_position_embeddings`). */
  n_ctx_train: number;
  /** Rotary pairs (2i, 2i+1) (GGUF, xPos) rather than (i, i + d/2) (Hugging Face). */
  interleaved: boolean;
  /** The position scheme; rotary_dim is 0 unless 'rope' or 'xpos'. */
  position: LmPosition;
  /** learned: rows of the position table. */
  n_positions?: number;
  /** t5: buckets and the distance where the last bucket starts. */
  t5_num_buckets?: number;
  t5_max_distance?: number;
  /** xpos: the scale base (torchscale's 512). */
  xpos_scale_base?: number;
  /** sinusoidal: the base of the table's frequencies. */
  sinusoid_base?: number;
  /** kerple: r1 and r2 are used as max(r, kerple_eps). */
  kerple_eps?: number;
}

/** What {@link Posenc.loadModel} takes besides the source. */
export interface LoadModelOptions {
  /**
   * The length the model was trained at, where the file's own number is wrong (stories260K's GGUF says 2048; llama2.c
   * trained it at 512). Default: the file's. It is the `max_position_embeddings` every rope_scaling dict is read with.
   */
  trained_context?: number;
  /** Bytes loaded so far, while fetching. */
  onProgress?: (loaded: number, total: number) => void;
  /**
   * Where `hf:owner/name/file` sources are fetched: default https://huggingface.co (/owner/name/resolve/main/file,
   * redirects followed); a mirror with the same paths, e.g. https://hf-mirror.com, where the Hub is unreachable.
   */
  hub?: string;
}

interface RawModel { handle: number; hparams: LmHparams; n_params: number; tied: boolean; vocab?: GgufVocab }

// Frees a collected model's wasm memory (FinalizationRegistry: ES2021, typed here by its shape).
interface Finalizer { register(o: object, held: { raw: RawModule; handle: number }, token: object): void; unregister(token: object): void }
const FR = (globalThis as { FinalizationRegistry?: new (f: (held: { raw: RawModule; handle: number }) => void) => Finalizer }).FinalizationRegistry;
const finalizer = FR ? new FR(({ raw, handle }) => raw.lmFree(handle)) : null;

/** A loaded model. Free it with {@link LanguageModel.free} (or `using lm = …`); it is also freed when collected. */
export class LanguageModel {
  /** @internal */
  constructor(private readonly raw: RawModule, private handle: number, readonly hparams: LmHparams,
    /** Parameters as stored (a tied output head counted once). */
    readonly n_params: number,
    /** True when the output head is the token embedding (no separate lm_head / output tensor). */
    readonly tied: boolean,
    /** The length the model was trained at (options.trained_context, else the file's). */
    readonly trained_context: number,
    /** The config every `rope` dict of evaluate() is merged into (config.json, or one made from the GGUF keys). */
    readonly config: Readonly<Record<string, unknown>>,
    /** null when the source had no tokenizer. */
    readonly tokenizer: LmTokenizer | null,
    readonly format: 'gguf' | 'safetensors') {
    finalizer?.register(this, { raw, handle }, this);
  }

  /** @internal */
  get live(): number {
    if (!this.handle) throw new PosencError('model: used after free()');
    return this.handle;
  }

  private tok(): LmTokenizer {
    if (!this.tokenizer) throw new PosencError('tokenizer: this model was loaded without one (pass { tokenizer } with a tokenizer.json)');
    return this.tokenizer;
  }

  /** Token ids of `text`; the beginning-of-sequence token first unless `bos: false`. */
  encode(text: string, options?: { bos?: boolean }): Int32Array {
    return this.tok().encode(text, options);
  }

  /** The text of token ids (control tokens dropped, byte tokens joined into UTF-8). */
  decode(ids: ArrayLike<number>): string {
    return this.tok().decode(ids);
  }

  /**
   * The RoPE a `rope` dict gives this model: `pe.ropeFromConfig` of the model's config with `rope_scaling` replaced
   * by the dict (a `rope_theta` key in it overrides the base) and `max_position_embeddings` = trained_context, at
   * seq_len (dynamic NTK's base depends on it). null/undefined: the model's own.
   * @throws PosencError for a model whose positions are not rotary (hparams.rotary_dim 0: learned, alibi, …).
   */
  rope(rope: Record<string, unknown> | null | undefined, seq_len: number): RopeFromConfig {
    if (!this.hparams.rotary_dim) throw new PosencError(`rope: this model's positions are ${this.hparams.position}, not rotary; a rope_scaling dict does not apply`);
    const cfg: Record<string, unknown> = { ...this.config, max_position_embeddings: this.trained_context };
    if (rope !== undefined && rope !== null) {
      if (typeof rope !== 'object' || Array.isArray(rope)) throw new PosencError(`rope: must be a rope_scaling dict or null (got ${show(rope)})`);
      const { rope_theta, ...scaling } = rope;
      if (rope_theta !== undefined) cfg.rope_theta = rope_theta;
      cfg.rope_scaling = Object.keys(scaling).length ? scaling : null;
      delete cfg.rope_parameters;
    }
    const r = ropeFromConfigOf(this.raw, cfg, { seq_len });
    if (r.rotary_dim !== this.hparams.rotary_dim) {
      throw new PosencError(`rope: gives rotary_dim ${r.rotary_dim}, the model rotates ${this.hparams.rotary_dim} channels per head`);
    }
    return r;
  }

  /**
   * The loss of every next-token prediction of `ids` (one sequence, positions 0 … n − 1, prefilled in chunks of
   * `chunk` tokens): nll[t] = −ln p(ids[t+1] | ids[0..t]) (natural log, float32), hit[t] = 1 where ids[t+1] is the
   * top-1 prediction. With `rope`, `rerope`, `logn`, `pairing`, `position_offset` (see {@link LmEvaluateOptions}).
   * `attention` keeps one layer/head's probability rows; `gauges` sums each head's attention mass on far and near
   * keys. Progress after each chunk; `signal` (an AbortSignal) cancels between chunks (PosencError 'cancelled').
   * Accuracy: float32 throughout (the angles and their cos/sin in float64); each loss within 2e-3 of llama.cpp's own
   * forward pass (stories260K, F32 and Q8_0) and within 1e-3 (mean 1e-4) of a float64 reference written from
   * transformers' LlamaForCausalLM (TinyStories-656K, default / linear / dynamic / yarn). Caps: ≤ 16384 tokens;
   * attention rows × keys ≤ 2^24. Memory: the KV cache, 2·n_layer·n_head_kv·head_dim·n floats (3× with ReRoPE).
   */
  evaluate(options: LmEvaluateOptions): Promise<LmEvaluation> {
    return lmEvaluate(this.raw, this, options);
  }

  /** Continues `ids` by max_new_tokens (greedy, or sampled at `temperature` with `top_k` and a seeded generator). */
  generate(options: LmGenerateOptions): Promise<LmGeneration> {
    return lmGenerate(this.raw, this, options);
  }

  /** Frees the model's memory in wasm; the object is unusable after. */
  free(): void {
    if (!this.handle) return;
    this.raw.lmFree(this.handle);
    finalizer?.unregister(this);
    this.handle = 0;
  }

  [Symbol.dispose](): void {
    this.free();
  }
}

function ggufConfig(h: LmHparams): Record<string, unknown> {
  return {
    model_type: 'llama', hidden_size: h.n_embd, num_attention_heads: h.n_head, num_key_value_heads: h.n_head_kv,
    head_dim: h.head_dim, max_position_embeddings: h.n_ctx_train, rope_theta: h.rope_theta,
    ...(h.rotary_dim !== h.head_dim ? { partial_rotary_factor: h.rotary_dim / h.head_dim } : {}),
  };
}

const POSITIONS = ['rope', 'learned', 'sinusoidal', 'alibi', 't5', 'nope', 'xpos', 'kerple'];

/** posenc-tiny's `position_encoding` (scripts/train/model.py writes it) → the scheme's hyperparameters. */
function positionFromConfig(c: Record<string, unknown>, head_dim: number): Record<string, number | string | boolean> {
  if (c.model_type !== 'posenc-tiny') return { position: 'rope', rotary_dim: head_dim, interleaved: false };
  const pe = c.position_encoding as Record<string, unknown> | undefined;
  if (pe === null || typeof pe !== 'object' || !POSITIONS.includes(pe.type as string)) {
    throw new PosencError(`config.position_encoding.type: must be one of ${POSITIONS.join(', ')} (got ${show(pe === null || typeof pe !== 'object' ? pe : pe.type)})`);
  }
  const type = pe.type as string;
  const num = (k: string, d: number): number => {
    const v = pe[k] ?? d;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new PosencError(`config.position_encoding.${k}: must be a number (got ${show(v)})`);
    return v;
  };
  const rotary = type === 'rope' || type === 'xpos';
  const out: Record<string, number | string | boolean> = { position: type, rotary_dim: rotary ? head_dim : 0, interleaved: type === 'xpos' };
  if (rotary) out.rope_theta = num('theta', 10000);
  if (type === 'rope' && pe.layout !== undefined && pe.layout !== 'half_split') throw new PosencError(`config.position_encoding.layout: rope is read as 'half_split' (got ${show(pe.layout)})`);
  if (type === 'xpos' && pe.layout !== undefined && pe.layout !== 'interleaved') throw new PosencError(`config.position_encoding.layout: xpos is read as 'interleaved' (got ${show(pe.layout)})`);
  if (type === 'learned') out.n_positions = num('num_positions', NaN);
  if (type === 'sinusoidal') out.sinusoid_base = num('base', 10000);
  if (type === 'xpos') out.xpos_scale_base = num('scale_base', 512);
  if (type === 'kerple') {
    if (pe.kernel !== undefined && pe.kernel !== 'log') throw new PosencError(`config.position_encoding.kernel: posenc runs KERPLE's 'log' kernel (got ${show(pe.kernel)})`);
    out.kerple_eps = num('eps', 0.01);
  }
  if (type === 't5') {
    if (pe.bidirectional === true) throw new PosencError('config.position_encoding.bidirectional: a decoder uses unidirectional buckets (false)');
    if (pe.shared_across_layers === false) throw new PosencError('config.position_encoding.shared_across_layers: posenc reads one table for all layers (true)');
    out.t5_num_buckets = num('num_buckets', 32);
    out.t5_max_distance = num('max_distance', 128);
  }
  return out;
}

/** The config a posenc-tiny model's rope() dicts are merged into: a Llama config with its rotary base. */
function ropeConfig(c: Record<string, unknown>, hp: LmHparams): Record<string, unknown> {
  return c.model_type === 'posenc-tiny' ? ggufConfig(hp) : c;
}

function hparamsFromConfig(c: Record<string, unknown>, n_vocab: number): Record<string, number | string | boolean> {
  const num = (k: string, d?: number): number => {
    const v = c[k];
    if (v === undefined || v === null) {
      if (d === undefined) throw new PosencError(`config.${k}: required for a Llama model`);
      return d;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new PosencError(`config.${k}: must be a number (got ${show(v)})`);
    return v;
  };
  const mt = c.model_type;
  if (mt !== undefined && mt !== 'llama' && mt !== 'mistral' && mt !== 'posenc-tiny') {
    throw new PosencError(`config.model_type: '${String(mt)}' is not supported (posenc runs the Llama family: llama, mistral; and posenc's own posenc-tiny)`);
  }
  const n_head = num('num_attention_heads'), head_dim = num('head_dim', num('hidden_size') / n_head);
  return {
    n_layer: num('num_hidden_layers'), n_embd: num('hidden_size'), n_head, n_head_kv: num('num_key_value_heads', n_head),
    head_dim, n_ff: num('intermediate_size'), n_vocab: num('vocab_size', n_vocab),
    rms_eps: num('rms_norm_eps', 1e-6), rope_theta: num('rope_theta', 10000), n_ctx_train: num('max_position_embeddings'),
    ...positionFromConfig(c, head_dim),
  };
}

/** Copies bytes into wasm memory for one call. */
function withBytes<T>(raw: RawModule, bytes: Uint8Array, f: (address: number) => T): T {
  const address = raw.reserve(Math.max(bytes.length, 1));
  if (address === 0) throw new PosencError(`source: out of wasm memory (${bytes.length} bytes)`);
  try {
    raw.HEAPU8.set(bytes, address);
    return f(address);
  } finally {
    raw.release(address);
  }
}

export class ModelApi extends Core {
  /**
   * Loads a Llama-family model: a `.gguf` (architecture llama; tensors F32, F16, BF16, Q8_0; its SentencePiece vocabulary
   * tokenizes) or a Hugging Face checkpoint `{ config, safetensors, tokenizer?, tokenizer_config? }` (F32, F16, BF16;
   * tokenizer.json through @huggingface/tokenizers). posenc's own tiny models (model_type 'posenc-tiny': the "train
   * short, test long" models, one per position scheme, see {@link LmPosition}) load the same way; their config's
   * character vocabulary is the tokenizer. Each file may be bytes, a File/Blob, a URL, a path (Node) or
   * `hf:owner/name[/file]` (the Hugging Face Hub). Caps: files ≤ 1 GiB, weights ≤ 2^28 floats, vocabulary ≤ 262144.
   * @throws PosencError naming the file, key or tensor: not a GGUF/safetensors file, an unsupported architecture or
   * tensor type, a missing or mis-shaped tensor, a truncated file, a header that claims more than the file holds.
   */
  async loadModel(source: ModelSource, options: LoadModelOptions = {}): Promise<LanguageModel> {
    if (options === null || typeof options !== 'object') throw new PosencError(`options: must be an object (got ${show(options)})`);
    for (const k of Object.keys(options)) if (!['trained_context', 'onProgress', 'hub'].includes(k)) throw new PosencError(`options.${k}: unknown option (trained_context, onProgress, hub)`);
    const hub = options.hub;
    if (hub !== undefined && (typeof hub !== 'string' || !/^https?:\/\/[^/\s]+/.test(hub))) throw new PosencError(`hub: must be an http(s) URL such as https://hf-mirror.com (got ${show(hub)})`);
    const io = { hub, onProgress: options.onProgress };
    const tc = options.trained_context;
    if (tc !== undefined && (!Number.isInteger(tc) || tc < 1 || tc > 2 ** 24)) throw new PosencError(`trained_context: must be an integer in [1, 2^24] (got ${show(tc)})`);
    const split = source !== null && typeof source === 'object' && 'safetensors' in (source as object);
    if (!split) {
      const bytes = await readModelFile('source', source, undefined, io);
      if (bytes.length >= 8 && bytes[0] === 0x47 && bytes[1] === 0x47 && bytes[2] === 0x55 && bytes[3] === 0x46) {
        const r = check(withBytes(this.raw, bytes, (a) => this.raw.lmFromGguf(a, bytes.length))) as RawModel;
        const tok = r.vocab ? spmTokenizer(r.vocab) : null;
        return new LanguageModel(this.raw, r.handle, r.hparams, r.n_params, r.tied, tc ?? r.hparams.n_ctx_train, ggufConfig(r.hparams), tok, 'gguf');
      }
      throw new PosencError('source: not a .gguf file (it does not start with "GGUF"); for a Hugging Face checkpoint pass ' +
        '{ config, safetensors, tokenizer }');
    }
    const s = source as Exclude<ModelSource, string | ArrayBuffer | Uint8Array>  & { config: unknown; safetensors: unknown; tokenizer?: unknown; tokenizer_config?: unknown };
    const config = await readJson('config', s.config, 'config.json', io);
    const text = (config.text_config && typeof config.text_config === 'object') ? config.text_config as Record<string, unknown> : config;
    const st = await readModelFile('safetensors', s.safetensors, 'model.safetensors', io);
    const hp = hparamsFromConfig(text, 0);
    const r = check(withBytes(this.raw, st, (a) => this.raw.lmFromSafetensors(a, st.length, hp))) as RawModel;
    let tok: LmTokenizer | null = null;
    try {
      if (s.tokenizer !== undefined && s.tokenizer !== null) {
        const tj = await readJson('tokenizer', s.tokenizer, 'tokenizer.json', io);
        const tcfg = s.tokenizer_config === undefined || s.tokenizer_config === null ? {} : await readJson('tokenizer_config', s.tokenizer_config, 'tokenizer_config.json', io);
        const id = (k: string) => (typeof text[k] === 'number' ? text[k] as number : null);
        tok = await hfTokenizer(tj, tcfg, id('bos_token_id'), id('eos_token_id'));
      } else if (text.model_type === 'posenc-tiny' && text.tokenizer !== undefined) {
        tok = charTokenizer(text.tokenizer);
      }
    } catch (e) {
      this.raw.lmFree(r.handle);
      throw e;
    }
    return new LanguageModel(this.raw, r.handle, r.hparams, r.n_params, r.tied, tc ?? r.hparams.n_ctx_train, ropeConfig(text, r.hparams), tok, 'safetensors');
  }
}
