// @ts-check
// Positions in images and video: how a model's config splits the head's rotation pairs over its axes (t, h, w or h, w)
// and what each token of a small patch grid gets (the cos of every pair, and per axis a map of its fastest pair's angle
// laid out as the token grid: it varies along that axis only). Computed by pe.ropeAxesFromConfig / pe.ropeAxesTables from the model
// classes' default configs (huggingface/diffusers@58eb52c0, transformers' DINOv3 and Qwen2-VL vision towers).
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ model: string, grid: string }} P */

/** The default config of each model class (only the keys that set its positions). */
export const MODELS = {
  wan: { _class_name: 'WanTransformer3DModel', attention_head_dim: 128 },
  hunyuan_video: { _class_name: 'HunyuanVideoTransformer3DModel', attention_head_dim: 128, rope_axes_dim: [16, 56, 56], rope_theta: 256 },
  cosmos: { _class_name: 'CosmosTransformer3DModel', attention_head_dim: 128, rope_scale: [2, 1, 1] },
  flux: { _class_name: 'FluxTransformer2DModel', attention_head_dim: 128, axes_dims_rope: [16, 56, 56] },
  cogvideox: { _class_name: 'CogVideoXTransformer3DModel', attention_head_dim: 64, use_rotary_positional_embeddings: true, patch_size_t: 2 },
  dinov3: { model_type: 'dinov3_vit', hidden_size: 768, num_attention_heads: 12, rope_theta: 100, num_register_tokens: 4 },
  qwen2_vl: { model_type: 'qwen2_5_vl', vision_config: { hidden_size: 1280, num_heads: 16 } },
};
/** An axis name in Chinese text (Flux's id column 'index' as 序号轴). */
const zhAxis = (/** @type {string} */ n) => (n === 'index' ? '序号轴' : n);
const AXIS_COLOURS = /** @type {Record<string, string>} */ ({ t: '#0072B2', index: '#0072B2', h: '#D55E00', w: '#007A5A' });

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-axes',
  title: L('RoPE over image and video axes', '图像与视频各轴上的 RoPE'),
  description: L('How each model splits its head’s rotation pairs over the position axes (time t, height h, width w), the frequencies each axis gets, and the cos of every pair for the tokens of a small patch grid.',
    '各模型如何把注意力头的旋转通道对分给各个位置轴（时间 t、高 h、宽 w），每个轴得到的频率，以及一个小的图块网格中每个词元在每个通道对上的 cos。'),
  takeaway: L('Each axis owns its own block of pairs with its own spectrum: moving one patch along w changes only w’s pairs, so a score depends on the offset along each axis separately.',
    '每个轴拥有自己的一段通道对和自己的频谱：沿 w 移动一个图块只改变 w 的通道对，所以分数分别取决于各轴上的偏移。'),
  params: {
    model: { type: 'enum', values: Object.keys(MODELS), default: 'wan', label: L('Model', '模型'),
      valueLabels: { wan: L('Wan 2.1', 'Wan 2.1'), hunyuan_video: L('HunyuanVideo', 'HunyuanVideo'), cosmos: L('Cosmos', 'Cosmos'), flux: L('FLUX.1', 'FLUX.1'),
        cogvideox: L('CogVideoX', 'CogVideoX'), dinov3: L('DINOv3', 'DINOv3'), qwen2_vl: L('Qwen2.5-VL (vision tower)', 'Qwen2.5-VL（视觉塔）') } },
    grid: { type: 'enum', values: ['2x3x4', '1x4x4', '4x2x2'], default: '2x3x4', label: L('Grid t×h×w (h×w for 2-D)', '网格 t×h×w（二维取 h×w）') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { model: 'hunyuan_video' }, look: L('HunyuanVideo: t gets only 8 of 64 pairs (the 16 channels of rope_axes_dim = [16, 56, 56]), at base 256 — its slowest t pair turns only 0.0078 rad per frame (256 to the power −14/16).',
    'HunyuanVideo：t 只分到 64 个通道对中的 8 个（rope_axes_dim = [16, 56, 56] 中的 16 个通道），底数 256——最慢的 t 通道对每帧只转 0.0078 弧度（256 的 −14/16 次方）。') }],
  // below: one small map per axis — the angle of that axis's fastest pair at every token, laid out as the token grid
  // (rows h; the frames t side by side, a blank column between frames)
  panels: (/** @type {P} */ p, /** @type {any} */ r) => [{ id: 'freq', block: 'lines', height: 220, logY: true }, { id: 'cos', block: 'heatmap', palette: 'rdbu', size: 480 },
    ...(r?.axes ?? []).map((/** @type {any} */ a) => ({ id: `grid-${a.name}`, block: 'heatmap', palette: 'rdbu', size: 300 }))],
  /** @param {Posenc} pe @param {P} p */
  compute(pe, { model, grid }) {
    const cfg = MODELS[/** @type {keyof typeof MODELS} */ (model)];
    const r = pe.ropeAxesFromConfig(cfg);
    const sizes = grid.split('x').map(Number), g = r.axes.length === 3 ? sizes : sizes.slice(1);
    const t = pe.ropeAxesTables(cfg, { grid: g });
    const half = r.rotary_dim / 2, tokens = g.reduce((a, b) => a * b, 1);
    // the token grid as a map: rows h, columns (frame, w) with a NaN column between frames; 2-D models: one frame
    const [T, H, W] = g.length === 3 ? g : [1, ...g], cols = T * (W + 1) - 1;
    const grids = r.axes.map((a) => {
      const m = new Float32Array(H * cols).fill(NaN), p0 = a.pairs[0];
      for (let k = 0; k < tokens; k++) {
        const w = k % W, h = Math.floor(k / W) % H, f = Math.floor(k / (W * H));
        m[h * cols + f * (W + 1) + w] = Math.atan2(t.sin[k * half + p0], t.cos[k * half + p0]);   // the angle the tables rotate by, in (−π, π]
      }
      return m;
    });
    return { model, layout: r.layout, half, tokens, grid: g, T, H, W, cols, grids,
      axes: r.axes.map((a) => ({ name: a.name, pairs: a.pairs, base: a.base, inv: Float64Array.from(a.inv_freq, (f) => f * a.angle_scale) })), cos: t.cos };
  },
  /** @param {any} r */
  render(r) {
    return {
      freq: { series: r.axes.map((/** @type {any} */ a) => ({ x: Float64Array.from(a.inv, (_, k) => a.pairs[0] + k), y: a.inv, color: AXIS_COLOURS[a.name],
        label: L(`${a.name}: pairs ${a.pairs[0]}–${a.pairs[1] - 1}, base ${+a.base.toPrecision(6)}`, `${zhAxis(a.name)}：通道对 ${a.pairs[0]}–${a.pairs[1] - 1}，底数 ${+a.base.toPrecision(6)}`) })),
        caption: L(`radians per position unit of each pair (${r.layout} pairs)`, `每个通道对每单位位置转过的弧度（${r.layout === 'interleaved' ? '相邻通道' : '前后两半'}配对）`), xlabel: L('pair', '通道对'), ylabel: L('rad / position', '弧度 / 位置') },
      cos: { data: r.cos, rows: r.tokens, cols: r.half, caption: L(`cos of each pair for the ${r.grid.join('×')} tokens (last axis fastest)`, `${r.grid.join('×')} 个词元在每个通道对上的 cos（最后一轴变化最快）`),
        xlabel: L('pair →', '通道对 →'), ylabel: L('token ↓', '词元 ↓') },
      // frames side by side: each column named by its frame and column (t0 w3), the gap between frames unnamed — numeric
      // ticks would count across the gap (0 … 8 for two frames of 4)
      ...Object.fromEntries(r.axes.map((/** @type {any} */ a, /** @type {number} */ i) => [`grid-${a.name}`, { data: r.grids[i], rows: r.H, cols: r.cols, vmin: -Math.PI, vmax: Math.PI, showValues: r.H * r.cols <= 144,
        colLabels: r.T > 1 ? Array.from({ length: r.cols }, (_, c) => (c % (r.W + 1) === r.W ? '' : `t${Math.floor(c / (r.W + 1))} w${c % (r.W + 1)}`)) : undefined,
        caption: L(`${a.name}: angle of pair ${a.pairs[0]} (its fastest) at each token${r.T > 1 ? `; ${r.T} frames side by side` : ''}`,
          `${zhAxis(a.name)}：每个词元在通道对 ${a.pairs[0]}（它最快的一对）上的角度${r.T > 1 ? `；${r.T} 帧并排` : ''}`),
        xlabel: L(r.T > 1 ? 'frame t, then column w (grey: between frames) →' : 'column w →', r.T > 1 ? '帧 t，再到列 w（灰色：帧与帧之间）→' : '列 w →'), ylabel: L('row h ↓', '行 h ↓') }])),
      readouts: r.axes.map((/** @type {any} */ a) => ({ id: `pairs-${a.name}`, label: L(`pairs of ${a.name}`, `${zhAxis(a.name)} 的通道对数`), value: a.pairs[1] - a.pairs[0] })),
    };
  },
};
