// @ts-check
// Section 6: RoPE wavelength per pair against the training length and the target length.
import { L } from '../params.js';

/** @type {Record<string, import('../params.js').ParamSpec>} */
export const extensionParams = {
  rotary_dim: { type: 'enum', values: [64, 128], default: 128, label: L('rotary_dim', 'rotary_dim') },
  rope_theta: { type: 'enum', values: [10000, 500000, 1000000], default: 10000, label: L('rope_theta', 'rope_theta') },
  original_max_position_embeddings: { type: 'enum', values: [2048, 4096, 8192], default: 4096, label: L('Training length', '训练长度') },
  factor: { type: 'enum', values: [2, 8, 32], default: 8, label: L('factor', 'factor') },
};

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'wavelengths',
  title: L('Which pairs have seen every angle', '哪些通道对见过所有角度'),
  description: L('Wavelength 2π/θᵢ of each RoPE pair against the training length and the extended target length.',
    '每对 RoPE 通道的波长 2π/θᵢ，与训练长度和扩展后的目标长度对比。'),
  takeaway: L('Pairs above the training-length line never finish a turn in training: longer inputs show them angles they have never seen.',
    '位于训练长度线之上的通道对在训练中从未转满一圈：更长的输入会给它们从未见过的角度。'),
  params: extensionParams,
  /** @type {import('../params.js').FigureTry[]} */
  tries: [{ params: { rope_theta: 500000, original_max_position_embeddings: 8192 }, look: L('Llama 3’s base 500 000 with 8192 training tokens: more pairs sit above the orange line — their angles are new to the model at any longer length.',
    'Llama 3 的底数 500 000、训练长度 8192：更多的通道对位于橙线之上——更长的输入会给它们模型从未见过的角度。') }],
  panels: () => [{ id: 'wave', block: 'lines', height: 220, logY: true }],
  compute(pe, { rotary_dim, rope_theta, original_max_position_embeddings: orig }) {
    const fa = pe.ropeFrequencyAnalysis({ rotary_dim, rope_theta, original_max_position_embeddings: orig });
    return { wave: fa.wavelength, incomplete: fa.wavelength.length - fa.first_incomplete, pairs: fa.wavelength.length };
  },
  render(r, p) {
    const orig = p.original_max_position_embeddings, target = orig * p.factor;
    return {
      wave: { series: [{ y: r.wave, kind: 'points', label: L('wavelength 2π/θᵢ', '波长 2π/θᵢ') }],
        marks: [{ y: orig, label: L(`training length ${orig}`, `训练长度 ${orig}`), color: '#D55E00' }, { y: target, label: L(`target ${target}`, `目标 ${target}`), color: '#007A5A' }],
        caption: L('Wavelength per pair against the training length', '每对的波长与训练长度'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', '词元数') },
      readouts: [{ id: 'incomplete', label: L('pairs that do not finish a turn within the training length', '训练长度内转不满一圈的通道对个数'), value: r.incomplete, text: `${r.incomplete} / ${r.pairs}` }],
    };
  },
};
