// @ts-check
// Positions in images and video: which of the head's 64 rotation pairs each position axis (t, h, w) turns, for four
// video / image diffusion transformers (pe.ropeAxesFromConfig on their class-default configs, huggingface/diffusers@58eb52c0)
// and for M-RoPE's two allocations over one spectrum (pe.mropeTables probed axis by axis, as the config reader's
// config-mrope does): Qwen2-VL's contiguous mrope_section [16, 24, 24] and Qwen3-VL's interleaved [24, 20, 20].
// Below, every pair's wavelength 2π/θ (positions per turn), so the reader sees what each axis gets: its own fast-to-slow
// spectrum (diffusion models), one slice of a shared spectrum (contiguous), or every part of it (interleaved).
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */

/** The six rows: diffusers class defaults (head_dim 128) and the M-RoPE text models' rope settings (head_dim 128). */
export const ROWS = [
  { id: 'wan', label: 'Wan 2.1', config: { _class_name: 'WanTransformer3DModel', attention_head_dim: 128 } },
  { id: 'hunyuan_video', label: 'HunyuanVideo', config: { _class_name: 'HunyuanVideoTransformer3DModel', attention_head_dim: 128, rope_axes_dim: [16, 56, 56], rope_theta: 256 } },
  { id: 'cosmos', label: 'Cosmos', config: { _class_name: 'CosmosTransformer3DModel', attention_head_dim: 128, rope_scale: [2, 1, 1] } },
  { id: 'flux', label: 'FLUX.1', config: { _class_name: 'FluxTransformer2DModel', attention_head_dim: 128, axes_dims_rope: [16, 56, 56] } },
  // Qwen2-VL / Qwen2.5-VL 7B: rope_theta 1e6, mrope_section [16, 24, 24]; Qwen3-VL 8B: rope_theta 5e6, [24, 20, 20], mrope_interleaved
  { id: 'qwen2_vl', label: 'Qwen2-VL M-RoPE', mrope: { rope_theta: 1e6, mrope_section: [16, 24, 24], mrope_interleaved: false } },
  { id: 'qwen3_vl', label: 'Qwen3-VL M-RoPE', mrope: { rope_theta: 5e6, mrope_section: [24, 20, 20], mrope_interleaved: true } },
];
const D = 128, HALF = D / 2;
/** Category of a pair: 0 t, 1 h, 2 w, 3 Flux's id column (the text index; 0 for every image token). */
const AXIS = /** @type {Record<string, number>} */ ({ t: 0, h: 1, w: 2, index: 3 });

/**
 * Per row: the axis of each pair and its wavelength 2π/θ. Diffusion models: from ropeAxesFromConfig's axes (each its own
 * block and spectrum). M-RoPE: a pair belongs to axis a when position 1 on a alone turns it (mropeTables' sin ≠ 0).
 * @param {Posenc} pe
 */
export function allocation(pe) {
  return ROWS.map((row) => {
    const axis = new Float64Array(HALF), wave = new Float64Array(HALF);
    if (row.config) {
      for (const a of pe.ropeAxesFromConfig(row.config).axes) {
        a.inv_freq.forEach((f, k) => { axis[a.pairs[0] + k] = AXIS[a.name]; wave[a.pairs[0] + k] = (2 * Math.PI) / (f * a.angle_scale); });
      }
    } else {
      const m = /** @type {{ rope_theta: number, mrope_section: number[], mrope_interleaved: boolean }} */ (row.mrope);
      const inv = pe.ropeInvFreq({ rotary_dim: D, rope_theta: m.rope_theta });
      inv.forEach((f, k) => { wave[k] = (2 * Math.PI) / f; });
      for (let a = 0; a < 3; a++) {
        const pos = /** @type {[number[], number[], number[]]} */ ([[0], [0], [0]]); pos[a] = [1];
        const t = pe.mropeTables({ rotary_dim: D, rope_theta: m.rope_theta, mrope_section: m.mrope_section, mrope_interleaved: m.mrope_interleaved, positions: pos });
        for (let k = 0; k < HALF; k++) if (t.sin[k] !== 0) axis[k] = a;
      }
    }
    /** the slowest wavelength of axis a (positions per turn), 0 if the row has no such axis */
    const slowest = (/** @type {number} */ a) => wave.reduce((m, w, k) => (axis[k] === a ? Math.max(m, w) : m), 0);
    return { id: row.id, label: row.label, axis, wave, counts: [0, 1, 2, 3].map((a) => axis.filter((x) => x === a).length), slowestT: slowest(0) };
  });
}

const SUP = '⁰¹²³⁴⁵⁶⁷⁸⁹';
/** 804, or 4.1·10⁴ */
const fmtWave = (/** @type {number} */ w) => {
  if (w < 1e4) return w.toFixed(0);
  const [m, e] = w.toExponential(1).split('e+');
  return `${m}·10${[...e].map((c) => SUP[+c]).join('')}`;
};

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-allocation',
  title: L('Which rotation pairs each axis turns: 3-D RoPE and M-RoPE', '每个轴转哪些通道对：三维 RoPE 与 M-RoPE'),
  description: L('For each model, the axis (time t, height h, width w) that turns each of the head’s 64 rotation pairs, and every pair’s wavelength 2π/θ: video diffusion transformers (diffusers class defaults) and the two M-RoPE allocations of Qwen2-VL (contiguous) and Qwen3-VL (interleaved).',
    '每个模型中，注意力头的 64 个旋转通道对分别由哪个轴（时间 t、高 h、宽 w）转动，以及每个通道对的波长 2π/θ：视频扩散 Transformer（diffusers 类默认配置），以及 Qwen2-VL（连续分段）和 Qwen3-VL（交错分配）两种 M-RoPE 分配方式。'),
  takeaway: L('The diffusion transformers give each axis its own block with its own fast-to-slow spectrum; M-RoPE cuts one spectrum into sections: contiguous sections leave t only the fastest pairs (Qwen2-VL: no t pair slower than about 160 positions per turn), interleaving gives t, h and w fast and slow pairs alike.',
    '扩散 Transformer 给每个轴一段自己的通道对，各有一套从快到慢的频谱；M-RoPE 则把同一套频谱切成几段：连续分段只给 t 最快的那些通道对（Qwen2-VL：t 的通道对最慢也只要约 160 个位置就转一圈），交错分配则让 t、h、w 都既有快的也有慢的通道对。'),
  params: {
    scale: { type: 'enum', values: ['log', 'turns'], default: 'log', label: L('Lower map: log wavelength or turns in 64 positions', '下图：对数波长或 64 个位置内的圈数') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { scale: 'turns' }, look: L('Turns over 64 positions: in the Qwen2-VL row every t pair makes more than a third of a turn (its slowest has a wavelength of about 160); in the Qwen3-VL row t also owns pairs that barely move.',
    '64 个位置内转过的圈数：Qwen2-VL 这一行中，t 的每个通道对都转了三分之一圈以上（最慢的波长约 160）；Qwen3-VL 这一行里，t 也拥有几乎不动的通道对。') }],
  panels: () => [{ id: 'alloc', block: 'heatmap', size: 720, full: true }, { id: 'wave', block: 'heatmap', size: 720, full: true }],
  /** @param {Posenc} pe @param {{ scale: string }} p */
  compute(pe, { scale }) {
    const rows = allocation(pe);
    const axis = new Float64Array(rows.length * HALF), wave = new Float64Array(rows.length * HALF);
    rows.forEach((r, i) => {
      axis.set(r.axis, i * HALF);
      wave.set(r.wave.map((w) => (scale === 'turns' ? 64 / w : Math.log10(w))), i * HALF);
    });
    return { scale, labels: rows.map((r) => r.label), axis, wave, rows: rows.map((r) => ({ id: r.id, counts: r.counts, slowestT: r.slowestT })) };
  },
  /** @param {any} r */
  render(r) {
    const n = r.labels.length, turns = r.scale === 'turns';
    const cats = [{ value: 0, label: 't' }, { value: 1, label: 'h' }, { value: 2, label: 'w' }, { value: 3, label: L('FLUX id', 'FLUX 编号') }];
    return {
      // vmin −1: t is viridis's blue, not its darkest purple (which all but vanishes on the dark theme's background)
      alloc: { data: Float32Array.from(r.axis), rows: n, cols: HALF, rowLabels: r.labels, vmin: -1, vmax: 3, categories: cats, showValues: false,
        caption: L('rotation pair → the axis that turns it (FLUX id: a text index, 0 for every image token)', '通道对 → 转动它的轴（FLUX 编号：文本序号，所有图像词元都为 0）'), xlabel: L('pair', '通道对') },
      wave: { data: Float32Array.from(r.wave), rows: n, cols: HALF, rowLabels: r.labels, showValues: false, vmin: turns ? 0 : undefined, vmax: turns ? 1 : undefined,
        caption: turns ? L('turns each pair makes over 64 positions, 64/wavelength (1 and more: dark red end)', '每个通道对在 64 个位置内转过的圈数 64/波长（≥ 1 取色标最高端）')
          : L('log₁₀ of each pair’s wavelength 2π/θ, in positions (frames, rows or columns) per turn', '每个通道对波长 2π/θ 的 log₁₀（每转一圈所需的位置数：帧、行或列）'),
        xlabel: L('pair', '通道对') },
      readouts: r.rows.map((/** @type {any} */ x, /** @type {number} */ i) => ({ x, i })).filter((/** @type {any} */ o) => o.x.id !== 'flux').map((/** @type {any} */ { x, i }) => ({ id: `t-${x.id}`,
        label: L(`${r.labels[i]}, time t`, `${r.labels[i]}，时间 t`), value: x.slowestT,
        text: L(`${x.counts[0]} pairs, the slowest turning once every ${fmtWave(x.slowestT)} positions`, `${x.counts[0]} 对，最慢的一对每 ${fmtWave(x.slowestT)} 个位置转一圈`) })),
    };
  },
};
