// @ts-check
// Section 6: a config's layer schedule (pe.ropeFromConfig(...).layers): one row per layer type, one cell per decoder
// layer — 1 where the layer rotates (RoPE), 0 where it has no positions at all (NoPE), blank for the other rows.
import { L } from '../params.js';
import { LLAMA4, configParam, fromConfig, typeNamed } from './config-common.js';

const list = (/** @type {number[]} */ xs) => (xs.length > 12 ? `${xs.slice(0, 12).join(', ')}, …` : xs.join(', '));

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'config-schedule',
  title: L('Which layers rotate: the layer schedule', '哪些层旋转：层的排布'),
  description: L('The decoder layers of a config.json by layer type (full / sliding / chunked / linear …), and which of them use RoPE.',
    'config.json 中各解码层的层类型（全局 / 滑动窗口 / 分块 / 线性……）以及哪些层使用 RoPE。'),
  takeaway: L('Many models rotate only some layers: Llama 4 leaves every 4th layer without positions, Cohere2 and EXAONE-4.0 their global layers, hybrid models their linear layers.',
    '许多模型只在部分层旋转：Llama 4 每 4 层有 1 层不含位置，Cohere2 和 EXAONE-4.0 的全局层、混合模型的线性层也不用 RoPE。'),
  params: { config: configParam(LLAMA4) },
  panels: (p, r) => (r?.layers ? [{ id: 'strip', block: 'heatmap', size: 720 }] : []),
  compute(pe, { config }) {
    const r = fromConfig(pe, config);
    if (!r.layers) return { layers: null, layer_type: r.layer_type };
    const types = [...new Set(r.layers.map((l) => l.type))], n = r.layers.length;
    const data = new Float32Array(types.length * n).fill(NaN);
    r.layers.forEach((l, i) => { data[types.indexOf(l.type) * n + i] = l.rope ? 1 : 0; });
    const summary = types.map((t) => {
      /** @typedef {NonNullable<typeof r.layers>} Layers */
      const idx = /** @type {Layers} */ (r.layers).flatMap((l, i) => (l.type === t ? [i] : []));
      const rope = r.layer_types[t];
      return { type: t, count: idx.length, rope: rope ? `${rope.rope_type}, rope_theta ${rope.rope_theta}` : null, nope: idx.filter((i) => !/** @type {Layers} */ (r.layers)[i].rope) };
    });
    return { layers: { n, types, data, summary }, layer_type: r.layer_type };
  },
  render(r) {
    if (!r.layers) {
      return { readouts: [{ id: 'none', label: L('schedule', '排布'), value: NaN,
        text: L('this config defines no layer schedule: every layer uses the same RoPE', '该 config 没有定义层的排布：每一层使用同一个 RoPE') }] };
    }
    const { n, types, data, summary } = r.layers;
    return {
      strip: { data, rows: types.length, cols: n, vmin: 0, vmax: 1, rowLabels: types,   // identifiers (full_attention …), the same in every language colLabels: Array.from({ length: n }, (_, i) => String(i)),
        categories: [{ value: 1, label: 'RoPE' }, { value: 0, label: L('NoPE (no positions)', 'NoPE（无位置）') }],
        caption: L('layer schedule: one row per layer type; grey = a layer of another type', '层的排布：每种层类型一行；灰色 = 该层属于其他类型'),
        xlabel: L('decoder layer →', '解码层 →'), ylabel: L('layer type', '层类型') },
      readouts: summary.map((/** @type {{ type: string, count: number, rope: string | null, nope: number[] }} */ s) => ({ id: `type-${s.type}`, label: L(s.type, typeNamed(s.type)), value: s.count,
        text: s.nope.length === s.count
          ? L(`${s.count} layers, no RoPE (layers ${list(s.nope)})`, `${s.count} 层，不用 RoPE（第 ${list(s.nope)} 层）`)
          : L(`${s.count} layers, RoPE: ${s.rope}${s.nope.length ? `; NoPE: layers ${list(s.nope)}` : ''}${s.type === r.layer_type ? ' (the top-level RoPE)' : ''}`,
            `${s.count} 层，RoPE：${s.rope}${s.nope.length ? `；NoPE：第 ${list(s.nope)} 层` : ''}${s.type === r.layer_type ? '（默认层类型，即配置顶层的 RoPE 设置）' : ''}`) })),
    };
  },
};
