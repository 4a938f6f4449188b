// @ts-check
// A research gallery: position schemes without a released model (KERPLE, Sandwich, FIRE, CoPE, stick-breaking, PaTH)
// as bias / position / weight curves against the distance r = i − j (keys in the past), next to ALiBi and T5, every
// curve computed by the package (pe.kerpleBias, pe.sandwichBias, pe.fireDistance, pe.copePositions,
// pe.stickBreakingWeights, pe.pathScores; pe.alibiSlopes, pe.t5Bucket). The content-dependent schemes are drawn on
// stated synthetic inputs: constant logits, a "marker every 8 tokens" sequence, and seeded random PaTH directions.
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ n: number, heads: number, head: number, z: number, beta: number, seed: number }} P */

const D = 64;          // head size of the Sandwich and PaTH curves
const SEQS = 64;      // PaTH: the mean over 64 seeded sequences of directions w, beside one of them
const EVERY = 8;       // the synthetic sequence: one marker token every 8 (gate / stick-breaking logit +6, others −6)
const SB_KEYS = 48;   // stick-breaking: the weights of the nearest 48 keys (the rest are ≈ 0)
const KP = { r1: 0.5, r2: 0.5 }, KL = { r1: 1, r2: 0.5 };   // KERPLE: inside the reference's initial ranges
const R = L(' (research)', '（研究）');
const rl = (/** @type {string} */ en, /** @type {string} */ zh) => L(en + R.en, zh + R.zh);
const NOTE = L('(research) = no released model', '（研究）= 尚无发布的模型');

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'research-bias',
  title: L('Research schemes beside ALiBi and T5', '研究中的位置方案，与 ALiBi 和 T5 并排'),
  description: L('Research — no released model: KERPLE’s power and log kernels, Sandwich, FIRE’s interpolated distance, CoPE’s contextual positions, stick-breaking attention’s weights and PaTH’s Householder products, each computed by posenc from the paper’s formula, drawn against the distance r = i − j next to ALiBi and T5.',
    '研究方案，尚无发布的模型：KERPLE 的幂核与对数核、Sandwich、FIRE 的插值距离、CoPE 的上下文位置、stick-breaking 注意力的权重和 PaTH 的 Householder 连乘，都由 posenc 按论文公式算出，与 ALiBi 和 T5 一起画在距离 r = i − j 上。'),
  takeaway: L('Fixed biases (ALiBi, KERPLE, Sandwich) penalise a key by its distance alone; the content-dependent schemes move with the input: with one marker every 8 tokens CoPE’s position counts markers (about r/8), and stick-breaking gives nearly all the weight to the latest marker.',
    '固定偏置（ALiBi、KERPLE、Sandwich）只按距离惩罚一个键；依赖内容的方案随输入而变：每 8 个词元有一个标记时，CoPE 的位置数的是标记（约 r/8），stick-breaking 几乎把全部权重给最近的标记。'),
  params: {
    n: { type: 'enum', values: [64, 256, 1024, 4096], default: 256, label: L('Distances', '距离个数') },
    heads: { type: 'int', min: 1, max: 64, default: 8, label: L('Heads', '头数') },
    head: { type: 'int', min: 0, max: 63, default: 7, label: L('Head (ALiBi, Sandwich)', '头（ALiBi、Sandwich）') },
    z: { type: 'enum', values: [-4, -2, 0, 2], default: 0, label: L('Constant logit z', '常数 z') },
    beta: { type: 'enum', values: [0.5, 1, 1.5, 2], default: 1, label: L('PaTH β', 'PaTH 的 β') },
    seed: { type: 'int', min: 0, max: 9999, default: 1, label: L('Seed (PaTH)', '种子（PaTH）') },
  },
  /** @param {P} p */
  check: (p) => (p.head >= p.heads ? { param: 'head', rule: L(`a head index from 0 to ${p.heads - 1} (heads = ${p.heads})`, `0 到 ${p.heads - 1} 之间的头编号（头数 = ${p.heads}）`) } : null),
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { head: 0 }, look: L('Head 0 of 8: ALiBi’s slope is 1/2, 128× steeper than head 7’s; Sandwich’s bias is divided by h·8/H = 1 instead of 8, so it is 8× deeper too.',
    '8 个头中的头 0：ALiBi 的斜率是 1/2，比头 7 陡 128 倍；Sandwich 的偏置除以 h·8/H = 1 而不是 8，所以也深 8 倍。') },
  { params: { beta: 2 }, look: L('β = 2 makes every PaTH step a reflection, which keeps lengths: one sequence wanders, but the mean still decays as (1 − β/d)^r = (1 − 2/64)^r, 0.13 at r = 64.',
    'β = 2 让 PaTH 的每一步都是保持长度的反射：单个序列上下游走，但平均值仍按 (1 − β/d)^r = (1 − 2/64)^r 衰减，r = 64 处为 0.13。') },
  { params: { z: 2 }, look: L('z = 2: σ(z) = 0.88, so constant-gate CoPE counts almost every token (p ≈ 0.88·(r + 1)), and stick-breaking’s weight falls by 1 − 0.88 = 0.12 per token.',
    'z = 2：σ(z) = 0.88，常数门控的 CoPE 几乎数每个词元（p ≈ 0.88·(r + 1)），stick-breaking 的权重每个词元乘以 1 − 0.88 = 0.12。') }],
  panels: () => [{ id: 'bias', block: 'lines', height: 220 }, { id: 'positions', block: 'lines', height: 220 },
    { id: 'fire', block: 'lines', height: 200 }, { id: 'weights', block: 'lines', height: 200 }, { id: 'path', block: 'lines', height: 200 }],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { n, heads, head, z, beta, seed }) {
    const r = Float64Array.from({ length: n }, (_, i) => i);
    const slope = pe.alibiSlopes(heads)[head];
    const row = pe.alibiBias({ slopes: [slope], q_len: 1, k_len: n });   // the query at n − 1 over keys j = 0 … n − 1
    const alibi = Float64Array.from(r, (x) => row[n - 1 - x]);
    const power = pe.kerpleBias({ kernel: 'power', ...KP, count: n }), log = pe.kerpleBias({ kernel: 'log', ...KL, count: n });
    const sandwich = pe.sandwichBias({ head_dim: D, num_heads: heads, head: head + 1, count: n });
    // positions: the query at n − 1, key j = n − 1 − r; T5's causal bucket of relative_position j − i = −r
    const t5 = Float64Array.from(r, (x) => pe.t5RelativePositionBucket(-x, { bidirectional: false, num_buckets: 32, max_distance: 128 }));
    const marker = (/** @type {number} */ j) => j % EVERY === 0;
    const byR = (/** @type {Float64Array} */ a) => Float64Array.from(r, (x) => a[n - 1 - x]);   // array over keys j → over r
    const copeConst = byR(pe.copePositions({ gate_logits: new Float64Array(n).fill(z) }));
    const copeMarks = byR(pe.copePositions({ gate_logits: Float64Array.from({ length: n }, (_, j) => (marker(j) ? 6 : -6)) }));
    const fireNear = pe.fireDistance({ query_position: n - 1, count: n }), fireFar = pe.fireDistance({ query_position: 8 * n - 1, count: n });
    // stick-breaking: the query at n, keys j = 0 … n − 1 at r = n − j ≥ 1 (index r − 1)
    const w48 = Math.min(n, SB_KEYS), rs = Float64Array.from({ length: w48 }, (_, i) => i + 1);   // the nearest 48 keys
    const sbOf = (/** @type {Float64Array} */ a) => Float64Array.from(rs, (x) => a[n - x]);
    const sbConst = sbOf(pe.stickBreakingWeights({ logits: new Float64Array(n).fill(z) }));
    const sbMarks = sbOf(pe.stickBreakingWeights({ logits: Float64Array.from({ length: n }, (_, j) => (marker(j) ? 6 : -6)) }));
    // PaTH: seeded unit directions w_t and one seeded unit vector as q and every k_j (content alone gives 1)
    const m = Math.min(n, 256);
    const unit = (/** @type {Float64Array} */ rows, /** @type {number} */ count) => {
      const out = new Float64Array(count * D);
      for (let t = 0; t < count; t++) {
        let s = 0;
        for (let c = 0; c < D; c++) s += rows[t * D + c] ** 2;
        for (let c = 0; c < D; c++) out[t * D + c] = rows[t * D + c] / Math.sqrt(s);
      }
      return out;
    };
    const q = unit(gaussianRows(seed, 1, D), 1), k = new Float64Array(m * D);
    for (let t = 0; t < m; t++) k.set(q, t * D);
    const one = pe.pathScores({ q, k, w: unit(gaussianRows(seed + 1, m, D), m), beta: new Float64Array(m).fill(beta), head_dim: D });
    const mean = new Float64Array(m);
    for (let s = 0; s < SEQS; s++) {
      const ps = pe.pathScores({ q, k, w: unit(gaussianRows(10000 * (s + 1) + seed, m, D), m), beta: new Float64Array(m).fill(beta), head_dim: D });
      for (let j = 0; j < m; j++) mean[j] += ps[j] / SEQS;
    }
    const rp = Float64Array.from({ length: m }, (_, i) => i);
    const path = Float64Array.from(rp, (x) => one[m - 1 - x]), pathMean = Float64Array.from(rp, (x) => mean[m - 1 - x]);
    const expected = Float64Array.from(rp, (x) => (1 - beta / D) ** x);
    const lastMarker = (n - 1) - (n - 1) % EVERY;   // the latest marker key, r = n − lastMarker for the query at n
    return { n, r, rs, rp, slope, alibi, power, log, sandwich, t5, copeConst, copeMarks, fireNear, fireFar, sbConst, sbMarks, path, pathMean, expected,
      sigma: 1 / (1 + Math.exp(-z)), markers: Math.floor((n - 1) / EVERY) + 1, sbLatest: sbMarks[n - lastMarker - 1], sbLatestR: n - lastMarker,
      pathAt: pathMean[Math.min(64, m - 1)] };
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const xr = L('distance r = i − j', '距离 r = i − j');
    return {
      bias: { series: [{ x: r.r, y: r.alibi, label: L(`ALiBi, head ${p.head} (m = ${fmt(r.slope)})`, `ALiBi，头 ${p.head}（m = ${fmt(r.slope)}）`), dash: [4, 3] },
        { x: r.r, y: r.power, label: rl('KERPLE power −0.5·r^0.5', 'KERPLE 幂核 −0.5·r^0.5') },
        { x: r.r, y: r.log, label: rl('KERPLE log −log(1 + 0.5r)', 'KERPLE 对数核 −log(1 + 0.5r)') },
        { x: r.r, y: r.sandwich, label: rl(`Sandwich, head ${p.head + 1} of ${p.heads}`, `Sandwich，第 ${p.head + 1}/${p.heads} 个头`) }],
      caption: L(`logit bias against distance (Sandwich d = ${D}); ${NOTE.en}`, `注意力分数偏置随距离的变化（Sandwich 的 d = ${D}）；${NOTE.zh}`), xlabel: xr, ylabel: L('bias', '偏置') },
      positions: { series: [{ x: r.r, y: r.r, label: L('true distance r', '真实距离 r'), dash: [4, 3] },
        { x: r.r, y: r.t5, label: L('T5 bucket (32 buckets, max 128)', 'T5 的桶（32 个桶，最大 128）'), kind: 'step' },
        { x: r.r, y: r.copeConst, label: rl(`CoPE, every gate σ(${p.z})`, `CoPE，每个门 σ(${p.z})`) },
        { x: r.r, y: r.copeMarks, label: rl(`CoPE, a marker every ${EVERY} tokens`, `CoPE，每 ${EVERY} 个词元一个标记`), kind: 'step' }],
      caption: L(`the position a key is given (query at ${r.n - 1}); ${NOTE.en}`, `键被赋予的位置（查询在 ${r.n - 1}）；${NOTE.zh}`), xlabel: xr, ylabel: L('position', '位置') },
      fire: { series: [{ x: r.r, y: r.fireNear, label: rl(`FIRE, query at i = ${r.n - 1}`, `FIRE，查询在 i = ${r.n - 1}`) },
        { x: r.r, y: r.fireFar, label: rl(`FIRE, query at i = ${8 * r.n - 1}`, `FIRE，查询在 i = ${8 * r.n - 1}`), dash: [4, 3] }],
      caption: L('FIRE’s MLP input log(c·r + 1)/log(c·max(i, L) + 1), c = 0.1, L = 512 (the bias is a learned MLP of it)', 'FIRE 的 MLP 输入 log(c·r + 1)/log(c·max(i, L) + 1)，c = 0.1，L = 512（偏置是它的可学习 MLP）'),
        xlabel: xr, ylabel: L('MLP input', 'MLP 输入') },
      weights: { series: [{ x: r.rs, y: r.sbConst, label: rl(`stick-breaking, every logit ${p.z}`, `stick-breaking，每个 z 为 ${p.z}`) },
        { x: r.rs, y: r.sbMarks, label: rl(`stick-breaking, a marker every ${EVERY} tokens`, `stick-breaking，每 ${EVERY} 个词元一个标记`), kind: 'points' }],
      caption: L(`attention weight A(r) = σ(zⱼ)·Π(1 − σ(zₜ)) over the keys between (query at n, the nearest ${SB_KEYS} keys)`, `注意力权重 A(r) = σ(zⱼ)·Π(1 − σ(zₜ))，乘积取两者之间的键（查询在 n，最近的 ${SB_KEYS} 个键）`), xlabel: xr, ylabel: L('weight A', '权重 A') },
      path: { series: [{ x: r.rp, y: r.path, label: rl(`PaTH qᵀH⋯H·k, β = ${p.beta}, seed ${p.seed}`, `PaTH 的 qᵀH⋯H·k，β = ${p.beta}，种子 ${p.seed}`), width: 1 },
        { x: r.rp, y: r.pathMean, label: rl(`PaTH, mean of ${SEQS} seeded sequences`, `PaTH，${SEQS} 个种子序列的平均`) },
        { x: r.rp, y: r.expected, label: L('expected over random w: (1 − β/d)^r', '对随机 w 的期望：(1 − β/d)^r'), dash: [4, 3] }],
      caption: L(`PaTH logit of q = k (unit, d = ${D}) through seeded random Householder steps H = I − β·w·wᵀ`, `q = k（单位向量，d = ${D}）经过种子随机的 Householder 步 H = I − β·w·wᵀ 后的 PaTH 分数`), xlabel: xr, ylabel: L('logit', '分数') },
      readouts: [{ id: 'alibi-end', label: L(`ALiBi bias at r = ${r.n - 1}`, `r = ${r.n - 1} 处的 ALiBi 偏置`), value: r.alibi[r.n - 1] },
        { id: 'cope-count', label: L('CoPE position of the first key (markers)', '第一个键的 CoPE 位置（标记）'), value: r.copeMarks[r.n - 1], note: L(`${r.markers} markers`, `${r.markers} 个标记`) },
        { id: 'sb-latest', label: L('stick-breaking weight on the latest marker', 'stick-breaking 给最近标记的权重'), value: r.sbLatest, note: L(`r = ${r.sbLatestR}`, `r = ${r.sbLatestR}`) },
        { id: 'path-64', label: L(`PaTH logit at r = 64, mean of ${SEQS} sequences`, `r = 64 处的 PaTH 分数，${SEQS} 个序列的平均`), value: r.pathAt, note: L(`expected ${fmt((1 - p.beta / D) ** 64)}`, `期望 ${fmt((1 - p.beta / D) ** 64)}`) }],
    };
  },
};

/** @param {number} x */
function fmt(x) { return Number(x.toPrecision(3)).toString(); }

/**
 * Seeded standard-normal rows [n, d] (isotropic, so E[w wᵀ] = I/d after normalising): mulberry32 uniforms u1, u2 in
 * (0, 1], Box–Muller √(−2 ln u1)·cos(2π u2). The synthetic input of the PaTH panel; tests rebuild it from here.
 * @param {number} seed @param {number} n @param {number} d
 */
export function gaussianRows(seed, n, d) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967296;
  };
  return Float64Array.from({ length: n * d }, () => Math.sqrt(-2 * Math.log(next())) * Math.cos(2 * Math.PI * next()));
}
