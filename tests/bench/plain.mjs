// Plain-JavaScript implementations of the benchmark's workloads: the same formulas, written the way a careful
// JS author would (typed arrays, precomputed tables where the formula has them, outputs allocated once).
export const input = (i) => {
  let h = Math.imul(i >>> 0, 0x9e3779b1) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return (h >>> 8) / 2 ** 23 - 1;
};
export const inputs = (n, offset) => {
  const v = new Float32Array(n);
  for (let i = 0; i < n; i++) v[i] = input(offset + i);
  return v;
};

/** Each entry: setup() → { run(), at(i) }. */
export const workloads = {
  rope_tables() {
    const seq = 4096, rot = 64, half = rot / 2, cos = new Float32Array(seq * half), sin = new Float32Array(seq * half);
    return {
      run() {
        const inv = Float64Array.from({ length: half }, (_, i) => 10000 ** (-2 * i / rot));
        for (let p = 0; p < seq; p++) for (let i = 0; i < half; i++) {
          const a = p * inv[i];
          cos[p * half + i] = Math.cos(a); sin[p * half + i] = Math.sin(a);
        }
      },
      at: (i) => (i < cos.length ? cos[i] : sin[i - cos.length]),
    };
  },

  rope_apply() {
    const seq = 4096, heads = 32, hd = 128, half = hd / 2, n = seq * heads * hd;
    const q = inputs(n, 0), k = inputs(n, 2 ** 28), qo = new Float32Array(n), ko = new Float32Array(n);
    const cos = new Float32Array(seq * half), sin = new Float32Array(seq * half);
    for (let p = 0; p < seq; p++) for (let i = 0; i < half; i++) {
      const a = p * 10000 ** (-2 * i / hd);
      cos[p * half + i] = Math.cos(a); sin[p * half + i] = Math.sin(a);
    }
    const apply = (x, o) => {
      for (let s = 0; s < seq; s++) {
        const t = s * half;
        for (let h = 0; h < heads; h++) {
          const b = (s * heads + h) * hd;
          for (let i = 0; i < half; i++) {
            const a = x[b + i], c = x[b + i + half], cs = cos[t + i], sn = sin[t + i];
            o[b + i] = a * cs - c * sn;
            o[b + i + half] = a * sn + c * cs;
          }
        }
      }
    };
    return { run() { apply(q, qo); apply(k, ko); }, at: (i) => (i < n ? qo[i] : ko[i - n]) };
  },

  scores() {
    const seq = 2048, d = 128, half = d / 2;
    const q = inputs(seq * d, 0), k = inputs(seq * d, 2 ** 28);
    const rq = new Float32Array(seq * d), rk = new Float32Array(seq * d), out = new Float32Array(seq * seq);
    const scale = 1 / Math.sqrt(d);
    return {
      run() {
        for (let p = 0; p < seq; p++) for (let i = 0; i < half; i++) {
          const a = p * 10000 ** (-2 * i / d), c = Math.cos(a), s = Math.sin(a), b = p * d;
          rq[b + i] = q[b + i] * c - q[b + i + half] * s; rq[b + i + half] = q[b + i] * s + q[b + i + half] * c;
          rk[b + i] = k[b + i] * c - k[b + i + half] * s; rk[b + i + half] = k[b + i] * s + k[b + i + half] * c;
        }
        for (let i = 0; i < seq; i++) {
          let m = -Infinity;
          for (let j = 0; j <= i; j++) {
            let acc = 0;
            for (let c = 0; c < d; c++) acc += rq[i * d + c] * rk[j * d + c];
            const v = acc * scale;
            out[i * seq + j] = v;
            if (v > m) m = v;
          }
          let sum = 0;
          for (let j = 0; j <= i; j++) { const e = Math.exp(out[i * seq + j] - m); out[i * seq + j] = e; sum += e; }
          for (let j = 0; j <= i; j++) out[i * seq + j] /= sum;
          for (let j = i + 1; j < seq; j++) out[i * seq + j] = 0;
        }
      },
      at: (i) => out[i],
    };
  },

  ...Object.fromEntries(['decay_ones', 'decay_random'].map((name) => [name, () => {
    const d = 512, half = d / 2, count = 65536;
    const q = name === 'decay_ones' ? new Float32Array(d).fill(1) : inputs(d, 0);
    const k = name === 'decay_ones' ? new Float32Array(d).fill(1) : inputs(d, 2 ** 28);
    const theta = Float64Array.from({ length: half }, (_, i) => 10000 ** (-2 * i / d));
    const hr = new Float64Array(half), hi = new Float64Array(half);
    for (let i = 0; i < half; i++) {
      hr[i] = q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1];
      hi[i] = q[2 * i + 1] * k[2 * i] - q[2 * i] * k[2 * i + 1];
    }
    const out = new Float32Array(count);
    return {
      run() {  // ⟨R_0 q, R_r k⟩ = Σ_i hr_i cos(rθ_i) + hi_i sin(rθ_i)
        for (let r = 0; r < count; r++) {
          let s = 0;
          for (let i = 0; i < half; i++) s += hr[i] * Math.cos(r * theta[i]) + hi[i] * Math.sin(r * theta[i]);
          out[r] = s;
        }
      },
      at: (i) => out[i],
    };
  }])),

  sinusoidal() {
    const n = 8192, d = 1024, out = new Float32Array(n * d);
    const w = Float64Array.from({ length: d / 2 }, (_, i) => 10000 ** (-2 * i / d));
    return {
      run() {
        for (let p = 0; p < n; p++) for (let i = 0; i < d / 2; i++) {
          out[p * d + 2 * i] = Math.sin(p * w[i]);
          out[p * d + 2 * i + 1] = Math.cos(p * w[i]);
        }
      },
      at: (i) => out[i],
    };
  },

  alibi() {
    const heads = 32, n = 2048, out = new Float32Array(heads * n * n);
    // slopes for a power of two: 2^(−8(h+1)/heads)
    const slopes = Float64Array.from({ length: heads }, (_, h) => 2 ** (-8 * (h + 1) / heads));
    return {
      run() {
        for (let h = 0; h < heads; h++) {
          const m = slopes[h], base = h * n * n;
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[base + i * n + j] = -m * Math.abs(i - j);
        }
      },
      at: (i) => out[i],
    };
  },

  t5() {
    const n = 2048, out = new Int32Array(n * n), nb = 16, exact = 8, maxd = 128;  // bidirectional, 32 buckets
    const bucket = (rel) => {
      let b = rel > 0 ? nb : 0;
      const r = Math.abs(rel);
      if (r < exact) return b + r;
      const large = exact + Math.trunc(Math.fround(Math.fround(Math.log(Math.fround(r / exact))) / Math.fround(Math.log(maxd / exact)) * (nb - exact)));
      return b + Math.min(large, nb - 1);
    };
    return {
      run() { for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = bucket(j - i); },
      at: (i) => out[i],
    };
  },
};
