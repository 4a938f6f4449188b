// Section 4: partial rotary — only the first rotary_dim channels rotate.
import { L } from '../params.js';

export default {
  name: 'partial-rotary',
  title: L('Partial rotary', '部分旋转'),
  description: L('RoPE applied to an all-ones head at positions 0…63 with rotary_dim = int(head_dim · partial_rotary_factor).',
    '对全 1 的头在位置 0…63 施加 RoPE，rotary_dim = int(head_dim · partial_rotary_factor)。'),
  takeaway: L('Channels from rotary_dim on pass through unchanged (the flat band on the right).', '从 rotary_dim 起的通道原样通过（右侧的平坦带）。'),
  params: {
    head_dim: { type: 'enum', values: [32, 64, 128], default: 64, label: L('head_dim', 'head_dim') },
    partial_rotary_factor: { type: 'enum', values: [0.25, 0.5, 0.75, 1], default: 0.5, label: L('partial_rotary_factor', 'partial_rotary_factor') },
  },
  panels: () => [{ id: 'map', block: 'heatmap', palette: 'rdbu', size: 300 }],
  compute(pe, { head_dim, partial_rotary_factor }) {
    const rd = pe.rotaryDim({ head_dim, partial_rotary_factor }), seq = 64;
    return { rd, seq, hd: head_dim, map: pe.ropeApply(new Float32Array(seq * head_dim).fill(1), { seq, head_dim, rotary_dim: rd }) };
  },
  render(r) {
    return {
      map: { data: r.map, rows: r.seq, cols: r.hd, caption: L('RoPE(ones) — row = position, column = channel', 'RoPE(全 1)——行 = 位置，列 = 通道'), xlabel: L('channel →', '通道 →'), ylabel: L('position ↓', '位置 ↓') },
      readouts: [{ id: 'rd', label: L('rotary_dim', 'rotary_dim'), value: r.rd, text: String(r.rd) }],
    };
  },
};
