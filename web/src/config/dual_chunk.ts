// Dual chunk attention (DCA; Qwen2.5-1M's `dual_chunk_attention_config`): the relative distance each query–key pair's
// RoPE angle encodes once vLLM remaps positions. From vllm-project/vllm@07b13497a9b52274d334090a9a8e04d5ec9ca7e9
// vllm/model_executor/layers/rotary_embedding/dual_chunk_rope.py (DualChunkRotaryEmbedding._compute_cos_sin_cache,
// forward_native) and vllm-project/vllm@006e0acbee67701b91189a2a254142977f853829
// vllm/attention/backends/dual_chunk_flash_attn.py (_dual_chunk_flash_attn_prefill_func: which query copy meets which keys).
import { PosencError, show } from '../validate.js';
import { isObj, posInt, opt } from './checks.js';
import type { Obj } from './checks.js';

/** Pair kinds of {@link DualChunkDistances.kind}. */
export const DCA_MASKED = 0, DCA_INTRA = 1, DCA_SUCCESSIVE = 2, DCA_INTER = 3;

export interface DualChunkDistances {
  /** chunk_size − local_size: the length of vLLM's chunks (positions p belong to chunk ⌊p / chunk_len⌋). */
  chunk_len: number;
  /** Row-major [q, k]: the relative distance the rotation encodes (0 where masked). Exact integers. */
  distances: Float64Array;
  /** Row-major [q, k]: 0 masked (key after the query: causal), 1 intra-chunk, 2 successive chunk, 3 inter-chunk. */
  kind: Uint8Array;
  /** The largest distance any pair gets: ≤ chunk_size whatever the positions (the true distance is unbounded). */
  max_distance: number;
}

/**
 * The distance matrix. With L = chunk_len, query i in chunk c_i = ⌊i/L⌋ and key j ≤ i in c_j:
 * intra (c_j = c_i): key rotated by j mod L, query by i mod L → (i mod L) − (j mod L) = i − j;
 * successive (c_j = c_i − 1): query by min(i mod L + L, chunk_size) (cos_sin_qc_cache) → that − (j mod L);
 * inter (c_j < c_i − 1): query by qc_cache[L − 1] = min(2L − 1, chunk_size) → that − (j mod L).
 */
export function dualChunkDistancesOf(chunk_size: number, local_size: number, q: ArrayLike<number>, k: ArrayLike<number>): DualChunkDistances {
  if (!(local_size < chunk_size)) throw new PosencError(`local_size: must be less than chunk_size = ${chunk_size} (got ${show(local_size)})`);
  const L = chunk_size - local_size, nq = q.length, nk = k.length;
  if (nq * nk > MAX_PAIRS) throw new PosencError(`q_positions: q_positions.length · k_positions.length must be at most ${MAX_PAIRS} (got ${nq}·${nk})`);
  const distances = new Float64Array(nq * nk), kind = new Uint8Array(nq * nk);
  const inter = Math.min(2 * L - 1, chunk_size);
  let max = 0;
  for (let a = 0; a < nq; a++) {
    const i = q[a], ci = Math.floor(i / L), qi = i - ci * L, succ = Math.min(qi + L, chunk_size);
    for (let b = 0; b < nk; b++) {
      const j = k[b];
      if (j > i) continue;
      const cj = Math.floor(j / L), kj = j - cj * L, o = a * nk + b;
      const [t, d] = cj === ci ? [DCA_INTRA, qi - kj] : cj === ci - 1 ? [DCA_SUCCESSIVE, succ - kj] : [DCA_INTER, inter - kj];
      kind[o] = t;
      distances[o] = d;
      if (d > max) max = d;
    }
  }
  return { chunk_len: L, distances, kind, max_distance: max };
}

/** Largest matrix formed (pairs): 2^24. */
export const MAX_PAIRS = 1 << 24;
/** Largest position or chunk_size accepted: 2^40 (integers exact in float64). */
export const MAX_POSITION = 2 ** 40;

/** `dual_chunk_attention_config` as read: chunk_size, local_size, original_max_position_embeddings, chunk_len = chunk_size − local_size. */
export interface DualChunk { chunk_size: number; local_size: number; original_max_position_embeddings: number | null; chunk_len: number;
  /** The key path it was read from. */
  source: string }

/**
 * Qwen2.5-1M's `dual_chunk_attention_config` (vLLM's get_rope, vllm/model_executor/layers/rotary_embedding/__init__.py, builds
 * DualChunkRotaryEmbedding(chunk_size, local_size) when the dict is given; transformers ignores the key).
 */
export function dualChunkOf(text: Obj, tp: string): DualChunk | null {
  const d = text.dual_chunk_attention_config;
  if (d === undefined || d === null) return null;
  const path = `${tp}dual_chunk_attention_config`;
  if (!isObj(d)) throw new PosencError(`${path}: must be an object (got ${show(d)})`);
  const chunk_size = posInt(`${path}.chunk_size`, d.chunk_size);
  const local = d.local_size;
  if (typeof local !== 'number' || !Number.isInteger(local) || local < 0 || local >= chunk_size) {
    throw new PosencError(`${path}.local_size: must be an integer in [0, chunk_size) = [0, ${chunk_size}) (got ${show(local)})`);
  }
  const orig = opt(d.original_max_position_embeddings, (v) => posInt(`${path}.original_max_position_embeddings`, v));
  return { chunk_size, local_size: local, original_max_position_embeddings: orig, chunk_len: chunk_size - local, source: path };
}
