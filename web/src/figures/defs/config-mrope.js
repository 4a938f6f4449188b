// @ts-check
// Section 6: M-RoPE (Qwen2-VL / 2.5-VL / 3-VL / 3.5): the 3 × L position ids (t, h, w) of an example sequence —
// text, <vision_start>, an image of h × w patches merged 2 × 2, <vision_end>, text — from pe.mropePositionIds (HF
// get_rope_index) with the config's token ids; and which frequency pairs each axis drives (mrope_section, contiguous or
// interleaved), probed with pe.mropeTables: a pair is driven by axis a when position 1 on a alone turns it.
import { L, FigureError } from '../params.js';
import { QWEN25VL, configParam, configErrorText, fromConfig } from './config-common.js';

const BEFORE = 4, AFTER = 3, TEXT = 1000;   // text tokens around the image; their ids are arbitrary non-vision ids
const AXES = ['t', 'h', 'w'];

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'config-mrope',
  title: L('M-RoPE: the position ids of an image and text', 'M-RoPE：一张图片与文字的位置编号'),
  description: L('For an M-RoPE config: the t, h, w position ids of text + an image (from get_rope_index, with the config’s token ids), and the frequency pairs each axis drives.',
    'M-RoPE 模型的 config：文字 + 一张图片的 t、h、w 位置编号（按 get_rope_index，用 config 中的词元编号），以及每个轴驱动的频率对。'),
  takeaway: L('Image tokens share one t and count rows and columns on h and w; the text after the image resumes after the largest id used, so the sequence is shorter in positions than in tokens (rope_deltas < 0).',
    '图片词元共用一个 t，在 h、w 上分别数行和列；图片之后的文字从已用的最大编号之后继续，所以位置比词元少（rope_deltas < 0）。'),
  params: {
    config: configParam(QWEN25VL),
    image: { type: 'enum', values: ['4x4', '8x12', '16x16', '28x40'], default: '8x12', label: L('Image (patches h×w)', '图片（h×w 个图块）') },
  },
  // on the site a try keeps the config the reader chose (try.js); 28×40 is Qwen's 2 × 2 merge of 14 × 20 tokens
  tries: [{ params: { image: '28x40' }, look: L('A 28×40-patch image: 280 image tokens, yet their ids only count 14 rows and 20 columns, so the text after it resumes at 5 + 20 and rope_deltas is −260: the sequence is 260 positions shorter than it is long in tokens.',
    '28×40 个图块的图片：280 个图片词元，编号却只数到 14 行、20 列，所以图片之后的文字从 5 + 20 继续，rope_deltas 为 −260：序列的位置比词元少 260 个。') }],
  panels: (p, r) => (r?.ids ? [{ id: 'ids', block: 'heatmap', size: 720, full: true }, { id: 'axes', block: 'heatmap', size: 720, full: true }] : []),
  compute(pe, { config, image }) {
    const r = fromConfig(pe, config);
    if (!r.mrope_section) return { ids: null };
    const c = typeof config === 'string' ? JSON.parse(config) : config;
    const tc = c.text_config ?? {}, id = (/** @type {string} */ k) => c[k] ?? tc[k];
    const [h, w] = image.split('x').map(Number), merged = (h / 2) * (w / 2);
    const end = id('vision_end_token_id') ?? TEXT + 99;
    const tokens = [...Array(BEFORE).fill('text'), '<vision_start>', ...Array(merged).fill('image'), '<vision_end>', ...Array(AFTER).fill('text')];
    // a missing token id (-1 here) is reported by mropePositionIds, which reads the same keys
    const input_ids = tokens.map((t, i) => (t === 'text' ? TEXT + i : t === 'image' ? id('image_token_id') ?? -1 : t === '<vision_start>' ? id('vision_start_token_id') ?? -1 : end));
    let out;
    try {
      out = pe.mropePositionIds({ config: c, input_ids, image_grid_thw: [[1, h, w]] });
    } catch (e) {
      throw /** @type {Error} */ (e)?.name === 'PosencError' ? new FigureError(configErrorText({ name: /** @type {Error} */ (e).name, message: /** @type {Error} */ (e).message.replace(/^config\./, '') }), 'config') : e;
    }
    const half = r.rotary_dim / 2, axes = new Float32Array(half).fill(NaN);
    AXES.forEach((_, a) => {
      const pos = [[0], [0], [0]]; pos[a] = [1];
      const m = pe.mropeTables({ rotary_dim: r.rotary_dim, rope_theta: r.rope_theta, mrope_section: /** @type {[number, number, number]} */ (r.mrope_section), mrope_interleaved: /** @type {boolean | undefined} */ (r.mrope_interleaved), positions: /** @type {[number[], number[], number[]]} */ (pos) });
      for (let i = 0; i < half; i++) if (m.sin[i] !== 0) axes[i] = a;
    });
    return { ids: Float32Array.from(out.position_ids), L: tokens.length, tokens, rope_deltas: out.rope_deltas, axes, half,
      section: r.mrope_section, interleaved: r.mrope_interleaved, h, w };
  },
  render(r) {
    if (!r.ids) {
      return { readouts: [{ id: 'none', label: L('M-RoPE', 'M-RoPE'), value: NaN,
        text: L('not an M-RoPE model: its config has no mrope_section', '不是 M-RoPE 模型：config 中没有 mrope_section') }] };
    }
    // column labels the same in every language (the caption says what they mean)
    const short = { text: '·', image: '▦', '<vision_start>': '[', '<vision_end>': ']' };
    const img = r.tokens.indexOf('image'), last = r.tokens.lastIndexOf('image'), after = last + 1;   // <vision_end>, where the text resumes
    const thw = (/** @type {number} */ j) => AXES.map((_, a) => r.ids[a * r.L + j]).join(', ');   // token j's ids
    return {
      // every id printed in its cell where it fits (the point is the numbers: one t for the image, rows, columns)
      ids: { data: r.ids, rows: 3, cols: r.L, rowLabels: AXES, colLabels: r.tokens.map((/** @type {keyof typeof short} */ t) => short[t]), showValues: true,
        caption: L(`position ids (t, h, w): ${BEFORE} text tokens (·), an image of ${r.h}×${r.w} patches (${(r.h / 2) * (r.w / 2)} tokens ▦ after the 2×2 merge, between [ vision_start and ] vision_end), ${AFTER} text tokens`,
          `位置编号（t、h、w）：${BEFORE} 个文字词元（·）、一张 ${r.h}×${r.w} 个图块的图片（2×2 合并后 ${(r.h / 2) * (r.w / 2)} 个词元 ▦，夹在 [ vision_start 与 ] vision_end 之间）、${AFTER} 个文字词元`),
        xlabel: L('token →', '词元 →'), ylabel: L('axis', '轴') },
      axes: { data: r.axes, rows: 1, cols: r.half, vmin: 0, vmax: 2, categories: AXES.map((label, value) => ({ value, label })),
        caption: L(`frequency pair → the axis that turns it: mrope_section [${r.section.join(', ')}], ${r.interleaved ? 'interleaved' : 'contiguous'}`,
          `频率对 → 转动它的轴：mrope_section [${r.section.join(', ')}]，${r.interleaved ? '交错' : '连续'}`), xlabel: L('pair i', '通道对 i') },
      readouts: [
        { id: 'deltas', label: L('rope_deltas', 'rope_deltas'), value: r.rope_deltas,
          note: L('max position + 1 − sequence length: what generation adds to later positions', '最大位置 + 1 − 序列长度：生成时加到后续位置上的量') },
        { id: 'image', label: L('first image token (t, h, w)', '第一个图片词元（t、h、w）'), value: r.ids[img],
          text: thw(img) },
        // the try's numbers in words too: on a phone the cells of a 280-token image are too narrow to print them
        { id: 'last', label: L('last image token (t, h, w)', '最后一个图片词元（t、h、w）'), value: r.ids[last],
          text: thw(last) },
        { id: 'after', label: L('the token after the image, ] (t, h, w)', '图片之后的词元 ]（t、h、w）'), value: r.ids[after],
          text: thw(after) },
      ],
    };
  },
};
