// @ts-check
// Section 4: RoPE in one plane — rotate q by mθ and k by nθ; the dot product depends on m − n only.
import { L } from '../params.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-rotation',
  title: L('RoPE: a rotation whose dot product sees only m − n', 'RoPE：内积只看 m − n 的旋转'),
  description: L('Drag q and k; Rₘq and Rₙk are rotated by mθ and nθ. Their dot product equals ⟨q, Rₙ₋ₘk⟩.',
    '拖动 q 和 k；Rₘq 与 Rₙk 分别旋转 mθ 与 nθ，它们的内积等于 ⟨q, Rₙ₋ₘk⟩。'),
  takeaway: L('Change m and n together and the dot product stays put: it depends on m − n alone.',
    '让 m 和 n 一起变化，内积保持不变：它只依赖 m − n。'),
  params: {
    m: { type: 'int', min: 0, max: 32, default: 3, slider: true, label: L('m', 'm') },
    n: { type: 'int', min: 0, max: 32, default: 1, slider: true, label: L('n', 'n') },
    theta: { type: 'enum', values: [0.1, 0.3, 1], default: 0.3, label: L('θ', 'θ') },
    q: { type: 'vec2', range: 1.6, default: [1.2, 0.3], label: L('q', 'q') },
    k: { type: 'vec2', range: 1.6, default: [0.6, 0.9], label: L('k', 'k') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { m: 8, n: 6 }, look: L('m = 8, n = 6 (both moved by 5): Rₘq and Rₙk turn, but ⟨Rₘq, Rₙk⟩ in the read-out is unchanged — only m − n = 2 counts.',
    'm = 8、n = 6（两者都加 5）：Rₘq 与 Rₙk 转了，但读数里的 ⟨Rₘq, Rₙk⟩ 不变——只有 m − n = 2 起作用。') }],
  panels: () => [{ id: 'plane', block: 'vec2', range: 1.6, bind: { q: 'q', k: 'k' } }],
  compute(pe, { q, k, m, n, theta }) {
    // One plane with inverse frequency θ: tables from ropeTablesScaled, rotation by ropeApplyTables.
    const t = pe.ropeTablesScaled({ inv_freq: [theta], positions: [m, n] });
    const rot = (/** @type {number[]} */ v, /** @type {number} */ row) => pe.ropeApplyTables(Float32Array.from(v), { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(row, row + 1), sin: t.sin.subarray(row, row + 1) });
    const qm = rot(q, 0), kn = rot(k, 1);
    // The three inner products by the package's ⟨R_a q, R_b k⟩ (ropeInnerProductSweep with this plane's θ).
    const score = (/** @type {number} */ a, /** @type {number} */ b) => pe.ropeInnerProductSweep({ q, k, head_dim: 2, layout: 'interleaved', inv_freq: [theta], q_position: a, k_start: b, count: 1 })[0];
    return { qm, kn, dot: score(m, n), rel: score(0, n - m), raw: score(0, 0) };
  },
  render(r, p) {
    const [c0, c1] = ['#0072B2', '#D55E00'];
    return {
      plane: { caption: L('drag the tips of q and k (or focus them and use the arrow keys)', '拖动 q、k 的端点（或聚焦后用方向键）'), vectors: [
        { id: 'q', x: p.q[0], y: p.q[1], label: 'q', color: c0, draggable: true },
        { id: 'k', x: p.k[0], y: p.k[1], label: 'k', color: c1, draggable: true },
        { id: 'qm', x: r.qm[0], y: r.qm[1], label: 'Rₘq', color: c0, dashed: true },
        { id: 'kn', x: r.kn[0], y: r.kn[1], label: 'Rₙk', color: c1, dashed: true }] },
      readouts: [{ id: 'dot', label: L('⟨Rₘq, Rₙk⟩', '⟨Rₘq, Rₙk⟩'), value: r.dot }, { id: 'rel', label: L('⟨q, Rₙ₋ₘk⟩', '⟨q, Rₙ₋ₘk⟩'), value: r.rel },
        { id: 'raw', label: L('⟨q, k⟩', '⟨q, k⟩'), value: r.raw }],
    };
  },
};
