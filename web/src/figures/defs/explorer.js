// @ts-check
// Section 9: every scheme through the same attention engine — two side by side, and scheme A's terms; optionally scheme
// A (none or RoPE) at a long context, the text repeated to `length` tokens: the full causal/bidirectional attention
// matrix of the head through pe.gpu (WebGPU or wasm), drawn max-pooled on a log scale.
import { L } from '../params.js';
import { fmt } from '../blocks/format.js';
import { backendParam, backendOf, gpuCall } from '../backend.js';

const POOL = 256;   // the long-context matrix is drawn as POOL × POOL cells: log10 of the max of each block
const SCHEMES = ['none', 'sinusoidal', 'learned', 'multiplicative', 'shaw', 'transformer_xl', 't5', 'deberta', 'tupe', 'rope', 'alibi', 'xpos'];
// What the scheme selects show (the values stay the API's scheme types)
/** @type {Record<string, import('../params.js').Bilingual>} */
const SCHEME_NAMES = { none: L('none (no position)', '无（不加位置）'), sinusoidal: L('sinusoidal', '正弦编码'), learned: L('learned table', '可学习位置表'),
  multiplicative: L('multiplicative', '乘性编码'), shaw: L('Shaw et al.', 'Shaw 等'), transformer_xl: L('Transformer-XL', 'Transformer-XL'), t5: L('T5 buckets', 'T5 分桶'),
  deberta: L('DeBERTa', 'DeBERTa'), tupe: L('TUPE', 'TUPE'), rope: L('RoPE', 'RoPE'), alibi: L('ALiBi', 'ALiBi'), xpos: L('xPos', 'xPos') };
const TERM = { content_content: L('content–content', '内容–内容'), content_position: L('content–position', '内容–位置'), position_content: L('position–content', '位置–内容'),
  position_position: L('position–position', '位置–位置'), bias: L('bias', '偏置'), scores: L('sum = scores', '总和 = 分数') };
// Names that depend on the scheme: RoPE and xPos have one term with the position inside it (q and k rotated);
// Transformer-XL's four terms keep the names of section 3's figure, (a)–(d).
const TERM_OF = {
  rope: { content_content: L('rotated q·k (position inside)', '旋转后的 q·k（位置在其中）') },
  xpos: { content_content: L('rotated, scaled q·k (position inside)', '旋转并缩放后的 q·k（位置在其中）') },
  transformer_xl: { content_content: L('(a) content–content', '(a) 内容–内容'), content_position: L('(b) content–position', '(b) 内容–位置'),
    position_content: L('(c) global content bias', '(c) 全局内容偏置'), position_position: L('(d) global position bias', '(d) 全局位置偏置') },
};
/** @type {import('../params.js').FigureDef} */
export default {
  name: 'explorer',
  title: L('Attention explorer', '注意力探索器'),
  description: L('Two positional schemes through one attention engine (same text, same seeded projections), and the separate terms of scheme A.',
    '两种位置方案走同一个注意力引擎（同样的文本与随机投影），以及方案 A 的各项。'),
  takeaway: L('Each scheme changes the scores through its own terms; with none, swapping tokens only permutes the scores (permutation change 0).',
    '每种方案通过自己的项改变分数；不加位置时交换词元只会重排分数（置换变化为 0）。'),
  params: {
    text: { type: 'string', default: 'the cat chased the mouse under the old table', maxLength: 400, label: L('Text', '文本') },
    a: { type: 'enum', values: SCHEMES, valueLabels: SCHEME_NAMES, default: 'rope', label: L('Scheme A', '方案 A') },
    b: { type: 'enum', values: SCHEMES, valueLabels: SCHEME_NAMES, default: 'alibi', label: L('Scheme B', '方案 B') },
    heads: { type: 'enum', values: [1, 4, 8], default: 4, label: L('Heads', '头数') },
    head: { type: 'int', min: 0, max: 7, default: 0, label: L('Head', '头') },
    head_dim: { type: 'enum', values: [16, 32, 64], default: 32, label: L('head_dim', 'head_dim') },
    causal: { type: 'bool', default: true, label: L('causal', '因果') },
    view: { type: 'enum', values: ['probs', 'scores'], valueLabels: { probs: L('probabilities', '概率'), scores: L('scores', '分数') }, default: 'probs', label: L('Show', '显示') },
    length: { type: 'enum', values: [0, 1024, 4096, 8192], default: 0, label: L('Long context: A at this many tokens (0 = off)', '长上下文：让方案 A 在 N 个词元上运行（0 = 关闭）') },
    backend: backendParam,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { a: 'none', b: 'rope' }, look: L('Scheme A none, B RoPE: swapping the first and last token changes A only by a permutation (0), B by more.',
    '方案 A 不加位置、B 用 RoPE：交换首尾词元后，A 只是被重排（变化为 0），B 的变化更大。') },
  { params: { a: 'transformer_xl' }, look: L('Scheme A Transformer-XL: its four terms (a)–(d) appear below, with the names of section 3.',
    '方案 A 选 Transformer-XL：下面出现它的四项 (a)–(d)，名称与第 3 节相同。') }],
  check: (p) => (p.head >= p.heads ? { param: 'head', rule: L(`a head index from 0 to ${p.heads - 1} (heads = ${p.heads})`, `0 到 ${p.heads - 1} 之间的头编号（头数 = ${p.heads}）`) }
    : p.length && !LONG.includes(p.a) ? { param: 'length', rule: L(`0 when scheme A is ${p.a} (the long-context view computes ${LONG.join(' or ')})`, `0（方案 A 为 ${p.a}；长上下文视图只计算 ${LONG.join(' 或 ')}）`) } : null),
  /** The long-context matrix (length > 0) is a long computation: progress, status and Cancel (element.js). @param {Record<string, any>} p */
  long: (p) => p.length > 0,
  panels: (p, r) => [{ id: 'A', block: 'heatmap', size: 460 }, { id: 'B', block: 'heatmap', size: 460 },
    ...(r ? [...r.names, 'scores'] : []).map((t) => ({ id: `term-${t}`, block: 'heatmap', palette: 'rdbu', size: 300 })),
    ...(p.length ? [{ id: 'long', block: 'heatmap', size: 320 }] : [])],
  async compute(pe, p, ctx) {
    const { text, a, b, heads, head, head_dim, causal } = p;
    /** @typedef {import('../../index.js').AttentionSchemeType} Scheme */
    const run = (/** @type {Scheme} */ type) => pe.attention({ scheme: { type }, text, heads, head_dim, causal, seed: 0 });
    const A = run(a), B = run(b), n = A.seq, sl = (/** @type {Float32Array} */ x) => x.slice(head * n * n, (head + 1) * n * n);
    // Raw scores without the mask (a causal mask is itself not permutation-equivariant).
    const perm = (/** @type {Scheme} */ type) => (n < 2 ? 0 : pe.permutationChange({ scheme: { type }, text, i: 0, j: n - 1, heads, head_dim, causal: false, seed: 0 }));
    /** @type {Record<string, Float32Array>} */
    const terms = {};
    for (const name of A.term_names) terms[name] = sl(A.terms[name]);
    const r = { n, tokens: A.tokens, names: A.term_names, A: { probs: sl(A.probs), scores: sl(A.scores) }, B: { probs: sl(B.probs), scores: sl(B.scores) }, terms, permA: perm(a), permB: perm(b) };
    return p.length ? { ...r, ...(await longContext(pe, p, ctx)) } : r;
  },
  render(r, p, { ms } = {}) {
    const o = { rows: r.n, cols: r.n, rowLabels: r.tokens, colLabels: r.tokens, ...(p.view === 'probs' ? { vmin: 0, vmax: 1 } : {}) };
    /** @type {import('../params.js').Rendered} */
    const out = {
      A: { ...o, data: r.A[p.view], caption: L(`A: ${SCHEME_NAMES[p.a].en} · head ${p.head} (seeded random projections, not trained)`, `A：${SCHEME_NAMES[p.a].zh} · 头 ${p.head}（固定种子的随机投影，未经训练）`) },
      B: { ...o, data: r.B[p.view], caption: L(`B: ${SCHEME_NAMES[p.b].en} · head ${p.head}`, `B：${SCHEME_NAMES[p.b].zh} · 头 ${p.head}`) },
      readouts: [{ id: 'permA', label: L('swap first and last token: change beyond a permutation, A', '交换首尾词元：超出置换的变化，A'), value: r.permA, text: fmt(r.permA, 6) },
        { id: 'permB', label: L('B', 'B'), value: r.permB, text: fmt(r.permB, 6) }],
    };
    for (const t of [...r.names, 'scores']) out[`term-${t}`] = { rows: r.n, cols: r.n, rowLabels: r.tokens, colLabels: r.tokens, data: t === 'scores' ? r.A.scores : r.terms[t], caption: /** @type {Record<string, Record<string, import('../params.js').Bilingual>>} */ (TERM_OF)[p.a]?.[t] ?? /** @type {Record<string, import('../params.js').Bilingual>} */ (TERM)[t] ?? t };
    if (r.long) {
      out.long = { data: r.long, rows: POOL, cols: POOL, caption: L(`A (${p.a}${p.a === 'rope' ? ', θ = 10000' : ''}) at ${p.length} tokens (the text repeated), head ${p.head}: log10 softmax(q·kᵀ/√d), max of each ${p.length / POOL}×${p.length / POOL} block (masked: blank)`,
        `A（${p.a}${p.a === 'rope' ? '，θ = 10000' : ''}）在 ${p.length} 个词元上（文本重复），头 ${p.head}：log10 softmax(q·kᵀ/√d)，每个 ${p.length / POOL}×${p.length / POOL} 块取最大值（掩码处留空）`) };
    }
    if (r.long && ms !== undefined) out.status = L(`${p.length} × ${p.length} scores in ${Math.round(ms)} ms`, `${p.length} × ${p.length} 个分数，用时 ${Math.round(ms)} ms`);
    return out;
  },
};

/** Schemes the long-context view computes (pe.gpu's attention scores: RoPE or none). */
const LONG = ['none', 'rope'];

/** Scheme A's attention of one head over `length` tokens (the text's projections repeated), pooled to POOL × POOL, log10. */
/** @param {import('../params.js').Posenc} pe @param {any} p @param {import('../params.js').ComputeContext} ctx */
async function longContext(pe, p, ctx) {
  const { text, a, heads, head, head_dim: d, causal, length: n } = p;
  const t = pe.textQKV({ text, heads, head_dim: d, seed: 0 }), m = t.tokens.length;
  const q = new Float32Array(n * d), k = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const src = ((i % m) * heads + head) * d;
    q.set(t.q.subarray(src, src + d), i * d);
    k.set(t.k.subarray(src, src + d), i * d);
  }
  ctx.progress(0.05);
  const r = await pe.gpu.attentionScores({ q, k, seq: n, head_dim: d, causal, rope: a === 'rope' ? { rope_theta: 10000 } : null, ...gpuCall(p, ctx),
    progress: (/** @type {number} */ f) => ctx.progress(0.05 + 0.85 * f) });
  ctx.progress(0.9);
  const pooled = new Float32Array(POOL * POOL), s = n / POOL;
  for (let i = 0; i < n; i++) {
    const row = r.values.subarray(i * n, (i + 1) * n), base = Math.floor(i / s) * POOL;
    for (let j = 0; j < n; j++) if (row[j] > pooled[base + Math.floor(j / s)]) pooled[base + Math.floor(j / s)] = row[j];
  }
  // the badge: the engine's panels are wasm's, the long-context matrix the backend pe.gpu reports
  return { long: pooled.map(Math.log10), backend: backendOf([{ backend: 'wasm' }, r]) };
}
