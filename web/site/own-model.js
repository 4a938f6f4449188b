// §6 "your own model" (sections/s6-real-model.html #own-model): the reader picks a .gguf or config.json +
// model.safetensors + tokenizer.json; the files move to the page's worker (own-model-tasks.js), which loads them with
// pe.loadModel and reads the section's stories with that model's tokenizer, original RoPE against the chosen method.
// Shown: the model's shape and an estimate of the time, then perplexity and top-1 accuracy inside and past its trained
// length, and the perplexity per 128 tokens as a small chart (the trained length dashed).
import data from '../src/figures/defs/model-data.gen.js';
import { BUCKET, METHOD_LABELS, METHOD_NAMES, PRECOMPUTED, fmtPpl, methodOptions, methodText } from '../src/figures/defs/model-methods.js';
import { compute, start } from './compute.js';
import { onLang, tr } from './state.js';
import './own-model.css';

const $ = (/** @type {string} */ id) => /** @type {any} */ (document.getElementById(id));
const WARN_BYTES = 200 * 2 ** 20;   // above this, say what loading costs before it starts
const GFLOPS = 10;                  // one wasm SIMD thread on a 34M-parameter Llama, 1024 tokens: 12–19 GFLOP/s measured (2 loaded cores)
/** @type {any} */
let info = null, last = null, job = null;

const T = {
  none: { en: 'Pick a GGUF file, or config.json + model.safetensors + tokenizer.json together.', zh: '选择一个 GGUF 文件，或同时选择 config.json + model.safetensors + tokenizer.json。' },
  noText: { en: 'This build has no stories to read (it was made without ../shared).', zh: '这个构建没有可读的故事文本（构建时没有 ../shared）。' },
  loading: (/** @type {number} */ mb) => ({ en: `Loading ${mb.toFixed(0)} MB…`, zh: `正在载入 ${mb.toFixed(0)} MB……` }),
  big: (/** @type {number} */ mb) => ({ en: ` ${mb.toFixed(0)} MB: the page holds the weights as float32 (up to 4× a quantised file's size) and a long run takes minutes.`,
    zh: ` ${mb.toFixed(0)} MB：页面以 float32 保存权重（最多是量化文件大小的 4 倍），长的计算需要几分钟。` }),
  model: (/** @type {any} */ m) => ({
    en: `${(m.n_params / 1e6).toFixed(m.n_params < 1e7 ? 2 : 0)}M parameters, ${m.layers} layers, ${m.heads} heads (${m.kv_heads} KV), head_dim ${m.head_dim}, rotary_dim ${m.rotary_dim}, θ ${m.theta}, trained context ${m.trained} (${m.format === 'gguf' ? 'GGUF' : 'safetensors'}).`,
    zh: `${(m.n_params / 1e6).toFixed(m.n_params < 1e7 ? 2 : 0)}M 参数，${m.layers} 层，${m.heads} 个头（${m.kv_heads} 个 KV 头），head_dim ${m.head_dim}，rotary_dim ${m.rotary_dim}，θ ${m.theta}，训练长度 ${m.trained}（${m.format === 'gguf' ? 'GGUF' : 'safetensors'}）。` }),
  estimate: (/** @type {number} */ s) => ({ en: ` One pass takes about ${s < 10 ? s.toFixed(1) : s.toFixed(0)} s per method.`, zh: ` 每种方法算一遍约需 ${s < 10 ? s.toFixed(1) : s.toFixed(0)} 秒。` }),
  running: { en: 'Computing…', zh: '正在计算……' },
  cancelled: { en: 'Cancelled.', zh: '已取消。' },
  failed: (/** @type {string} */ m) => ({ en: `Failed: ${m}`, zh: `失败：${m}` }),
  head: { en: ['', 'perplexity ≤ trained', 'perplexity past it', 'top-1 ≤ trained', 'top-1 past it'], zh: ['', '训练长度内困惑度', '超出后困惑度', '训练长度内 top-1', '超出后 top-1'] },
};

/** Seconds for one pass of n tokens: 2 FLOP per parameter per token, plus attention's 4·layers·heads·head_dim per key. */
function estimateSeconds(/** @type {any} */ m, /** @type {number} */ n) {
  return (2 * m.n_params * n + 2 * m.layers * m.heads * m.head_dim * n * n) / (GFLOPS * 1e9);
}

function status(/** @type {any} */ s) { $('own-status').textContent = tr(s); }

function methods() {
  const sel = $('own-method'), keep = sel.value || 'yarn';
  sel.replaceChildren(...METHOD_NAMES.filter((m) => m !== 'original').map((m) => new Option(tr(METHOD_LABELS[m]), m)));
  sel.value = keep;
}

async function pick() {
  const files = [...$('own-files').files];
  $('own-run').disabled = true;
  info = null;
  if (!files.length) { status(T.none); return; }
  const bytes = files.reduce((a, f) => a + f.size, 0), mb = bytes / 2 ** 20;
  status(T.loading(mb));
  const list = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: await f.arrayBuffer() })));
  try {
    info = await compute('s6OwnLoad', { files: list }, { transfer: list.map((f) => f.bytes) });   // moved, not copied
  } catch (e) { status(T.failed(/** @type {Error} */ (e).message)); return; }
  $('own-trained').value = String(info.trained);
  describe(mb);
  $('own-run').disabled = !data?.text;
}

function describe(mb = 0) {
  if (!info) return;
  const n = Number($('own-tokens').value), m = tr(T.model(info));
  const extra = (mb > WARN_BYTES / 2 ** 20 ? tr(T.big(mb)) : '') + tr(T.estimate(estimateSeconds(info, n)));
  $('own-status').textContent = data?.text ? m + extra : `${m} ${tr(T.noText)}`;
}

async function run(/** @type {Event} */ ev) {
  ev.preventDefault();
  if (!info || !data?.text) return;
  const method = $('own-method').value, tokens = Number($('own-tokens').value);
  const trained = Math.max(16, Math.min(16384, Math.round(Number($('own-trained').value) || info.trained)));
  const bar = $('own-progress');
  Object.assign(bar, { hidden: false, value: 0 });
  $('own-cancel').hidden = false;
  $('own-run').disabled = true;
  status(T.running);
  job = start('s6OwnEval', { text: data.text, method, factor: PRECOMPUTED.factor, window: PRECOMPUTED.window, tokens, trained },
    { onProgress: (/** @type {number} */ p) => { bar.value = p; } });
  try {
    last = { method, ...(await job.promise) };
    describe();
    draw();
  } catch (e) {
    status(/** @type {any} */ (e)?.cancelled ? T.cancelled : T.failed(/** @type {Error} */ (e).message));
  } finally {
    job = null;
    bar.hidden = true;
    $('own-cancel').hidden = true;
    $('own-run').disabled = false;
  }
}

function draw() {
  if (!last) return;
  const { runs, trained, tokens, method } = last, table = $('own-result');
  const pct = (/** @type {number} */ x) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '—');
  const ppl = (/** @type {number} */ x) => (Number.isFinite(x) ? fmtPpl(x) : '—');
  const head = document.createElement('tr');
  for (const h of tr(T.head)) head.append(Object.assign(document.createElement('th'), { textContent: h, scope: 'col' }));
  const rows = Object.entries(runs).map(([m, r]) => {
    const row = document.createElement('tr');
    const th = Object.assign(document.createElement('th'), { scope: 'row' });
    th.append(tr(METHOD_LABELS[/** @type {keyof typeof METHOD_LABELS} */ (m)]), document.createElement('br'),
      Object.assign(document.createElement('code'), { textContent: methodText(methodOptions(/** @type {any} */ (m), { factor: PRECOMPUTED.factor, window: PRECOMPUTED.window, theta: info.theta, d: info.rotary_dim })) }));
    row.append(th, ...[ppl(r.inside.ppl), ppl(r.past.ppl), pct(r.inside.acc), pct(r.past.acc)].map((t) => Object.assign(document.createElement('td'), { textContent: t })));
    return row;
  });
  table.replaceChildren(head, ...rows);
  table.hidden = false;
  curve(runs, trained, tokens, method);
}

/** Perplexity per BUCKET tokens, log scale, original grey and the method in the accent colour; the trained length dashed. */
function curve(/** @type {Record<string, any>} */ runs, /** @type {number} */ trained, /** @type {number} */ tokens, /** @type {string} */ method) {
  const W = 640, H = 200, P = { l: 44, r: 8, t: 10, b: 26 };
  const all = Object.values(runs).flatMap((r) => r.ppl).filter(Number.isFinite);
  const lo = Math.log(Math.max(1, Math.min(...all))), hi = Math.log(Math.max(...all) * 1.05);
  const x = (/** @type {number} */ p) => P.l + (p / tokens) * (W - P.l - P.r);
  const y = (/** @type {number} */ v) => H - P.b - ((Math.log(v) - lo) / Math.max(hi - lo, 1e-9)) * (H - P.t - P.b);
  const line = (/** @type {number[]} */ ppl, /** @type {string} */ cls) =>
    `<polyline class="${cls}" fill="none" points="${ppl.map((v, k) => `${x(Math.min(tokens, (k + 0.5) * BUCKET)).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`;
  const ticks = [lo, (lo + hi) / 2, hi].map((l) => `<text x="${P.l - 4}" y="${y(Math.exp(l)) + 4}" text-anchor="end">${fmtPpl(Math.exp(l))}</text>`).join('');
  const label = tr({ en: `perplexity per ${BUCKET} tokens; dashed: the trained length ${trained}`, zh: `每 ${BUCKET} 个词元的困惑度；虚线：训练长度 ${trained}` });
  $('own-curve').innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">${ticks}` +
    (trained < tokens ? `<line class="trained" x1="${x(trained)}" x2="${x(trained)}" y1="${P.t}" y2="${H - P.b}"/>` : '') +
    `${line(runs.original.ppl, 'original')}${method !== 'original' && runs[method] ? line(runs[method].ppl, 'method') : ''}` +
    `<text x="${W - P.r}" y="${H - 6}" text-anchor="end">${tokens} ${tr({ en: 'tokens', zh: '词元' })}</text>` +
    `<text x="${P.l + 6}" y="${P.t + 10}"><tspan class="original">— ${tr(METHOD_LABELS.original)}</tspan>` +
    (method !== 'original' ? `<tspan class="method" dx="12">— ${tr(METHOD_LABELS[/** @type {keyof typeof METHOD_LABELS} */ (method)])}</tspan>` : '') +
    `</text></svg><p class="note">${label}</p>`;
  $('own-curve').hidden = false;
}

if ($('own-form')) {
  methods();
  status(data?.text ? T.none : T.noText);
  $('own-files').addEventListener('change', pick);
  $('own-tokens').addEventListener('change', () => describe());
  $('own-form').addEventListener('submit', run);
  $('own-cancel').addEventListener('click', () => job?.cancel());
  onLang(() => { methods(); if (last) draw(); if (info) describe(); else status(data?.text ? T.none : T.noText); });
}
