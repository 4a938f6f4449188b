// Section 6, "your model's files": two slots, each a config.json or a .gguf (picked, dropped, or from a preset pair of
// gallery configs), each config read by the engine chosen for it (pe.ropeFromConfig's `engine`). A table of what each
// says (differing rows marked), pe.compareRope's verdict in the page's language, and the rope-compare figure for two
// configs. A .gguf is read with pe.ropeFromGGUF where the package has it (only the header and the RoPE tensors).
import { pageApi } from './compute.js';
import { tr, onLang } from './state.js';
import { configErrorText } from '../src/figures/defs/config-common.js';
import llama31 from '../../tests/fixtures/configs/Llama-3.1-8B.json?raw';
import llama32 from '../../tests/fixtures/configs/Llama-3.2-3B.json?raw';
import qwen25 from '../../tests/fixtures/configs/Qwen2.5-7B.json?raw';
import qwen3 from '../../tests/fixtures/configs/Qwen3-8B.json?raw';
import phi3 from '../../tests/fixtures/configs/Phi-3-mini-128k-instruct.json?raw';
import devstral from '../../tests/fixtures/configs/Devstral-Small-2-24B-Instruct.json?raw';
import gptoss from '../../tests/fixtures/configs/gpt-oss-120b.json?raw';
import './model-files.css';

const ENGINES = ['transformers', 'vllm', 'llama.cpp', 'mlx'];
const ENGINE_NAMES = { transformers: 'transformers', vllm: 'vLLM', 'llama.cpp': 'llama.cpp', mlx: 'MLX' };
const FIGURE_MAX = 20000;   // the figure's config parameter takes at most this many characters
/** Preset pairs: [id, label, A, B]; A and B are { name, text, engine }. */
const PAIRS = [
  ['llama', { en: '`Llama 3.1` vs `Llama 3.2`', zh: '`Llama 3.1` 与 `Llama 3.2`' }, { name: 'Llama-3.1-8B/config.json', text: llama31 }, { name: 'Llama-3.2-3B/config.json', text: llama32 }],
  ['qwen', { en: '`Qwen2.5` vs `Qwen3`', zh: '`Qwen2.5` 与 `Qwen3`' }, { name: 'Qwen2.5-7B/config.json', text: qwen25 }, { name: 'Qwen3-8B/config.json', text: qwen3 }],
  ['phi3', { en: '`Phi-3 128k`: `transformers` vs `MLX`', zh: '`Phi-3 128k`：`transformers` 与 `MLX`' },
    { name: 'Phi-3-mini-128k-instruct/config.json', text: phi3 }, { name: 'Phi-3-mini-128k-instruct/config.json', text: phi3, engine: 'mlx' }],
  ['devstral', { en: '`Devstral 2`: `transformers` vs `vLLM`', zh: '`Devstral 2`：`transformers` 与 `vLLM`' },
    { name: 'Devstral-Small-2/config.json', text: devstral }, { name: 'Devstral-Small-2/config.json', text: devstral, engine: 'vllm' }],
  ['gptoss', { en: '`gpt-oss`: `transformers` vs `llama.cpp`', zh: '`gpt-oss`：`transformers` 与 `llama.cpp`' },
    { name: 'gpt-oss-120b/config.json', text: gptoss }, { name: 'gpt-oss-120b/config.json', text: gptoss, engine: 'llama.cpp' }],
];

const root = document.getElementById('model-files');
const q = (s) => root.querySelector(s);
const figure = document.getElementById('rope-compare');
let pe = null;
const slots = [{ key: 'A', engine: 'transformers' }, { key: 'B', engine: 'transformers' }];

const el = (tag, props = {}, ...kids) => { const e = Object.assign(document.createElement(tag), props); e.append(...kids); return e; };
/** Text with `names` in backticks as nodes: names (models, engines) are identifiers, set as code in both languages. */
const withCode = (t) => t.split('`').map((part, i) => (i % 2 ? el('code', { textContent: part }) : part));
const num = (x) => (x == null ? '—' : Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(6))));

// ---- the slots: a file picker, a drop zone, the engine -------------------------------------------------------------
for (const s of slots) {
  s.box = el('div', { className: 'model-files-slot' });
  s.box.dataset.slot = s.key;
  s.title = el('span');
  s.input = el('input', { type: 'file', accept: '.json,.gguf,application/json' });
  s.label = el('label', {}, s.title, s.input);
  s.engineLabel = el('span');
  s.select = el('select', {}, ...ENGINES.map((e) => el('option', { value: e, textContent: e })));
  s.name = el('span', { className: 'name' });
  s.error = el('span', { className: 'error' });
  s.error.setAttribute('role', 'alert');
  s.box.append(s.label, el('label', {}, s.engineLabel, s.select), s.name, s.error);
  s.input.addEventListener('change', () => { if (s.input.files[0]) load(s, s.input.files[0]); });
  s.select.addEventListener('change', () => { s.engine = s.select.value; read(s); update(); });
  s.box.addEventListener('dragover', (e) => { e.preventDefault(); s.box.classList.add('over'); });
  s.box.addEventListener('dragleave', () => s.box.classList.remove('over'));
  s.box.addEventListener('drop', (e) => { e.preventDefault(); s.box.classList.remove('over'); const f = e.dataTransfer?.files?.[0]; if (f) load(s, f); });
}
q('.model-files-slots').replaceChildren(...slots.map((s) => s.box));

const pairButtons = PAIRS.map(([id, label, a, b]) => {
  const btn = el('button', { type: 'button' });
  btn.dataset.pair = id;
  btn.setAttribute('aria-pressed', 'false');
  btn.addEventListener('click', () => {
    for (const [s, f] of [[slots[0], a], [slots[1], b]]) Object.assign(s, { file: f.name, kind: 'config', text: f.text, engine: f.engine ?? 'transformers', gguf: null });
    for (const x of pairButtons) x.setAttribute('aria-pressed', String(x === btn));
    for (const s of slots) read(s);
    update();
  });
  btn.labelText = label;
  return btn;
});
q('.model-files-pairs').replaceChildren(...pairButtons);

/** A picked or dropped file: GGUF by its magic, else text (a config.json). */
async function load(s, file) {
  for (const x of pairButtons) x.setAttribute('aria-pressed', 'false');
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer());
  s.file = file.name;
  if (String.fromCharCode(...head) === 'GGUF') Object.assign(s, { kind: 'gguf', text: null, gguf: file });
  else Object.assign(s, { kind: 'config', text: file.size > 4e6 ? null : await file.text(), gguf: null, tooBig: file.size > 4e6 });
  await read(s);
  update();
}

/** Reads a slot into s.rope (or s.err, {en, zh}). */
async function read(s) {
  s.rope = null; s.err = null; s.engines = null;
  if (!pe || !s.file) return;
  try {
    if (s.kind === 'gguf') {
      if (typeof pe.ropeFromGGUF !== 'function') throw new Error('no-gguf');
      // llama.cpp picks LongRoPE's factors by the allocated context: by default what llama-cli and llama-server allocate
      // (-c 0, the file's trained context), as pe.ropeEngines' llama.cpp column
      s.rope = await pe.ropeFromGGUF(s.gguf);
    } else if (s.tooBig) {
      throw new Error('too-big');
    } else {
      s.rope = pe.ropeFromConfig(s.text, { engine: s.engine });
    }
    // file A under every engine: the matrix below the verdict (drawn when it arrives; a newer read of A wins)
    if (s === slots[0]) {
      const token = (s.token = {});
      pe.ropeEngines(s.kind === 'gguf' ? s.gguf : s.text).then((m) => { if (s.token === token) { s.engines = m; update(); } }, () => {});
    }
  } catch (e) {
    s.err = e.message === 'no-gguf' ? { en: 'This build of posenc reads config.json only (no .gguf reader).', zh: '此版本的 posenc 只能读 config.json（没有 .gguf 读取器）。' }
      : e.message === 'too-big' ? { en: 'Larger than 4 MB: not a config.json.', zh: '超过 4 MB：不是 config.json。' }
        : e.name === 'PosencError' ? configErrorText(e) : { en: String(e.message), zh: String(e.message) };
  }
}

// ---- what each file says, the verdict, the figure ------------------------------------------------------------------
const ROWS = [
  [{ en: 'file', zh: '文件' }, (s) => s.file],
  [{ en: 'read by', zh: '读取方' }, (s) => (s.kind === 'gguf' ? 'llama.cpp (GGUF)' : s.engine)],
  [{ en: 'model_type', zh: 'model_type' }, (s, r) => r.model_type ?? '—'],
  [{ en: 'rope_type', zh: 'rope_type' }, (s, r) => `${r.rope_type}${r.factor != null ? ` ×${num(r.factor)}` : ''}`],
  [{ en: 'rope_theta', zh: 'rope_theta' }, (s, r) => num(r.rope_theta)],
  [{ en: 'rotary_dim / head_dim', zh: 'rotary_dim / head_dim' }, (s, r) => `${r.rotary_dim} / ${r.head_dim}`],
  [{ en: 'pairing', zh: '通道配对' }, (s, r) => r.layout],
  [{ en: 'attention_scaling', zh: 'attention_scaling' }, (s, r) => num(r.attention_scaling)],
  [{ en: 'context (original)', zh: '上下文（原训练长度）' }, (s, r) => `${r.max_position_embeddings ?? '—'}${r.original_max_position_embeddings ? ` (${r.original_max_position_embeddings})` : ''}`],
  [{ en: 'layer types', zh: '层类型' }, (s, r) => Object.entries(r.layer_types ?? {}).map(([t, x]) => `${t}: ${x ? `${x.rope_type}, θ ${num(x.rope_theta)}` : 'NoPE'}`).join('; ') || '—'],
  [{ en: 'engine notes (below)', zh: '引擎差异条数（见下）' }, (s, r) => String((r.engine_notes ?? []).length)],
];

const ZH_CAUSE = { layout: '通道配对方式不同', rotary_dim: '旋转的维数不同', rope_theta: '底数 rope_theta 不同', rope_type: 'rope_type 不同',
  inv_freq: '频率不同', attention_scaling: 'attention_scaling 不同', 'layer type': '层类型' };
/** compareRope's verdict, and the same facts in Chinese. */
function verdict(c) {
  const last = c.positions[c.positions.length - 1], cause = c.causes[0] ?? null;
  const first = cause ? cause.replace(/:.*$/s, '') : null;
  const zhFirst = cause ? `${ZH_CAUSE[cause.split(/[ :]/)[0]] ?? '有差别'}（${first}）` : '两者完全相同：频率、缩放与通道配对一致';
  const bad = Object.entries(c.by_layer_type).find(([, x]) => x && !x.agree);
  const where = bad && c.causes.length === 0 ? `层类型 ${bad[0]}：` : '';
  const zh = `${where}${zhFirst}；在距离 ${last} 处，分数相差 |q|·|k| 的 ${num(c.score_error_ones[c.positions.length - 1])}（全 1 的 q、k）与 ${num(c.score_error_random[c.positions.length - 1])}（随机 q、k），`
    + `最大 ${num(Math.max(c.max_score_error_ones, c.max_score_error_random))}，在距离 ${c.worst_position} 处。${c.agree ? `在容差 ${c.tolerance} 以内。` : `超出容差 ${c.tolerance}。`}`;
  return { en: `${c.verdict}${c.agree ? '' : ` — beyond tolerance ${c.tolerance}`}`, zh };
}

function update() {
  for (const s of slots) {
    s.title.textContent = tr({ en: `File ${s.key}: `, zh: `文件 ${s.key}：` });
    s.engineLabel.textContent = tr({ en: 'read by ', zh: '读取方 ' });
    s.select.value = s.engine; s.select.disabled = s.kind === 'gguf';
    s.name.textContent = s.file ?? tr({ en: 'drop a config.json or .gguf here', zh: '把 config.json 或 .gguf 拖到这里' });
    s.error.textContent = s.err ? tr(s.err) : '';
    s.error.hidden = !s.err;
  }
  for (const b of pairButtons) b.replaceChildren(...withCode(tr(b.labelText)));
  root.setAttribute('aria-label', tr({ en: "your model's files", zh: '你的模型文件' }));
  const [a, b] = slots, table = q('.model-files-table'), out = q('.model-files-verdict');
  const shown = slots.filter((s) => s.rope);
  table.replaceChildren(...(shown.length ? [el('tr', {}, el('td'), ...slots.map((s) => el('th', { textContent: s.key })))] : []),
    ...(shown.length ? ROWS.map(([label, f]) => {
      const cells = slots.map((s) => (s.rope ? String(f(s, s.rope)) : '—'));
      // values are the files' own identifiers and numbers: set as code, the same in both languages
      const name = tr(label);   // a config key (with '_') is an identifier: code, as in the prose
      const row = el('tr', {}, el('th', {}, /_/.test(name) ? el('code', { textContent: name }) : name), ...cells.map((t) => el('td', {}, t === '—' ? t : el('code', { textContent: t }))));
      if (a.rope && b.rope && cells[0] !== cells[1] && label.en !== 'file') row.className = 'differs';
      return row;
    }) : []));
  const c = a.rope && b.rope ? pe.compareRope(a.rope, b.rope) : null;
  // the engines' notes (English: they quote the engines' code), under the table
  const notes = slots.flatMap((s) => (s.rope?.engine_notes ?? []).map((n) => el('li', {}, el('strong', { textContent: `${s.key}: ` }), n)));
  // where each engine's assumed context for file A comes from (the matrix's last row)
  // (only where the context decides the RoPE: LongRoPE's factor set, dynamic NTK's base)
  const m = slots[0].engines;
  const matters = m && m.matrix.some((r) => Object.values(r.cells).some((c) => c.rope_type === 'longrope' || c.rope_type === 'dynamic'));
  if (matters) {
    for (const [e, c] of Object.entries(m.contexts)) {
      if (!c) continue;
      const len = c.length ?? tr({ en: 'the current length', zh: '当前长度' });
      // the source quotes the engine's code (English); the Chinese page gives the length only
      notes.push(el('li', {}, el('strong', {}, 'A, ', el('code', { textContent: ENGINE_NAMES[e] }), ': '),
        tr({ en: `context ${len} — ${c.source}`, zh: c.length === null ? '上下文为当前长度' : `上下文 ${len}` })));
    }
  }
  if (c) notes.push(...c.notes.map((n) => el('li', {}, n)));
  const head = el('p', { textContent: tr({ en: 'Where the engines read the config differently (from their code, at the commits cited):',
    zh: '引擎读取配置的不同之处（依据所引提交中的代码，说明保留英文原文）：' }) });
  q('.model-files-notes').replaceChildren(head, el('ul', {}, ...notes));
  q('.model-files-notes').hidden = notes.length === 0;
  out.replaceChildren();
  out.dataset.agree = '';
  if (c) {
    const v = verdict(c);
    out.append(el('strong', { textContent: tr({ en: 'Verdict: ', zh: '结论：' }) }), tr(v));
    out.dataset.agree = String(c.agree);
  }
  engineMatrix();
  const both = a.rope && b.rope && a.kind === 'config' && b.kind === 'config' && a.text.length <= FIGURE_MAX && b.text.length <= FIGURE_MAX;
  figure.hidden = !both;
  if (both) {
    const ctx = Math.max(a.rope.max_position_embeddings ?? 0, b.rope.max_position_embeddings ?? 0);
    const positions = ctx > 32768 ? 131072 : ctx > 8192 ? 32768 : 8192;
    const want = { a: a.text, b: b.text, engine_a: a.engine, engine_b: b.engine, positions: String(positions) };
    for (const [k, v] of Object.entries(want)) if (figure.getAttribute(k) !== v) figure.setAttribute(k, v);
  }
}

/** One matrix cell: what the engine runs on that layer kind (≠ where it differs from transformers). */
function cellText(c) {
  if (!c.rope) return c.verdict === 'no reading' ? '—' : tr({ en: 'no RoPE', zh: '不旋转' });
  return `${c.rope_type}${c.longrope_factors ? ` (${c.longrope_factors})` : ''}\nθ ${num(c.effective_base)}, ×${num(c.attention_scaling)}\n${c.layout ?? '?'}`;
}

/** File A as transformers, vLLM, llama.cpp and MLX run it: pe.ropeEngines' matrix, each engine's context, the verdict. */
function engineMatrix() {
  const m = slots[0].engines, box = q('.model-files-engines');
  box.hidden = !m;
  if (!m) return;
  const engines = Object.keys(m.engines);
  const head = el('tr', {}, el('th', { textContent: tr({ en: 'layer kind', zh: '层类型' }) }), ...engines.map((e) => el('th', {}, el('code', { textContent: ENGINE_NAMES[e] }))));
  const rows = m.matrix.map((r) => el('tr', {}, el('th', {}, el('code', { textContent: r.layer_type }), r.layers !== null ? ` (${r.layers})` : ''),
    ...engines.map((e) => {
      const c = r.cells[e], td = el('td', {}, el('code', { textContent: cellText(c) }));
      if (c.agrees === false) { td.className = 'differs'; td.append(' ≠'); }
      return td;
    })));
  const ctx = el('tr', {}, el('th', { textContent: tr({ en: 'context assumed', zh: '假定的上下文长度' }) }),
    ...engines.map((e) => el('td', {}, m.contexts[e] ? String(m.contexts[e].length ?? tr({ en: 'current length', zh: '当前长度' })) : '—')));
  const differ = engines.filter((e) => m.matrix.some((r) => r.cells[e].agrees === false)).map((e) => `\`${ENGINE_NAMES[e]}\``);
  const missing = engines.filter((e) => m.engines[e].error).map((e) => `\`${ENGINE_NAMES[e]}\``);
  const summary = m.source === 'gguf' ? tr({ en: 'A `.gguf` is what `llama.cpp` runs; the other engines read the model\'s `config.json`.', zh: '`.gguf` 是 `llama.cpp` 运行的文件；其他引擎读取模型的 `config.json`。' })
    : differ.length === 0 ? tr({ en: 'Every engine that runs this model runs the same RoPE on every layer kind.', zh: '能运行这个模型的引擎，在每一种层上跑的都是同一个 RoPE。' })
      : tr({ en: `Differs from transformers: ${differ.join(', ')} (marked ≠; the notes say why).`, zh: `与 transformers 不同的引擎：${differ.join('、')}（标 ≠ 处；原因见说明）。` });
  const why = missing.length ? m.engines[engines.find((e) => m.engines[e].error)].error.replaceAll('`', "'") : '';
  const note = missing.length && m.source === 'config' ? tr({ en: ` No reading: ${missing.join(', ')} (\`${why}\`).`, zh: `无法读取：${missing.join('、')}（\`${why}\`）。` }) : '';
  box.replaceChildren(el('p', {}, el('strong', { textContent: tr({ en: 'File A in every engine: ', zh: '文件 A 在各个引擎里：' }) }), ...withCode(summary + note)),
    el('div', { className: 'scroll' }, el('table', {}, head, ...rows, ctx)));
  box.dataset.agree = String(m.agree);
}

onLang(update);
figure.hidden = true;
update();
// The first pair (Llama 3.1 vs Llama 3.2) is read when the section comes near the screen: reading two configs in every
// engine costs the main thread about half a second, which a reader at the top of the page should not wait for.
new IntersectionObserver((entries, io) => {
  if (!entries.some((e) => e.isIntersecting)) return;
  io.disconnect();
  pageApi().then((p) => {
    pe = p;
    (root.querySelector('button[data-pair][aria-pressed="true"]') ?? pairButtons[0]).click();   // a pair already chosen, else the first
  });
}, { rootMargin: '1500px 0px' }).observe(root);
