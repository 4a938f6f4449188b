// The benchmark's workloads through the public API of the npm package — what a user's code runs. Each setup(pe)
// prepares warm buffers once and returns { run(), at(i) }: run() is one public call per workload (two for
// rope_apply: Q and K), at(i) reads element i of the result for the cross-check with plain JS.
// Where the package has wasm buffers (pe.alloc) the inputs and the `out` buffers live in wasm memory, so nothing
// is copied and no result is allocated per call: the API's cost over the kernel is then its validation and the
// JS↔wasm call. With { fresh: true } (the convenience path) the calls pass plain typed arrays and get fresh results.
import { inputs } from './plain.mjs';

export function apiWorkloads(pe, { fresh = false } = {}) {
  const zeroCopy = !fresh && typeof pe.alloc === 'function';
  const f32 = (n, init) => {
    if (!zeroCopy) return init ?? new Float32Array(n);
    const b = pe.alloc(Float32Array, n);
    if (init) b.array.set(init);
    return b;
  };
  const i32 = (n) => (zeroCopy ? pe.alloc(Int32Array, n) : new Int32Array(n));
  const view = (b) => (ArrayBuffer.isView(b) ? b : b.array);  // a result array or a wasm buffer
  return {
    zeroCopy,
    workloads: {
      rope_tables() {
        const n = 4096 * 32, out = zeroCopy ? { cos: f32(n), sin: f32(n) } : undefined;
        let r = out;
        return {
          run() { r = pe.ropeTables({ rotary_dim: 64, positions: 4096, ...(out && { out }) }); },
          at: (i) => (i < n ? view(r.cos)[i] : view(r.sin)[i - n]),
        };
      },

      rope_apply() {
        const seq = 4096, heads = 32, head_dim = 128, n = seq * heads * head_dim;
        const q = f32(n, inputs(n, 0)), k = f32(n, inputs(n, 2 ** 28)), qo = f32(n), ko = f32(n);
        const tables = pe.ropeTables({ rotary_dim: head_dim, positions: seq,
          ...(zeroCopy && { out: { cos: f32(seq * head_dim / 2), sin: f32(seq * head_dim / 2) } }) });
        const o = { seq, heads, head_dim, cos: tables.cos, sin: tables.sin };
        return {
          run() { pe.ropeApplyTables(q, { ...o, out: qo }); pe.ropeApplyTables(k, { ...o, out: ko }); },
          at: (i) => (i < n ? view(qo)[i] : view(ko)[i - n]),
        };
      },

      scores() {
        const seq = 2048, head_dim = 128, q = f32(seq * head_dim, inputs(seq * head_dim, 0));
        const k = f32(seq * head_dim, inputs(seq * head_dim, 2 ** 28)), out = f32(seq * seq);
        return {
          run() { pe.attentionScores({ q, k, seq, head_dim, rope: { rope_theta: 10000 }, causal: true, out }); },
          at: (i) => view(out)[i],
        };
      },

      ...Object.fromEntries(['decay_ones', 'decay_random'].map((name) => [name, () => {
        const d = 512, count = 65536, out = zeroCopy ? f32(count) : undefined;
        const q = name === 'decay_ones' ? 'ones' : inputs(d, 0), k = name === 'decay_ones' ? 'ones' : inputs(d, 2 ** 28);
        let r = out;
        return {
          run() {
            r = pe.ropeInnerProductSweep({ q, k, head_dim: d, count, layout: 'interleaved', ...(out && { out }) });
          },
          at: (i) => view(r)[i],
        };
      }])),

      sinusoidal() {
        const out = zeroCopy ? f32(8192 * 1024) : undefined;
        let r = out;
        return {
          run() { r = pe.sinusoidal({ positions: 8192, d: 1024, ...(out && { out }) }); },
          at: (i) => view(r)[i],
        };
      },

      alibi() {  // 32 × 2048² = 2^27 floats: one call into `out`; without it two calls (a result was capped at 2^26)
        const heads = 32, n = 2048, plane = n * n;
        if (zeroCopy) {
          const out = f32(heads * plane);
          return {
            run() { pe.alibiBias({ num_heads: heads, q_len: n, mode: 'symmetric', out }); },
            at: (i) => out.array[i],
          };
        }
        const slopes = pe.alibiSlopes(heads);
        let a, b;
        return {
          run() {
            a = pe.alibiBias({ slopes: slopes.subarray(0, 16), q_len: n, mode: 'symmetric' });
            b = pe.alibiBias({ slopes: slopes.subarray(16), q_len: n, mode: 'symmetric' });
          },
          at: (i) => (i < 16 * plane ? a[i] : b[i - 16 * plane]),
        };
      },

      t5() {
        const out = zeroCopy ? i32(2048 * 2048) : undefined;
        let r = out;
        return {
          run() { r = pe.t5Buckets({ q_len: 2048, ...(out && { out }) }); },
          at: (i) => view(r)[i],
        };
      },
    },
  };
}
