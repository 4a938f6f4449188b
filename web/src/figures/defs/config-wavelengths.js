// @ts-check
// Section 6: a model's config.json read by the package (pe.ropeFromConfig); per layer type its RoPE wavelengths
// 2π/θ_i, after scaling and before (θ_i = rope_theta^(−2i/rotary_dim), the same rotary_dim), and the values read.
import { L } from '../params.js';
import { LLAMA4, configParam, fromConfig, ropeTypes, shortType, typeZh, typeNamed, scalingFacts, mscaleNote, noteText, TYPE_COLOURS, UNSCALED } from './config-common.js';

const wave = (/** @type {ArrayLike<number>} */ inv) => Float64Array.from(inv, (w) => (2 * Math.PI) / w);
const num = (/** @type {number | null | undefined} */ x) => (x == null ? '—' : Number.isInteger(x) ? String(x) : x.toPrecision(6).replace(/\.?0+$/, ''));

/** The plot's caption: what the short line labels stand for, and what the L/… lines mean when there are any. */
/** @param {unknown[]} marks @param {boolean} thresholds */
function caption(marks, thresholds) {
  if (!marks.length) return L('This model’s RoPE wavelengths, per layer type', '该模型各层类型的 RoPE 波长');
  const en = ['L = original_max_position_embeddings', 'max = max_position_embeddings'], zh = [...en];
  if (thresholds) { en.push('the scaling keeps wavelengths below the lower L/… line and stretches those above the upper one'); zh.push('缩放保留下面那条 L/… 线以下的波长，拉长上面那条线以上的'); }
  return L(`This model’s RoPE wavelengths, per layer type (${en.join('; ')})`, `该模型各层类型的 RoPE 波长（${zh.join('；')}）`);
}

/** @type {import('../params.js').FigureDef} */
export default {
  name: 'config-wavelengths',
  title: L('A model’s RoPE, from its config.json', '从 config.json 读出模型的 RoPE'),
  description: L('Paste a Hugging Face config.json: the package reads its RoPE per layer type, and the wavelengths are drawn after scaling and before.',
    '粘贴 Hugging Face 的 config.json：由本库按层类型读出其 RoPE，画出缩放后与缩放前的波长。'),
  takeaway: L('The scaled wavelengths part from the unscaled ones only where the scheme interpolates.', '缩放后的波长只在该方案做插值的地方偏离未缩放的波长。'),
  params: { config: configParam(LLAMA4) },
  panels: () => [{ id: 'plot', block: 'lines', height: 220, logY: true }],
  compute(pe, { config }) {
    const r = fromConfig(pe, config);
    const types = ropeTypes(r).map(([name, t]) => ({ name, rope_type: t.rope_type, head_dim: t.head_dim, rotary_dim: t.rotary_dim,
      rope_theta: t.rope_theta, factor: t.factor, attention_scaling: t.attention_scaling, source: t.source, params: t.params,
      llama3_bands: t.llama3_bands, yarn_correction_range: t.yarn_correction_range, original_max_position_embeddings: t.original_max_position_embeddings,
      original: t.original_max_position_embeddings, inv: t.inv_freq, def: pe.ropeInvFreq({ rotary_dim: t.rotary_dim, rope_theta: t.rope_theta }) }));
    const layers = r.layers && { n: r.layers.length, nope: r.layers.filter((/** @type {{ rope: unknown }} */ l) => !l.rope).length };
    return { types, layers, model_type: r.model_type, max: r.max_position_embeddings, original: r.original_max_position_embeddings,
      mla: r.mla, mrope: r.mrope_section && { section: r.mrope_section, interleaved: r.mrope_interleaved }, warnings: r.warnings,
      layout: r.layout, attn_temperature: r.attn_temperature, last: r.inv_freq[r.inv_freq.length - 1], rope_type: r.rope_type,
      head_dim: r.head_dim, rotary_dim: r.rotary_dim, rope_theta: r.rope_theta, attention_scaling: r.attention_scaling };
  },
  render(r) {
    const one = r.types.length === 1;
    /** @type {Array<Record<string, unknown>>} */
    const series = [];
    r.types.forEach((/** @type {any} */ t, /** @type {number} */ k) => {
      const pre = one ? '' : `${shortType(t.name)}: `, preZh = one ? '' : `${typeZh(t.name)}：`, color = TYPE_COLOURS[k % TYPE_COLOURS.length];
      if (one || t.rope_type !== 'default') series.push({ y: wave(t.def), label: L(`${pre}wavelength, unscaled`, `${preZh}波长（未缩放）`), ...(one ? UNSCALED : { color, dash: UNSCALED.dash }) });
      series.push({ y: wave(t.inv), label: L(`${pre}wavelength, ${t.rope_type}`, `${preZh}波长（${t.rope_type}）`), color });
    });
    // one line per length: the training length L, where the scheme switches (Llama 3's L/high_freq_factor and
    // L/low_freq_factor, YaRN's L/beta_fast and L/beta_slow) and the extended length max; names joined where they
    // coincide, kept short (a phone-width plot has room for little; the caption says what L and max are)
    /** @type {Map<number, string[]>} */
    const at = new Map();
    const add = (/** @type {number} */ y, /** @type {string} */ name) => { if (!at.has(y)) at.set(y, []); /** @type {string[]} */ (at.get(y)).push(name); };
    if (r.original) add(r.original, 'L');
    for (const t of r.types) for (const m of scalingFacts(t).thresholds) add(m.y, m.name);
    if (r.max) add(r.max, 'max');
    const marks = [...at].map(([y, names]) => ({ y, label: `${[...new Set(names)].join(' = ')} = ${num(y)}` }));
    /** @type {import('../params.js').Readout[]} */
    const readouts = [{ id: 'info', label: L('read', '读出'), value: r.last,
      text: `rope_type = ${r.rope_type} · head_dim = ${r.head_dim} · rotary_dim = ${r.rotary_dim} · rope_theta = ${r.rope_theta} · max_position_embeddings = ${r.max} · attention_scaling = ${r.attention_scaling.toPrecision(6)}` }];
    for (const t of r.types) {
      const kind = `${t.rope_type}${t.factor != null ? ` ×${num(t.factor)}` : ''}`, tail = ` · rope_theta ${num(t.rope_theta)}${t.original ? ` · original_max_position_embeddings ${t.original}` : ''} · attention_scaling ${num(t.attention_scaling)}`;
      const f = scalingFacts(t), more = { en: f.en.map((x) => ` · ${x}`).join(''), zh: f.zh.map((x) => ` · ${x}`).join('') };
      readouts.push({ id: `type-${t.name}`, label: L(`layer type ${t.name}`, `层类型 ${typeNamed(t.name)}`), value: t.attention_scaling,
        text: L(`${kind} · rotary_dim ${t.rotary_dim} of head_dim ${t.head_dim}${tail}${more.en}`, `${kind} · head_dim ${t.head_dim} 中旋转 ${t.rotary_dim} 维${tail}${more.zh}`),
        note: L(`read from: ${t.source}`, `读自：${t.source}`) });
    }
    if (r.layers) {
      readouts.push({ id: 'layers', label: L('layers', '层'), value: r.layers.nope,
        text: L(`${r.layers.n} layers, ${r.layers.nope} without RoPE (NoPE)`, `共 ${r.layers.n} 层，其中 ${r.layers.nope} 层不用 RoPE（NoPE）`) });
    }
    if (r.mla) {
      readouts.push({ id: 'mla', label: L('MLA', 'MLA'), value: r.mla.softmax_scale_factor,
        text: L(`rotary part qk_rope_head_dim ${r.mla.qk_rope_head_dim} + qk_nope_head_dim ${r.mla.qk_nope_head_dim}; softmax scale × ${num(r.mla.softmax_scale_factor)} (mscale²)`,
          `旋转部分 qk_rope_head_dim ${r.mla.qk_rope_head_dim} + 不旋转部分 qk_nope_head_dim ${r.mla.qk_nope_head_dim}；softmax 缩放 × ${num(r.mla.softmax_scale_factor)}（yarn_get_mscale²）`),
        note: mscaleNote(r.types[0], r.mla) });
    }
    if (r.mrope) {
      readouts.push({ id: 'mrope', label: L('M-RoPE', 'M-RoPE'), value: r.mrope.section[0],
        text: L(`mrope_section [${r.mrope.section.join(', ')}] (t, h, w pairs), ${r.mrope.interleaved ? 'interleaved' : 'contiguous'}`,
          `mrope_section [${r.mrope.section.join(', ')}]（t、h、w 各占的通道对个数），${r.mrope.interleaved ? '交错排列' : '连续分段'}`) });
    }
    readouts.push({ id: 'layout', label: L('pairing', '通道配对'), value: NaN, text: r.layout });
    // the package's notes, English sentences naming keys, translated by config-common.js (noteText)
    if (r.warnings.length) {
      const notes = r.warnings.map(noteText);
      readouts.push({ id: 'warnings', label: L('notes', '提示'), value: r.warnings.length,
        text: L(notes.map((/** @type {import('../params.js').Bilingual} */ x) => x.en).join(' | '), notes.map((/** @type {import('../params.js').Bilingual} */ x) => x.zh).join('；')) });
    }
    return {
      plot: { series, marks, caption: caption(marks, r.types.some((/** @type {any} */ t) => scalingFacts(t).thresholds.length)), xlabel: L('pair i', '通道对 i'), ylabel: L('tokens', '词元数') },
      readouts,
    };
  },
};
