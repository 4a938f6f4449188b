// @ts-check
// Section 6, intuition first: the wavelength picture that ties the context-extension schemes together. Pair i's
// wavelength λᵢ = 2π/θᵢ against the training length L, and each scheme's factor on λᵢ: PI stretches every pair by
// s, NTK-aware from 1 (fastest) to s (slowest), YaRN keeps pairs with λ < L/β_fast, stretches those with λ > L/β_slow
// by s and ramps between, Llama 3 keeps λ < L/high_freq_factor, stretches λ > L/low_freq_factor by s and smooths
// between. Frequencies from the package (ropeInvFreqScaled; YaRN's ramp and Llama 3's bands as it reports them).
import { L } from '../params.js';
import { extensionParams } from './wavelengths.js';
import { SCHEME_COLOURS as C, SCHEME_DASH } from './ntk-base.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ rotary_dim: number, rope_theta: number, original_max_position_embeddings: number, factor: number }} P */

const YARN = { beta_fast: 32, beta_slow: 1 }, LLAMA3 = { low_freq_factor: 1, high_freq_factor: 4 };

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'scaling-wavelengths',
  title: L('PI, NTK, YaRN and Llama 3 in one picture: wavelengths', '一张图看懂 PI、NTK、YaRN 与 Llama 3：波长'),
  description: L(`Each pair’s wavelength λᵢ = 2π/θᵢ against the training length L, and how much each scheme stretches it (Hugging Face’s rules; YaRN beta_fast = ${YARN.beta_fast}, beta_slow = ${YARN.beta_slow}; Llama 3 low_freq_factor = ${LLAMA3.low_freq_factor}, high_freq_factor = ${LLAMA3.high_freq_factor}).`,
    `每个通道对的波长 λᵢ = 2π/θᵢ 与训练长度 L 的对比，以及各方案把它拉长多少（Hugging Face 的规则；YaRN 的 beta_fast = ${YARN.beta_fast}、beta_slow = ${YARN.beta_slow}；Llama 3 的 low_freq_factor = ${LLAMA3.low_freq_factor}、high_freq_factor = ${LLAMA3.high_freq_factor}）。`),
  takeaway: L('Short wavelengths (many turns within L) need no change; long ones (not a single turn within L) must be stretched by s. PI stretches everything, NTK-aware grows smoothly, YaRN and Llama 3 switch by wavelength.',
    '波长短的通道对（在 L 内转很多圈）不必改；波长长的（在 L 内转不满一圈）必须拉长 s 倍。PI 全部拉长，NTK-aware 平滑过渡，YaRN 与 Llama 3 按波长切换。'),
  params: extensionParams,
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { rope_theta: 500000, original_max_position_embeddings: 8192 }, look: L('Llama 3.1’s numbers (rope_theta 500000, L = 8192, factor 8): Llama 3 keeps 29 pairs, smooths 6 and stretches 29 — the 29 / 6 / 29 the config reader shows for Llama 3.1 8B.',
    'Llama 3.1 的参数（rope_theta 500000、L = 8192、factor 8）：Llama 3 保持 29 对、平滑过渡 6 对、拉长 29 对——正是配置读取器为 Llama 3.1 8B 给出的 29 / 6 / 29。') }],
  panels: () => [{ id: 'wave', block: 'lines', height: 240, logY: true }, { id: 'stretch', block: 'lines', height: 220 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { rotary_dim, rope_theta, original_max_position_embeddings: len, factor }) {
    const common = { rotary_dim, rope_theta, factor, original_max_position_embeddings: len };
    const def = pe.ropeInvFreqScaled({ rotary_dim, rope_theta, rope_type: 'default' }).inv_freq;
    const lin = pe.ropeInvFreqScaled({ ...common, rope_type: 'linear' });
    const ntk = pe.ropeInvFreqScaled({ ...common, rope_type: 'ntk' });
    const yarn = pe.ropeInvFreqScaled({ ...common, rope_type: 'yarn', ...YARN });
    const llama3 = pe.ropeInvFreqScaled({ ...common, rope_type: 'llama3', ...LLAMA3 });
    const wave = (/** @type {Float64Array} */ w) => Float64Array.from(w, (x) => (2 * Math.PI) / x);
    const stretch = (/** @type {Float64Array} */ w) => Float64Array.from(w, (x, i) => def[i] / x);
    return { len, factor, wave: wave(def), yarnRange: yarn.yarn_correction_range, bands: llama3.llama3_bands,
      stretch: { linear: stretch(lin.inv_freq), ntk: stretch(ntk.inv_freq), yarn: stretch(yarn.inv_freq), llama3: stretch(llama3.inv_freq) } };
  },
  /** @param {any} r */
  render(r) {
    const names = { linear: L('PI (linear)', 'PI（linear）'), ntk: L('NTK-aware', 'NTK-aware'), yarn: L('YaRN', 'YaRN'), llama3: L('Llama 3', 'Llama 3') };
    const keys = /** @type {('linear' | 'ntk' | 'yarn' | 'llama3')[]} */ (['linear', 'ntk', 'yarn', 'llama3']);
    const b = r.bands, y = r.yarnRange, L0 = r.len;
    return {
      wave: {
        series: [{ y: r.wave, kind: 'points', label: L('λᵢ = 2π/θᵢ, as trained', '训练时的波长 λᵢ = 2π/θᵢ'), color: C.unscaled }],
        marks: [{ y: L0, label: L(`L = ${L0} (training length)`, `L = ${L0}（训练长度）`) },
          { y: b.high_freq_wavelen, label: L(`L/high_freq_factor = ${b.high_freq_wavelen}`, `L/high_freq_factor = ${b.high_freq_wavelen}`), color: C.llama3 },
          { y: L0 / YARN.beta_fast, label: L(`L/beta_fast = ${L0 / YARN.beta_fast}`, `L/beta_fast = ${L0 / YARN.beta_fast}`), color: C.yarn }],
        caption: L('Wavelength per pair, and the lengths where the schemes switch (tokens; L/beta_slow and L/low_freq_factor are L itself: both are 1)',
          '每个通道对的波长，以及各方案切换处的长度（词元数；beta_slow 与 low_freq_factor 都是 1，所以 L/beta_slow、L/low_freq_factor 就是 L）'), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('tokens', '词元数'),
      },
      stretch: {
        series: keys.map((k) => ({ y: r.stretch[k], label: names[k], color: C[k], ...(k === 'llama3' && { dash: SCHEME_DASH.llama3 }) })),
        caption: L(`Stretch of each wavelength λ′ᵢ ÷ λᵢ (1 = kept, ${r.factor} = s)`, `每个波长被拉长的倍数 λ′ᵢ ÷ λᵢ（1 = 保持，${r.factor} = s）`), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('stretch', '倍数'),
      },
      readouts: [
        { id: 'incomplete', label: L('pairs that do not finish a turn within L (λᵢ > L)', '在 L 内转不满一圈的通道对（λᵢ > L）'), value: r.wave.filter((/** @type {number} */ w) => w > L0).length,
          text: `${r.wave.filter((/** @type {number} */ w) => w > L0).length} / ${r.wave.length}`, note: L('beyond L they meet angles never seen in training', '超过 L 后它们会遇到训练中没见过的角度') },
        { id: 'llama3', label: L('Llama 3 bands: kept / smoothed / stretched by s', 'Llama 3 的三段：保持 / 平滑过渡 / 拉长 s 倍'), value: b.n_kept, text: `${b.n_kept} / ${b.n_smoothed} / ${b.n_scaled}`,
          note: L(`λ < ${b.high_freq_wavelen} kept, λ > ${b.low_freq_wavelen} stretched`, `λ < ${b.high_freq_wavelen} 保持，λ > ${b.low_freq_wavelen} 拉长`) },
        { id: 'yarn', label: L('YaRN ramp over pairs (find_correction_range)', 'YaRN 的过渡区间（find_correction_range）'), value: y.low, text: `${y.low} … ${y.high}`,
          note: L(`pairs below ${y.low} kept, above ${y.high} stretched by s`, `第 ${y.low} 对以下保持，第 ${y.high} 对以上拉长 s 倍`) },
        { id: 'ntk-last', label: L('NTK-aware stretch of the slowest pair', 'NTK-aware 对最慢通道对的拉长倍数'), value: r.stretch.ntk[r.stretch.ntk.length - 1] },
      ],
    };
  },
};
