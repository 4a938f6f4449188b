// @ts-check
// The real-model figures' (model-loss, model-attention) choices: the two models, the RoPE methods a reader can apply
// to them (each as the options of lm.evaluate: a Hugging Face rope_scaling dict, or ReRoPE / log-n / pairing), and
// the shared computation — from the numbers precomputed at build time (model-data.gen.js, made by
// scripts/model-data.mjs from ../shared/models) or live, by pe.loadModel in the figures' worker.
import { L } from '../params.js';

/** The models: where a published page loads them (the Hugging Face Hub) and the length each was trained at. */
export const MODELS = {
  'tinystories-656k': { label: L('TinyStories-656K (Llama, 2 layers, head_dim 16)', 'TinyStories-656K（Llama，2 层，head_dim 16）'), trained: 512, layer: 1,
    hub: { config: 'hf:raincandy-u/TinyStories-656K/config.json', safetensors: 'hf:raincandy-u/TinyStories-656K/model.safetensors',
      tokenizer: 'hf:raincandy-u/TinyStories-656K/tokenizer.json', tokenizer_config: 'hf:raincandy-u/TinyStories-656K/tokenizer_config.json' },
    local: { config: 'tinystories-656k/config.json', safetensors: 'tinystories-656k/model.safetensors', tokenizer: 'tinystories-656k/tokenizer.json',
      tokenizer_config: 'tinystories-656k/tokenizer_config.json' },
    theta: 10000, rotary_dim: 16,
    credit: L('raincandy-u/TinyStories-656K (Apache-2.0)', 'raincandy-u/TinyStories-656K（Apache-2.0）') },
  stories260k: { label: L('stories260K (llama2.c, 5 layers, head_dim 8)', 'stories260K（llama2.c，5 层，head_dim 8）'), trained: 512, layer: 4,
    hub: 'hf:ggml-org/tiny-llamas/stories260K.gguf', local: 'stories260k/stories260K.gguf', theta: 10000, rotary_dim: 8,
    credit: L('Karpathy’s stories260K, llama2.c (MIT)', 'Karpathy 的 stories260K，llama2.c（MIT）') },
};
/** @typedef {keyof typeof MODELS} ModelName */

export const METHOD_NAMES = /** @type {const} */ (['original', 'pi', 'ntk', 'ntk_seed', 'dynamic', 'yarn', 'rerope', 'leaky', 'logn', 'swapped']);
/** @typedef {typeof METHOD_NAMES[number]} Method */
export const METHOD_LABELS = {
  original: L('original RoPE', '原始 RoPE'), pi: L('PI (linear)', 'PI（linear）'), ntk: L('NTK-aware (bloc97: θ·sᵈᐟ⁽ᵈ⁻²⁾)', 'NTK-aware（bloc97：θ·sᵈᐟ⁽ᵈ⁻²⁾）'),
  ntk_seed: L('NTK as seed 000 writes it (θ·s²ᐟᵈ)', '种子文章 000 写法的 NTK（θ·s²ᐟᵈ）'), dynamic: L('dynamic NTK', '动态 NTK'), yarn: L('YaRN', 'YaRN'),
  rerope: L('ReRoPE', 'ReRoPE'), leaky: L('leaky ReRoPE (k = 16)', 'Leaky ReRoPE（k = 16）'), logn: L('log-n scaling only', '只用 log-n 缩放'),
  swapped: L('swapped pairing (rotate_half ↔ every two)', '交换配对（rotate_half ↔ 两两相邻）'),
};

/**
 * lm.evaluate's options for a method: s = factor, w = ReRoPE's window; theta and d: the model's base and rotary dim.
 * @param {Method} method @param {{ factor: number, window: number, theta: number, d: number }} o
 * @returns {{ rope?: Record<string, unknown>, rerope?: { window: number, leaky?: number }, logn?: boolean, pairing?: 'swapped' }}
 */
export function methodOptions(method, { factor, window, theta, d }) {
  switch (method) {
    case 'pi': return { rope: { rope_type: 'linear', factor } };
    case 'ntk': return { rope: { rope_type: 'dynamic', alpha: factor } };
    case 'ntk_seed': return { rope: { rope_theta: theta * factor ** (2 / d) } };
    case 'dynamic': return { rope: { rope_type: 'dynamic', factor } };
    case 'yarn': return { rope: { rope_type: 'yarn', factor } };
    case 'rerope': return { rerope: { window } };
    case 'leaky': return { rerope: { window, leaky: 1 / 16 } };
    case 'logn': return { logn: true };
    case 'swapped': return { pairing: 'swapped' };
    default: return {};
  }
}

/** The options as the reader reads them: a rope_scaling dict, or what replaces it. @param {ReturnType<typeof methodOptions>} o */
export function methodText(o) {
  if (o.rope) return `rope_scaling = ${JSON.stringify(o.rope)}`.replace('rope_scaling = {"rope_theta"', 'rope_theta override {"rope_theta"');
  if (o.rerope) return `rerope = ${JSON.stringify(o.rerope)}`;
  if (o.logn) return 'logn = true (query × max(1, ln(p + 1) / ln 512))';
  if (o.pairing) return 'pairing = swapped';
  return 'rope_scaling = null';
}

/** A perplexity as the figures and the page write it: 3 significant digits, at least the integer part. @param {number} x */
export const fmtPpl = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));

export const BUCKET = 128;   // positions per point of the loss curve
/** The settings the build precomputes (scripts/model-data.mjs): tokens, factor s, ReRoPE window, and the methods whose
 * attention map it keeps. */
export const PRECOMPUTED = { ctx: 4096, factor: 8, window: 256, maps: ['original', 'rerope'] };

/** Token ids stored as base64 of little-endian uint16 (vocabularies ≤ 65536). @param {string} b64 */
export function decodeIds(b64) {
  const bin = atob(b64), out = new Int32Array(bin.length / 2);
  for (let k = 0; k < out.length; k++) out[k] = bin.charCodeAt(2 * k) | (bin.charCodeAt(2 * k + 1) << 8);
  return out;
}

/**
 * lm.evaluate's attention rows pooled to 24 query rows × 48 key columns: each cell the mean over its query rows of the
 * attention mass on its keys.
 * @param {{ rows: Float32Array, row_begin: number, row_end: number }} a
 */
export function poolAttention({ rows, row_begin, row_end }) {
  const R = 24, C = 48, nq = row_end - row_begin, data = new Array(R * C).fill(0), count = new Array(R).fill(0);
  for (let q = 0; q < nq; q++) count[Math.floor((q * R) / nq)]++;
  for (let q = 0; q < nq; q++) {
    const r = Math.floor((q * R) / nq);
    for (let j = 0; j < row_end; j++) data[r * C + Math.floor((j * C) / row_end)] += rows[q * row_end + j] / count[r];
  }
  return { rows: R, cols: C, data };
}

/**
 * What the figures draw of one evaluation: per-bucket perplexity (exp of the mean loss) and top-1 accuracy, the summaries inside and past the
 * trained length (perplexity, accuracy, bits per character), the probed head's attention map pooled to 24 query rows ×
 * 48 key columns, and the far/near gauges of the probed layer.
 * @param {{ nll: Float32Array, hit: Uint8Array, attention?: { rows: Float32Array, row_begin: number, row_end: number, head: number },
 *   gauges?: { far: Float64Array, near: Float64Array } }} ev
 * @param {{ trained: number, charsPerToken: number, layer: number, heads: number }} o
 */
export function summarize(ev, { trained, charsPerToken, layer, heads }) {
  const n = ev.nll.length + 1, ppl = [], acc = [];
  for (let a = 0; a < n; a += BUCKET) {
    let s = 0, h = 0, c = 0;
    for (let p = Math.max(a, 1); p < Math.min(a + BUCKET, n); p++) { s += ev.nll[p - 1]; h += ev.hit[p - 1]; c++; }
    ppl.push(Math.exp(s / c)); acc.push(h / c);
  }
  /** @param {number} a @param {number} b */
  const part = (a, b) => {
    let s = 0, h = 0, c = 0;
    for (let p = Math.max(a, 1); p < Math.min(b, n); p++) { s += ev.nll[p - 1]; h += ev.hit[p - 1]; c++; }
    const nll = c ? s / c : NaN;
    return { tokens: c, nll, ppl: Math.exp(nll), acc: c ? h / c : NaN, bpc: nll / Math.LN2 / charsPerToken };
  };
  const map = ev.attention ? { ...poolAttention(ev.attention), head: ev.attention.head, q0: ev.attention.row_begin } : null;
  const g = ev.gauges ? {
    far: Array.from(ev.gauges.far.slice(layer * heads, (layer + 1) * heads)), near: Array.from(ev.gauges.near.slice(layer * heads, (layer + 1) * heads)),
  } : null;
  return { ppl, acc, inside: part(0, trained), past: part(trained, n), map, gauges: g };
}
