// @ts-check
// "Why base 10000?": what rope_theta decides. The mean cosine between a position and one r tokens away (q = k = ones:
// pe.ropeInnerProductSweep / head_dim = mean_i cos(r·θ_i)), and every pair's wavelength 2π/θ_i against the context
// length (pe.ropeFrequencyAnalysis). The slowest pair's wavelength, 2π·b^((d−2)/d), is the longest distance the
// encoding can tell apart without a pair wrapping round.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ log10_theta: number, head_dim: number, context: number }} P */

const GROWTH = 1.012;   // bins of the cosine curve on its log axis: each 1.2 % wider than the one before

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'base-theta',
  title: L('Why base 10000? What rope_theta decides', '为什么底数是 10000？rope_theta 决定了什么'),
  description: L('Slide log₁₀ of the RoPE base b = rope_theta: the mean cosine between a position and the one r tokens away, and the wavelength 2π/θᵢ of every pair against the context length.',
    '拖动 RoPE 底数 b = rope_theta 的 log₁₀：一个位置与相距 r 个词元的位置之间的平均余弦，以及每个通道对的波长 2π/θᵢ 与上下文长度的比较。'),
  takeaway: L('The base sets the slowest pair’s wavelength, 2π·b^((d−2)/d): with b = 10000 and d = 128 it is 54,410 tokens, longer than the 2,048-token context, so the slowest pairs never complete a turn inside it and far positions stay distinct; with b = 100 it is 585 tokens and the slow pairs repeat within the context. A larger base also slows the fall of the mean cosine.',
    '底数决定最慢通道对的波长 2π·b^((d−2)/d)：b = 10000、d = 128 时为 54,410 个词元，比 2,048 的上下文长，所以最慢的几对在上下文内转不满一圈，远处的位置仍然分得开；b = 100 时只有 585 个词元，慢的通道对在上下文内就重复了。底数越大，平均余弦也下降得越慢。'),
  params: {
    log10_theta: { type: 'number', min: 1, max: 8, default: 4, slider: true, label: L('log₁₀ rope_theta', 'log₁₀ rope_theta') },
    head_dim: { type: 'enum', values: [64, 128, 256], default: 128, label: L('head_dim', 'head_dim') },
    context: { type: 'enum', values: [512, 2048, 8192, 32768, 131072], default: 2048, label: L('Context length', '上下文长度') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { log10_theta: 2 }, look: L('b = 100: the slowest wavelength is 585 tokens, so all 64 pairs turn at least once inside 2,048 tokens — far positions can look like near ones.',
    'b = 100：最慢的波长只有 585 个词元，64 对全都在 2,048 个词元内转满至少一圈——远处的位置可能看起来像近处的。') },
  { params: { log10_theta: 6, context: 131072 }, look: L('b = 10⁶ (Qwen2.5’s base) and a 131,072-token context: the slowest wavelength, 5.1 million tokens, still covers the context.',
    'b = 10⁶（Qwen2.5 的底数）、131,072 的上下文：最慢的波长 510 万个词元，仍然盖住整个上下文。') }],
  panels: () => [{ id: 'cosine', block: 'lines', height: 220, logX: true }, { id: 'wavelengths', block: 'lines', height: 220, logY: true }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { log10_theta, head_dim, context }) {
    const theta = 10 ** log10_theta, count = Math.min(4 * context, 2 ** 19);
    const sweep = pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim, rope_theta: theta, count });
    const mean = Float32Array.from(sweep, (v) => v / head_dim);        // q = k = ones: Σ 2cos(rθ_i) over d/2 pairs
    // min/max over geometric bins [e_k, e_(k+1)) of r = 1 … count − 1, for the log axis (each bin at least one distance)
    const edges = [1];
    while (edges[edges.length - 1] < count - 1) edges.push(Math.min(count - 1, Math.max(edges[edges.length - 1] + 1, Math.floor(edges[edges.length - 1] * GROWTH))));
    const x = Float64Array.from(edges.slice(0, -1)), min = new Float64Array(x.length), max = new Float64Array(x.length);
    for (let b = 0; b < x.length; b++) {
      let lo = Infinity, hi = -Infinity;
      for (let i = edges[b]; i < edges[b + 1]; i++) { lo = Math.min(lo, mean[i]); hi = Math.max(hi, mean[i]); }
      min[b] = lo; max[b] = hi;
    }
    const env = { min, max };
    const a = pe.ropeFrequencyAnalysis({ rotary_dim: head_dim, rope_theta: theta, original_max_position_embeddings: context });
    const half = head_dim / 2;
    const firstBelow = mean.findIndex((v) => v < 0.5);
    return { theta, context, count, x, min: env.min, max: env.max, wavelength: a.wavelength, pair: Float64Array.from({ length: half }, (_, i) => i),
      slowest: a.wavelength[half - 1], wrapping: a.first_incomplete, atContext: mean[Math.min(context, count - 1)], halfAt: firstBelow };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    return {
      cosine: { series: [{ x: r.x, y: r.min, y2: r.max, label: L('mean cos(r·θᵢ) (min–max per bin)', '平均 cos(r·θᵢ)（每个区间的最小–最大值）') }],
        marks: [{ x: r.context, label: L('context', '上下文') }],
        caption: L(`how alike two positions r apart look (b = ${fmtB(r.theta)}, d = ${p.head_dim})`, `相距 r 的两个位置有多相似（b = ${fmtB(r.theta)}，d = ${p.head_dim}）`),
        xlabel: L('distance r (log)', '距离 r（对数）'), ylabel: L('mean cosine', '平均余弦') },
      wavelengths: { series: [{ x: r.pair, y: r.wavelength, kind: 'points', label: L('wavelength 2π/θᵢ of pair i', '第 i 对的波长 2π/θᵢ') }],
        marks: [{ y: r.context, label: L(`context ${r.context}`, `上下文 ${r.context}`) }],
        caption: L('pairs above the line never complete a turn inside the context', '线上方的通道对在上下文内转不满一圈'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens (log)', '词元数（对数）') },
      readouts: [{ id: 'slowest', label: L('slowest pair’s wavelength, in tokens per turn', '最慢一对的波长（每转一圈的词元数）'), value: r.slowest },
        { id: 'wrapping', label: L('pairs that turn at least once inside the context', '在上下文内至少转一圈的通道对'), value: r.wrapping, note: L(`of ${p.head_dim / 2}`, `共 ${p.head_dim / 2} 对`) },
        { id: 'half', label: L('first distance where the mean cosine is below 0.5', '平均余弦首次低于 0.5 的距离'), value: r.halfAt },
        { id: 'at-context', label: L('mean cosine at the context length', '上下文长度处的平均余弦'), value: r.atContext }],
    };
  },
};

/** @param {number} b */
function fmtB(b) { return b >= 1e5 ? `10^${Math.log10(b).toFixed(2).replace(/\.?0+$/, '')}` : String(Math.round(b)); }
