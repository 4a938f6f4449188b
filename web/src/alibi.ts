// ALiBi (cpp/src/alibi.cpp): slopes and bias matrices.
import { Core } from './core.js';
import { PosencError, check } from './validate.js';
import { array, int, oneOf, optional, out, parse, value } from './options.js';
import type { Schema } from './options.js';
import type { Out } from './rope.js';

/** ALiBi bias form: `'causal'` −m·(i−j) for j ≤ i and −∞ above the diagonal; `'symmetric'` −m·|i−j|. */
export type AlibiMode = 'causal' | 'symmetric';

/** Options of {@link Posenc.alibiBias}. */
export interface AlibiBiasOptions {
  /** Number of heads (slopes from {@link Posenc.alibiSlopes}); or give `slopes`. */
  num_heads?: number;
  /** Explicit per-head slopes (with num_heads too, their count must match). */
  slopes?: ArrayLike<number>;
  /** Query rows. */
  q_len: number;
  /** Key columns. Default q_len. Queries are the last q_len of k_len positions (KV cache). */
  k_len?: number;
  /** Default `'causal'`. */
  mode?: AlibiMode;
  /** Where to write the [heads, q_len, k_len] result (up to 2^28 floats: 32 heads × 2048²). Default: a new Float32Array. */
  out?: Out;
}

const ALIBI_BIAS: Schema = { num_heads: optional(int(1, 1024)), slopes: optional(array(1024)), q_len: int(1, 2 ** 20),
  k_len: optional(int(1, 2 ** 20)), mode: oneOf(['causal', 'symmetric'], 'causal'), out: out() };

export const ALIBI_MODES: Record<AlibiMode, number> = { causal: 0, symmetric: 1 };

/** ALiBi (Press et al. 2022). */
export class AlibiApi extends Core {
  /**
   * ALiBi slopes (ofirpress/attention_with_linear_biases `get_slopes`, HF `build_alibi_tensor`): for n a power of two
   * m_k = 2^(−8k/n), k = 1…n; otherwise the slopes of the closest lower power of two n', then every other slope of
   * 2n' (indices 0, 2, 4, …) until n. float64.
   */
  alibiSlopes(num_heads: number): Float64Array {
    return check(this.raw.alibiSlopes(value('num_heads', int(1, 1024), num_heads)));
  }

  /**
   * ALiBi bias [heads, q_len, k_len] float32 to add to the attention logits: −m_h·|pos_i − j| with query i at
   * position i + k_len − q_len; `'causal'` (default) also puts −∞ above the diagonal. BLOOM/fairseq add +m_h·j
   * instead — the same softmax (it shifts each causal row by a constant).
   */
  alibiBias(options: AlibiBiasOptions): Float32Array {
    const o = parse('alibiBias', ALIBI_BIAS, options);
    if (o.slopes === undefined && o.num_heads === undefined) throw new PosencError('num_heads: required (or give slopes)');
    const slopes = o.slopes ?? this.alibiSlopes(o.num_heads);
    if (o.num_heads !== undefined && slopes.length !== o.num_heads) {
      throw new PosencError(`slopes: length must equal num_heads = ${o.num_heads} (got ${slopes.length})`);
    }
    const k = o.k_len ?? o.q_len;
    const st = this.heap.call();
    const pSlopes = st.input('slopes', slopes, 'f64', slopes.length);
    const r = st.output<Float32Array>('out', o.out, 'f32', slopes.length * o.q_len * k);
    check(this.raw.alibiBias(pSlopes, slopes.length, o.q_len, k, ALIBI_MODES[o.mode as AlibiMode], r.address));
    return r.finish();
  }
}
