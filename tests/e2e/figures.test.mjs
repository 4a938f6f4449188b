// posenc/figures as a user gets it: dist/figures.js served from a sub-path with no bundler, in headless Chromium.
// For every name in figureNames: it paints something, toCSV() holds exactly the package's numbers for those
// parameters (computed here in Node through the API), toSVG() parses and, rasterised by Chromium, matches the canvas
// rendering of the same figure (toPNG at scale 1), toPNG({scale: 2}) decodes to twice the layout size. Then: the strict
// Content-Security-Policy page, the CDN case (package on a second origin), lazy wasm, bad attributes, theme, styles
// kept inside shadow DOM, Node import. Screenshots of every figure (en, zh, phone width) land in test-results/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import init from 'posenc';
import { figureNames, describeFigure } from 'posenc/figures';
import { CHROMIUM_ARGS, shot } from './browser.mjs';
import { serveStatic, STRICT_CSP } from './figures-server.mjs';
import { csvRows } from './csv.mjs';
import { PERPLEXITY } from '../../web/src/figures/defs/evidence-extension.js';
import { axisTicks, tickIndices, cellText, fmt, fmtReadout } from '../../web/src/figures/blocks/format.js';
import { errorText } from '../../web/src/figures/messages.js';
import { randomRows, tokensQK } from '../../web/src/figures/defs/util.js';

const dist = fileURLToPath(new URL('../../dist', import.meta.url));
const pe = await init();
// The real-model figures' defaults, computed here by the API from ../shared (the figures draw the build-time numbers,
// rounded as scripts/model-data.mjs stores them: 4 significant digits, the map 3): TinyStories-656K on the 4096 token ids the
// build used, the original RoPE — per 128 positions exp(mean loss), and the last 256 queries of layer 2's probed head
// pooled to 24 × 48 cells (mean over each cell's queries of the mass on its keys), √ of each.
const MODEL_REF = await (async () => {
  const { default: data } = await import('../../web/src/figures/defs/model-data.gen.js');
  const { SOURCE_656K } = await import('../js/real-models.mjs');
  const { decodeIds } = await import('../../web/src/figures/defs/model-methods.js');
  const m = data.models['tinystories-656k'], r4 = (x) => Number(x.toPrecision(4)), r3 = (x) => Number(x.toPrecision(3));
  const lm = await pe.loadModel(SOURCE_656K);
  const ev = await lm.evaluate({ ids: decodeIds(m.ids64), attention: { layer: 1, head: m.head, rows: [3840, 4096] } });
  lm.free();
  const loss = [];
  for (let a = 0; a < 4096; a += 128) {
    let s = 0, c = 0;
    for (let p = Math.max(a, 1); p < a + 128; p++) { s += ev.nll[p - 1]; c++; }
    loss.push(r4(Math.exp(s / c)));
  }
  const map = [];
  for (let r = 0; r < 24; r++) {
    const q0 = Math.ceil((r * 256) / 24), q1 = Math.ceil(((r + 1) * 256) / 24);
    for (let c = 0; c < 48; c++) {
      let s = 0;   // each term divided by the cell's query count, added in query then key order (as the figure pools)
      for (let q = q0; q < q1; q++) for (let j = Math.ceil((c * 4096) / 48); j < Math.ceil(((c + 1) * 4096) / 48); j++) s += ev.attention.rows[q * 4096 + j] / (q1 - q0);
      map.push(Math.fround(Math.sqrt(r3(s))));   // the maps are stored to 3 significant digits
    }
  }
  return { loss, map };
})();
// posenc's own RoPE tiny model on the first held-out passage (train-short, train-short-attention): recomputed by the API
// from web/models and the build-time text, pooled as the figures say they pool
const TINY_REF = await (async () => {
  const { default: data } = await import('../../web/src/figures/defs/train-short.gen.js');
  const { EDGES, PASSAGES } = await import('../../web/src/figures/defs/train-short-live.js');
  const dir = new URL('../../web/models/rope/', import.meta.url).pathname, r4 = (x) => Number(x.toPrecision(4)), r3 = (x) => Number(x.toPrecision(3));
  const lm = await pe.loadModel({ config: `${dir}config.json`, safetensors: `${dir}model.safetensors` });
  const head = data.passages[PASSAGES[0]].schemes.rope.head;
  const ids = lm.encode(data.texts[PASSAGES[0]]), n = ids.length;   // 2049 characters: 2048 predictions
  const ev = await lm.evaluate({ ids, attention: { layer: 2, head, rows: [n - 256, n] } });
  lm.free();
  const loss = [];
  for (let k = 0; k + 1 < EDGES.length; k++) {
    let s = 0;
    for (let p = EDGES[k]; p < EDGES[k + 1]; p++) s += ev.nll[p - 1];
    loss.push(r4(s / (EDGES[k + 1] - EDGES[k])));
  }
  const map = [];
  for (let r = 0; r < 24; r++) {
    const q0 = Math.ceil((r * 256) / 24), q1 = Math.ceil(((r + 1) * 256) / 24);
    for (let c = 0; c < 48; c++) {
      let s = 0;
      for (let q = q0; q < q1; q++) for (let j = Math.ceil((c * n) / 48); j < Math.ceil(((c + 1) * n) / 48); j++) s += ev.attention.rows[q * n + j] / (q1 - q0);
      map.push(Math.fround(Math.sqrt(r3(s))));
    }
  }
  return { loss, map };
})();

// The rasterised SVG and the canvas rendering agree when at most 1 % of the pixels differ by more than 64 levels (of
// 255) in some channel. Measured: 0–0.7 % (cell edges where the canvas scales a heatmap image and the SVG draws rects).
const SVG_MISMATCH_MAX = 0.01;

const page = (body, src = './pkg/figures.js', lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8">
<link rel="stylesheet" href="./host.css"><script type="module" src="${src}"></script></head><body>${body}</body></html>`;
const all = (lang, extra = '') => page(figureNames.map((n) => `<posenc-figure figure="${n}" ${extra}></posenc-figure>`).join('\n'), './pkg/figures.js', lang);
let A, B, browser;
const errors = [];

before(async () => {
  B = await serveStatic({ mounts: { '/npm/posenc/dist/': dist }, headers: () => ({ 'access-control-allow-origin': '*' }) });
  const cdnCsp = `default-src 'self'; script-src 'self' ${B.origin} 'wasm-unsafe-eval'; connect-src 'self' ${B.origin}; worker-src 'self' blob:; style-src 'self'`;
  A = await serveStatic({
    mounts: { '/sub/path/pkg/': dist },
    pages: {
      '/sub/path/all.html': all('en'), '/sub/path/all-zh.html': all('zh'),
      '/sub/path/csp.html': all('en', 'controls'),
      '/sub/path/cdn.html': page('<posenc-figure figure="alibi" heads="6"></posenc-figure>', `${B.origin}/npm/posenc/dist/figures.js`),
      '/sub/path/lazy.html': page('<div class="spacer"></div><posenc-figure figure="shaw"></posenc-figure>'),
      '/sub/path/bad.html': page(`<posenc-figure id="bad" figure="alibi" heads="4" head="9"></posenc-figure><posenc-figure id="unknown" figure="rope-decy"></posenc-figure>
        <posenc-figure id="badzh" figure="t5" head="8" lang="zh"></posenc-figure><posenc-figure id="good" figure="shaw"></posenc-figure><p id="host-p">host text</p><form id="host-form"></form>`),
      '/sub/path/dark.html': page('<posenc-figure figure="shaw" theme="dark"></posenc-figure>'),
    },
    // a host stylesheet with broad rules: they must not reach into the figures
    files: { '/sub/path/host.css': 'p { color: rgb(200, 0, 0); } .spacer { height: 3000px; } * { font-family: serif; }' },
    headers: (p) => ({
      ...(p === '/sub/path/csp.html' || p === '/sub/path/bad.html' ? { 'content-security-policy': STRICT_CSP } : {}),
      ...(p === '/sub/path/cdn.html' ? { 'content-security-policy': cdnCsp } : {}),
    }),
  });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
});
after(async () => { await browser?.close(); A?.server.close(); B?.server.close(); });

async function open(path, viewport = { width: 1000, height: 900 }) {
  const p = await browser.newPage({ viewport });
  p.requests = [];
  p.on('request', (r) => p.requests.push(r.url()));   // the page's and its workers' requests
  p.on('console', (m) => { if (m.type() === 'error') errors.push({ path, text: m.text() }); });
  p.on('pageerror', (e) => errors.push({ path, text: String(e) }));
  await p.goto(`${A.origin}${path}`);
  return p;
}
/** Scrolls a figure into view and waits for el.ready: 'ok' or the error message. */
const ready = (p, sel) => p.locator(sel).evaluate(async (el) => { el.scrollIntoView(); return el.ready.then(() => 'ok', (e) => `ERR ${e.message}`); });

// ── what each figure must hold, from the API here in Node (default parameters unless `attrs`) ──
const sweepEnv = () => pe.envelope(pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 512, rope_theta: 10000, count: 4096 }), 900);
const REF = {
  permutation: () => { const a = pe.textQK({ text: '猫 抓 老鼠', head_dim: 16, seed: 0 }); return { panel: 'a', values: pe.attentionScores({ q: a.q, k: a.k, seq: 3, head_dim: 16, rope: null }) }; },
  attention: () => { const t = 'the cat chased the mouse and the mouse ran under the old table', { q, k } = tokensQK(pe, t, 16, 32);
    return { panel: 'map', values: pe.attentionScores({ q, k, seq: 16, head_dim: 32, rope: { rope_theta: 10000 }, causal: false }) }; },
  sinusoidal: () => ({ panel: 'table', values: pe.sinusoidal({ positions: 64, d: 32, base: 10000, layout: 'interleaved' }) }),
  multiplicative: () => { const x = pe.textQK({ text: 'cat', head_dim: 32, seed: 0 }).q.slice(0, 32); return { panel: 'lines', series: 'x ⊙ p', values: pe.multiplicativePE(x, pe.sinusoidal({ positions: [3], d: 32 })) }; },
  shaw: () => ({ panel: 'map', values: pe.shawRelativeIndex({ q_len: 16, max_relative_position: 4 }) }),
  'transformer-xl': () => { const d = 16, seg = pe.textQK({ text: 'a b c d e f g h', head_dim: d, seed: 0 }), k = new Float32Array(10 * d);
    k.set(randomRows(pe, 2, d, 1, 'mem')); k.set(seg.k, 2 * d); const uv = randomRows(pe, 2, d, 2, 'bias');
    return { panel: 'score', values: pe.xlScores({ q: seg.q, k, r: pe.xlPositionEmbedding({ klen: 10, d }), u: uv.subarray(0, d), v: uv.subarray(d), qlen: 8, klen: 10, d }).score }; },
  t5: () => ({ panel: 'plot', series: 'bucket(j − i)', values: Array.from({ length: 337 }, (_, i) => pe.t5RelativePositionBucket(i - 168)) }),
  deberta: () => { const rel = pe.debertaRelativePositions({ q_len: 129, position_buckets: 16, max_relative_positions: 64 }); return { panel: 'plot', series: 'bucketed δ', values: rel.subarray(64 * 129, 65 * 129) }; },
  tupe: () => ({ panel: 'map', values: pe.tupePositionScores({ p: pe.sinusoidal({ positions: 32, d: 32 }), u_q: randomRows(pe, 32, 32, 6, 'uq'), u_k: randomRows(pe, 32, 32, 7, 'uk'), n: 32, d_model: 32, heads: 4, head_dim: 8 }).slice(0, 32 * 32) }),
  'rope-rotation': () => { const t = pe.ropeTablesScaled({ inv_freq: [0.3], positions: [3] });
    const qm = pe.ropeApplyTables(Float32Array.from([1.2, 0.3]), { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos, sin: t.sin });
    return { panel: 'plane', series: 'Rₘq', values: qm, column: 'both' }; },
  'partial-rotary': () => ({ panel: 'map', values: pe.ropeApply(new Float32Array(64 * 64).fill(1), { seq: 64, head_dim: 64, rotary_dim: 32,
    positions: Array.from({ length: 64 }, (_, r) => (r < 16 ? r : Math.round(16 * 4096 ** ((r - 16) / 47)))) }) }),
  'rope-decay': () => ({ attrs: { window: 4096, base2: 0 }, panel: 'plot', series: 'base 10000', values: sweepEnv().max, band: [sweepEnv().min, sweepEnv().max] }),
  'su-decay': () => ({ panel: 'plot', values: pe.ropeDecayBound({ rotary_dim: 128, rope_theta: 10000, count: 257 }) }),
  wavelengths: () => ({ panel: 'wave', values: pe.ropeFrequencyAnalysis({ rotary_dim: 128, rope_theta: 10000, original_max_position_embeddings: 4096 }).wavelength }),
  'context-extension': () => { const d = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'default' }).inv_freq, l = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'linear', factor: 8 }).inv_freq;
    return { panel: 'ratio', series: 'PI (linear)', values: Float64Array.from(l, (w, i) => w / d[i]) }; },
  'config-wavelengths': () => { const r = pe.ropeFromConfig(describeFigure('config-wavelengths').params[0].default); return { panel: 'plot', series: 'wavelength, llama3', values: Float64Array.from(r.inv_freq, (w) => (2 * Math.PI) / w) }; },
  // Llama 4 Scout's keys (the default): 48 layers, every 4th NoPE; rows: chunked_attention (1 = RoPE), full_attention (0 = NoPE)
  'config-schedule': () => ({ panel: 'strip', values: [...Array.from({ length: 48 }, (_, i) => ((i + 1) % 4 ? 1 : NaN)), ...Array.from({ length: 48 }, (_, i) => ((i + 1) % 4 ? NaN : 0))] }),
  'config-decay': () => { const ones = new Float32Array(128).fill(1), v = pe.ropeInnerProductSweep({ q: ones, k: ones, head_dim: 128, rope_theta: 500000, count: 32768 });
    const env = pe.envelope(Float32Array.from(v, (x) => x * (1 / 128)), 900); return { panel: 'plot', series: 'unscaled (rope_theta only)', values: env.min, band: [env.min, env.max] }; },
  'config-scale': () => { const c = describeFigure('config-scale').params[0].default;
    return { panel: 'plot', series: 'Llama 4 query temperature (NoPE layers)', values: Array.from({ length: 161 }, (_, i) => pe.ropeFromConfig(c, { seq_len: Math.round((i * 10485759) / 160) + 1 }).attn_temperature.scale_at_seq_len) }; },
  'config-mrope': () => ({ panel: 'ids', values: pe.mropePositionIds({ config: describeFigure('config-mrope').params[0].default,
    input_ids: [1000, 1001, 1002, 1003, 151652, ...Array(24).fill(151655), 151653, 1030, 1031, 1032], image_grid_thw: [[1, 8, 12]] }).position_ids }),
  alibi: () => ({ panel: 'slopes', values: pe.alibiSlopes(12) }),
  xpos: () => { const n = 1024, d = 64, ones = new Float32Array(n * d).fill(1);
    const s = pe.attentionScores({ q: pe.xposApply(ones, { seq: n, head_dim: d, scale_base: 512 }), k: pe.xposApply(ones, { seq: n, head_dim: d, scale_base: 512, downscale: true }), seq: n, head_dim: d, softmax: false });
    return { panel: 'decay', series: 'xPos', values: Float64Array.from({ length: n }, (_, x) => s[(n - 1) * n + (n - 1 - x)]) }; },
  'linear-attention': () => { const n = 128, d = 8;
    const r = pe.linearAttentionRope({ q: randomRows(pe, n, d, 0, 'lq'), k: randomRows(pe, n, d, 0, 'lk'), v: randomRows(pe, n, 8, 0, 'lv'), seq: n, head_dim: d, v_dim: 8, causal: true, rope_theta: 100, form: 'naive' });
    return { panel: 'den', series: 'denominator, eq. (28)', values: r.denominator }; },
  'rope-compare': () => { const cfg = (i) => pe.ropeFromConfig(describeFigure('rope-compare').params[i].default);
    return { panel: 'ratio', values: pe.compareRope(cfg(0), cfg(1), { positions: 131072, samples: 8192 }).freq_ratio }; },
  explorer: () => { const r = pe.attention({ scheme: { type: 'rope' }, text: 'the cat chased the mouse under the old table', heads: 4, head_dim: 32, causal: true, seed: 0 });
    return { panel: 'A', values: r.probs.slice(0, r.seq * r.seq) }; },
  'rope-clock': () => { const t = pe.ropeTablesScaled({ inv_freq: pe.ropeInvFreq({ rotary_dim: 8, rope_theta: 100 }), positions: [5] });
    const q = pe.ropeApplyTables(Float32Array.from({ length: 8 }, (_, i) => (i % 2 ? 0 : 1)), { seq: 1, head_dim: 8, layout: 'interleaved', cos: t.cos, sin: t.sin });
    return { panel: 'pair0', series: 'q', values: q.slice(0, 2), column: 'both' }; },
  'rope-worked': () => { const t = pe.ropeTablesScaled({ inv_freq: pe.ropeInvFreq({ rotary_dim: 4, rope_theta: 10000 }), positions: [1] });
    const q = pe.ropeApplyTables(Float32Array.from([1, 0.5, -0.5, 1]), { seq: 1, head_dim: 4, layout: 'interleaved', cos: t.cos, sin: t.sin });
    return { panel: 'pair0', series: 'q @ 1', values: q.slice(0, 2), column: 'both' }; },
  'rope-relative': () => { const q = randomRows(pe, 1, 16, 3, 'q').slice(0, 16), k = randomRows(pe, 1, 16, 4, 'k').slice(0, 16);
    return { panel: 'map', values: Array.from({ length: 32 }, (_, m) => [...pe.ropeInnerProductSweep({ q, k, head_dim: 16, rope_theta: 100, q_position: m, k_start: 0, count: 32 })]).flat() }; },
  'ntk-base': () => { const d = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'default' }).inv_freq, n = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'ntk', factor: 8 });
    return { panel: 'speed', series: `NTK-aware: base 10000 → ${Math.round(n.effective_base)}`, values: Float64Array.from(n.inv_freq, (w, i) => w / d[i]) }; },
  // Wan's t axis: 44 of its 128 channels (128 − 2·2⌊128/6⌋) at base 10000 (diffusers WanRotaryPosEmbed)
  'rope-axes': () => ({ panel: 'freq', series: 't: pairs 0–21, base 10000', values: pe.ropeInvFreq({ rotary_dim: 44, rope_theta: 10000 }) }),
  // the last query (127) of chunks L = 32 − 8 = 24: keys in its chunk at i − j, the previous chunk at min(i mod L + L, 32) − (j mod L),
  // older ones at min(2L − 1, 32) − (j mod L) (vLLM DualChunkRotaryEmbedding, closed form)
  // issue 29: the research gallery and the learners' questions
  'research-bias': () => ({ panel: 'bias', series: 'KERPLE power −0.5·r^0.5 (research)', values: Array.from(pe.kerpleBias({ kernel: 'power', r1: 0.5, r2: 0.5, count: 256 }), (x) => x + 0) }),   // −0 at r = 0: the CSV writes 0
  'base-theta': () => ({ panel: 'wavelengths', series: 'wavelength 2π/θᵢ of pair i', values: pe.ropeFrequencyAnalysis({ rotary_dim: 128, rope_theta: 10000, original_max_position_embeddings: 2048 }).wavelength }),
  // Llama 3.1 8B (the default): head_dim 128, rope_theta 500000
  'factor-advisor': () => ({ panel: 'wavelengths', series: 'as trained', values: Float64Array.from(pe.ropeInvFreq({ rotary_dim: 128, rope_theta: 500000 }), (t) => (2 * Math.PI) / t) }),
  // DeepSeek-V3's mscale = mscale_all_dim = 1: the cos/sin ratio (exactly 1 at every s; the curves of ln s are checked to 1e-12 by research-takeaways.test.mjs)
  'yarn-attention': () => ({ attrs: { mscale: 1, mscale_all_dim: 1 }, panel: 'factor', series: 'get_mscale(s, 1) / get_mscale(s, 1)', values: Array.from({ length: 97 }, (_, i) => pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, rope_theta: 10000, factor: 2 ** (i / 16), original_max_position_embeddings: 4096, mscale: 1, mscale_all_dim: 1 }).attention_scaling) }),
  'dual-chunk': () => ({ panel: 'dist', series: 'dual chunk', values: Array.from({ length: 128 }, (_, r) => { const i = 127, j = i - r, L = 24;
    const ci = Math.floor(i / L), cj = Math.floor(j / L);
    return ci === cj ? r : cj === ci - 1 ? Math.min((i % L) + L, 32) - (j % L) : Math.min(2 * L - 1, 32) - (j % L); }) }),
  // the Qwen2.5-VL vision tower's column indices at 448 px (14-px patches: 32 columns)
  'patch-grid': () => ({ panel: 'integer', series: '448 px: 32 patches', values: pe.ropeAxesFromConfig({ model_type: 'qwen2_5_vl', vision_config: { hidden_size: 1280, num_heads: 16 } }, { grid: [32, 32] }).axes[1].positions }),
  // the axis of each of the 64 pairs: Wan (t 22, h 21, w 21 pairs), then four more rows (rope-allocation's order)
  'rope-allocation': () => { const axes = pe.ropeAxesFromConfig({ _class_name: 'WanTransformer3DModel', attention_head_dim: 128 }).axes;
    const row = new Float32Array(64); axes.forEach((a, i) => row.fill(i, a.pairs[0], a.pairs[1]));
    return { panel: 'alloc', values: row, prefix: true }; },
  // SigLIP 2's resize of the stand-in 16×16 table sin(row)·cos(column) to 8×32 patches
  'learned-resize': () => { const s = pe.sinusoidal({ positions: 16, d: 2 }), table = Float64Array.from({ length: 256 }, (_, k) => s[2 * Math.floor(k / 16)] * s[2 * (k % 16) + 1]);
    return { panel: 'resized', values: Float32Array.from(pe.resizePositionGrid({ table, rows: 16, cols: 16, height: 8, width: 32 })) }; },
  'scaling-wavelengths': () => { const d = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'default' }).inv_freq;
    const y = pe.ropeInvFreqScaled({ rotary_dim: 128, rope_theta: 10000, rope_type: 'yarn', factor: 8, original_max_position_embeddings: 4096, beta_fast: 32, beta_slow: 1 }).inv_freq;
    return { panel: 'stretch', series: 'YaRN', values: Float64Array.from(y, (w, i) => d[i] / w) }; },
  'rope-phasor': () => ({ panel: 'score', values: pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 128, inv_freq: pe.ropeInvFreq({ rotary_dim: 128, rope_theta: 10000 }), q_position: 0, k_start: 0, count: 4097 }) }),
  // published numbers, not computed: the YaRN authors' evaluation data as typed into the figure
  'evidence-extension': () => ({ panel: 'ppl', series: 'YaRN', values: PERPLEXITY.yarn }),
  // the real models (build-time numbers; MODEL_REF above recomputes them)
  'model-loss': () => ({ panel: 'loss', series: 'original RoPE', values: MODEL_REF.loss }),
  'model-attention': () => ({ panel: 'map', values: MODEL_REF.map }),
  // posenc's own tiny models (build-time numbers; TINY_REF above recomputes them)
  'train-short': () => ({ panel: 'loss', series: 'RoPE', values: TINY_REF.loss }),
  'train-short-attention': () => ({ panel: 'map', values: TINY_REF.map }),
  'position-codes': () => { const t = pe.ropeTablesScaled({ inv_freq: Array.from({ length: 8 }, (_, i) => Math.PI / 2 ** i), positions: Array.from({ length: 64 }, (_, q) => q) });
    const v = new Float32Array(64 * 16); for (let q = 0; q < 64; q++) for (let i = 0; i < 8; i++) { v[q * 16 + 2 * i] = t.sin[q * 8 + i]; v[q * 16 + 2 * i + 1] = t.cos[q * 8 + i]; }
    return { panel: 'sine', values: v }; },
};

test('Node: importing posenc/figures does not throw; every figure is described', async () => {
  assert.equal(figureNames.length, 46);
  for (const n of figureNames) {
    const d = describeFigure(n);
    assert.equal(d.name, n);
    assert.ok(d.title.en && d.title.zh && d.takeaway.en && d.takeaway.zh && d.description.zh, n);
    for (const p of d.params) assert.ok(p.label.en && p.rule.zh && p.default !== undefined, `${n}.${p.name}`);
    assert.ok(REF[n], `a reference for ${n}`);
  }
  assert.throws(() => describeFigure('rope-decy'), (e) => e.attribute === 'figure' && /rope-decay/.test(e.message));
});

test('read-out numbers for people: fmt rounds to 6 significant digits, fmtReadout drops the zeros after them', () => {
  // cases written out by hand: the rule, not the code's output
  const cases = [[0.125, '0.125000', '0.125'], [7.999999, '8', '8'], [-0.00000001, '−1×10⁻⁸', '−1×10⁻⁸'], [-0, '0', '0'],
    [12345.5, '12\u202f345.5', '12\u202f345.5'], [1 / 3, '0.333333', '0.333333'], [2.5e13, '2.5×10¹³', '2.5×10¹³'], [100, '100', '100'], [0.1 + 0.2, '0.300000', '0.3']];
  for (const [v, six, short] of cases) { assert.equal(fmt(v, 6), six, `fmt(${v}, 6)`); assert.equal(fmtReadout(v), short, `fmtReadout(${v})`); }
});

test('Chinese error texts keep a half-open range whole: (0, 1000000] keeps its bracket, [2, 1e9] reads 2, 1e9', () => {
  const zh = (m) => errorText(Object.assign(new Error(m), { name: 'PosencError' })).zh;
  assert.equal(zh('r1: must be a finite number in (0, 1000000] (got 1e+308)'), '参数错误：r1：必须是 (0, 1000000] 范围内的有限数（收到 1e+308）。');
  assert.equal(zh('base: must be a finite number in [2, 1e9] (got 1)'), '参数错误：base：必须是 2, 1e9 范围内的有限数（收到 1）。');
  assert.equal(zh('x: must be a finite number from 1 to 8 (got 9)'), '参数错误：x：必须是 1 到 8 范围内的有限数（收到 9）。');
});

test('axis ticks (issue 12, defect 12): nice steps, one format per axis, small values not rounded to 0.00, SI for large', () => {
  const labels = (a, b, o) => { const t = axisTicks(a, b, o); return t.values.map(t.format); };
  assert.deepEqual(labels(0, 0.004), ['0', '1e-3', '2e-3', '3e-3', '4e-3']);
  assert.deepEqual(labels(0.001, 0.0012), ['1.00e-3', '1.05e-3', '1.10e-3', '1.15e-3', '1.20e-3']);
  assert.deepEqual(labels(0, 65536), ['0', '10k', '20k', '30k', '40k', '50k', '60k']);
  assert.deepEqual(labels(-0.5, 1.3), ['−0.5', '0', '0.5', '1.0']);
  assert.deepEqual(labels(1, 1e6, { log: true }), ['1', '10', '100', '1k', '10k', '100k', '1M']);
  // heatmap axes: integer steps at least `gap` px apart; cell values in a few characters
  assert.deepEqual(tickIndices(64, 7, 16), [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
  assert.deepEqual(tickIndices(5, 40, 16), [0, 1, 2, 3, 4]);
  assert.deepEqual([-2, -1.5, 0, 0.3679, -0.05, 12.34, 0.5, 0.999, -0.004].map(cellText), ['−2', '−1.5', '0', '0.37', '−0.05', '12', '0.5', '1', '0']);
  for (const [a, b] of [[0, 1e-3], [2e-7, 9e-7], [-3, 250000], [0.1, 0.7]]) {
    const l = labels(a, b);
    assert.equal(new Set(l).size, l.length, `distinct labels on [${a}, ${b}]: ${l}`);
    assert.ok(!l.includes('0.00'), `${l}`);
  }
});

test('every figure: painted, CSV = the API’s numbers, SVG ≈ canvas, PNG size', async (t) => {
  const p = await open('/sub/path/all.html');
  for (const name of figureNames) {
    const ref = REF[name]();
    const sel = `posenc-figure[figure="${name}"]`;
    if (ref.attrs) await p.$eval(sel, (el, a) => { for (const [k, v] of Object.entries(a)) el.setAttribute(k, String(v)); }, ref.attrs);
    assert.equal(await ready(p, sel), 'ok', name);
    // painted: ink on every canvas / shapes in the plane
    const ink = await p.$eval(sel, (el) => [...el.shadowRoot.querySelectorAll('[data-panel]')].map((b) => {
      const c = b.shadowRoot.querySelector('canvas');
      if (!c) return b.shadowRoot.querySelectorAll('svg line').length;
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return n / (d.length / 4);
    }));
    assert.ok(ink.length && ink.every((x) => x > 0.01), `${name}: painted ${ink}`);
    // CSV
    const csv = await p.$eval(sel, (el) => el.toCSV());
    assert.match(csv, new RegExp(`^# posenc figure: ${name}\\n# parameters: `));
    const rows = csvRows(csv, ref.panel, ref.series);
    const want = Array.from(ref.values);
    if (ref.column === 'both') assert.deepEqual([Number(rows[0].x), Number(rows[0].value)], want, name);
    else {
      if (!ref.prefix) assert.equal(rows.length, want.length, `${name}: ${rows.length} rows for ${want.length} numbers`);
      (ref.prefix ? rows.slice(0, want.length) : rows).forEach((r, i) => assert.equal(Number(r.value), want[i], `${name} row ${i}`));
      // a banded curve: `value` is its drawn line (above), band_min and band_max the shaded band's edges
      if (ref.band) rows.forEach((r, i) => assert.deepEqual([Number(r.band_min), Number(r.band_max)], [ref.band[0][i], ref.band[1][i]], `${name} row ${i} (band)`));
      else assert.ok(rows.every((r) => r.band_min === '' && r.band_max === ''), `${name}: no band columns without a band`);
    }
    // SVG vs canvas, PNG size
    const cmp = await p.$eval(sel, async (el) => {
      const svg = el.toSVG(), doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
      const w = Number(doc.documentElement.getAttribute('width')), h = Number(doc.documentElement.getAttribute('height'));
      const img = new Image(); img.src = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' })); await img.decode();
      const a = new OffscreenCanvas(w, h).getContext('2d'); a.drawImage(img, 0, 0, w, h);
      const png1 = await createImageBitmap(await el.toPNG({ scale: 1 })), b = new OffscreenCanvas(w, h).getContext('2d'); b.drawImage(png1, 0, 0);
      const da = a.getImageData(0, 0, w, h).data, db = b.getImageData(0, 0, w, h).data;
      let bad = 0; for (let i = 0; i < da.length; i += 4) if (Math.max(Math.abs(da[i] - db[i]), Math.abs(da[i + 1] - db[i + 1]), Math.abs(da[i + 2] - db[i + 2])) > 64) bad++;
      const png2 = await createImageBitmap(await el.toPNG({ scale: 2 }));
      return { w, h, png1: [png1.width, png1.height], png2: [png2.width, png2.height], mismatch: bad / (w * h), vector: !/<image/.test(svg) || /<rect/.test(svg), texts: (svg.match(/<text/g) || []).length };
    });
    assert.ok(!cmp.error, `${name}: SVG parses (${cmp.error})`);
    assert.deepEqual(cmp.png1, [cmp.w, cmp.h], `${name}: PNG at scale 1`);
    assert.deepEqual(cmp.png2, [2 * cmp.w, 2 * cmp.h], `${name}: PNG at scale 2 decodes to twice the layout size`);
    assert.ok(cmp.mismatch <= SVG_MISMATCH_MAX, `${name}: SVG vs canvas mismatch ${(100 * cmp.mismatch).toFixed(2)} %`);
    assert.ok(cmp.texts > 3, `${name}: SVG text is text`);
    t.diagnostic(`${name}: ${cmp.w}×${cmp.h}, SVG vs canvas ${(100 * cmp.mismatch).toFixed(2)} % pixels off by > 64`);
    await shot(p.locator(sel), `figures/${name}-en`);
  }
  await p.close();
});

test('Chinese and phone width: translated chrome, no horizontal overflow', async () => {
  const p = await open('/sub/path/all-zh.html', { width: 360, height: 800 });
  for (const name of figureNames) {
    const sel = `posenc-figure[figure="${name}"]`;
    assert.equal(await ready(p, sel), 'ok', name);
    assert.equal(await p.$eval(sel, (el) => el.shadowRoot.querySelector('.title').textContent), describeFigure(name).title.zh);
    await shot(p.locator(sel), `figures/${name}-zh-360`);
  }
  assert.equal(await p.$eval('posenc-figure', (el) => el.shadowRoot.querySelector('.export').textContent), '导出 ▾');
  const over = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(over <= 1, `page overflows by ${over}px at 360 px`);
  await p.close();
});

test('strict CSP (no unsafe-inline styles, no eval): every figure with controls renders, in a worker, no violation', async () => {
  const p = await open('/sub/path/csp.html');
  await p.evaluate(() => { window.violations = []; document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.violatedDirective} ${e.blockedURI}`)); });
  for (const name of figureNames) assert.equal(await ready(p, `posenc-figure[figure="${name}"]`), 'ok', name);
  assert.deepEqual(await p.evaluate(() => window.violations), []);
  assert.equal(await p.$eval('posenc-figure', (el) => el.engine), 'worker');
  assert.ok(p.requests.some((u) => u.endsWith('/sub/path/pkg/figures-worker.js')), 'the worker script, resolved from import.meta.url');
  // controls change the figure: the slider of the Shaw figure
  const before = await p.$eval('posenc-figure[figure="shaw"]', (el) => el.shadowRoot.querySelector('output[data-id="corner"]').dataset.value);
  await p.$eval('posenc-figure[figure="shaw"]', (el) => { const i = el.shadowRoot.querySelector('input[name="max_relative_position"]'); i.value = '2'; i.dispatchEvent(new Event('input', { bubbles: true })); });
  await p.waitForFunction(() => document.querySelector('posenc-figure[figure="shaw"]').getAttribute('max_relative_position') === '2');
  assert.equal(await ready(p, 'posenc-figure[figure="shaw"]'), 'ok');
  const after = await p.$eval('posenc-figure[figure="shaw"]', (el) => el.shadowRoot.querySelector('output[data-id="corner"]').dataset.value);
  assert.notEqual(after, before);
  assert.equal(Number(after), pe.shawRelativeIndex({ q_len: 16, max_relative_position: 2 })[15]);
  await p.close();
});

test('from a second origin (CDN case): worker through a blob: module, wasm from the CDN', async () => {
  const p = await open('/sub/path/cdn.html');
  assert.equal(await ready(p, 'posenc-figure'), 'ok');
  assert.equal(Number(await p.$eval('posenc-figure', (el) => el.shadowRoot.querySelector('output[data-id="slope"]').dataset.value)), pe.alibiSlopes(6)[0]);
  assert.equal(await p.$eval('posenc-figure', (el) => el.engine), 'worker');
  assert.ok(p.requests.some((u) => u.startsWith(B.origin) && u.endsWith('.wasm')), `wasm from the CDN origin: ${p.requests}`);
  await p.close();
});

test('the wasm is fetched only when the first figure scrolls into view', async () => {
  const p = await open('/sub/path/lazy.html', { width: 800, height: 600 });
  await p.waitForFunction(() => customElements.get('posenc-figure'));
  await p.waitForTimeout(300);
  const wasm = () => p.requests.filter((u) => /\.wasm$/.test(u)).length;
  assert.equal(await wasm(), 0, 'nothing fetched while the figure is off screen');
  assert.equal(await ready(p, 'posenc-figure'), 'ok');
  assert.ok(await wasm() >= 1);
  await p.close();
});

test('bad attribute, unknown figure: a translated message naming the attribute, console.error, the rest of the page fine', async () => {
  const before = errors.length;
  const p = await open('/sub/path/bad.html');
  assert.match(await ready(p, '#bad'), /^ERR Attribute "head" must be a head index from 0 to 3/);
  const box = (id) => p.$eval(id, (el) => ({ text: el.shadowRoot.querySelector('.error').textContent, hidden: el.shadowRoot.querySelector('.error').hidden, attr: el.shadowRoot.querySelector('.error').dataset.attribute }));
  assert.deepEqual(await box('#bad'), { text: 'Attribute "head" must be a head index from 0 to 3 (heads = 4) (got "9").', hidden: false, attr: 'head' });
  assert.match(await ready(p, '#unknown'), /Unknown figure "rope-decy": attribute "figure" must be one of .*rope-decay/);
  assert.match((await box('#badzh')).text, /^属性 "head" 必须是 0 到 7 之间的整数（收到 "8"）。$/, 'T5 head 8 is an error, not head 7');
  assert.equal(await ready(p, '#good'), 'ok');
  const logged = errors.slice(before).map((e) => e.text).join('\n');
  assert.match(logged, /<posenc-figure figure="alibi">: Attribute "head"/);
  assert.match(logged, /Unknown figure "rope-decy"/);
  assert.match(logged, /<posenc-figure figure="t5">: Attribute "head" must be an integer from 0 to 7 \(got "8"\)/);
  errors.splice(before);   // the expected ones
  // fixing the attribute clears the message and paints
  await p.$eval('#bad', (el) => el.setAttribute('head', '3'));
  assert.equal(await ready(p, '#bad'), 'ok');
  assert.equal((await box('#bad')).hidden, true);
  assert.equal(Number(await p.$eval('#bad', (el) => el.shadowRoot.querySelector('output[data-id="slope"]').dataset.value)), pe.alibiSlopes(4)[3]);
  // styles stay inside shadow DOM: the host page's rules do not reach in, the figure's do not leak out
  assert.equal(await p.$eval('#host-p', (el) => getComputedStyle(el).color), 'rgb(200, 0, 0)');
  assert.notEqual(await p.$eval('#good', (el) => getComputedStyle(el.shadowRoot.querySelector('.takeaway')).color), 'rgb(200, 0, 0)');
  assert.equal(await p.$eval('#host-form', (el) => getComputedStyle(el).display), 'block', 'the figure’s form style does not leak');
  await p.close();
});

test('theme="dark": dark background in the PNG export', async () => {
  const p = await open('/sub/path/dark.html');
  assert.equal(await ready(p, 'posenc-figure'), 'ok');
  const px = await p.$eval('posenc-figure', async (el) => { const b = await createImageBitmap(await el.toPNG({ scale: 1 })); const c = new OffscreenCanvas(4, 4).getContext('2d'); c.drawImage(b, 0, 0); return [...c.getImageData(1, 1, 1, 1).data]; });
  assert.deepEqual(px, [0x17, 0x17, 0x1a, 255]);
  await shot(p.locator('posenc-figure'), 'figures/shaw-dark');
  await p.close();
});

test('no unexpected console errors or page errors', () => { assert.deepEqual(errors, []); });
