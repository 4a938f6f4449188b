// @ts-check
// "Train short, test long" (train-short, train-short-attention): posenc's own tiny character-level models, one per
// position scheme, trained by scripts/train/train.py on 128-character windows of the King James Bible (Genesis–
// Philemon), read here on held-out passages (Hebrews–Revelation) 16× longer than that. The numbers come precomputed at
// build time (train-short.gen.js, made by scripts/train-short-data.mjs) for the first passage, else from a live pass:
// each model loaded by pe.loadModel (config.json + model.safetensors) from the folder the `models` parameter names, or
// by default from the copy beside the code — dist/site/tiny-models in the package, the site's tiny-models/ on the explainer.
import { FigureError, L } from '../params.js';
import { poolAttention } from './model-methods.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {import('../params.js').ComputeContext} ComputeContext */

export const SCHEMES = /** @type {const} */ (['learned', 'sinusoidal', 'rope', 'alibi', 't5', 'nope', 'xpos', 'kerple']);
/** @typedef {typeof SCHEMES[number]} Scheme */
export const SCHEME_LABELS = {
  learned: L('learned table', '可学习位置表'), sinusoidal: L('sinusoidal', '正弦'), rope: L('RoPE', 'RoPE'), alibi: L('ALiBi', 'ALiBi'),
  t5: L('T5 bias', 'T5 偏置'), nope: L('NoPE (none)', 'NoPE（无位置）'), xpos: L('xPos', 'xPos'), kerple: L('KERPLE (log)', 'KERPLE（对数核）'),
};
/** One colour per scheme: the figures' categorical palette (blocks/colormap.js `series`, each ≥ 3:1 on the light
 * background and swapped for its `seriesDark` twin in the dark theme), and grey (dashed) for no position at all. */
export const SCHEME_COLORS = { learned: '#8A6100', sinusoidal: '#A6488B', rope: '#D55E00', alibi: '#007A5A', t5: '#6A51A3', nope: '#8a8a96', xpos: '#0072B2', kerple: '#000000' };
/** Held-out passages: the first 2,049 characters of each (verse texts, one per line, as the training script reads them). */
export const PASSAGES = /** @type {const} */ (['Heb1:1-3:19', 'Jas1:1-3:18', '1Jn1:1-4:21', 'Rev1:1-3:22']);
/** @typedef {typeof PASSAGES[number]} Passage */
export const PASSAGE_LABELS = { 'Heb1:1-3:19': L('Hebrews 1–3', '希伯来书 1–3 章'), 'Jas1:1-3:18': L('James 1–3', '雅各书 1–3 章'),
  '1Jn1:1-4:21': L('1 John 1–4', '约翰一书 1–4 章'), 'Rev1:1-3:22': L('Revelation 1–3', '启示录 1–3 章') };
export const TRAINED = 128, CTX = 2048;
/** The loss curve's buckets: log-spaced edges 8·2^(k/3) (rounded), 8 … 2048 — twelve inside the trained length, twelve past. */
export const EDGES = Array.from({ length: 25 }, (_, k) => Math.round(8 * 2 ** (k / 3)));
/** The lengths the figure reads (the passage's first n characters: a causal model's loss at a position does not depend on
 * what follows it, so one pass over 2048 gives them all). */
export const LENGTHS = [256, 512, 1024, 2048];
/** The attention probe: the last layer (index 2), its last 256 queries; gauges over the last 512: mass on keys ≥ 128 away
 * (beyond any distance seen in training) and on the last 16. */
export const PROBE = { layer: 2, rows: 256, gauges: 512, far: 128, near: 16 };

// The build-time numbers, loaded on first use (a chunk of their own).
/** @type {Promise<any> | null} */
let dataPromise = null;
export const loadData = () => (dataPromise ??= import('./train-short.gen.js').then((m) => m.default));

/** The folder of the models beside this code: the package's dist/site/tiny-models from dist/*.js, the site's tiny-models/ from
 * its assets/*.js, the repository's web/models from the source; '' where the code has no URL (single-file figures). */
function defaultModels() {
  try {
    const here = new URL(import.meta.url), at = here.pathname.replace(/[^/]*$/, '');
    const dir = new URL(at.endsWith('/assets/') ? '../tiny-models/' : at.endsWith('/figures/defs/') ? '../../../models/' : 'site/tiny-models/', here);
    return dir.protocol === 'file:' ? decodeURIComponent(dir.pathname) : dir.href;
  } catch { return ''; }
}

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();
/** @param {Posenc} pe @param {Scheme} scheme @param {string} models */
function load(pe, scheme, models) {
  const dir = (models || defaultModels()).replace(/\/?$/, '/'), key = `${scheme} ${dir}`;
  if (!loaded.has(key)) {
    const p = pe.loadModel({ config: `${dir}${scheme}/config.json`, safetensors: `${dir}${scheme}/model.safetensors` });
    p.catch(() => loaded.delete(key));
    loaded.set(key, p);
  }
  return /** @type {Promise<any>} */ (loaded.get(key));
}

/**
 * What the figures draw of one model's pass: the mean loss (nats per character) per bucket of EDGES (of the predicted
 * character's position), inside the trained length and past it up to each of LENGTHS, the probed head's attention (the last PROBE.rows queries, pooled to 24 × 48 cells) and
 * the probed layer's gauges (mean attention mass per head on far and near keys).
 * @param {{ nll: Float32Array, attention?: { rows: Float32Array, row_begin: number, row_end: number }, gauges?: { far: Float64Array, near: Float64Array } }} ev
 * @param {number} head
 */
export function summarize(ev, head) {
  const n = ev.nll.length + 1, loss = [];
  /** @param {number} a @param {number} b */
  const mean = (a, b) => { let s = 0, c = 0; for (let p = Math.max(a, 1); p < Math.min(b, n); p++) { s += ev.nll[p - 1]; c++; } return s / c; };
  for (let k = 0; k + 1 < EDGES.length && EDGES[k + 1] <= n; k++) loss.push(mean(EDGES[k], EDGES[k + 1]));
  const map = ev.attention ? poolAttention(ev.attention) : null;
  const H = ev.gauges ? ev.gauges.far.length / 3 : 0, L0 = PROBE.layer * H;
  const gauges = ev.gauges ? { far: Array.from(ev.gauges.far.slice(L0, L0 + H)), near: Array.from(ev.gauges.near.slice(L0, L0 + H)) } : null;
  return { loss, inside: mean(0, TRAINED), past: Object.fromEntries(LENGTHS.map((l) => [l, mean(TRAINED, Math.min(l, n))])), map, head, gauges };
}

/**
 * One model's pass over a passage: first its in-range gauges (queries 64–127), which pick the probed head (the most local
 * of the last layer), then the whole passage with that head's attention rows and the layer's gauges.
 * @param {any} lm @param {Int32Array} ids @param {ComputeContext | undefined} ctx @param {(f: number) => void} progress
 */
export async function passOf(lm, ids, ctx, progress) {
  const inRange = await lm.evaluate({ ids: ids.subarray(0, TRAINED), gauges: { rows: [TRAINED / 2, TRAINED], far: PROBE.far, near: PROBE.near } });
  const H = lm.hparams.n_head, near = Array.from(inRange.gauges.near.slice(PROBE.layer * H, (PROBE.layer + 1) * H));
  const head = near.indexOf(Math.max(.../** @type {number[]} */ (near)));
  const n = ids.length;
  const ev = await lm.evaluate({ ids, attention: { layer: PROBE.layer, head, rows: [n - PROBE.rows, n] },
    gauges: { rows: [n - PROBE.gauges, n], far: PROBE.far, near: PROBE.near }, signal: ctx?.signal, onProgress: (/** @type {number} */ d, /** @type {number} */ t) => progress(d / t) });
  return { ...summarize(ev, head), inRangeNear: near };
}

/**
 * Every scheme's summary for a passage: precomputed (passage 0), else computed live.
 * @param {Posenc} pe @param {{ passage: string, models: string }} p @param {readonly Scheme[]} schemes @param {ComputeContext | undefined} ctx
 * @returns {Promise<{ runs: Record<string, any>, live: boolean }>}
 */
export async function runs(pe, p, schemes, ctx) {
  const data = await loadData();
  const pre = data?.passages?.[p.passage];
  if (pre) return { runs: pre.schemes, live: false };   // `models` only says where a live pass loads from
  if (!data) {
    throw new FigureError(L('This copy of the figures has no held-out text (single-file figures leave it out; a build without the bible-kjv-text package has none): open the figure in the explainer or with the npm package.',
      '这份图表没有留出的测试文本（单文件图表不包含它，没有安装 bible-kjv-text 的构建也没有）：请在讲解页面或用 npm 包打开这张图。'), 'figure');
  }
  const text = data.texts[p.passage];
  /** @type {Record<string, any>} */
  const out = {};
  for (const [k, scheme] of schemes.entries()) {
    let lm;
    try {
      lm = await load(pe, scheme, p.models);
    } catch (e) {
      throw new FigureError(L(`The ${scheme} model could not be loaded (${/** @type {Error} */ (e).message}).`, `${scheme} 模型无法加载（${/** @type {Error} */ (e).message}）。`), 'models');
    }
    out[scheme] = await passOf(lm, lm.encode(text), ctx, (f) => ctx?.progress((k + f) / schemes.length));
  }
  return { runs: out, live: true };
}

/** The shared parameters. */
export const TINY_PARAMS = {
  passage: { type: /** @type {const} */ ('enum'), values: [...PASSAGES], default: PASSAGES[0], label: L('held-out passage', '留出文本段落'), valueLabels: PASSAGE_LABELS },
  models: { type: /** @type {const} */ ('string'), default: '', maxLength: 400,
    label: L('model files (a folder; empty: the copy beside the figures)', '模型文件（目录；留空则用图表旁的副本）') },
};
