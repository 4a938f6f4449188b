// @ts-check
// Section 7: ALiBi — geometric slopes per head and the linear bias of one head.
import { L } from '../params.js';

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'alibi',
  title: L('ALiBi: a linear penalty per head', 'ALiBi：每个头一个线性惩罚'),
  description: L('ALiBi’s slopes mₕ for H heads (non-powers of two completed as in the reference code) and the bias −m·|i − j| of one head.',
    'H 个头的 ALiBi 斜率 mₕ（非 2 的幂按参考代码补齐）以及一个头的偏置 −m·|i − j|。'),
  takeaway: L('Each head subtracts a penalty growing linearly with distance; the slopes form a geometric sequence, so heads look at different ranges.',
    '每个头减去随距离线性增长的惩罚；斜率成等比数列，不同的头关注不同的范围。'),
  params: {
    heads: { type: 'int', min: 1, max: 64, default: 12, label: L('Heads', '头数') },
    head: { type: 'int', min: 0, max: 63, default: 0, label: L('Head', '头') },
    n: { type: 'int', min: 2, max: 256, default: 24, label: L('Length', '长度') },
    symmetric: { type: 'bool', default: false, label: L('symmetric (encoder)', '对称（编码器）') },
  },
  check: (p) => (p.head >= p.heads ? { param: 'head', rule: L(`a head index from 0 to ${p.heads - 1} (heads = ${p.heads})`, `0 到 ${p.heads - 1} 之间的头编号（头数 = ${p.heads}）`) } : null),
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { heads: 8, n: 5 }, look: L('8 heads, 5 tokens: head 0’s slope is 1/2, so the last row of the map reads −2, −1.5, −1, −0.5, 0.',
    '8 个头、5 个词元：头 0 的斜率是 1/2，所以图的最后一行是 −2、−1.5、−1、−0.5、0。') },
  { params: { head: 7 }, look: L('Head 7 of 12: slope 2⁻⁸ = 1/256, 128× flatter than head 0’s 1/2 — this head still sees far back.',
    '12 个头中的头 7：斜率 2⁻⁸ = 1/256，比头 0 的 1/2 平缓 128 倍——这个头仍能看到很远的地方。') }],
  panels: () => [{ id: 'slopes', block: 'lines', height: 200, logY: true }, { id: 'map', block: 'heatmap', size: 480 }],
  compute(pe, { heads, head, n, symmetric }) {
    const slopes = pe.alibiSlopes(heads);
    return { slopes, n, bias: pe.alibiBias({ slopes: [slopes[head]], q_len: n, mode: symmetric ? 'symmetric' : 'causal' }), slope: slopes[head] };
  },
  render(r, p) {
    return {
      slopes: { series: [{ y: r.slopes, kind: 'bar', label: L(`slopes for ${p.heads} heads`, `${p.heads} 个头的斜率`) }], marks: [{ x: p.head, label: L(`head ${p.head}`, `头 ${p.head}`) }],
        caption: L('ALiBi slope per head: mₕ = 2^(−8h/H), h = 1 … H, for H a power of two (head index = h − 1)', '每个头的 ALiBi 斜率：H 为 2 的幂时 mₕ = 2^(−8h/H)，h = 1 … H（头编号 = h − 1）'), xlabel: L('head index (h − 1)', '头编号（h − 1）'), ylabel: 'm' },
      map: { data: r.bias, rows: r.n, cols: r.n, caption: L('bias −m·|i − j| (grey: masked)', '偏置 −m·|i − j|（灰色：被遮住）'), xlabel: L('key j →', '键 j →'), ylabel: L('query i ↓', '查询 i ↓') },
      readouts: [{ id: 'slope', label: L('slope of the chosen head', '所选头的斜率'), value: r.slope }],
    };
  },
};
