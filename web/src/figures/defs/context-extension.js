// Section 6: how each context-extension scheme rescales the RoPE frequencies, pair by pair, and what that does to the
// long-range decay up to the target length (one sweep per scheme, through pe.gpu: WebGPU or wasm).
import { L } from '../params.js';
import { extensionParams } from './wavelengths.js';
import { backendParam, backendOf, gpuCall } from '../backend.js';

const WIDTH = 900;   // pixels of the decay panel: the sweeps are drawn as their max per pixel

export default {
  name: 'context-extension',
  title: L('Context extension, pair by pair', '逐对看上下文扩展'),
  description: L('Scaled ÷ original inverse frequency per pair for PI, NTK-aware, dynamic NTK, YaRN, Llama 3 and LongRoPE (Hugging Face rules), and each scheme’s long-range decay ⟨R_m q, R_n k⟩/d (q = k = ones) up to the target length.',
    'PI、NTK-aware、动态 NTK、YaRN、Llama 3 与 LongRoPE（Hugging Face 的规则）逐对的缩放后频率 ÷ 原频率，以及各方案到目标长度为止的远程衰减 ⟨R_m q, R_n k⟩/d（q = k = 全 1）。'),
  takeaway: L('PI slows every pair by the factor; YaRN and Llama 3 keep the fast pairs (ratio 1) and interpolate only the slow ones.',
    'PI 把所有通道对都放慢 factor 倍；YaRN 和 Llama 3 保留快的对（比值 1），只对慢的对做插值。'),
  params: { ...extensionParams, backend: backendParam },
  panels: () => [{ id: 'ratio', block: 'lines', height: 240 }, { id: 'decay', block: 'lines', height: 240 }],
  async compute(pe, p, ctx) {
    const { rotary_dim: d, rope_theta, original_max_position_embeddings: orig, factor } = p;
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
    const ratio = {}, decay = {}, results = [];
    for (const [k, o] of Object.entries({ default: null, ...schemes })) {
      const inv = o ? pe.ropeInvFreqScaled({ ...common, ...o }).inv_freq : def;
      if (o) ratio[k] = Float64Array.from(inv, (w, i) => w / def[i]);
      const r = await pe.gpu.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: d, inv_freq: inv, count: target, ...gpuCall(p, ctx) });
      results.push(r);
      decay[k] = pe.envelope(r.values.map((v) => v / d), WIDTH).max;
    }
    return { ratio, decay, target, backend: backendOf(results) };
  },
  render(r, p) {
    const target = p.original_max_position_embeddings * p.factor;
    const names = { linear: 'PI (linear)', ntk: 'NTK-aware', dynamic: L(`dynamic NTK at ${target}`, `动态 NTK（长度 ${target}）`), yarn: 'YaRN', llama3: 'Llama 3', longrope: L('LongRoPE (illustrative factors)', 'LongRoPE（示意因子）') };
    names.default = L('unscaled', '未缩放');
    return { ratio: { series: Object.entries(r.ratio).map(([k, y]) => ({ label: names[k], y })), marks: [{ y: 1 / p.factor, label: '1/factor' }],
      caption: L('Scaled frequency ÷ original frequency, per pair (1 = unchanged, 1/factor = fully interpolated)', '缩放后频率 ÷ 原频率（1 = 不变，1/factor = 完全插值）'), xlabel: L('pair i (fast → slow)', '通道对 i（快 → 慢）'), ylabel: L('ratio', '比值') },
    decay: { series: Object.entries(r.decay).map(([k, y]) => ({ label: names[k], y, dx: r.target / WIDTH, ...(k === 'default' && { dash: [4, 3] }) })),
      marks: [{ x: p.original_max_position_embeddings, label: L('training length', '训练长度') }],
      caption: L(`Long-range decay to the target length ${r.target}: ⟨R_m q, R_n k⟩/d, q = k = ones (max per pixel)`, `到目标长度 ${r.target} 的远程衰减：⟨R_m q, R_n k⟩/d，q = k = 全 1（每像素最大值）`),
      xlabel: L('relative position n − m', '相对位置 n − m'), ylabel: L('score / d', '分数 / d') } };
  },
};
