// @ts-check
// Positions in images: 2-D RoPE on a patch grid with integer coordinates (the Qwen2.5-VL vision tower, 14-px patches:
// row and column indices) against DINOv3's coordinates normalised to [−1, 1] (patch centres 2(i + ½)/n − 1, 16-px patches),
// at 224 px and at another resolution. Every pair's angle is its coordinate times a fixed frequency, so the coordinate
// along one side of the image is the whole story: drawn per patch for both resolutions, with the fastest w pair's angles
// as read-outs. Computed by pe.ropeAxesFromConfig (positions and inv_freq of each model's w axis).
import { L } from '../params.js';
/** @typedef {import('../../index.js').Posenc} Posenc */

/** Qwen2.5-VL-7B's vision tower (hidden_size 1280, 16 heads, patch 14) and DINOv3 ViT-B/16 (rope_theta 100, patch 16). */
export const INTEGER = { model_type: 'qwen2_5_vl', vision_config: { hidden_size: 1280, num_heads: 16 } };
export const NORMALISED = { model_type: 'dinov3_vit', hidden_size: 768, num_attention_heads: 12, rope_theta: 100, num_register_tokens: 4 };
export const PATCH = { integer: 14, normalised: 16 };
const BASE_PX = 224;

/**
 * One scheme at one resolution: the w axis's coordinates, its fastest pair's angle at the last patch and the angle step
 * between neighbouring patches (angle = angle_scale · coordinate · inv_freq[0]).
 * @param {Posenc} pe @param {object} config @param {number} px @param {number} patch
 */
function side(pe, config, px, patch) {
  const n = Math.floor(px / patch);
  const w = pe.ropeAxesFromConfig(config, { grid: [n, n] }).axes[1];
  const pos = /** @type {Float64Array} */ (w.positions), rate = w.angle_scale * w.inv_freq[0];
  return { n, pos, x: Float64Array.from(pos, (_, i) => (i + 0.5) / n), last: pos[n - 1] * rate, step: (pos[1] - pos[0]) * rate, rate };
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'patch-grid',
  title: L('2-D RoPE on a patch grid: integer or normalised coordinates', '图块网格上的二维 RoPE：整数坐标还是归一化坐标'),
  description: L('The coordinate each patch gets along the image’s width — and so every rotation angle, which is the coordinate times a fixed frequency — at 224 px and at a larger size: integer column indices (the Qwen2.5-VL vision tower) and DINOv3’s patch centres normalised to [−1, 1].',
    '每个图块沿图像宽度得到的坐标——旋转角度就是坐标乘以固定频率，所以坐标决定一切——在 224 像素和更大尺寸下的对比：整数列号（Qwen2.5-VL 的视觉塔）与 DINOv3 归一化到 [−1, 1] 的图块中心。'),
  takeaway: L('Integer coordinates keep the step between neighbouring patches and carry the far patches past every angle seen at 224 px; coordinates normalised to [−1, 1] never leave that interval, so every angle stays within a few per cent of the largest seen at 224 px, but the step between neighbours shrinks.',
    '整数坐标保持相邻图块之间的步长不变，远处的图块则转到 224 像素时从未出现过的角度；归一化到 [−1, 1] 的坐标永远不出这个区间，所以每个角度都只比 224 像素时见过的最大角度多几个百分点，但相邻图块之间的步长变小了。'),
  params: {
    px: { type: 'enum', values: [336, 448, 672, 896], default: 448, label: L('Other image size (px)', '另一图像尺寸（像素）') },
  },
  /** @type {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }[]} */
  tries: [{ params: { px: 896 }, look: L('At 896 px the integer scheme’s last patch sits at column 63, more than four times as far as at 224 px (column 15); DINOv3’s last patch moves only from 0.93 to 0.98, while its step between neighbours falls to a quarter.',
    '896 像素时，整数坐标的最后一个图块在第 63 列，是 224 像素时（第 15 列）的四倍多；DINOv3 的最后一个图块只从 0.93 移到 0.98，相邻图块之间的步长却缩小到四分之一。') }],
  panels: () => [{ id: 'integer', block: 'lines', height: 220 }, { id: 'normalised', block: 'lines', height: 220 }],
  /** @param {Posenc} pe @param {{ px: number }} p */
  compute(pe, { px }) {
    const both = (/** @type {object} */ c, /** @type {number} */ patch) => ({ base: side(pe, c, BASE_PX, patch), other: side(pe, c, px, patch) });
    return { px, integer: both(INTEGER, PATCH.integer), normalised: both(NORMALISED, PATCH.normalised) };
  },
  /** @param {any} r */
  render(r) {
    const blue = '#0072B2', orange = '#D55E00';
    /** @param {any} s @param {any} name @param {any} ylabel */
    const panel = (s, name, ylabel) => ({
      series: [{ x: s.base.x, y: s.base.pos, kind: 'points', color: blue, label: L(`224 px: ${s.base.n} patches`, `224 像素：${s.base.n} 个图块`) },
        { x: s.other.x, y: s.other.pos, kind: 'points', color: orange, label: L(`${r.px} px: ${s.other.n} patches`, `${r.px} 像素：${s.other.n} 个图块`) }],
      marks: [{ y: s.base.pos[s.base.n - 1], label: L('largest at 224 px', '224 像素时的最大值') }],
      caption: name, xlabel: L('patch centre, fraction of the image width', '图块中心位置（占图像宽度的比例）'), ylabel,
    });
    const I = r.integer, N = r.normalised, f = (/** @type {number} */ v) => +v.toFixed(3);
    return {
      integer: panel(I, L('Integer coordinates (Qwen2.5-VL vision tower, 14-px patches): the column index', '整数坐标（Qwen2.5-VL 视觉塔，14 像素图块）：列号'), L('column index', '列号')),
      normalised: panel(N, L('Normalised coordinates (DINOv3, 16-px patches): 2(i + ½)/n − 1', '归一化坐标（DINOv3，16 像素图块）：2(i + ½)/n − 1'), L('coordinate in [−1, 1]', '[−1, 1] 内的坐标')),
      readouts: [
        { id: 'int-last', label: L('integer: angle of the last patch, fastest pair (rad)', '整数坐标：最后一个图块在最快通道对上的角度（弧度）'), value: I.other.last, text: `${f(I.base.last)} → ${f(I.other.last)}` },
        { id: 'int-step', label: L('integer: step between neighbours (rad)', '整数坐标：相邻图块的角度步长（弧度）'), value: I.other.step, text: `${f(I.base.step)} → ${f(I.other.step)}` },
        { id: 'norm-last', label: L('normalised: angle of the last patch, fastest pair (rad)', '归一化坐标：最后一个图块在最快通道对上的角度（弧度）'), value: N.other.last, text: `${f(N.base.last)} → ${f(N.other.last)}` },
        { id: 'norm-step', label: L('normalised: step between neighbours (rad)', '归一化坐标：相邻图块的角度步长（弧度）'), value: N.other.step, text: `${f(N.base.step)} → ${f(N.other.step)}` },
      ],
    };
  },
};
