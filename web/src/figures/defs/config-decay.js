// @ts-check
// Section 6: the long-range decay of a config's RoPE — ⟨R_m q, R_n k⟩ for q = k = ones(rotary_dim) against n − m,
// with the config's scaled inv_freq (times attention_scaling², which multiplies cos and sin of both q and k) and with
// the unscaled frequencies of the same rope_theta; divided by rotary_dim, so the unscaled curve starts at 1.
import { L } from '../params.js';
import { LLAMA4, configParam, fromConfig, ropeTypes, shortType, typeZh, TYPE_COLOURS, UNSCALED } from './config-common.js';

const WIDTH = 900;

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'config-decay',
  title: L('The decay curve of a model’s RoPE', '模型 RoPE 的远程衰减曲线'),
  description: L('⟨Rₘq, Rₙk⟩ / rotary_dim for q = k = all ones against the distance n − m, with the config’s frequencies (scaled, times attention_scaling²) and unscaled.',
    'q = k = 全 1 时 ⟨Rₘq, Rₙk⟩ / rotary_dim 随距离 n − m 的变化：用 config 的频率（缩放后，乘 attention_scaling²）与未缩放的频率。'),
  takeaway: L('Scaling slows the slow pairs down, so the score keeps its shape over a longer distance; YaRN also lifts it by attention_scaling².',
    '缩放让慢的通道对转得更慢，分数曲线的形状延续到更远的距离；YaRN 还把它整体乘以 attention_scaling²。'),
  params: {
    config: configParam(LLAMA4),
    window: { type: 'enum', values: [4096, 32768, 131072, 524288], default: 32768, label: L('Distances', '距离范围') },
  },
  panels: () => [{ id: 'plot', block: 'lines', height: 260 }],
  async compute(pe, { config, window: n }, ctx) {
    const r = fromConfig(pe, config);
    /** @typedef {{ type: string, typeZh?: string, rope_type: string | null }} Label */
    /** @type {Array<Label & { min: Float32Array, max: Float32Array, last: number }>} */
    const curves = [];
    const sweep = async (/** @type {Label} */ label, /** @type {{ rotary_dim: number }} */ t, /** @type {ArrayLike<number>} */ inv, /** @type {number} */ scale) => {   // label: {type, rope_type (null: unscaled)}
      const ones = new Float32Array(t.rotary_dim).fill(1);
      const v = pe.ropeInnerProductSweep({ q: ones, k: ones, head_dim: t.rotary_dim, inv_freq: inv, count: n });
      const s = scale / t.rotary_dim, y = Float32Array.from(v, (x) => x * s), env = pe.envelope(y, Math.min(WIDTH, n));
      curves.push({ ...label, min: env.min, max: env.max, last: y[n - 1] });
      await ctx.checkpoint();
    };
    const types = ropeTypes(r);
    for (const [name, t] of types) {
      await sweep({ type: types.length > 1 ? shortType(name) : '', typeZh: types.length > 1 ? typeZh(name) : '', rope_type: t.rope_type }, t, t.inv_freq, t.attention_scaling ** 2);
    }
    const top = /** @type {import('./config-common.js').ConfigRope} */ (r.layer_types[r.layer_type]);
    if (types.some(([, t]) => t.rope_type !== 'default')) {
      await sweep({ type: '', rope_type: null }, top, pe.ropeInvFreq({ rotary_dim: top.rotary_dim, rope_theta: top.rope_theta }), 1);
    }
    return { curves, n, width: Math.min(WIDTH, n), original: r.original_max_position_embeddings };
  },
  render(r) {
    /** @typedef {{ type: string, typeZh?: string, rope_type: string | null, min: Float32Array, max: Float32Array, last: number }} Curve */
    const dx = r.n / r.width;
    const label = (/** @type {Curve} */ c) => (c.rope_type === null ? L('unscaled (rope_theta only)', '未缩放（只用 rope_theta）')
      : L(`${c.type ? `${c.type}: ` : ''}${c.rope_type}`, `${c.typeZh ? `${c.typeZh}：` : ''}${c.rope_type}`));
    // the layer kinds in the config's order, each in its colour of config-wavelengths; the unscaled reference grey, dashed
    const series = r.curves.map((/** @type {Curve} */ c, /** @type {number} */ k) => ({ y: c.max, y2: c.min, dx, label: label(c), ...(c.rope_type === null ? UNSCALED : { color: TYPE_COLOURS[k % TYPE_COLOURS.length] }) }));
    const marks = r.original && r.original < r.n ? [{ x: r.original, label: L(`original_max_position_embeddings = ${r.original}`, `原训练长度 ${r.original}`) }] : [];
    return {
      plot: { series, marks, caption: L('⟨Rₘq, Rₙk⟩ / rotary_dim, q = k = ones (line: max per pixel; band: min…max)', '⟨Rₘq, Rₙk⟩ / rotary_dim，q = k = 全 1（线：每像素最大值；带：最小…最大）'),
        xlabel: L('distance n − m', '距离 n − m'), ylabel: L('score / rotary_dim', '分数 / rotary_dim') },
      readouts: r.curves.map((/** @type {Curve} */ c, /** @type {number} */ i) => ({ id: `end${i}`, label: L(`at n − m = ${r.n - 1}, ${label(c).en}`, `n − m = ${r.n - 1} 处，${label(c).zh}`), value: c.last })),
    };
  },
};
