// Section 9: every scheme through the same attention engine — two side by side, and scheme A's terms.
import { L } from '../params.js';

const SCHEMES = ['none', 'sinusoidal', 'learned', 'multiplicative', 'shaw', 'transformer_xl', 't5', 'deberta', 'tupe', 'rope', 'alibi', 'xpos'];
const TERM = { content_content: L('content–content', '内容–内容'), content_position: L('content–position', '内容–位置'), position_content: L('position–content', '位置–内容'),
  position_position: L('position–position', '位置–位置'), bias: L('bias', '偏置'), scores: L('sum = scores', '总和 = 分数') };
export default {
  name: 'explorer',
  title: L('Attention explorer', '注意力浏览器'),
  description: L('Two positional schemes through one attention engine (same text, same seeded projections), and the separate terms of scheme A.',
    '两种位置方案走同一个注意力引擎（同样的文本与随机投影），以及方案 A 的各项。'),
  takeaway: L('Each scheme changes the scores through its own terms; with none, swapping tokens only permutes the scores (permutation change 0).',
    '每种方案通过自己的项改变分数；不加位置时交换 token 只会重排分数（置换变化为 0）。'),
  params: {
    text: { type: 'string', default: 'the cat chased the mouse under the old table', maxLength: 400, label: L('Text', '文本') },
    a: { type: 'enum', values: SCHEMES, default: 'rope', label: L('Scheme A', '方案 A') },
    b: { type: 'enum', values: SCHEMES, default: 'alibi', label: L('Scheme B', '方案 B') },
    heads: { type: 'enum', values: [1, 4, 8], default: 4, label: L('Heads', '头数') },
    head: { type: 'int', min: 0, max: 7, default: 0, label: L('Head', '头') },
    head_dim: { type: 'enum', values: [16, 32, 64], default: 32, label: L('head_dim', 'head_dim') },
    causal: { type: 'bool', default: true, label: L('causal', '因果') },
    view: { type: 'enum', values: ['probs', 'scores'], default: 'probs', label: L('Show', '显示') },
  },
  check: (p) => (p.head >= p.heads ? { param: 'head', rule: L(`a head index from 0 to ${p.heads - 1} (heads = ${p.heads})`, `0 到 ${p.heads - 1} 之间的头编号（头数 = ${p.heads}）`) } : null),
  panels: (p, r) => [{ id: 'A', block: 'heatmap', size: 300 }, { id: 'B', block: 'heatmap', size: 300 },
    ...(r ? [...r.names, 'scores'] : []).map((t) => ({ id: `term-${t}`, block: 'heatmap', palette: 'rdbu', size: 200 }))],
  compute(pe, { text, a, b, heads, head, head_dim, causal }) {
    const run = (type) => pe.attention({ scheme: { type }, text, heads, head_dim, causal, seed: 0 });
    const A = run(a), B = run(b), n = A.seq, sl = (x) => x.slice(head * n * n, (head + 1) * n * n);
    // Raw scores without the mask (a causal mask is itself not permutation-equivariant).
    const perm = (type) => (n < 2 ? 0 : pe.permutationChange({ scheme: { type }, text, i: 0, j: n - 1, heads, head_dim, causal: false, seed: 0 }));
    const terms = {};
    for (const name of A.term_names) terms[name] = sl(A.terms[name]);
    return { n, tokens: A.tokens, names: A.term_names, A: { probs: sl(A.probs), scores: sl(A.scores) }, B: { probs: sl(B.probs), scores: sl(B.scores) }, terms, permA: perm(a), permB: perm(b) };
  },
  render(r, p) {
    const o = { rows: r.n, cols: r.n, rowLabels: r.tokens, colLabels: r.tokens, ...(p.view === 'probs' ? { vmin: 0, vmax: 1 } : {}) };
    const out = {
      A: { ...o, data: r.A[p.view], caption: L(`A: ${p.a} · head ${p.head}`, `A：${p.a} · 头 ${p.head}`) },
      B: { ...o, data: r.B[p.view], caption: L(`B: ${p.b} · head ${p.head}`, `B：${p.b} · 头 ${p.head}`) },
      readouts: [{ id: 'permA', label: L('swap first and last token: change beyond a permutation, A', '交换首尾 token：超出置换的变化，A'), value: r.permA, text: r.permA.toExponential(3) },
        { id: 'permB', label: L('B', 'B'), value: r.permB, text: r.permB.toExponential(3) }],
    };
    for (const t of [...r.names, 'scores']) out[`term-${t}`] = { rows: r.n, cols: r.n, rowLabels: r.tokens, colLabels: r.tokens, data: t === 'scores' ? r.A.scores : r.terms[t], caption: TERM[t] ?? t };
    return out;
  },
};
