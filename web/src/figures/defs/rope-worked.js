// @ts-check
// Section 4, intuition first: one RoPE rotation worked out with d = 4, every number shown. Two channel pairs
// (interleaved: (q₀, q₁) and (q₂, q₃), as RoFormer and Meta's freqs_cis), θᵢ = base^(−2i/d); q turned by mθᵢ,
// k by nθᵢ (package: ropeInvFreq, ropeTablesScaled, ropeApplyTables), then the dot product pair by pair, and the
// same number from ⟨q, Rₙ₋ₘk⟩ (ropeInnerProductSweep). Drag q and k in the two planes; pick m and n.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ m: number, n: number, base: number, q01: number[], q23: number[], k01: number[], k23: number[] }} P */

const D = 4;
const [QC, KC] = ['#0072B2', '#D55E00'];
const f4 = (/** @type {number} */ x) => (Math.abs(x) < 5e-5 ? '0.0000' : x.toFixed(4)).replace('-', '−');
const vec = (/** @type {ArrayLike<number>} */ v) => `(${Array.from(v, f4).join(', ')})`;
const SUB = '₀₁₂₃';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-worked',
  title: L('A RoPE rotation worked out, d = 4', '手算一次 RoPE 旋转（d = 4）'),
  description: L('q and k of four numbers form two pairs, (0, 1) and (2, 3). Pair i turns by θᵢ per position: q by mθᵢ, k by nθᵢ. Every cos, sin, rotated vector and product is printed.',
    '四维的 q、k 组成两个通道对 (0, 1) 与 (2, 3)。通道对 i 每个位置转 θᵢ：q 转 mθᵢ，k 转 nθᵢ。每个 cos、sin、旋转后的向量和乘积都印在下面。'),
  takeaway: L('The score is the sum of the two pairs’ dot products, and it equals ⟨q, Rₙ₋ₘk⟩: move m and n together: every cos, sin and rotated number changes, the score does not.',
    '分数是两个通道对内积之和，并且等于 ⟨q, Rₙ₋ₘk⟩。让 m 和 n 一起变，每个 cos、sin 和旋转后的数都会变，分数却不变。'),
  params: {
    m: { type: 'int', min: 0, max: 64, default: 1, slider: true, label: L('m (position of q)', 'm（q 的位置）') },
    n: { type: 'int', min: 0, max: 64, default: 3, slider: true, label: L('n (position of k)', 'n（k 的位置）') },
    base: { type: 'enum', values: [10, 100, 10000], default: 10000, label: L('base', '底数 base') },
    q01: { type: 'vec2', range: 1.6, default: [1, 0.5], label: L('q₀, q₁', 'q₀, q₁') },
    q23: { type: 'vec2', range: 1.6, default: [-0.5, 1], label: L('q₂, q₃', 'q₂, q₃') },
    k01: { type: 'vec2', range: 1.6, default: [0.5, 1], label: L('k₀, k₁', 'k₀, k₁') },
    k23: { type: 'vec2', range: 1.6, default: [1, 0.5], label: L('k₂, k₃', 'k₂, k₃') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { m: 11, n: 13 }, look: L('m = 11, n = 13: every cos, sin and rotated number differs from m = 1, n = 3, yet the score is again −1.0731.',
    'm = 11、n = 13：每个 cos、sin 和旋转后的数都与 m = 1、n = 3 时不同，分数却仍是 −1.0731。') },
  { params: { m: 3, n: 1 }, look: L('Swap the positions, m = 3, n = 1: n − m = −2 and the score becomes 0.2408 — RoPE knows which token comes first.',
    '交换位置，m = 3、n = 1：n − m = −2，分数变成 0.2408——RoPE 分得清哪个词元在前。') }],
  panels: () => [{ id: 'pair0', block: 'vec2', range: 1.6, bind: { q: 'q01', k: 'k01' } }, { id: 'pair1', block: 'vec2', range: 1.6, bind: { q: 'q23', k: 'k23' } }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { m, n, base, q01, q23, k01, k23 }) {
    const inv = pe.ropeInvFreq({ rotary_dim: D, rope_theta: base });
    const t = pe.ropeTablesScaled({ inv_freq: inv, positions: [m, n] });
    const q = Float32Array.from([...q01, ...q23]), k = Float32Array.from([...k01, ...k23]);
    const cosM = t.cos.slice(0, 2), sinM = t.sin.slice(0, 2), cosN = t.cos.slice(2, 4), sinN = t.sin.slice(2, 4);
    const qm = pe.ropeApplyTables(q, { seq: 1, head_dim: D, layout: 'interleaved', cos: cosM, sin: sinM });
    const kn = pe.ropeApplyTables(k, { seq: 1, head_dim: D, layout: 'interleaved', cos: cosN, sin: sinN });
    const sweep = (/** @type {number} */ a, /** @type {number} */ b) => pe.ropeInnerProductSweep({ q, k, head_dim: D, layout: 'interleaved', inv_freq: inv, q_position: a, k_start: b, count: 1 })[0];
    // each pair's share of the score: the same sweep on that pair alone (head_dim 2, its own θ)
    const pairDot = [0, 1].map((i) => pe.ropeInnerProductSweep({ q: q.subarray(2 * i, 2 * i + 2), k: k.subarray(2 * i, 2 * i + 2), head_dim: 2, layout: 'interleaved',
      inv_freq: [inv[i]], q_position: m, k_start: n, count: 1 })[0]);
    return { inv: Array.from(inv), q: Array.from(q), k: Array.from(k), cosM: Array.from(cosM), sinM: Array.from(sinM), cosN: Array.from(cosN), sinN: Array.from(sinN),
      qm: Array.from(qm), kn: Array.from(kn), pairDot, dot: sweep(m, n), rel: sweep(0, n - m), raw: sweep(0, 0) };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    /** @type {Record<string, any>} */
    const out = {};
    for (const i of [0, 1]) {
      const a = 2 * i, b = a + 1;
      // a turned vector within ~17° of its original would write its label over the original's: then it goes unlabelled
      const near = (/** @type {number} */ pos) => Math.abs(Math.sin((pos * r.inv[i]) / 2)) < 0.15;
      const hide = near(p.m) || near(p.n);
      out[`pair${i}`] = {
        caption: hide ? L(`pair ${i}: channels ${a}, ${b} · θ${SUB[i]} = ${r.inv[i].toPrecision(4)} (turned vectors dashed, close to q and k)`, `通道对 ${i}：第 ${a}、${b} 维 · θ${SUB[i]} = ${r.inv[i].toPrecision(4)}（虚线为旋转后的向量，与 q、k 很接近）`)
          : L(`pair ${i}: channels ${a}, ${b} · θ${SUB[i]} = ${r.inv[i].toPrecision(4)}`, `通道对 ${i}：第 ${a}、${b} 维 · θ${SUB[i]} = ${r.inv[i].toPrecision(4)}`),
        vectors: [
          { id: 'q', x: r.q[a], y: r.q[b], label: 'q', color: QC, draggable: true },
          { id: 'k', x: r.k[a], y: r.k[b], label: 'k', color: KC, draggable: true },
          { id: 'qm', x: r.qm[a], y: r.qm[b], label: near(p.m) ? '' : `q @ ${p.m}`, color: QC, dashed: true },
          { id: 'kn', x: r.kn[a], y: r.kn[b], label: near(p.n) ? '' : `k @ ${p.n}`, color: KC, dashed: true }],
      };
    }
    const { m, n } = p;
    out.readouts = [
      { id: 'theta', label: L('θ = base^(−2i/4), i = 0, 1', 'θ = base^(−2i/4)，i = 0, 1'), value: r.inv[1], text: `(${r.inv.map((/** @type {number} */ x) => x.toPrecision(4)).join(', ')})` },
      { id: 'cos-m', label: L(`cos mθ, sin mθ at m = ${m}`, `m = ${m} 时的 cos mθ、sin mθ`), value: r.cosM[0], text: `cos ${vec(r.cosM)} · sin ${vec(r.sinM)}` },
      { id: 'cos-n', label: L(`cos nθ, sin nθ at n = ${n}`, `n = ${n} 时的 cos nθ、sin nθ`), value: r.cosN[0], text: `cos ${vec(r.cosN)} · sin ${vec(r.sinN)}` },
      { id: 'qm', label: L(`Rₘq, q = ${vec(r.q)} turned by mθ`, `Rₘq，即 q = ${vec(r.q)} 旋转 mθ`), value: r.qm[0], text: vec(r.qm),
        note: L('each pair (x, y) → (x cos − y sin, x sin + y cos)', '每对 (x, y) → (x cos − y sin, x sin + y cos)') },
      { id: 'kn', label: L(`Rₙk, k = ${vec(r.k)} turned by nθ`, `Rₙk，即 k = ${vec(r.k)} 旋转 nθ`), value: r.kn[0], text: vec(r.kn) },
      { id: 'pairs', label: L('dot product of each pair', '每个通道对的内积'), value: r.pairDot[0], text: `${f4(r.pairDot[0])} ${r.pairDot[1] < 0 ? '−' : '+'} ${f4(Math.abs(r.pairDot[1]))}` },
      { id: 'dot', label: L('score ⟨Rₘq, Rₙk⟩', '分数 ⟨Rₘq, Rₙk⟩'), value: r.dot, text: f4(r.dot) },
      { id: 'rel', label: L(`the same from the offset alone: ⟨q, Rₙ₋ₘk⟩, n − m = ${String(n - m).replace('-', '−')}`, `只用位置差也得到同一个数：⟨q, Rₙ₋ₘk⟩，n − m = ${String(n - m).replace('-', '−')}`), value: r.rel, text: f4(r.rel) },
      { id: 'raw', label: L('without rotation ⟨q, k⟩', '不旋转时 ⟨q, k⟩'), value: r.raw, text: f4(r.raw) },
    ];
    // every channel in one table: the page shows it under the planes
    const head = ['#', 'q', 'cos mθ', 'sin mθ', 'Rₘ q', 'k', 'cos nθ', 'sin nθ', 'Rₙ k'];
    out.tables = [{ id: 'channels', caption: L('Every channel: the rotation pairs channel 2i with 2i + 1', '逐维列出：第 2i 维与第 2i + 1 维成一对旋转'),
      rows: [head, ...[0, 1, 2, 3].map((c) => [String(c), f4(r.q[c]), f4(r.cosM[c >> 1]), f4(r.sinM[c >> 1]), f4(r.qm[c]), f4(r.k[c]), f4(r.cosN[c >> 1]), f4(r.sinN[c >> 1]), f4(r.kn[c])])] }];
    return out;
  },
};
