// @ts-check
// "A real model, past its training length": the loss of every next-token prediction of a trained RoPE model on 4096
// tokens of TinyStories validation text (CDLA-Sharing-1.0), by position, with the original RoPE and with a method
// applied at inference — computed by posenc's own forward pass (pe.loadModel; cpp/src/model_llama.cpp). The models:
// raincandy-u/TinyStories-656K (Apache-2.0) and Karpathy's stories260K (llama2.c, MIT), both trained at 512 tokens.
import { L } from '../params.js';
import { MODEL_PARAMS, precomputed, summaries } from './model-live.js';
import { BUCKET, METHOD_LABELS, METHOD_NAMES, MODELS, fmtPpl as fmt, methodOptions, methodText } from './model-methods.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ model: import('./model-methods.js').ModelName, method: import('./model-methods.js').Method, factor: number, window: number, ctx: number, models: string }} P */


/** @type {import('../params.js').FigureDef<P>} */
export default {
  name: 'model-loss',
  long: (p) => !precomputed(/** @type {any} */ (p)),
  title: L('A real model past its training length: loss by position', '真实模型越过训练长度：逐位置的损失'),
  description: L('Perplexity of each next-token prediction of a trained RoPE model (trained on 512 tokens) over 4096 tokens of TinyStories validation text, averaged over 128 positions, with the original RoPE (grey) and with a method applied at inference; computed by posenc’s own forward pass.',
    '一个训练长度为 512 的 RoPE 模型在 4096 个 TinyStories 验证集词元上逐个预测下一个词元的困惑度（每 128 个位置取平均）：灰线是原始 RoPE，彩线是推理时加上的方法；由 posenc 自己的前向计算得出。'),
  takeaway: L('TinyStories-656K reads its text at perplexity about 39 inside the 512 tokens it was trained on and about 690 past them with the original RoPE: it does not extrapolate. YaRN with factor 8 brings the part past 512 down to about 100 while keeping about 41 inside; ReRoPE (window 256) to about 61, with the inside unchanged.',
    'TinyStories-656K 在训练过的 512 个词元以内困惑度约 39，越过之后用原始 RoPE 约 690：它不会外推。YaRN（因子 8）把 512 之后降到约 100，512 以内约 41；ReRoPE（窗口 256）降到约 61，512 以内不变。'),
  params: {
    model: MODEL_PARAMS.model,
    method: { type: 'enum', values: [...METHOD_NAMES], default: 'yarn', label: L('method', '方法'), valueLabels: METHOD_LABELS },
    factor: MODEL_PARAMS.factor, window: MODEL_PARAMS.window, ctx: MODEL_PARAMS.ctx, models: MODEL_PARAMS.models,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [
    { params: { method: 'rerope' }, look: L('ReRoPE: the coloured line stays near the grey one inside 512 and flat after it — the model never sees a distance beyond 256.', 'ReRoPE：512 以内彩线与灰线几乎重合，之后保持平坦——模型从未见过超过 256 的距离。') },
    { params: { method: 'ntk_seed' }, look: L('Seed 000’s NTK formula θ·s²ᐟᵈ raises the base only ×1.3 for d = 16: past 512 the line stays near the original’s (about 530 against 690).', '种子文章 000 的 NTK 公式 θ·s²ᐟᵈ 在 d = 16 时只把底数提高约 1.3 倍：512 之后曲线仍接近原始的（约 530 对 690）。') },
    { params: { method: 'swapped' }, look: L('Swapped pairing: perplexity about 490 even inside 512 — rotate_half and rotate_every_two are equivalent only with the weights permuted.', '交换配对：即使在 512 以内困惑度也约为 490——rotate_half 与两两相邻的旋转只有在权重也随之重排时才等价。') },
    { params: { model: 'stories260k', method: 'original' }, look: L('stories260K degrades gently to about 1500 tokens, then explodes (about 45 past 512 on average).', 'stories260K 到约 1500 个词元都只是缓慢变差，之后急剧恶化（512 之后平均约 45）。') },
  ],
  panels: () => [{ id: 'loss', block: 'lines', height: 280, logY: true }],
  /** @param {Posenc} pe @param {P} p @param {any} ctx */
  async compute(pe, p, ctx) {
    return summaries(pe, p, p.method === 'original' ? ['original'] : ['original', p.method], false, ctx);
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const m = MODELS[p.model], cur = r.runs[p.method], base = r.runs.original;
    const x = Float64Array.from(cur.ppl, (/** @type {number} */ _, /** @type {number} */ i) => Math.min(i * BUCKET + BUCKET / 2, r.ctx - 1));
    const opts = methodOptions(p.method, { factor: p.factor, window: p.window, theta: m.theta, d: m.rotary_dim });
    /** @type {any[]} */
    const series = [{ x, y: Float64Array.from(base.ppl), label: L('original RoPE', '原始 RoPE'), color: '#8a8a96', dash: [5, 3] }];
    if (p.method !== 'original') series.push({ x, y: Float64Array.from(cur.ppl), label: METHOD_LABELS[p.method], color: '#0072B2' });
    const row = (/** @type {any} */ s, /** @type {string} */ id, /** @type {any} */ label) => [
      { id: `${id}-inside`, label: L(`${label.en}: perplexity inside ${m.trained}`, `${label.zh}：${m.trained} 以内的困惑度`), value: s.inside.ppl, text: fmt(s.inside.ppl),
        note: L(`top-1 ${(100 * s.inside.acc).toFixed(1)} %, ${s.inside.bpc.toFixed(2)} bits per character`, `top-1 准确率 ${(100 * s.inside.acc).toFixed(1)}%，每字符 ${s.inside.bpc.toFixed(2)} 比特`) },
      { id: `${id}-past`, label: L(`${label.en}: perplexity past ${m.trained}`, `${label.zh}：${m.trained} 之后的困惑度`), value: s.past.ppl, text: fmt(s.past.ppl),
        note: L(`top-1 ${(100 * s.past.acc).toFixed(1)} %, ${s.past.bpc.toFixed(2)} bits per character`, `top-1 准确率 ${(100 * s.past.acc).toFixed(1)}%，每字符 ${s.past.bpc.toFixed(2)} 比特`) }];
    return {
      loss: { series, marks: [{ x: m.trained, label: L(`trained: ${m.trained}`, `训练长度 ${m.trained}`) }],
        caption: L(`${m.label.en}: perplexity by position (${methodText(opts)})`, `${m.label.zh}：逐位置困惑度（${methodText(opts)}）`),
        xlabel: L('position (tokens)', '位置（词元）'), ylabel: L('perplexity (log)', '困惑度（对数轴）') },
      readouts: [...row(base, 'original', L('original', '原始')), ...(p.method === 'original' ? [] : row(cur, 'method', METHOD_LABELS[p.method]))],
      status: L(`${m.credit.en}; text: TinyStories validation stories (Eldan & Li 2023, CDLA-Sharing-1.0)${r.live ? '; computed live' : '; precomputed at build time by the same code'}`,
        `${m.credit.zh}；文本：TinyStories 验证集故事（Eldan 与 Li 2023，CDLA-Sharing-1.0）${r.live ? '；现场计算' : '；构建时由同一代码预先算出'}`),
    };
  },
};
