// GGUF files (llama.cpp's model format): the header (cpp/src/gguf.cpp, read through gguf_source.ts) and the RoPE the
// file describes (gguf_rope.ts, in pe.ropeFromConfig's shape).
import { Core } from './core.js';
import { int, optional, parse } from './options.js';
import type { Schema } from './options.js';
import { openGguf } from './gguf_source.js';
import type { GgufHeader, GgufSource } from './gguf_source.js';
import { ropeFromGgufFile } from './gguf_rope.js';
import type { GgufFile } from './gguf_source.js';
import type { RawModule } from './raw.js';
import { PosencError } from './validate.js';
import { llamacppContext } from './config/engines.js';
import type { EngineContext } from './config/result.js';
import type { RopeFromGGUF } from './gguf_rope.js';

export type { GgufBlob, GgufFileHandle, GgufHeader, GgufKeyValue, GgufSource, GgufTensorInfo, GgufValue } from './gguf_source.js';
export type { GgufRope, RopeFromGGUF } from './gguf_rope.js';
export type { GgufPairing } from './gguf_arch.js';

const FROM_GGUF: Schema = { seq_len: optional(int(0, 2 ** 40)), n_ctx: optional(int(0, 2 ** 40)) };

/** Reading .gguf files. */
/**
 * llama.cpp's context for a .gguf: n_ctx padded to 256, by default (and for 0) the file's context_length (n_ctx_train,
 * as llama-cli and llama-server run), unless a current length `seq` is given instead.
 */
export async function ropeFromGgufAt(raw: RawModule, f: GgufFile, seq: number | undefined, nCtx: number | undefined): Promise<RopeFromGGUF> {
  const arch = f.header.metadata['general.architecture'];
  const trainedV = typeof arch === 'string' ? f.header.metadata[`${arch}.context_length`] : undefined;
  const trained = typeof trainedV === 'number' || typeof trainedV === 'bigint' ? Number(trainedV) : null;
  const context: EngineContext = seq !== undefined ? { length: seq, source: 'options.seq_len (the current length, as transformers picks LongRoPE\'s factors)' }
    : llamacppContext(nCtx, trained);
  const r = await ropeFromGgufFile(raw, f, seq ?? context.length ?? 0);
  // the query temperature is per position: stated at a current length only, as ropeFromConfig does
  const attn_temperature = r.attn_temperature && seq === undefined ? { ...r.attn_temperature, scale_at_seq_len: null } : r.attn_temperature;
  return { ...r, attn_temperature, seq_len: seq ?? null, context };
}

export class GgufApi extends Core {
  /**
   * The header of a GGUF file (versions 1–3, little-endian): its key–values in file order (also as `metadata` by
   * key; uint64/int64 as BigInt; arrays over 4096 elements and strings over 1 MiB are walked over, not stored: value
   * null, `skipped: true`), tensor infos, alignment and data offset. A File/Blob, FileHandle or path is read in a
   * window of its first 1 MiB, grown (×1.5 at least) only while the header needs more; tensor data is never read.
   * Caps: header ≤ 256 MiB, ≤ 2^20 key–values and tensors, arrays nested ≤ 4 deep, ≤ 4 dims. Errors start with
   * `gguf:` (not a GGUF file, big-endian, unknown version or value type, a length past the end of the file, duplicate
   * keys or tensor names, a bad general.alignment or tensor offset) or `source:`.
   */
  async ggufHeader(source: GgufSource): Promise<GgufHeader> {
    const f = await openGguf(this.raw, source);
    await f.close();
    return f.header;
  }

  /**
   * The RoPE a .gguf file describes, in {@link Posenc.ropeFromConfig}'s shape (HF names: rope_type, rotary_dim,
   * rope_theta, inv_freq (float64), attention_scaling, layout, layer_types, mla, …) plus `gguf` (the keys and
   * tensors read, llama.cpp's pairing, bytes read). Keys as llama.cpp reads them: `{arch}.rope.freq_base` (default
   * 10000), `rope.dimension_count`, `rope.scaling.*` (type none/linear/yarn/longrope; factor or the legacy
   * `rope.scale_linear`), `context_length`, `attention.key_length[_mla|_swa]`, the sliding-window pattern and
   * `rope.freq_base_swa`; Llama 3 scaling from the `rope_freqs` tensor (inv_freq[i] = freq_base^(−2i/d) / rope_freqs[i]);
   * LongRoPE from `rope_factors_long`/`rope_factors_short`, picked as llama.cpp does by the context it allocates per
   * sequence: `n_ctx` padded to a multiple of 256 — by default (and for 0) the file's context_length, what llama-cli and
   * llama-server run with (`-c 0`; the library's llama_context_default_params has 512: pass `n_ctx: 512`) — long when that exceeds
   * the original context (or, with `seq_len` instead, by the current length as HF does); `context` states which
   * length was assumed and where it comes from. DeepSeek's `yarn_log_multiplier` = 0.1·mscale_all_dim. The pairing is not in the file: it
   * comes from a table mirroring llama.cpp's `llama_model_rope_type` (NORM → 'interleaved', NEOX/M-RoPE → 'half_split');
   * an architecture missing there gives layout null and a warning. `warnings` lists what the file cannot say and
   * what was assumed. inv_freq as ropeFromConfig's (float64; rope_freqs divisors read from F32/F16 exactly).
   */
  async ropeFromGGUF(source: GgufSource, options?: { seq_len?: number; n_ctx?: number }): Promise<RopeFromGGUF> {
    const o = parse('ropeFromGGUF', FROM_GGUF, options);
    if (o.seq_len !== undefined && o.n_ctx !== undefined) throw new PosencError('n_ctx: give n_ctx (llama.cpp\'s context) or seq_len (a current length), not both');
    const f = await openGguf(this.raw, source);
    try {
      return await ropeFromGgufAt(this.raw, f, o.seq_len, o.n_ctx);
    } finally {
      await f.close();
    }
  }
}
