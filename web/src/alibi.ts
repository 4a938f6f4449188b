// ALiBi (cpp/src/alibi.cpp): slopes and bias matrices.
import { Core } from './core.js';
import { arrayOf, check, integer, object, oneOf } from './validate.js';

/** ALiBi bias form: `'causal'` −m·(i−j) for j ≤ i and −∞ above the diagonal; `'symmetric'` −m·|i−j|. */
export type AlibiMode = 'causal' | 'symmetric';

/** Options of {@link Posenc.alibiBias}. */
export interface AlibiBiasOptions {
  /** Number of heads (slopes from {@link Posenc.alibiSlopes}); or give `slopes`. */
  num_heads?: number;
  /** Explicit per-head slopes (overrides num_heads). */
  slopes?: ArrayLike<number>;
  /** Query rows. */
  q_len: number;
  /** Key columns. Default q_len. Queries are the last q_len of k_len positions (KV cache). */
  k_len?: number;
  /** Default `'causal'`. */
  mode?: AlibiMode;
}

export const ALIBI_MODES: Record<AlibiMode, number> = { causal: 0, symmetric: 1 };

/** ALiBi (Press et al. 2022). */
export class AlibiApi extends Core {
  /**
   * ALiBi slopes (ofirpress/attention_with_linear_biases `get_slopes`, HF `build_alibi_tensor`): for n a power of two
   * m_k = 2^(−8k/n), k = 1…n; otherwise the slopes of the closest lower power of two n', then every other slope of
   * 2n' (indices 0, 2, 4, …) until n. float64.
   */
  alibiSlopes(num_heads: number): Float64Array {
    return check(this.raw.alibiSlopes(integer('num_heads', num_heads)));
  }

  /**
   * ALiBi bias [heads, q_len, k_len] float32 to add to the attention logits: −m_h·|pos_i − j| with query i at
   * position i + k_len − q_len; `'causal'` (default) also puts −∞ above the diagonal. BLOOM/fairseq add +m_h·j
   * instead — the same softmax (it shifts each causal row by a constant).
   */
  alibiBias(options: AlibiBiasOptions): Float32Array {
    const o = object('options', options);
    const slopes = o.slopes != null ? arrayOf('slopes', o.slopes, Float64Array) : this.alibiSlopes(o.num_heads as number);
    const q = integer('q_len', o.q_len);
    return check(this.raw.alibiBias(slopes, q, integer('k_len', o.k_len ?? q), oneOf('mode', o.mode ?? 'causal', ALIBI_MODES)));
  }
}
