// Section 6: how each context-extension scheme rescales the RoPE frequencies, pair by pair.
import { L } from '../params.js';
import { extensionParams } from './wavelengths.js';

export default {
  name: 'context-extension',
  title: L('Context extension, pair by pair', '逐对看上下文扩展'),
  description: L('Scaled ÷ original inverse frequency per pair for PI, NTK-aware, dynamic NTK, YaRN, Llama 3 and LongRoPE (Hugging Face rules).',
    'PI、NTK-aware、动态 NTK、YaRN、Llama 3 与 LongRoPE（Hugging Face 的规则）逐对的缩放后频率 ÷ 原频率。'),
  takeaway: L('PI slows every pair by the factor; YaRN and Llama 3 keep the fast pairs (ratio 1) and interpolate only the slow ones.',
    'PI 把所有通道对都放慢 factor 倍；YaRN 和 Llama 3 保留快的对（比值 1），只对慢的对做插值。'),
  params: extensionParams,
  panels: () => [{ id: 'ratio', block: 'lines', height: 240 }],
  compute(pe, { rotary_dim: d, rope_theta, original_max_position_embeddings: orig, factor }) {
    const common = { rotary_dim: d, rope_theta }, target = orig * factor;
    const def = pe.ropeInvFreqScaled({ ...common, rope_type: 'default' }).inv_freq;
    const schemes = {
      linear: { rope_type: 'linear', factor },
      ntk: { rope_type: 'ntk', factor },
      dynamic: { rope_type: 'dynamic', factor, max_position_embeddings: orig, seq_len: target },
      yarn: { rope_type: 'yarn', factor, original_max_position_embeddings: orig },
      llama3: { rope_type: 'llama3', factor, original_max_position_embeddings: orig, low_freq_factor: 1, high_freq_factor: 4 },
      longrope: { rope_type: 'longrope', factor, original_max_position_embeddings: orig, max_position_embeddings: target, seq_len: target,
        // Illustrative searched factors: 1 for the fastest pairs rising to `factor` for the slowest.
        long_factor: Array.from({ length: d / 2 }, (_, i) => 1 + (factor - 1) * (i / (d / 2 - 1)) ** 2), short_factor: new Array(d / 2).fill(1) },
    };
    const ratio = {};
    for (const [k, o] of Object.entries(schemes)) ratio[k] = Float64Array.from(pe.ropeInvFreqScaled({ ...common, ...o }).inv_freq, (w, i) => w / def[i]);
    return { ratio };
  },
  render(r, p) {
    const target = p.original_max_position_embeddings * p.factor;
    const names = { linear: 'PI (linear)', ntk: 'NTK-aware', dynamic: L(`dynamic NTK at ${target}`, `动态 NTK（长度 ${target}）`), yarn: 'YaRN', llama3: 'Llama 3', longrope: L('LongRoPE (illustrative factors)', 'LongRoPE（示意因子）') };
    return { ratio: { series: Object.entries(r.ratio).map(([k, y]) => ({ label: names[k], y })), marks: [{ y: 1 / p.factor, label: '1/factor' }],
      caption: L('Scaled frequency ÷ original frequency, per pair (1 = unchanged, 1/factor = fully interpolated)', '缩放后频率 ÷ 原频率（1 = 不变，1/factor = 完全插值）'), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('ratio', '比值') } };
  },
};
