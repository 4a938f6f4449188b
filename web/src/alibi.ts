// ALiBi (cpp/src/alibi.cpp): slopes and bias matrices.
import { Core } from './core.js';
import { PosencError, check } from './validate.js';
import { array, int, oneOf, optional, out, parse, value } from './options.js';
import type { Schema } from './options.js';
import type { Out } from './rope.js';

/**
 * ALiBi bias form (query i at position p_i, key j): `'causal'` −m·(p_i − j) for j ≤ p_i and −∞ above the diagonal;
 * `'symmetric'` −m·|p_i − j|; `'bloom'` +m·j for j ≤ p_i and −∞ above the diagonal — BLOOM's form (HF
 * `build_alibi_tensor`, the fairseq reference), a per-key ramp broadcast over the queries.
 */
export type AlibiMode = 'causal' | 'symmetric' | 'bloom';

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
  /** Default `'causal'`; `'bloom'` for BLOOM's +m·j (same row softmax as `'causal'`). */
  mode?: AlibiMode;
  /** Where to write the [heads, q_len, k_len] result (up to 2^28 floats: 32 heads × 2048²). Default: a new Float32Array. */
  out?: Out;
}

const ALIBI_BIAS: Schema = { num_heads: optional(int(1, 1024)), slopes: optional(array(1024)), q_len: int(1, 2 ** 20),
  k_len: optional(int(1, 2 ** 20)), mode: oneOf(['causal', 'symmetric', 'bloom'], 'causal'), out: out() };

export const ALIBI_MODES: Record<AlibiMode, number> = { causal: 0, symmetric: 1, bloom: 2 };

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
   * ALiBi bias [heads, q_len, k_len] float32 to add to the attention logits, query i at position
   * p_i = i + k_len − q_len (a KV cache lines up): `'causal'` (default) −m_h·(p_i − j) with −∞ above the diagonal,
   * `'symmetric'` −m_h·|p_i − j|, `'bloom'` +m_h·j with −∞ above the diagonal (BLOOM / HF `build_alibi_tensor`;
   * HF's [heads, 1, k_len] ramp is the row q_len = 1).
   *
   * Why BLOOM's ramp is ALiBi: within row i, m·j = −m·(p_i − j) + m·p_i — the causal bias plus a constant of the
   * row — and softmax(x + c) = softmax(x), so after the row softmax the two forms give the same attention weights
   * (up to float32 rounding; tested). They differ before the softmax, and the bloom form is not a substitute for
   * `'symmetric'`. Accuracy: each entry is its float64 value rounded once to float32.
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
