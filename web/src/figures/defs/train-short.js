// @ts-check
// "Train short, test long": the same tiny character-level transformer trained once per position scheme on 128-character
// windows (posenc's own models, scripts/train/train.py), its loss at every position of a held-out passage 16× longer,
// computed by posenc's own forward pass. The experiment of Press et al. 2022 ("Train Short, Test Long", Figure 1) at the
// scale of a page.
import { L } from '../params.js';
import { EDGES, LENGTHS, PASSAGE_LABELS, SCHEMES, SCHEME_COLORS, SCHEME_LABELS, TINY_PARAMS, TRAINED, runs } from './train-short-live.js';
/** @typedef {import('../../index.js').Posenc} Posenc */
/** @typedef {{ passage: import('./train-short-live.js').Passage, length: number, models: string }} P */

const f2 = (/** @type {number} */ x) => x.toFixed(2);
const signed = (/** @type {number} */ x) => `${x < 0 ? '−' : '+'}${f2(Math.abs(x))}`;

/** @type {import('../params.js').FigureDef<P>} */
export default {
  name: 'train-short',
  long: (p) => p.passage !== TINY_PARAMS.passage.default,
  title: L('Train short, test long: eight position schemes past their training length', '短训练、长测试：八种位置编码越过训练长度'),
  description: L('Loss (nats per character, mean over log-spaced buckets of positions) of eight copies of one tiny character-level transformer, each trained on 128-character windows of the King James Bible with another position scheme, reading a held-out passage up to 16× longer; computed by posenc’s own forward pass.',
    '同一个字符级小 Transformer 的八个副本，各用一种位置编码、在《钦定本圣经》的 128 字符片段上训练，读一段最长为训练长度 16 倍的留出文本时的损失（每字符奈特，按对数间隔的位置区间取平均）；由 posenc 自己的前向计算得出。'),
  takeaway: L('Past the 128 characters they were trained on, ALiBi and KERPLE keep their loss (1.17 and 1.13 nats per character past 128, against 1.41 and 1.53 inside), T5’s buckets hold to twice that length and then rise (1.47 to 2.70), xPos rises half as much as RoPE (1.48 to 2.48, RoPE 1.50 to 3.54), and the learned table, the sinusoidal code and no position at all lose most of what they knew.',
    '越过训练时的 128 个字符之后，ALiBi 与 KERPLE 的损失保持不变（128 之后每字符 1.17 和 1.13 奈特，128 以内为 1.41 和 1.53）；T5 的分桶偏置撑到训练长度的 2 倍，之后上升（1.47 到 2.70）；xPos 的上升只有 RoPE 的一半（1.48 到 2.48，RoPE 从 1.50 到 3.54）；可学习位置表、正弦编码和不加位置信息的模型则失去了大部分所学。'),
  params: {
    passage: TINY_PARAMS.passage,
    length: { type: 'enum', values: LENGTHS, default: 2048, label: L('characters read', '读入字符数'),
      valueLabels: { 256: L('256 (2×)', '256（2 倍）'), 512: L('512 (4×)', '512（4 倍）'), 1024: L('1024 (8×)', '1024（8 倍）'), 2048: L('2048 (16×)', '2048（16 倍）') } },
    models: TINY_PARAMS.models,
  },
  /** @type {import('../params.js').FigureTry[]} */
  tries: [
    { params: { length: 256 }, look: L('At 2× the trained length RoPE already rises (1.50 to 2.38 past 128); ALiBi, KERPLE and T5’s buckets do not (1.11, 1.10 and 1.14).', '在训练长度的 2 倍处，RoPE 已经上升（128 之后从 1.50 到 2.38）；ALiBi、KERPLE 和 T5 的分桶偏置没有（1.11、1.10 和 1.14）。') },
    { params: { passage: 'Rev1:1-3:22' }, look: L('Another book, the same picture: past 128, ALiBi and KERPLE stay within 0.06 and 0.14 nats of their loss inside it, xPos and T5 rise 1.44 and 1.56, the other four 2.00 to 3.34.', '换一卷书，结果相同：128 之后，ALiBi 和 KERPLE 与 128 以内的损失只差 0.06 和 0.14 奈特，xPos 和 T5 上升 1.44 和 1.56，其余四种上升 2.00 到 3.34。') },
  ],
  panels: () => [{ id: 'loss', block: 'lines', height: 300, logX: true }],
  /** @param {Posenc} pe @param {P} p @param {any} ctx */
  async compute(pe, p, ctx) {
    return runs(pe, p, SCHEMES, ctx);
  },
  /** @param {any} r @param {P} p */
  render(r, p) {
    const n = EDGES.filter((e) => e <= p.length).length - 1;   // buckets within the first p.length characters
    const x = Float64Array.from({ length: n }, (_, k) => Math.sqrt(EDGES[k] * EDGES[k + 1]));
    const series = SCHEMES.map((s) => ({ x, y: Float64Array.from(r.runs[s].loss.slice(0, n)), label: SCHEME_LABELS[s], color: SCHEME_COLORS[s],
      ...(s === 'nope' ? { dash: [5, 3] } : {}) }));
    return {
      loss: { series, marks: [{ x: TRAINED, label: L(`trained: ${TRAINED}`, `训练长度 ${TRAINED}`) }],
        caption: L(`${PASSAGE_LABELS[p.passage].en}: loss by position, first ${p.length} characters`, `${PASSAGE_LABELS[p.passage].zh}：逐位置损失，前 ${p.length} 个字符`),
        xlabel: L('position (characters, log scale)', '位置（字符，对数轴）'), ylabel: L('loss (nats per character)', '损失（每字符奈特）') },
      readouts: SCHEMES.map((s) => {
        const inside = r.runs[s].inside, past = r.runs[s].past[p.length];
        return { id: s, label: L(`${SCHEME_LABELS[s].en}: loss inside ${TRAINED} → past it`, `${SCHEME_LABELS[s].zh}：${TRAINED} 以内 → 之后的损失`), value: past - inside,
          text: `${f2(inside)} → ${f2(past)}`, note: L(`${signed(past - inside)} nats`, `${signed(past - inside)} 奈特`) };
      }),
      status: L(`posenc’s own models (web/models, trained by scripts/train/train.py); text: King James Bible, held-out books${r.live ? '; computed live' : '; precomputed at build time by the same code'}`,
        `posenc 自己训练的模型（由 scripts/train/train.py 训练）；文本：《钦定本圣经》留出的书卷${r.live ? '；现场计算' : '；构建时由同一代码预先算出'}`),
    };
  },
};
