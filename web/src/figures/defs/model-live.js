// @ts-check
// The real-model figures' computation: the numbers precomputed at build time where the parameters are the defaults
// (model-data.gen.js), else a live pass — the model loaded once per worker by pe.loadModel, from the folder the `models`
// parameter names (a URL holding tinystories-656k/ and stories260k/, as ../shared/models is laid out) or, when it is
// empty, from the Hugging Face Hub — over the same token ids, with progress and cancellation.
import { FigureError, L } from '../params.js';
import { MODELS, PRECOMPUTED, decodeIds, methodOptions, summarize } from './model-methods.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {import('./model-methods.js').Method} Method */
/** @typedef {import('./model-methods.js').ModelName} ModelName */
/** @typedef {import('../params.js').ComputeContext} ComputeContext */
/** @typedef {ReturnType<typeof summarize>} Summary */

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();

/** @param {Posenc} pe @param {ModelName} name @param {string} models */
function load(pe, name, models) {
  const m = MODELS[name], key = `${name} ${models}`;
  if (!loaded.has(key)) {
    const dir = models.endsWith('/') ? models : `${models}/`;
    // a URL folder (pages), or a path (Node: npx posenc figure, the tests)
    const at = (/** @type {string} */ f) => (/^[a-z][a-z0-9+.-]*:/i.test(dir) ? new URL(f, dir).href : dir + f);
    const src = typeof m.local === 'string' ? (models ? at(m.local) : m.hub)
      : models ? Object.fromEntries(Object.entries(m.local).map(([k, f]) => [k, at(f)])) : m.hub;
    const p = pe.loadModel(/** @type {any} */ (src), { trained_context: m.trained });
    p.catch(() => loaded.delete(key));
    loaded.set(key, p);
  }
  return /** @type {Promise<any>} */ (loaded.get(key));
}

// The build-time numbers, loaded on first use (bundlers put them in a chunk of their own).
/** @type {Promise<any> | null} */
let dataPromise = null;
const loadData = () => (dataPromise ??= import('./model-data.gen.js').then((m) => m.default));

/** Whether the parameters are the precomputed ones. @param {{ factor: number, window: number, ctx: number }} p */
export const precomputed = (p) => p.factor === PRECOMPUTED.factor && p.window === PRECOMPUTED.window && p.ctx === PRECOMPUTED.ctx;

/**
 * The summaries of `methods` for one model; `withMap`: the attention map too.
 * @param {Posenc} pe @param {{ model: ModelName, factor: number, window: number, ctx: number, models: string }} p
 * @param {Method[]} methods @param {boolean} withMap @param {ComputeContext | undefined} ctx
 * @returns {Promise<{ runs: Record<string, Summary>, live: boolean, trained: number, ctx: number, head: number, inRange: any, pre: any }>}
 */
export async function summaries(pe, p, methods, withMap, ctx) {
  const data = await loadData();
  const pre = data?.models?.[p.model];
  const m = MODELS[p.model];
  /** @type {Record<string, Summary>} */
  const runs = {};
  /** @type {Method[]} */
  const todo = [];
  for (const method of methods) {
    const hit = precomputed(p) && pre?.methods[method];
    if (hit && (!withMap || hit.map)) runs[method] = hit;
    else todo.push(method);
  }
  if (todo.length && !pre) {
    throw new FigureError(L('This copy of the figures has no real-model text (single-file figures leave it out, and a build without ../shared has none): open the figure in the explainer or with the npm package.',
      '这份图表没有真实模型所用的文本（单文件图表不包含它，没有 ../shared 的构建也没有）：请在讲解页面或用 npm 包打开这张图。'), 'figure');
  }
  let lm;
  if (todo.length) {
    try {
      lm = await load(pe, p.model, p.models);
    } catch (e) {
      throw new FigureError(L(`The model could not be loaded (${/** @type {Error} */ (e).message}). Offline, or the Hugging Face Hub is unreachable from this page.`,
        `模型无法加载（${/** @type {Error} */ (e).message}）。可能离线，或本页无法访问 Hugging Face Hub。`), 'models');
    }
  }
  const ids = pre ? decodeIds(pre.ids64).subarray(0, p.ctx) : new Int32Array(0);
  for (const [k, method] of /** @type {[number, Method][]} */ ([...todo.entries()])) {
    const h = lm.hparams;
    const ev = await lm.evaluate({ ids, ...methodOptions(method, { factor: p.factor, window: p.window, theta: h.rope_theta, d: h.rotary_dim }),
      attention: { layer: m.layer, head: pre.head, rows: [p.ctx - 256, p.ctx] }, gauges: { rows: [p.ctx - 512, p.ctx] },
      signal: ctx?.signal, onProgress: (/** @type {number} */ d, /** @type {number} */ t) => ctx?.progress((k + d / t) / todo.length) });
    runs[method] = summarize(ev, { trained: m.trained, charsPerToken: pre.charsPerToken, layer: m.layer, heads: h.n_head });
  }
  return { runs, live: todo.length > 0, trained: m.trained, ctx: p.ctx, head: pre?.head ?? 0, inRange: pre?.inRangeGauges ?? null, pre: pre ?? null };
}

/** The shared parameters of the model figures. */
export const MODEL_PARAMS = {
  model: { type: /** @type {const} */ ('enum'), values: Object.keys(MODELS), default: 'tinystories-656k', label: L('model', '模型'),
    valueLabels: Object.fromEntries(Object.entries(MODELS).map(([k, m]) => [k, m.label])) },
  factor: { type: /** @type {const} */ ('enum'), values: [2, 4, 8, 16], default: 8, label: L('factor s', '因子 s') },
  window: { type: /** @type {const} */ ('enum'), values: [64, 128, 256, 384], default: 256, label: L('ReRoPE window w', 'ReRoPE 窗口 w') },
  ctx: { type: /** @type {const} */ ('enum'), values: [1024, 2048, 4096], default: 4096, label: L('tokens', '词元数') },
  models: { type: /** @type {const} */ ('string'), default: '', maxLength: 400,
    label: L('model files (a URL folder; empty: the Hugging Face Hub)', '模型文件（网址目录；留空则用 Hugging Face Hub）') },
};
