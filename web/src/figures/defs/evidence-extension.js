// @ts-check
// Section 6, evidence: what the schemes do to a real model, as the YaRN authors published it. LLaMA 7B (trained on
// 2048 tokens) fine-tuned to 32k tokens (s = 16) with PI, NTK-aware, NTK-by-parts and YaRN: Proof-pile perplexity
// (sliding window, long documents truncated to each length) and passkey-retrieval accuracy, typed from their
// published evaluation data (github.com/jquesnelle/yarn, data/proofpile-long-small-llama1-32k.csv and
// data/passkey-32k.csv; Peng et al., arXiv:2309.00071). Nothing here is computed: the numbers are the paper's; the
// figure blocks draw them. The third panel: LongRoPE's own models (LLaMA 2 7B, trained on 4096 tokens, and Mistral 7B,
// each extended to 2048k tokens) as their authors list them in the LongRoPE repository's README (github.com/microsoft/
// LongRoPE at commit 0e66bfdb3c502d210eae27153d2e9cdc41386416, "Long-Context Perplexity: Books3" and "Passkey Accuracy";
// Ding et al., arXiv:2402.13753). That README gives no other scheme on the same models, so the panel shows LongRoPE
// alone; "k" there is 1024 tokens (2048k = 2^21).
import { L } from '../params.js';
/** @typedef {{ show: string }} P */

const LENGTHS = [1024, 2048, 3072, 4096, 5120, 6144, 7168, 8192, 9216, 10240, 11264, 12288, 13312, 14336, 15360, 16384, 17408, 18432,
  19456, 20480, 21504, 22528, 23552, 24576, 25600, 26624, 27648, 28672, 29696, 30720, 31744, 32768];
/** Perplexity at each of LENGTHS (three decimals of the published values). */
export const PERPLEXITY = {
  linear: [6.798, 5.704, 5.142, 4.955, 4.997, 4.881, 4.746, 4.639, 4.524, 4.381, 4.302, 4.208, 4.152, 4.112, 4.054, 3.972, 3.891, 3.849,
    3.841, 3.813, 3.773, 3.741, 3.713, 3.695, 3.687, 3.665, 3.644, 3.621, 3.604, 3.591, 3.589, 3.568],
  ntk: [5.008, 4.391, 4.045, 3.920, 3.989, 3.915, 3.818, 3.731, 3.644, 3.517, 3.446, 3.375, 3.331, 3.302, 3.263, 3.211, 3.166, 3.180,
    3.268, 3.415, 3.560, 3.768, 4.012, 4.325, 4.710, 5.145, 5.573, 6.032, 6.541, 7.125, 7.794, 8.494],
  byparts: [4.659, 4.143, 3.848, 3.747, 3.834, 3.782, 3.698, 3.623, 3.550, 3.430, 3.367, 3.302, 3.262, 3.234, 3.191, 3.128, 3.062, 3.032,
    3.020, 2.995, 2.960, 2.931, 2.912, 2.897, 2.893, 2.878, 2.861, 2.841, 2.830, 2.821, 2.820, 2.814],
  yarn: [4.755, 4.189, 3.880, 3.767, 3.841, 3.779, 3.687, 3.605, 3.522, 3.400, 3.330, 3.263, 3.224, 3.195, 3.151, 3.088, 3.022, 2.991,
    2.980, 2.955, 2.921, 2.892, 2.874, 2.858, 2.855, 2.840, 2.824, 2.803, 2.792, 2.783, 2.780, 2.769],
};
const PASSKEY_LENGTHS = [2048, 4096, 8192, 16384, 32768];
/** Passkey retrieval accuracy at each of PASSKEY_LENGTHS. */
export const PASSKEY = { linear: [0.54, 0.52, 0.44, 0.5, 0.76], ntk: [0.84, 0.8, 0.9, 0.92, 0.0], byparts: [0.96, 0.9, 0.8, 0.66, 0.12], yarn: [1.0, 1.0, 0.98, 1.0, 0.68] };
const LONGROPE_K = [8, 16, 32, 64, 128, 256, 512, 1024, 2048];
/** Books3 perplexity at LONGROPE_K × 1024 tokens, LongRoPE-LLaMA2-2048k and LongRoPE-Mistral-2048k (the README's table). */
export const LONGROPE = { llama2: [6.81, 6.66, 6.31, 6.27, 6.21, 6.17, 6.17, 6.35, 7.08], mistral: [6.63, 6.48, 6.38, 6.43, 6.68, 7.15, 7.98, 9.42, 13.71] };
/** Passkey accuracy (the README's table): 100 % at every length from 4k to 512k, then at 1024k, 1800k and 2048k. */
export const LONGROPE_PASSKEY = { k: [1024, 1800, 2048], llama2: [1, 1, 0.6], mistral: [0.9, 0.9, 0.9] };
const LR_NAMES = { llama2: L('LongRoPE, LLaMA 2 7B → 2048k', 'LongRoPE，LLaMA 2 7B → 2048k'), mistral: L('LongRoPE, Mistral 7B → 2048k', 'LongRoPE，Mistral 7B → 2048k') };
const LR_STYLE = { llama2: { color: '#A6488B' }, mistral: { color: '#8A6100', dash: [6, 3] } };   // the light palette (series): ≥ 3:1 on white, mapped to the dark palette in dark mode
// the colours of the mechanism figures (ntk-base.js): PI blue, NTK vermilion, YaRN green; NTK-by-parts (YaRN without its temperature) purple, dashed
const STYLE = { linear: { color: '#0072B2' }, ntk: { color: '#D55E00' }, byparts: { color: '#A6488B', dash: [6, 3] }, yarn: { color: '#007A5A' } };
const NAMES = { linear: L('PI (linear)', 'PI（linear）'), ntk: L('NTK-aware', 'NTK-aware'), byparts: L('NTK-by-parts (YaRN without temperature)', 'NTK-by-parts（不带温度的 YaRN）'), yarn: L('YaRN', 'YaRN') };
const KEYS = /** @type {('linear' | 'ntk' | 'byparts' | 'yarn')[]} */ (['linear', 'ntk', 'byparts', 'yarn']);

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'evidence-extension',
  title: L('Evidence: PI, NTK-aware and YaRN on a real model (YaRN paper)', '证据：PI、NTK-aware 与 YaRN 在真实模型上的表现（YaRN 论文）'),
  description: L('LLaMA 7B, trained on 2048 tokens, fine-tuned to 32k tokens (s = 16) with each scheme, as published by Peng et al. (YaRN, arXiv:2309.00071; their evaluation data in github.com/jquesnelle/yarn): perplexity on long Proof-pile documents truncated to each length (lower is better), and passkey retrieval accuracy.',
    'LLaMA 7B（训练长度 2048）分别用各方案微调到 32k 词元（s = 16），数据来自 Peng 等人的发表结果（YaRN，arXiv:2309.00071；评测数据见 YaRN 的代码仓库）：长 Proof-pile 文档截断到各长度后的困惑度（越低越好），以及密钥检索准确率。'),
  takeaway: L('NTK-aware is good up to about 17k, then its perplexity climbs from 3.17 to 8.49 at 32k and its passkey accuracy falls to 0 — the pairs it pushes past the trained angles. PI is worse than YaRN at every length (3.57 at 32k). NTK-by-parts and YaRN, which stretch those pairs by the full s, keep improving to 32k (2.81 and 2.77). The passkey panel, measured at five lengths only, is less tidy: there PI is the best of all at 32k (0.76). LongRoPE (its own models, third panel) keeps LLaMA 2’s perplexity between 6.17 and 7.08 from 8k to 2048k tokens — 512 times its training length.',
    'NTK-aware 在约 17k 以内表现不错，之后困惑度从 3.17 一路升到 32k 处的 8.49，密钥检索准确率降到 0——正是它推到训练角度之外的那些通道对所致。PI 在每个长度上都比 YaRN 差（32k 处 3.57）。NTK-by-parts 与 YaRN 把这些通道对完整地拉长 s 倍，困惑度一直降到 32k（2.81 与 2.77）。密钥检索只测了五个长度，结果没那么整齐：在 32k 处反而是 PI 最好（0.76）。LongRoPE（作者自己的模型，第三张图）让 LLaMA 2 的困惑度从 8k 到 2048k 词元都保持在 6.17 到 7.08 之间——那是训练长度的 512 倍。'),
  params: { show: { type: 'enum', values: ['all', 'ntk_yarn'], valueLabels: { all: L('all four', '全部四种'), ntk_yarn: L('NTK-aware and YaRN', 'NTK-aware 与 YaRN') }, default: 'all', label: L('schemes', '方案') } },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { show: 'ntk_yarn' }, look: L('NTK-aware against YaRN alone: the two curves agree to within 0.3 up to 17k; past it NTK-aware turns up while YaRN keeps falling.',
    '只看 NTK-aware 与 YaRN：到 17k 为止两条曲线相差不到 0.3；过了 17k，NTK-aware 掉头上升，YaRN 继续下降。') }],
  panels: () => [{ id: 'ppl', block: 'lines', height: 260 }, { id: 'passkey', block: 'lines', height: 200, logX: true },
    { id: 'longrope', block: 'lines', height: 220, logX: true }],
  compute() { return { ppl: PERPLEXITY, passkey: PASSKEY, longrope: LONGROPE }; },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const keys = p.show === 'ntk_yarn' ? KEYS.filter((k) => k === 'ntk' || k === 'yarn') : KEYS;
    const x = Float64Array.from(LENGTHS), xk = Float64Array.from(PASSKEY_LENGTHS);
    return {
      ppl: { series: keys.map((k) => ({ x, y: Float64Array.from(r.ppl[k]), label: NAMES[k], ...STYLE[k] })),
        marks: [{ x: 2048, label: L('trained: 2048', '训练长度 2048') }],
        caption: L('Perplexity against context length (Proof-pile, lower is better)', '困惑度与上下文长度（Proof-pile，越低越好）'), xlabel: L('context length (tokens)', '上下文长度（词元）'), ylabel: L('perplexity', '困惑度') },
      passkey: { series: keys.map((k) => ({ x: xk, y: Float64Array.from(r.passkey[k]), label: NAMES[k], ...STYLE[k] })),
        caption: L('Passkey retrieval accuracy against context length (measured at 2k, 4k, 8k, 16k, 32k)', '密钥检索准确率与上下文长度（在 2k、4k、8k、16k、32k 处测量）'), xlabel: L('context length (tokens, log)', '上下文长度（词元，对数轴）'), ylabel: L('accuracy', '准确率') },
      longrope: { series: /** @type {('llama2' | 'mistral')[]} */ (['llama2', 'mistral']).map((k) => ({ x: Float64Array.from(LONGROPE_K, (v) => v * 1024), y: Float64Array.from(r.longrope[k]), label: LR_NAMES[k], ...LR_STYLE[k] })),
        caption: L('LongRoPE (its authors’ README): Books3 perplexity, 8k … 2048k tokens; LLaMA 2 was trained on 4096 (no other scheme on these models there)', 'LongRoPE（作者代码仓库说明中的数据）：Books3 困惑度，8k … 2048k 词元；LLaMA 2 的训练长度是 4096（该处没有其他方案在同样模型上的结果）'),
        xlabel: L('context length (tokens, log)', '上下文长度（词元，对数轴）'), ylabel: L('perplexity', '困惑度') },
      readouts: [
        { id: 'ntk-min', label: L('NTK-aware: lowest perplexity, and where', 'NTK-aware：最低困惑度及其位置'), value: Math.min(...r.ppl.ntk),
          text: L(`${Math.min(...r.ppl.ntk).toFixed(2)} at ${LENGTHS[r.ppl.ntk.indexOf(Math.min(...r.ppl.ntk))]}`, `${Math.min(...r.ppl.ntk).toFixed(2)}，位于 ${LENGTHS[r.ppl.ntk.indexOf(Math.min(...r.ppl.ntk))]}`) },
        ...keys.map((k) => ({ id: `ppl-${k}`, label: L(`${NAMES[k].en}: perplexity at 32768`, `${NAMES[k].zh}：32768 处的困惑度`), value: r.ppl[k].at(-1), text: r.ppl[k].at(-1).toFixed(2) })),
        { id: 'longrope-llama2', label: L('LongRoPE, LLaMA 2 7B: perplexity', 'LongRoPE，LLaMA 2 7B 的困惑度'), value: r.longrope.llama2.at(-1),
          text: L(`${r.longrope.llama2[0].toFixed(2)} at 8k, ${Math.min(...r.longrope.llama2).toFixed(2)} at its lowest, ${r.longrope.llama2.at(-1).toFixed(2)} at 2048k`,
            `8k 处 ${r.longrope.llama2[0].toFixed(2)}，最低 ${Math.min(...r.longrope.llama2).toFixed(2)}，2048k 处 ${r.longrope.llama2.at(-1).toFixed(2)}`),
          note: L(`passkey ${LONGROPE_PASSKEY.llama2.map((v) => `${100 * v} %`).join(', ')} at ${LONGROPE_PASSKEY.k.join('k, ')}k (100 % from 4k to 512k)`, `密钥检索 ${LONGROPE_PASSKEY.k.join('k、')}k 处分别为 ${LONGROPE_PASSKEY.llama2.map((v) => `${100 * v}%`).join('、')}（4k 到 512k 均为 100%）`) },
      ],
    };
  },
};
