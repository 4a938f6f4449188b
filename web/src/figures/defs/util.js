// @ts-check
// Inputs the figures share, all from the package: seeded rows from its generator, token q/k, and max |a − b|.

/** Seeded random rows [n, d] from the wasm generator (textQK of n distinct tokens `${tag}0 … ${tag}{n−1}`). */
/** @param {import('../params.js').Posenc} pe @param {number} n @param {number} d @param {number} [seed] @param {string} [tag] */
export function randomRows(pe, n, d, seed = 0, tag = 'r') {
  if (n === 0) return new Float32Array(0);   // e.g. Transformer-XL without memory
  const text = Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
  return pe.textQK({ text, head_dim: d, seed }).q;
}

/** q, k for the text's tokens, repeated cyclically to `seq` rows. */
/** @param {import('../params.js').Posenc} pe @param {string} text @param {number} seq @param {number} headDim @param {number} [seed] */
export function tokensQK(pe, text, seq, headDim, seed = 0) {
  const base = pe.textQK({ text, head_dim: headDim, seed });
  const n = base.tokens.length;
  /** @type {string[]} */
  const tokens = [];
  const q = new Float32Array(seq * headDim), k = new Float32Array(seq * headDim);
  for (let i = 0; i < seq; i++) {
    const t = i % n;
    q.set(base.q.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    k.set(base.k.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    tokens.push(base.tokens[t]);
  }
  return { tokens, q, k };
}

/** The largest |a[i] − b[i]|. @param {ArrayLike<number>} a @param {ArrayLike<number>} b */
export const maxAbsDiff = (a, b) => { let m = 0; for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i])); return m; };
/** [f(0), …, f(n − 1)] (default: the indices). @param {number} n @param {(i: number) => any} [f] */
export const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
