// Section 6: a model's config.json read by the package, its RoPE wavelengths against the unscaled ones.
import { L } from '../params.js';

const LLAMA31 = '{"head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}';
export default {
  name: 'config-wavelengths',
  title: L('A model’s RoPE, from its config.json', '从 config.json 读出模型的 RoPE'),
  description: L('Paste a Hugging Face config.json: its RoPE scaling is read by the package and its wavelengths drawn against the unscaled ones.',
    '粘贴 Hugging Face 的 config.json：由本库读出其 RoPE 缩放，并与未缩放的波长对比。'),
  takeaway: L('The scaled wavelengths part from the unscaled ones only where the scheme interpolates.', '缩放后的波长只在该方案做插值的地方偏离未缩放的波长。'),
  params: { config: { type: 'string', default: LLAMA31, maxLength: 20000, multiline: true, label: L('config.json', 'config.json') } },
  panels: () => [{ id: 'plot', block: 'lines', height: 200, logY: true }],
  compute(pe, { config }) {
    const r = pe.ropeFromConfig(config);
    return { ...r, def: pe.ropeInvFreq({ rotary_dim: r.rotary_dim, rope_theta: r.rope_theta }) };
  },
  render(r) {
    return {
      plot: { series: [{ y: Float64Array.from(r.def, (w) => (2 * Math.PI) / w), label: L('wavelength, unscaled', '波长（未缩放）'), dash: [4, 3] },
        { y: Float64Array.from(r.inv_freq, (w) => (2 * Math.PI) / w), label: L(`wavelength, ${r.rope_type}`, `波长（${r.rope_type}）`) }],
        caption: L('This model’s RoPE wavelengths', '该模型的 RoPE 波长'), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', 'token 数') },
      readouts: [{ id: 'info', label: L('read', '读出'), value: r.inv_freq[r.inv_freq.length - 1],
        text: `rope_type = ${r.rope_type} · head_dim = ${r.head_dim} · rotary_dim = ${r.rotary_dim} · rope_theta = ${r.rope_theta} · max_position_embeddings = ${r.max_position_embeddings} · attention_scaling = ${r.attention_scaling.toPrecision(6)}` }],
    };
  },
};
