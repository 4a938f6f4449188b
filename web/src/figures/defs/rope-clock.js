// @ts-check
// Section 4, intuition first: RoPE as clock hands. Each of the d/2 = 4 channel pairs is a clock whose hand turns by
// θᵢ = base^(−2i/d) per token; q's hand stands at position m, k's at position n. Shifting both by t turns every hand,
// but the angle between q's and k's hand on each clock stays (n − m)·θᵢ — which is why the score sees only m − n.
// The hands are q = (1, 0) and k = (0.65, 0) per pair, rotated by the package (ropeTablesScaled + ropeApplyTables).
import { L } from '../params.js';
import { fmt } from '../blocks/format.js';
/** @typedef {import('../../index.js').Posenc} Posenc */

const D = 4 * 2;                  // four clocks
const MAX = 256;                  // the shifts drawn, t = 0 … MAX
const Q = [1, 0], K = [0.65, 0];  // per pair: q's hand (long) and k's hand (short), both pointing at 3 o'clock at position 0
const [QC, KC] = ['#0072B2', '#D55E00'];

/** Angle wrapped to (−180°, 180°]. */
const wrapDeg = (/** @type {number} */ a) => { const x = ((a % 360) + 360) % 360; return x > 180 ? x - 360 : x; };
/** Angle from vector a to vector b, degrees in (−180°, 180°]. */
const between = (/** @type {ArrayLike<number>} */ a, /** @type {ArrayLike<number>} */ b) =>
  wrapDeg((Math.atan2(b[1], b[0]) - Math.atan2(a[1], a[0])) * (180 / Math.PI));
const sub = (/** @type {number} */ x) => String(x).replace(/\d/g, (c) => '₀₁₂₃₄₅₆₇₈₉'[Number(c)]);
const deg = (/** @type {number} */ x) => `${x.toFixed(1)}°`.replace('-', '−');

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-clock',
  title: L('RoPE as clock hands', 'RoPE 就是一组钟表指针'),
  description: L('Four channel pairs, four clocks: each hand turns θᵢ = base^(−2i/d) radians per token. q’s hand (long) stands at position m, k’s (short) at position n; “shift both” moves the two positions together.',
    '四个通道对就是四个钟面：每根指针每过一个词元转 θᵢ = base^(−2i/d) 弧度。q 的指针（长）停在位置 m，k 的指针（短）停在位置 n；“一起平移”让两个位置同时前进。'),
  takeaway: L('Drag “shift both”: every hand turns, each at its own speed, yet the angle between q’s and k’s hand on each clock never changes — it is (n − m)·θᵢ.',
    '拖动“一起平移”：每根指针都在转，各转各的速度，但每个钟面上 q 与 k 两根指针的夹角始终不变——它等于 (n − m)·θᵢ。'),
  params: {
    m: { type: 'int', min: 0, max: 64, default: 5, slider: true, label: L('q at position m', 'q 的位置 m') },
    n: { type: 'int', min: 0, max: 64, default: 2, slider: true, label: L('k at position n', 'k 的位置 n') },
    shift: { type: 'int', min: 0, max: MAX, default: 0, slider: true, label: L('shift both by t', '一起平移 t') },
    base: { type: 'enum', values: [10, 100, 10000], default: 100, label: L('base', '底数 base') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { shift: 120 }, look: L('Shift both by 120: every hand has moved, the fast ones by many turns, yet the four angles between the hands read −171.9°, −54.4°, −17.2°, −5.4°, as at t = 0.',
    '一起平移 120：每根指针都转了，快的转了好多圈，可四个夹角仍是 −171.9°、−54.4°、−17.2°、−5.4°，与 t = 0 时一样。') },
  { params: { base: 10000 }, look: L('base 10000: pair 3 turns only 0.001 radian per token — over 256 shifts its hand barely moves, and the angle between its hands is only −0.2°.',
    '底数 10000：通道对 3 每个词元只转 0.001 弧度——平移 256 次它的指针也几乎不动，两指针夹角只有 −0.2°。') }],
  panels: () => [
    ...[0, 1, 2, 3].map((i) => ({ id: `pair${i}`, block: 'vec2', range: 1.2 })),
    { id: 'angle', block: 'lines', height: 200 },
  ],
  /** @param {Posenc} pe @param {{ m: number, n: number, shift: number, base: number }} p */
  compute(pe, { m, n, shift, base }) {
    const inv = pe.ropeInvFreq({ rotary_dim: D, rope_theta: base }), P = D / 2;
    // positions m + t and n + t for every shift t = 0 … MAX: rows 0 … MAX for q, MAX + 1 … 2·MAX + 1 for k
    const pos = [...Array.from({ length: MAX + 1 }, (_, t) => m + t), ...Array.from({ length: MAX + 1 }, (_, t) => n + t)];
    const t = pe.ropeTablesScaled({ inv_freq: inv, positions: pos });
    const q = new Float32Array(D), k = new Float32Array(D);
    for (let i = 0; i < P; i++) { q.set(Q, 2 * i); k.set(K, 2 * i); }
    const rot = (/** @type {Float32Array} */ v, /** @type {number} */ row) => pe.ropeApplyTables(v, { seq: 1, head_dim: D, layout: 'interleaved',
      cos: t.cos.subarray(row * P, (row + 1) * P), sin: t.sin.subarray(row * P, (row + 1) * P) });
    const pair = (/** @type {Float32Array} */ v, /** @type {number} */ i) => [v[2 * i], v[2 * i + 1]];
    // per pair, the angle from q's hand to k's at every shift, and q's own hand (pair 1) as it turns
    const angles = Array.from(inv, () => new Float64Array(MAX + 1)), qHand = new Float64Array(MAX + 1);
    let hands = null;
    for (let s = 0; s <= MAX; s++) {
      const qs = rot(q, s), ks = rot(k, MAX + 1 + s);
      for (let i = 0; i < P; i++) angles[i][s] = between(pair(qs, i), pair(ks, i));
      qHand[s] = between([1, 0], pair(qs, 1));
      if (s === shift) hands = Array.from(inv, (_, i) => ({ q: pair(qs, i), k: pair(ks, i) }));
    }
    // the score of the two 8-vectors at (m, n) and at (m + t, n + t), by the package's ⟨R_a q, R_b k⟩
    const score = (/** @type {number} */ a, /** @type {number} */ b) => pe.ropeInnerProductSweep({ q, k, head_dim: D, layout: 'interleaved', inv_freq: inv, q_position: a, k_start: b, count: 1 })[0];
    const change = Math.max(...angles.map((a) => Math.max(...a.map((x) => Math.abs(wrapDeg(x - a[0]))))));
    return { inv, hands, angles, qHand, change, score0: score(m, n), scoreT: score(m + shift, n + shift) };
  },
  /** @param {any} r @param {{ m: number, n: number, shift: number, base: number }} p */
  render(r, p) {
    /** @type {Record<string, any>} */
    const out = {};
    r.hands.forEach((/** @type {{q: number[], k: number[]}} */ h, /** @type {number} */ i) => {
      const th = r.inv[i], turn = ((p.m + p.shift) * th) / (2 * Math.PI);
      out[`pair${i}`] = {
        caption: L(`pair ${i}: θ${'₀₁₂₃'[i]} = ${th.toPrecision(3)} rad per token · q’s hand has turned ${turn.toFixed(2)} times`,
          `通道对 ${i}：θ${'₀₁₂₃'[i]} = 每词元 ${th.toPrecision(3)} 弧度 · q 的指针已转 ${turn.toFixed(2)} 圈`),
        vectors: [{ id: 'q', x: h.q[0], y: h.q[1], label: 'q', color: QC }, { id: 'k', x: h.k[0], y: h.k[1], label: 'k', color: KC }],
      };
    });
    out.angle = {
      series: [...r.angles.map((/** @type {Float64Array} */ y, /** @type {number} */ i) => ({ y, label: L(`pair ${i}: angle from q’s hand to k’s`, `通道对 ${i}：q 指针到 k 指针的夹角`), width: 2.2 })),
        { y: r.qHand, label: L('pair 1: q’s own hand (it turns)', '通道对 1：q 自己的指针（在转）'), dash: [3, 3], width: 1 }],
      marks: [{ x: p.shift, label: L(`t = ${p.shift}`, `t = ${p.shift}`) }],
      caption: L(`Angles as both positions move by t (degrees): from (${p.m}, ${p.n}) to (${p.m + MAX}, ${p.n + MAX})`, `两个位置一起移动 t 时的角度（度）：从 (${p.m}, ${p.n}) 到 (${p.m + MAX}, ${p.n + MAX})`),
      xlabel: L('shift t of both positions', '两个位置共同的平移 t'), ylabel: L('degrees', '度'),
    };
    const now = r.angles.map((/** @type {Float64Array} */ a) => a[p.shift]);
    out.readouts = [
      { id: 'angles', label: L(`angle between the hands at t = ${p.shift}, pair 0 … 3`, `t = ${p.shift} 时两指针的夹角，通道对 0 … 3`), value: now[0], text: now.map(deg).join(' · ') },
      { id: 'change', label: L(`largest change of an angle over t = 0 … ${MAX}`, `t = 0 … ${MAX} 范围内夹角的最大变化`), value: r.change, text: `${r.change.toFixed(4)}°` },
      { id: 'score', label: L(`score ⟨R${sub(p.m + p.shift)}q, R${sub(p.n + p.shift)}k⟩ (all four pairs)`, `分数 ⟨R${sub(p.m + p.shift)}q, R${sub(p.n + p.shift)}k⟩（四个通道对之和）`), value: r.scoreT,
        note: L(`before the shift: ${fmt(r.score0, 6)}`, `平移前：${fmt(r.score0, 6)}`) },   // as the value is printed: equal reads equal
    ];
    return out;
  },
};
