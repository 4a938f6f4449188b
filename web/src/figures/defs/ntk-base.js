// @ts-check
// Section 6, intuition first: Su Jianlin's number-base (进制) view of NTK-aware scaling. RoPE writes position p with
// d/2 "digits" p·θᵢ = p/β^i in base β = base^(2/d). PI divides p by s: every digit is squeezed, the fast ones too.
// NTK-aware scaling keeps p and raises the base to base·α^(d/(d−2)) (α = s): digit 0 is untouched, the last digit is
// divided by exactly s, the digits between by α^(2i/(d−2)). Frequencies from the package (ropeInvFreqScaled with
// rope_type 'default', 'linear', 'ntk').
import { L } from '../params.js';
import { fmt } from '../blocks/format.js';
import { extensionParams } from './wavelengths.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ rotary_dim: number, rope_theta: number, original_max_position_embeddings: number, factor: number }} P */

const sub = (/** @type {number} */ x) => String(x).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)]);

/** One colour per scheme, as the context-extension figure uses them (Okabe–Ito hues, colormap.js). */
export const SCHEME_COLOURS = { linear: '#0072B2', ntk: '#D55E00', yarn: '#007A5A', llama3: '#8A6100', unscaled: '#6b6b75' };
/** Dashes that tell the schemes apart without colour (the same as the context-extension figure's). */
export const SCHEME_DASH = { llama3: [2, 2], unscaled: [4, 3] };

/** The pairs NTK-aware scaling pushes past every angle seen in training: pairs that never finished a turn within L
 * (L·θᵢ < 2π, so only angles up to L·θᵢ were seen) whose angle at L·s, L·s·θ′ᵢ, is still larger than L·θᵢ. NTK divides
 * pair i by s^(2i/(d−2)) < s, so every such pair but the slowest (divided by exactly s) lands outside; YaRN and Llama 3
 * divide those pairs by the full s. [first, last] pair indices, or null when there are none.
 * @param {Float64Array} def @param {Float64Array} ntk @param {number} len @param {number} s @returns {[number, number] | null} */
export function beyondTrained(def, ntk, len, s) {
  /** @type {number[]} */
  const out = [];
  def.forEach((x, i) => { if (len * x < 2 * Math.PI && len * s * ntk[i] > len * x * (1 + 1e-9)) out.push(i); });
  return out.length ? [out[0], out[out.length - 1]] : null;
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'ntk-base',
  title: L('NTK-aware scaling changes the base, not the positions', 'NTK-aware 缩放改的是进制，不是位置'),
  description: L('RoPE writes a position as d/2 digits p·θᵢ = p/β^i in base β = base^(2/d). To reach s times the training length, PI divides every digit by s; NTK-aware scaling instead raises the base to base·s^(d/(d−2)), so the fast digits stay and only the slow ones stretch.',
    'RoPE 把位置写成 d/2 位“数字” p·θᵢ = p/β^i，进制 β = base^(2/d)。要到达训练长度的 s 倍，PI 把每一位都除以 s；NTK-aware 缩放则把底数提高到 base·s^(d/(d−2))，快的位保持不变，只有慢的位被拉长。'),
  takeaway: L('NTK leaves the fastest pair exactly as trained and slows the slowest pair exactly as much as PI: high-frequency pairs are nearly untouched, low-frequency pairs are slowed down. But the pairs just before the slowest, which never finished a turn in training, are slowed by less than s, so at L·s they reach angles never seen in training (the shaded band) — the gap YaRN closes by dividing those pairs by the full s.',
    'NTK 让最快的通道对与训练时完全一样，让最慢的通道对恰好放慢到 PI 的程度：高频通道对几乎不动，低频通道对被放慢。但最慢一对之前的那些通道对在训练中也没转满一圈，却只被放慢不到 s 倍，到 L·s 时会转到训练中从未见过的角度（阴影带）——YaRN 正是把这些通道对也完整地除以 s，补上了这个缺口。'),
  params: extensionParams,
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { factor: 32 }, look: L('factor 32: PI divides the fastest pair by 32 as well; NTK-aware scaling still leaves it at exactly 1 and reaches 1/32 only at the slowest pair.',
    'factor 32：PI 把最快的通道对也除以 32；NTK-aware 仍让它保持 1，只在最慢的通道对上才降到 1/32。') }],
  panels: () => [{ id: 'speed', block: 'lines', height: 220, logY: true }, { id: 'angle', block: 'lines', height: 240, logY: true }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { rotary_dim: d, rope_theta, original_max_position_embeddings: len, factor: s }) {
    const common = { rotary_dim: d, rope_theta };
    const def = pe.ropeInvFreqScaled({ ...common, rope_type: 'default' }).inv_freq;
    const pi = pe.ropeInvFreqScaled({ ...common, rope_type: 'linear', factor: s }).inv_freq;
    const ntk = pe.ropeInvFreqScaled({ ...common, rope_type: 'ntk', factor: s });
    const ratio = (/** @type {Float64Array} */ w) => Float64Array.from(w, (x, i) => x / def[i]);
    const at = (/** @type {Float64Array} */ w) => Float64Array.from(w, (x) => len * s * x);   // angle at position L·s
    return { d, s, len, base: rope_theta, ntkBase: ntk.effective_base, piRatio: ratio(pi), ntkRatio: ratio(ntk.inv_freq),
      orig: at(def), piAngle: at(pi), ntkAngle: at(ntk.inv_freq), seen: Float64Array.from(def, (x) => len * x),
      fullTurns: def.findIndex((x) => len * x < 2 * Math.PI), beyond: beyondTrained(def, ntk.inv_freq, len, s) };
  },
  /** @param {any} r */
  render(r) {
    const C = SCHEME_COLOURS, target = r.len * r.s, n = r.piRatio.length;
    const beta = r.base ** (2 / r.d), beta2 = r.ntkBase ** (2 / r.d);
    /** @type {{ x0: number, x1: number, label: { en: string, zh: string }, color?: string }[]} */
    const regions = r.fullTurns > 0 ? [{ x0: 0, x1: r.fullTurns - 0.5, label: L('these pairs turned full circles in training', '这些通道对在训练中已转满整圈') }] : [];
    const [b0, b1] = r.beyond ?? [0, -1];
    if (r.beyond) regions.push({ x0: b0 - 0.5, x1: b1 + 0.5, color: C.ntk, label: L(`pairs ${b0}–${b1}: past the trained angles`, `第 ${b0}–${b1} 对：超出训练角度`) });
    return {
      speed: {
        series: [{ y: new Float64Array(n).fill(1), label: L('original', '原始'), color: C.unscaled, dash: [4, 3] },
          { y: r.piRatio, label: L('PI: every pair ÷ s', 'PI：每一对都 ÷ s'), color: C.linear },
          { y: r.ntkRatio, label: L(`NTK-aware: base ${r.base} → ${Math.round(r.ntkBase)}`, `NTK-aware：底数 ${r.base} → ${Math.round(r.ntkBase)}`), color: C.ntk }],
        marks: [{ y: 1 / r.s, label: L(`1/s = 1/${r.s}`, `1/s = 1/${r.s}`) }],
        caption: L('Turn per token θ′ᵢ ÷ θᵢ (1 = as trained)', '每个词元转过的角度 θ′ᵢ ÷ θᵢ（1 = 与训练时相同）'), xlabel: L('pair i = digit i (fast → slow)', '通道对 i = 第 i 位（快 → 慢）'), ylabel: L('ratio', '比值'),
      },
      angle: {
        series: [{ y: r.seen, label: L(`largest angle seen in training (position ${r.len})`, `训练中见过的最大角度（位置 ${r.len}）`), color: '#000000', width: 3 },
          { y: r.orig, label: L('original at L·s', '原始，位置 L·s'), color: C.unscaled, dash: [4, 3] },
          { y: r.piAngle, label: L('PI at L·s', 'PI，位置 L·s'), color: C.linear, dash: [2, 2] },
          { y: r.ntkAngle, label: L('NTK-aware at L·s', 'NTK-aware，位置 L·s'), color: C.ntk }],
        marks: [{ y: 2 * Math.PI, label: L('2π: one full turn', '2π：转满一圈') }], regions,
        caption: L(`Angle p·θ′ᵢ reached at position L·s = ${target} (radians); PI lands on the thick line (the largest angle seen in training)`, `在位置 L·s = ${target} 处转到的角度 p·θ′ᵢ（弧度）；PI 恰好落在粗线（训练中见过的最大角度）上`), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('radians', '弧度'),
      },
      readouts: [
        { id: 'beta', label: L('digit base β = base^(2/d)', '进制 β = base^(2/d)'), value: beta, text: `${beta.toPrecision(6)} → ${beta2.toPrecision(6)} (NTK: β·s^(2/(d−2)))` },
        { id: 'ntk-base', label: L('NTK-aware base = base·s^(d/(d−2))', 'NTK-aware 的底数 = base·s^(d/(d−2))'), value: r.ntkBase, text: fmt(r.ntkBase, 3) },
        { id: 'fastest', label: L('fastest pair, θ′₀ ÷ θ₀', '最快的通道对 θ′₀ ÷ θ₀'), value: r.ntkRatio[0], note: L(`PI: ${(1 / r.s).toPrecision(4)}`, `PI：${(1 / r.s).toPrecision(4)}`) },
        { id: 'beyond', label: L('pairs NTK-aware pushes past the trained angles', 'NTK-aware 推到训练角度之外的通道对'), value: r.beyond ? b1 - b0 + 1 : 0,
          text: r.beyond ? L(`${b0}…${b1} (${b1 - b0 + 1} pairs)`, `${b0}…${b1}（${b1 - b0 + 1} 对）`) : L('none', '无'),
          note: L('never a full turn in training, yet at L·s above the largest angle they saw', '训练中转不满一圈，到 L·s 时却超过了它们见过的最大角度') },
        { id: 'slowest', label: L(`slowest pair, θ′${sub(n - 1)} ÷ θ${sub(n - 1)}`, `最慢的通道对 θ′${sub(n - 1)} ÷ θ${sub(n - 1)}`), value: r.ntkRatio[n - 1], note: L('i.e. 1/s, the same as PI', '即 1/s，与 PI 相同') },
      ],
    };
  },
};
