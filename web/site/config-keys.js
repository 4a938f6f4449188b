// @ts-check
// The config reader's key-by-key reading: for the layer kind the model uses by default, each config.json key that
// decides its RoPE, with the value read from the file, what the key does and the number it produces — all from
// pe.ropeFromConfig (the page computes nothing of its own). A table, en + zh (tr from state.js picks the language).

const num = (/** @type {number} */ x) => (Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6))));
const wave = (/** @type {number} */ w) => num(Math.round((2 * Math.PI) / w));

/** The value at a dotted key path of a parsed config, or undefined. @param {any} cfg @param {string} path */
export const at = (cfg, path) => path.split('.').reduce((o, k) => (o != null && typeof o === 'object' ? o[k] : undefined), cfg);
/**
 * The first of `names` that the file itself writes (top level or under text_config), as a key path; null when none is.
 * The table names a key as the file does (Pythia's rotary_pct, rotary_emb_base), not as transformers renames it.
 * @param {any} cfg @param {string[]} names
 */
export function fileKey(cfg, names) {
  for (const n of names) {
    if (at(cfg, n) !== undefined) return n;
    if (at(cfg, `text_config.${n}`) !== undefined) return `text_config.${n}`;
  }
  return null;
}
const called = (/** @type {string | null} */ k, /** @type {string} */ hf) => (k && !k.endsWith(hf)
  ? { en: ` (transformers calls it ${hf})`, zh: `（transformers 中叫 ${hf}）` } : { en: '', zh: '' });

/**
 * The rows [key, value, {en, zh} what it does, {en, zh} what it produces] for the result of pe.ropeFromConfig, the keys
 * named as `cfg` (the parsed file, when there is one) writes them.
 * @param {any} r @param {any} [cfg] @returns {[string, string, {en: string, zh: string}, {en: string, zh: string}][]}
 */
export function keyRows(r, cfg) {
  const t = r.layer_types[r.layer_type];
  if (!t) return [];
  const inv = t.inv_freq, n = inv.length, p = t.params ?? {}, rows = /** @type {[string, string, {en: string, zh: string}, {en: string, zh: string}][]} */ ([]);
  const src = (/** @type {string} */ k) => (t.source && t.source !== 'defaults' && k in p ? `${t.source}.${k}` : k);
  rows.push(['head_dim', num(t.head_dim), { en: 'size of each attention head, d (hidden_size / num_attention_heads when the file has no head_dim)', zh: '每个注意力头的维度 d（文件中没有 head_dim 时为 hidden_size / num_attention_heads）' },
    { en: `${t.rotary_dim} of the ${t.head_dim} channels rotate: ${n} pairs`, zh: `${t.head_dim} 个通道中有 ${t.rotary_dim} 个旋转：${n} 个通道对` }]);
  const rdKey = fileKey(cfg, ['rotary_dim']);
  if (rdKey) rows.push([rdKey, num(t.rotary_dim), { en: 'channels of each head that rotate (GPT-J, CodeGen)', zh: '每个头中参与旋转的通道数（GPT-J、CodeGen）' },
    { en: `${t.head_dim - t.rotary_dim} channels pass through unrotated`, zh: `${t.head_dim - t.rotary_dim} 个通道不旋转，原样通过` }]);
  else if (t.partial_rotary_factor !== 1) {
    const k = fileKey(cfg, ['partial_rotary_factor', 'rotary_pct']), c = called(k, 'partial_rotary_factor');
    rows.push([k ?? 'partial_rotary_factor', num(t.partial_rotary_factor), { en: `share of each head that rotates${c.en}`, zh: `每个头中参与旋转的比例${c.zh}` },
      { en: `rotary_dim = ${t.rotary_dim}`, zh: `rotary_dim = ${t.rotary_dim}` }]);
  }
  const thetaKey = fileKey(cfg, ['rope_theta', 'rotary_emb_base']) ?? (t.source && at(cfg, `${t.source}.rope_theta`) !== undefined ? `${t.source}.rope_theta` : null);
  const ct = called(thetaKey, 'rope_theta'), absent = cfg && !thetaKey ? { en: ' (not in the file: the default)', zh: '（文件中没有：取默认值）' } : { en: '', zh: '' };
  rows.push([thetaKey ?? 'rope_theta', num(t.rope_theta), { en: `the base b: pair i turns by θᵢ per token, b to the power −2i/rotary_dim${ct.en}${absent.en}`, zh: `底数 b：第 i 对每个词元转 θᵢ，即 b 的 −2i/rotary_dim 次方${ct.zh}${absent.zh}` },
    { en: `wavelengths from ${wave(1)} to ${num(Math.round((2 * Math.PI) / Math.pow(t.rope_theta, -(2 * (n - 1)) / t.rotary_dim)))} tokens (unscaled)`, zh: `波长从 ${wave(1)} 到 ${num(Math.round((2 * Math.PI) / Math.pow(t.rope_theta, -(2 * (n - 1)) / t.rotary_dim)))} 个词元（未缩放）` }]);
  if (t.rope_type === 'default') {
    rows.push(['rope_scaling', '—', { en: 'no context-extension scheme', zh: '没有上下文扩展方案' }, { en: 'the frequencies are used as they are', zh: '频率原样使用' }]);
  } else {
    rows.push([src('rope_type'), t.rope_type, { en: 'which formula rescales the frequencies (§6, “The formulas”)', zh: '用哪个公式重新缩放频率（§6“公式”）' },
      { en: `slowest pair’s wavelength ${wave(inv[n - 1])} tokens after scaling`, zh: `缩放后最慢一对的波长为 ${wave(inv[n - 1])} 个词元` }]);
    if (t.factor != null) rows.push([src('factor'), num(t.factor), { en: 'the factor s: how far past the training length', zh: '倍数 s：要超出训练长度多少倍' },
      t.rope_type === 'linear' ? { en: `every wavelength × ${num(t.factor)}`, zh: `每个波长 × ${num(t.factor)}` }
        : { en: `the slowest wavelengths × ${num(t.factor)}, the fastest kept`, zh: `最慢的波长 × ${num(t.factor)}，最快的保持不变` }]);
    if (t.original_max_position_embeddings) rows.push([src('original_max_position_embeddings'), num(t.original_max_position_embeddings), { en: 'L₀, the length the model was trained on', zh: 'L₀，模型训练时的长度' },
      { en: t.factor ? `L₀·s = ${num(t.original_max_position_embeddings * t.factor)} tokens` : 'the reference length', zh: t.factor ? `L₀·s = ${num(t.original_max_position_embeddings * t.factor)} 个词元` : '参考长度' }]);
    const b = t.llama3_bands;
    if (b) {
      rows.push([src('high_freq_factor'), num(p.high_freq_factor ?? 4), { en: 'wavelengths shorter than L₀/high_freq_factor are kept', zh: '波长短于 L₀/high_freq_factor 的保持不变' },
        { en: `λ < ${num(b.high_freq_wavelen)}: ${b.n_kept} pairs kept`, zh: `λ < ${num(b.high_freq_wavelen)}：${b.n_kept} 对保持` }]);
      rows.push([src('low_freq_factor'), num(p.low_freq_factor ?? 1), { en: 'wavelengths longer than L₀/low_freq_factor are divided by s', zh: '波长长于 L₀/low_freq_factor 的除以 s' },
        { en: `λ > ${num(b.low_freq_wavelen)}: ${b.n_scaled} pairs scaled, ${b.n_smoothed} smoothed between`, zh: `λ > ${num(b.low_freq_wavelen)}：${b.n_scaled} 对缩放，中间 ${b.n_smoothed} 对平滑过渡` }]);
    }
    const y = t.yarn_correction_range;
    if (t.rope_type === 'yarn') {
      rows.push([src('beta_fast'), num(p.beta_fast ?? 32), { en: 'pairs turning more than beta_fast times in L₀ are kept', zh: '在 L₀ 内转超过 beta_fast 圈的通道对保持不变' },
        { en: y ? `pairs below ${num(y.low)} kept` : '—', zh: y ? `第 ${num(y.low)} 对以下保持` : '—' }]);
      rows.push([src('beta_slow'), num(p.beta_slow ?? 1), { en: 'pairs turning fewer than beta_slow times in L₀ are divided by s', zh: '在 L₀ 内转不到 beta_slow 圈的通道对除以 s' },
        { en: y ? `pairs above ${num(y.high)} divided by s; a ramp between` : '—', zh: y ? `第 ${num(y.high)} 对以上除以 s；中间线性过渡` : '—' }]);
    }
    if (t.attention_scaling !== 1) rows.push(['attention_scaling', num(t.attention_scaling), { en: 'multiplies cos and sin (YaRN’s temperature): longer inputs flatten the softmax, this sharpens it', zh: '乘在 cos 和 sin 上（YaRN 的温度）：输入越长 softmax 越平，这个因子让它重新变尖' },
      { en: `logits × ${num(t.attention_scaling ** 2)}`, zh: `注意力分数 × ${num(t.attention_scaling ** 2)}` }]);
  }
  if (r.max_position_embeddings) rows.push(['max_position_embeddings', num(r.max_position_embeddings), { en: 'the longest input the model is meant for (not read by the RoPE formulas, except dynamic NTK and LongRoPE)', zh: '模型预期的最长输入（RoPE 公式不读它，动态 NTK 与 LongRoPE 除外）' },
    { en: t.original_max_position_embeddings ? `${num(r.max_position_embeddings / t.original_max_position_embeddings)} × L₀` : '—', zh: t.original_max_position_embeddings ? `L₀ 的 ${num(r.max_position_embeddings / t.original_max_position_embeddings)} 倍` : '—' }]);
  // attention windows: no RoPE formula reads them, but they bound the distances RoPE meets (§6, windows and chunks)
  const sw = fileKey(cfg, ['sliding_window']), use = fileKey(cfg, ['use_sliding_window']), off = use != null && at(cfg, use) === false;
  if (sw) {
    const v = at(cfg, sw);
    rows.push([sw, v == null ? 'null' : String(v), { en: 'W: a windowed layer’s query sees only the last W keys', zh: 'W：带窗口的层里，查询只看最近的 W 个键' },
      v == null ? { en: 'no window', zh: '没有窗口' } : off ? { en: 'not applied: use_sliding_window is false', zh: '不生效：use_sliding_window 为 false' }
        : { en: `distances above ${v} never meet RoPE in windowed layers`, zh: `带窗口的层里 RoPE 遇不到超过 ${v} 的距离` }]);
  }
  if (use) rows.push([use, String(at(cfg, use)), { en: 'whether the window is switched on at all', zh: '窗口是否开启' },
    at(cfg, use) ? { en: 'windowed layers as max_window_layers says', zh: '按 max_window_layers 划分带窗口的层' } : { en: 'every layer attends over the whole input', zh: '每一层都看整个输入' }]);
  const mwl = fileKey(cfg, ['max_window_layers']);
  if (mwl) rows.push([mwl, String(at(cfg, mwl)), { en: 'where Qwen2-style models split full and windowed layers', zh: 'Qwen2 类模型在哪一层划分全注意力层与窗口层' },
    off ? { en: 'no effect while use_sliding_window is false', zh: 'use_sliding_window 为 false 时不起作用' } : { en: 'see the model’s own code for which side is windowed', zh: '哪一侧带窗口以模型自己的代码为准' }]);
  return rows;
}
