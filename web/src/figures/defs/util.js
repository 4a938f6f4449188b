// Inputs the figures share, all from the package: seeded rows from its generator, token q/k, and max |a − b|.

/** Seeded random rows [n, d] from the wasm generator (textQK of n distinct tokens `${tag}0 … ${tag}{n−1}`). */
export function randomRows(pe, n, d, seed = 0, tag = 'r') {
  if (n === 0) return new Float32Array(0);   // e.g. Transformer-XL without memory
  const text = Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
  return pe.textQK({ text, head_dim: d, seed }).q;
}

/** q, k for the text's tokens, repeated cyclically to `seq` rows. */
export function tokensQK(pe, text, seq, headDim, seed = 0) {
  const base = pe.textQK({ text, head_dim: headDim, seed });
  const n = base.tokens.length;
  const q = new Float32Array(seq * headDim), k = new Float32Array(seq * headDim), tokens = [];
  for (let i = 0; i < seq; i++) {
    const t = i % n;
    q.set(base.q.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    k.set(base.k.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    tokens.push(base.tokens[t]);
  }
  return { tokens, q, k };
}

export const maxAbsDiff = (a, b) => { let m = 0; for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i])); return m; };
export const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
