// @ts-check
// Section 5: RoPE's long-range decay — ⟨Rₘq, Rₙk⟩ against n − m over long windows (through pe.gpu: WebGPU or wasm,
// with progress and cancel), and Su's bound from the Abel summation, drawn as a true bound:
//   |Σ_i h_i e^{i r θ_i}| ≤ max_i |h_{i+1} − h_i| · Σ_{j=1}^{d/2} |S_j(r)|,  S_j(r) = Σ_{i<j} e^{i r θ_i},  h_{d/2} = 0,
// where h_i = q̃_i · conj(k̃_i) for the complex pairs (q_{2i} + i q_{2i+1}) of the interleaved layout the sweep uses.
import { L } from '../params.js';
import { randomRows } from './util.js';
import { backendParam, backendOf, gpuCall } from '../backend.js';
/** @typedef {{ base: number, min: Float32Array, max: Float32Array, values: Float32Array, quarter: number, absMax?: Float32Array, boundMax?: Float32Array, factor?: number }} Curve */
const abelFactor = (/** @type {Float32Array} */ q, /** @type {Float32Array} */ k) => {
  // max_i |h_{i+1} − h_i| with h_{d/2} = 0 (bookkeeping on the two input vectors; the sums S_j come from the package)
  /** @type {Array<[number, number]>} */
  const h = [];
  for (let i = 0; i < q.length / 2; i++) h.push([q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1], q[2 * i + 1] * k[2 * i] - q[2 * i] * k[2 * i + 1]]);
  h.push([0, 0]);
  let m = 0; for (let i = 0; i + 1 < h.length; i++) m = Math.max(m, Math.hypot(h[i + 1][0] - h[i][0], h[i + 1][1] - h[i][1]));
  return m;
};

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-decay',
  long: true,
  title: L('RoPE’s long-range decay', 'RoPE 的远程衰减'),
  description: L('⟨Rₘq, Rₙk⟩ of two fixed vectors (all ones; or non-negative random, as np.random.rand in the post “RoPE 的远距离衰减”, linsight.cn) against the relative position n − m, for one or two bases, with Su’s bound.',
    '两个固定向量（全 1；或非负随机向量，同《RoPE 的远距离衰减》（linsight.cn）中的 np.random.rand）的 ⟨Rₘq, Rₙk⟩ 随相对位置 n − m 的变化（一个或两个底数），以及苏剑林的上界。'),
  takeaway: L('The score decays with distance but not forever: with base 10000 and d = 512 it turns back up after a quarter turn of the slowest pair (marked); a larger base pushes that point out.',
    '分数随距离衰减，但不是无限衰减：底数 10000、d = 512 时，在最慢一对转过四分之一圈处（已标出）回升；更大的底数把这个点推远。'),
  params: {
    qk: { type: 'enum', values: ['ones', 'random', 'mid'], valueLabels: { ones: L('all ones', '全 1'), random: L('random, non-negative', '随机（非负）'), mid: L('all ones, q in the middle', '全 1，q 在中间') }, default: 'ones', label: L('q, k', 'q, k') },
    base: { type: 'enum', values: [1000, 10000, 500000, 5000000], default: 10000, label: L('Base', '底数') },
    base2: { type: 'enum', values: [0, 10000, 5000000], default: 5000000, label: L('compare base (0 = none)', '对比底数（0 = 无）') },
    d: { type: 'enum', values: [64, 128, 256, 512], default: 512, label: L('d', 'd') },
    window: { type: 'enum', values: [256, 4096, 16384, 65536, 262144, 1048576], default: 65536, label: L('Window', '窗口') },
    bound: { type: 'bool', default: true, label: L('Su’s bound', '苏剑林的上界') },
    at: { type: 'int', min: -1048576, max: 1048576, default: 15000, label: L('Read out at n − m', '读取 n − m =') },
    backend: backendParam,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { base: 500000, base2: 0 }, look: L('Base 500 000 alone: the slowest pair’s quarter turn moves to 746 154 (π/2 ÷ θ of the slowest pair, rounded to a whole token), far outside the window, so the mark is gone and the curve does not turn back up within 65 536.',
    '只用底数 500 000：最慢一对的四分之一圈移到 746 154（π/2 ÷ 最慢一对的 θ，取整到词元），远在窗口之外，标记消失，曲线在 65 536 之内不再回升。') },
  { params: { qk: 'random', base2: 0, bound: false, window: 4096, at: 0 }, look: L('Non-negative random q, k (as in “RoPE 的远距离衰减”, linsight.cn): more wiggle than with ones, but still a clear peak at 0 and a decay.',
    '非负随机的 q、k（同《RoPE 的远距离衰减》）：比全 1 时抖动更多，但 0 处仍有明显的峰，之后衰减。') }],
  panels: (p) => [{ id: 'plot', block: 'lines', height: 280 }, ...(p.bound ? [{ id: 'bound', block: 'lines', height: 240, logY: true }] : [])],
  async compute(pe, p, ctx) {
    const { qk, base, base2, d, window: n, bound } = p;
    const bases = base2 && base2 !== base ? [base, base2] : [base];
    const width = Math.min(900, n);
    // 'random': non-negative random entries (|x| of seeded random rows), like np.random.rand in the linsight.cn decay post: a positive
    // mean, so the score has a peak at 0 and decays (zero-mean vectors would give noise around 0 instead)
    const vec = qk === 'random' ? randomRows(pe, 2, d, 0, 'qk').map(Math.abs) : new Float32Array(2 * d).fill(1);
    const q = vec.slice(0, d), k = vec.slice(d);
    const qPos = qk === 'mid' ? Math.floor(n / 2) : 0;
    // pe.gpu: WebGPU where the crossover measured on this adapter says it is faster (or as `backend` forces), else wasm
    const steps = bases.length * (bound ? 2 : 1);
    /** @type {Array<{ backend: string }>} */
    const results = [];
    const gpu = async (/** @type {'ropeInnerProductSweep' | 'ropeDecayBound'} */ method, /** @type {Record<string, unknown>} */ o) => {
      const r = await /** @type {any} */ (pe.gpu)[method]({ ...o, ...gpuCall(p, ctx), progress: (/** @type {number} */ f) => ctx.progress((results.length + f) / steps) });
      results.push(r);
      return /** @type {Float32Array} */ (r.values);
    };
    /** @type {Curve[]} */
    const curves = [];
    for (const b of bases) {
      const values = await gpu('ropeInnerProductSweep', { q, k, head_dim: d, rope_theta: b, q_position: qPos, k_start: 0, count: n });
      const env = pe.envelope(values, width), inv = pe.ropeInvFreq({ rotary_dim: d, rope_theta: b });
      /** @type {Curve} */
      const c = { base: b, min: env.min, max: env.max, values, quarter: Math.PI / 2 / inv[inv.length - 1] };
      if (bound) {
        const far = Math.max(qPos, n - 1 - qPos), avg = await gpu('ropeDecayBound', { rotary_dim: d, rope_theta: b, count: far + 1 });
        const factor = abelFactor(q, k) * (d / 2), abs = new Float32Array(n), B = new Float32Array(n);
        for (let i = 0; i < n; i++) { abs[i] = Math.abs(values[i]); B[i] = factor * avg[Math.abs(i - qPos)]; }
        c.absMax = pe.envelope(abs, width).max; c.boundMax = pe.envelope(B, width).max; c.factor = factor / (d / 2);
      }
      curves.push(c);
      await ctx.checkpoint();
    }
    return { curves, qPos, n, width, backend: backendOf(results) };
  },
  render(/** @type {{ curves: Curve[], qPos: number, n: number, width: number }} */ r, p, { ms } = {}) {
    const dx = r.n / r.width, x0 = -r.qPos, baseL = (/** @type {number} */ b) => L(`base ${b}`, `底数 ${b}`);
    const marks = r.curves.filter((c) => c.quarter < r.n - r.qPos).map((c, i) => ({ x: c.quarter, color: i ? '#D55E00' : '#0072B2',
      label: L(`quarter turn of the slowest pair ≈ ${Math.round(c.quarter).toLocaleString('en')}`, `最慢一对转过四分之一圈 ≈ ${Math.round(c.quarter)}`) }));
    /** @type {import('../params.js').Rendered} */
    const out = {
      plot: { series: r.curves.map((c) => ({ y: c.min, y2: c.max, x0, dx, label: baseL(c.base) })), marks,
        caption: L(`⟨Rₘq, Rₙk⟩ against ${p.qk === 'mid' ? 'n − m (q in the middle)' : 'distance n − m'} (line: max per pixel; band: min…max)`,
          `⟨Rₘq, Rₙk⟩ 与${p.qk === 'mid' ? ' n − m（q 在中间）' : '距离 n − m'}（线：每像素最大值；带：最小…最大）`), xlabel: L('relative position n − m', '相对位置 n − m'), ylabel: L('score', '分数') },
    };
    if (p.bound) {
      out.bound = { series: r.curves.flatMap((c, i) => [
        { y: c.absMax, x0, dx, label: L(`|score|, base ${c.base}`, `|分数|，底数 ${c.base}`), color: i ? '#D55E00' : '#0072B2' },
        { y: c.boundMax, x0, dx, dash: [6, 3], label: L(`bound max|Δh|·Σ|Sⱼ|, base ${c.base}`, `上界 max|Δh|·Σ|Sⱼ|，底数 ${c.base}`), color: i ? '#8A6100' : '#000000' }]),
      caption: L('Su’s bound lies above |score| at every distance, for every base', '苏剑林的上界在每个距离、每个底数下都不低于 |分数|'), xlabel: L('relative position n − m', '相对位置 n − m'), ylabel: L('magnitude', '大小') };
    }
    const idx = p.at + r.qPos, inside = idx >= 0 && idx < r.n;
    out.readouts = r.curves.map((c, i) => ({ id: i ? 'at2' : 'at', label: L(`score at n − m = ${p.at}, base ${c.base}`, `n − m = ${p.at} 处的分数，底数 ${c.base}`),
      value: inside ? c.values[idx] : NaN,
      text: inside ? undefined : L(`outside the computed window (${-r.qPos} … ${r.n - 1 - r.qPos})`, `在计算窗口之外（${-r.qPos} … ${r.n - 1 - r.qPos}）`) }));
    if (ms !== undefined) out.status = L(`${r.n.toLocaleString('en')} distances × ${r.curves.length} curve(s) in ${ms.toFixed(0)} ms`, `${r.n} 个距离 × ${r.curves.length} 条曲线，用时 ${ms.toFixed(0)} ms`);
    return out;
  },
};
