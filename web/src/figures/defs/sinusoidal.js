// @ts-check
// Section 2: the sinusoidal table, the similarity of its rows (a function of i − j only) and its wavelengths.
import { L } from '../params.js';

const SUB = '₀₁₂₃₄₅₆₇₈₉', sub = (/** @type {number} */ n) => String(n).replace(/\d/g, (c) => SUB[/** @type {any} */ (c)]);

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'sinusoidal',
  title: L('Sinusoidal position encoding', '正弦位置编码'),
  description: L('The Transformer’s sinusoidal table, the dot products of its rows and the wavelength of each channel pair.',
    'Transformer 的正弦位置表、各行的内积与每对通道的波长。'),
  takeaway: L('The similarity pᵢ · pⱼ depends only on i − j: every diagonal of the right-hand map is constant.',
    '相似度 pᵢ · pⱼ 只依赖 i − j：右图的每条对角线都是常数。'),
  params: {
    positions: { type: 'int', min: 2, max: 1024, default: 64, label: L('Positions', '位置数') },
    d: { type: 'enum', values: [16, 32, 64, 128], default: 32, label: L('d', 'd') },
    base: { type: 'enum', values: [100, 1000, 10000], default: 10000, label: L('Base', '底数') },
    layout: { type: 'enum', values: ['interleaved', 'concatenated', 't2t'], valueLabels: { interleaved: L('interleaved (sin, cos, sin, …)', '交错（sin, cos, sin, …）'), concatenated: L('concatenated (all sin, then all cos)', '拼接（先全部 sin，再全部 cos）'), t2t: L('tensor2tensor (its frequencies)', '按 tensor2tensor 的频率') }, default: 'interleaved', label: L('Layout', '排列') },
    i: { type: 'int', min: 0, max: 4096, default: 5, label: L('i', 'i') },
    j: { type: 'int', min: 0, max: 4096, default: 12, label: L('j', 'j') },
    s: { type: 'int', min: 0, max: 4096, default: 20, label: L('shift t', '平移 t') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { s: 300 }, look: L('Shift both positions by t = 300: p₅·p₁₂ and p₃₀₅·p₃₁₂ in the read-outs stay equal — the similarity sees only i − j.',
    '把两个位置都平移 t = 300：读数里的 p₅·p₁₂ 与 p₃₀₅·p₃₁₂ 仍然相等——相似度只看 i − j。') },
  { params: { d: 128 }, look: L('d = 128: the similarity map gets a sharper peak on the diagonal and flatter far off it.', 'd = 128：相似度图在对角线上的峰更尖，远离对角线处更平。') }],
  panels: () => [{ id: 'table', block: 'heatmap', palette: 'rdbu', size: 460 }, { id: 'sim', block: 'heatmap', size: 460 },
    { id: 'wave', block: 'lines', height: 200, logY: true }],
  compute(pe, { positions: n, d, base, layout, i, j, s }) {
    const big = Math.max(n, i + s + 1, j + s + 1);
    const table = layout === 't2t' ? pe.sinusoidT2T({ positions: big, d, max_timescale: base }) : pe.sinusoidal({ positions: big, d, base, layout });
    const simAll = pe.tableSimilarity({ rows: big, cols: d, data: table }, { metric: 'dot' });
    const sim = new Float32Array(n * n);
    for (let r = 0; r < n; r++) sim.set(simAll.subarray(r * big, r * big + n), r * n);
    const inv = layout === 't2t' ? pe.t2tInvTimescales({ d, max_timescale: base }) : pe.ropeInvFreq({ rotary_dim: d, rope_theta: base });
    // Wavelengths 2π/ωᵢ from the package (the training length is not used here).
    const { wavelength } = pe.ropeFrequencyAnalysis({ inv_freq: inv, original_max_position_embeddings: 1 });
    return { n, d, table: table.slice(0, n * d), sim, wavelength, pij: simAll[i * big + j], pijs: simAll[(i + s) * big + (j + s)] };
  },
  render(r, p) {
    const longest = r.wavelength[r.wavelength.length - 1];
    const freqs = p.layout === 't2t' ? L('tensor2tensor frequencies', 'tensor2tensor 的频率') : L('paper frequencies', '论文的频率');
    return {
      table: { data: r.table, rows: r.n, cols: r.d, caption: L('PE table: row = position, column = channel', '位置编码表：行 = 位置，列 = 通道'), xlabel: L('channel →', '通道 →'), ylabel: L('position ↓', '位置 ↓') },
      sim: { data: r.sim, rows: r.n, cols: r.n, caption: L('similarity pᵢ · pⱼ', '相似度 pᵢ · pⱼ'), xlabel: 'j →', ylabel: 'i ↓' },
      wave: { series: [{ y: r.wavelength, kind: 'points', label: L(`wavelength 2π/ωᵢ (${freqs.en})`, `波长 2π/ωᵢ（${freqs.zh}）`) }],
        marks: [{ y: 2 * Math.PI * p.base, label: L(`2π·${p.base}`, `2π·${p.base}`) }],
        caption: L('Wavelength of each channel pair, in tokens', '每对通道的波长（单位：词元）'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', '词元数') },
      readouts: [
        { id: 'pij', label: L(`p${sub(p.i)} · p${sub(p.j)}`, `p${sub(p.i)} · p${sub(p.j)}`), value: r.pij },
        { id: 'pijs', label: L(`p${sub(p.i + p.s)} · p${sub(p.j + p.s)}`, `p${sub(p.i + p.s)} · p${sub(p.j + p.s)}`), value: r.pijs },
        { id: 'longest', label: L(`longest wavelength for d = ${p.d}`, `d = ${p.d} 时的最长波长`), value: longest,
          text: `${longest.toFixed(1)} = ${(longest / (2 * Math.PI * p.base)).toFixed(4)} × 2π·${p.base}` },
      ],
    };
  },
};
