// @ts-check
// Two RoPEs side by side (two configs, or one config as two engines read it): pe.compareRope's q·k score error against
// the distance (all-ones and seeded random q, k; relative to |q|·|k|), and the frequency ratio θ_b/θ_a per pair.
import { L } from '../params.js';
import { configParam, fromConfig } from './config-common.js';

/** Llama 3.1 8B's and Llama 3.2 3B's position keys: the same base and bands, factor 8 vs 32. */
const LLAMA31 = '{"model_type": "llama", "head_dim": 128, "num_attention_heads": 32, "hidden_size": 4096, "rope_theta": 500000.0, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}';
const LLAMA32 = '{"model_type": "llama", "head_dim": 128, "num_attention_heads": 24, "hidden_size": 3072, "rope_theta": 500000.0, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}';
const ENGINES = ['transformers', 'vllm', 'llama.cpp', 'mlx'];
const WIDTH = 900;

/** The first cause's kind, in both languages (the API's verdict is English). */
function causeWords(/** @type {string} */ c) {
  const kind = c.split(/[ :]/)[0];
  const what = c.replace(/:.*$/s, '');
  const zh = { layout: '通道配对方式不同', rotary_dim: '旋转的维数不同', rope_theta: '底数 rope_theta 不同', rope_type: 'rope_type 不同',
    inv_freq: '频率不同', attention_scaling: 'attention_scaling 不同' }[kind] ?? kind;
  return L(c.split(';')[0], `${zh}（${what}）`);
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'rope-compare',
  title: L('Two RoPEs, position by position', '逐个位置比较两个 RoPE'),
  description: L('The q·k score error between two RoPEs (two configs, or one config as two engines read it) against the distance, for all-ones and random q, k, and the frequency ratio of each pair.',
    '两个 RoPE（两份 config，或两个推理引擎读同一份 config）在 q·k 分数上的误差随距离的变化（q、k 为全 1 与随机向量），以及每个通道对的频率之比。'),
  takeaway: L('A difference that is invisible at short distances grows with the distance: short-prompt tests pass while long prompts drift.',
    '短距离上看不出的差别会随距离增长：短提示的测试全部通过，长提示却悄悄偏离。'),
  params: {
    a: { ...configParam(LLAMA31), label: L('config A', 'config A') },
    b: { ...configParam(LLAMA32), label: L('config B', 'config B') },
    engine_a: { type: 'enum', values: ENGINES, default: 'transformers', label: L('A read by', 'A 的读取方') },
    engine_b: { type: 'enum', values: ENGINES, default: 'transformers', label: L('B read by', 'B 的读取方') },
    positions: { type: 'enum', values: [8192, 32768, 131072], default: 131072, label: L('Distances', '距离范围') },
  },
  tries: [{ params: { positions: 8192 },
    look: L('Only distances up to 8192, the original training length: the largest score error is about ten times smaller — the two versions part ways beyond it.',
      '只看 8192 以内的距离（原始训练长度）：最大分数误差小了约十倍——两个版本主要在这之后才分开。') }],
  panels: () => [{ id: 'error', block: 'lines', height: 240 }, { id: 'ratio', block: 'lines', height: 200 }],
  /** @param {any} pe @param {Record<string, any>} p */
  async compute(pe, p) {
    const a = fromConfig(pe, p.a, { engine: p.engine_a }), b = fromConfig(pe, p.b, { engine: p.engine_b });
    const c = pe.compareRope(a, b, { positions: p.positions, samples: 8192 });
    const bins = Math.min(WIDTH, c.positions.length);
    /** max per bin of a series over the evaluated distances */
    const env = (/** @type {Float64Array} */ y) => Float64Array.from({ length: bins }, (_, j) => {
      const lo = Math.floor((j * y.length) / bins), hi = Math.max(lo + 1, Math.floor(((j + 1) * y.length) / bins));
      let m = 0;
      for (let i = lo; i < hi; i++) m = Math.max(m, y[i]);
      return m;
    });
    return {
      n: p.positions, bins, ones: env(c.score_error_ones), random: env(c.score_error_random), ratio: c.freq_ratio,
      max_ones: c.max_score_error_ones, max_random: c.max_score_error_random, pairs_differing: c.pairs_differing, pairs: c.pairs,
      first_pair: c.first_differing_pair, scale: c.attention_scaling, cause: c.causes[0] ?? null, agree: c.agree,
      notes: [...(a.engine_notes ?? []), ...(b.engine_notes ?? [])].length,
    };
  },
  /** @param {Record<string, any>} r */
  render(r) {
    const dx = r.n / r.bins;
    const cause = r.cause ? causeWords(r.cause) : L('none: the two RoPEs are identical', '无：两个 RoPE 完全相同');
    return {
      error: {
        series: [{ y: r.ones, dx, label: L('q = k = all ones', 'q = k = 全 1') }, { y: r.random, dx, label: L('random q, k', '随机 q、k'), dash: [4, 3] }],
        caption: L('|score A − score B| / (|q|·|k|) against the distance (max per pixel)', '|分数 A − 分数 B| / (|q|·|k|) 随距离的变化（每像素取最大值）'),
        xlabel: L('distance n − m', '距离 n − m'), ylabel: L('score error', '分数误差'),
      },
      ratio: {
        series: [{ y: r.ratio, dx: 1, kind: 'points', label: L('θ_B / θ_A', 'θ_B / θ_A') }],
        marks: [{ y: 1, label: L('equal', '相等') }],
        caption: L('Frequency ratio per pair (pair 0 turns fastest)', '每个通道对的频率之比（第 0 对转得最快）'),
        xlabel: L('pair i', '通道对 i'), ylabel: L('θ_B / θ_A', 'θ_B / θ_A'),
      },
      readouts: [
        { id: 'cause', label: L('first difference', '首要差别'), value: NaN, text: cause },
        { id: 'pairs', label: L(`pairs that differ (of ${r.pairs})`, `频率不同的通道对（共 ${r.pairs} 对）`), value: r.pairs_differing },
        { id: 'ones', label: L('largest score error, all-ones q, k', '全 1 的 q、k：最大分数误差'), value: r.max_ones },
        { id: 'random', label: L('largest score error, random q, k', '随机 q、k：最大分数误差'), value: r.max_random },
        { id: 'scale', label: L('attention_scaling A / B', 'attention_scaling A / B'), value: NaN, text: `${+r.scale[0].toPrecision(6)} / ${+r.scale[1].toPrecision(6)}` },
      ],
    };
  },
};
