// @ts-check
// Section 4: partial rotary — only the first rotary_dim channels rotate.
import { L } from '../params.js';

// Positions 0…15, then geometric up to 65 536: even the slowest rotated pair turns visibly before the last row, so the
// flat band is exactly the pass-through channels.
const POSITIONS = Array.from({ length: 64 }, (_, r) => (r < 16 ? r : Math.round(16 * 4096 ** ((r - 16) / 47))));

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'partial-rotary',
  title: L('Partial rotary', '部分旋转'),
  description: L('RoPE (half-split layout, as Hugging Face’s rotate_half) applied to an all-ones head at positions 0 … 65 536, with rotary_dim = int(head_dim · partial_rotary_factor).',
    '对全 1 的头在位置 0 … 65 536 施加 RoPE（对半分的排列，即 Hugging Face 的 rotate_half），rotary_dim = int(head_dim · partial_rotary_factor)。'),
  takeaway: L('Channels from rotary_dim on (right of the dashed rule) pass through unchanged: the flat band. Left of it, the half-split layout pairs channel i with i + rotary_dim/2, so the same stripes appear twice, and the slow pairs (the right of each half) turn only at large positions.',
    '从 rotary_dim 起（虚线右侧）的通道原样通过：平坦带。虚线左侧，对半分的排列把通道 i 与 i + rotary_dim/2 配成一对，所以同样的条纹出现两次；慢的通道对（每一半的右侧）只在位置很大时才转动。'),
  params: {
    head_dim: { type: 'enum', values: [32, 64, 128], default: 64, label: L('head_dim', 'head_dim') },
    partial_rotary_factor: { type: 'enum', values: [0.25, 0.5, 0.75, 1], default: 0.5, label: L('partial_rotary_factor', 'partial_rotary_factor') },
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { partial_rotary_factor: 0.25 }, look: L('partial_rotary_factor 0.25: only 16 of 64 channels rotate — the rule moves to channel 16 and everything right of it is flat.',
    'partial_rotary_factor 设为 0.25：64 个通道中只有 16 个旋转——虚线移到通道 16，右边全部平坦。') }],
  panels: () => [{ id: 'map', block: 'heatmap', palette: 'rdbu', size: 560 }],
  compute(pe, { head_dim, partial_rotary_factor }) {
    const rd = pe.rotaryDim({ head_dim, partial_rotary_factor }), seq = POSITIONS.length;
    return { rd, seq, hd: head_dim, map: pe.ropeApply(new Float32Array(seq * head_dim).fill(1), { seq, head_dim, rotary_dim: rd, positions: POSITIONS }) };
  },
  render(r) {
    return {
      map: { data: r.map, rows: r.seq, cols: r.hd, rowTicks: POSITIONS, marks: r.rd < r.hd ? [{ col: r.rd, label: `rotary_dim = ${r.rd}` }] : [],
        caption: L('RoPE(ones): row = position (0 … 15, then geometric), column = channel', 'RoPE(全 1)：行 = 位置（0 … 15，之后按几何级数），列 = 通道'), xlabel: L('channel →', '通道 →'), ylabel: L('position ↓', '位置 ↓') },
      readouts: [{ id: 'rd', label: L('rotary_dim', 'rotary_dim'), value: r.rd, text: String(r.rd) }],
    };
  },
};
