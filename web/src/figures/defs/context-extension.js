// @ts-check
// Section 6: how each context-extension scheme rescales the RoPE frequencies, pair by pair, and what that does to the
// long-range decay up to the target length (one sweep per scheme, through pe.gpu: WebGPU or wasm). The sweep puts q at 0
// and k at 0…target; with q = k = ones the score is even in the distance, so it is the score of a key m − n tokens in
// the past, as the notation box counts.
import { L, tr } from '../params.js';
import { extensionParams } from './wavelengths.js';
import { backendParam, backendOf, gpuCall } from '../backend.js';

// One colour (and one dash) per scheme in every panel; the unscaled reference grey and dashed.
/** @type {Record<string, { color: string, dash?: number[] }>} */
const STYLE = { default: { color: '#6b6b75', dash: [4, 3] }, linear: { color: '#0072B2' }, ntk: { color: '#D55E00' }, dynamic: { color: '#A6488B', dash: [7, 2, 2, 2] },
  yarn: { color: '#007A5A' }, llama3: { color: '#8A6100', dash: [2, 2] }, longrope: { color: '#000000', dash: [8, 3] } };
// Each small decay panel is drawn on a log axis of distance, so that the first tokens (where YaRN and Llama 3 keep the
// unscaled decay) and the target length are both visible: distances 1…16 one by one, then the mean of the score over
// windows 8 to an octave ([2^(j/8), 2^((j+1)/8)) tokens), plotted at each window's geometric middle.
const PER_OCTAVE = 8, FIRST = 16;
/** Windows [lo, hi) of integer distances and the x at which each is drawn, up to `count` (exclusive).
 * @param {number} count @returns {{ lo: number, hi: number, x: number }[]} */
export function logWindows(count) {
  const out = [];
  for (let i = 1; i <= Math.min(FIRST, count - 1); i++) out.push({ lo: i, hi: i + 1, x: i });
  for (let j = Math.round(Math.log2(FIRST + 1) * PER_OCTAVE); ; j++) {
    const a = 2 ** (j / PER_OCTAVE), b = 2 ** ((j + 1) / PER_OCTAVE), lo = Math.max(FIRST + 1, Math.ceil(a)), hi = Math.min(count, Math.ceil(b));
    if (lo >= count) break;
    if (hi > lo) out.push({ lo, hi, x: Math.sqrt(lo * (hi - 1)) });
  }
  return out;
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'context-extension',
  title: L('Context extension, pair by pair', '逐对看上下文扩展'),
  description: L('Scaled ÷ original inverse frequency per pair for PI, NTK-aware, dynamic NTK, YaRN, Llama 3 and LongRoPE (Hugging Face rules), and each scheme’s long-range decay ⟨R_m q, R_n k⟩/d (q = k = ones, mean over windows) up to the target length against the unscaled one.',
    'PI、NTK-aware、动态 NTK、YaRN、Llama 3 与 LongRoPE（Hugging Face 的规则）逐对的缩放后频率 ÷ 原频率，以及各方案到目标长度为止的远程衰减 ⟨R_m q, R_n k⟩/d（q = k = 全 1，按窗口取平均），与未缩放的对比。'),
  takeaway: L('PI slows every pair by the factor, so its decay is the unscaled one stretched factor times; YaRN and Llama 3 keep the fast pairs (ratio 1) and interpolate only the slow ones, so the start of their decay stays the unscaled one (the log axis shows the first tokens: over the first two dozen both lie within 0.02 of the grey curve, Llama 3 for over a hundred, while PI’s is 0.25 above it by the 13th token). Dynamic NTK at the target length uses Hugging Face’s α = s·L/L_train − (s − 1) = s² − s + 1, so its slowest pair falls to 1/α (1/57 for s = 8), below 1/factor.',
    'PI 把所有通道对都放慢 factor 倍，所以它的衰减曲线就是未缩放的曲线拉长 factor 倍；YaRN 和 Llama 3 保留快的对（比值 1），只对慢的对做插值，所以它们衰减的开头与未缩放的相同（对数轴把最初的几个词元也画了出来：前二十几个词元里两者与灰线相差都不到 0.02，Llama 3 甚至保持到一百多个词元，而 PI 的曲线到第 13 个词元已高出灰线 0.25）。动态 NTK 在目标长度上用 Hugging Face 的 α = s·L/L_train − (s − 1) = s² − s + 1，最慢一对降到 1/α（s = 8 时为 1/57），低于 1/factor。'),
  params: { ...extensionParams, backend: backendParam },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { factor: 2 }, look: L('factor 2: dynamic NTK’s α = 2·2 − 1 = 3, so its slowest pair ends at 1/3, next to the 1/factor line at 1/2.',
    'factor 设为 2：动态 NTK 的 α = 2·2 − 1 = 3，最慢一对停在 1/3，紧挨着 1/factor = 1/2 的线。') },
  { params: { rope_theta: 500000, original_max_position_embeddings: 8192 }, look: L('Llama 3’s own setting (θ = 500 000, 8192 tokens): Llama 3 keeps 29 fast pairs at 1, smooths 6 and divides the slowest 29 by 8.',
    'Llama 3 自己的设置（θ = 500 000、8192 个词元）：Llama 3 保留 29 个快的对（比值 1），平滑过渡 6 个，把最慢的 29 个除以 8。') }],
  panels: () => [{ id: 'ratio', block: 'lines', height: 260 },
    ...Object.keys(STYLE).filter((k) => k !== 'default').map((k) => ({ id: `decay-${k}`, block: 'lines', height: 170, cols: 3, logX: true }))],
  async compute(pe, p, ctx) {
    const { rotary_dim: d, rope_theta, original_max_position_embeddings: orig, factor } = p;
    const common = { rotary_dim: d, rope_theta }, target = orig * factor;
    const def = pe.ropeInvFreqScaled({ ...common, rope_type: 'default' }).inv_freq;
    const schemes = {
      linear: { rope_type: 'linear', factor },
      ntk: { rope_type: 'ntk', factor },
      dynamic: { rope_type: 'dynamic', factor, max_position_embeddings: orig, seq_len: target },
      yarn: { rope_type: 'yarn', factor, original_max_position_embeddings: orig },
      llama3: { rope_type: 'llama3', factor, original_max_position_embeddings: orig, low_freq_factor: 1, high_freq_factor: 4 },
      longrope: { rope_type: 'longrope', factor, original_max_position_embeddings: orig, max_position_embeddings: target, seq_len: target,
        // Illustrative searched factors: 1 for the fastest pairs rising to `factor` for the slowest.
        long_factor: Array.from({ length: d / 2 }, (_, i) => 1 + (factor - 1) * (i / (d / 2 - 1)) ** 2), short_factor: new Array(d / 2).fill(1) },
    };
    /** @type {Record<string, Float64Array>} */
    const ratio = {};
    /** @type {Record<string, Float64Array>} */
    const decay = {};
    /** @type {Array<{ backend: string }>} */
    const results = [];
    const windows = logWindows(target);
    for (const [k, o] of Object.entries({ default: null, ...schemes })) {
      const inv = o ? pe.ropeInvFreqScaled(/** @type {Parameters<typeof pe.ropeInvFreqScaled>[0]} */ ({ ...common, ...o })).inv_freq : def;
      if (o) ratio[k] = Float64Array.from(inv, (w, i) => w / def[i]);
      const r = await pe.gpu.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: d, inv_freq: inv, count: target, ...gpuCall(p, ctx) });
      results.push(r);
      // the mean of score/d over each log-spaced window: the decay without the fast wiggle
      decay[k] = Float64Array.from(windows, ({ lo, hi }) => { let t = 0; for (let i = lo; i < hi; i++) t += r.values[i]; return t / d / (hi - lo); });
    }
    return { ratio, decay, target, x: Float64Array.from(windows, (w) => w.x), backend: backendOf(results) };
  },
  render(r, p) {
    const target = p.original_max_position_embeddings * p.factor;
    /** @type {Record<string, import('../params.js').Bilingual | string>} */
    const names = { linear: 'PI (linear)', ntk: 'NTK-aware', dynamic: L(`dynamic NTK at ${target}`, `动态 NTK（长度 ${target}）`), yarn: 'YaRN', llama3: 'Llama 3', longrope: L('LongRoPE (illustrative factors)', 'LongRoPE（示意因子）') };
    names.default = L('unscaled', '未缩放');
    /** @type {import('../params.js').Rendered} */
    const out = { ratio: { series: Object.entries(r.ratio).map(([k, y]) => ({ label: names[k], y, ...STYLE[k] })), marks: [{ y: 1 / p.factor, label: '1/factor' }],
      caption: L('Scaled frequency ÷ original frequency, per pair (1 = unchanged, 1/factor = fully interpolated)', '缩放后频率 ÷ 原频率（1 = 不变，1/factor = 完全插值）'), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('ratio', '比值') } };
    for (const k of Object.keys(r.ratio)) {
      out[`decay-${k}`] = { series: [{ label: names.default, y: r.decay.default, x: r.x, ...STYLE.default }, { label: names[k], y: r.decay[k], x: r.x, ...STYLE[k] }],
        marks: [{ x: p.original_max_position_embeddings, label: L('training length', '训练长度') }],
        caption: L(`decay, ${tr(names[k], 'en')}`, `衰减：${tr(names[k], 'zh')}`), xlabel: L('distance m − n (log)', '距离 m − n（对数轴）'), ylabel: L('mean score / d', '平均分数 / d') };
    }
    return out;
  },
};
