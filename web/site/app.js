// The page: every number comes from the posenc wasm module.
import init from './dist/index.js';
import './components/pe-heatmap.js';

const $ = (id) => document.getElementById(id);
const pe = await init();
globalThis.posenc = pe; // handy in the console
const info = pe.buildInfo();
$('build-info').textContent = `(running the ${info.simd ? 'WebAssembly SIMD128' : 'scalar WebAssembly'} build)`;

/** q, k for the text's tokens, repeated cyclically to `seq` rows. */
export function tokensQK(text, seq, headDim, seed = 0) {
  const base = pe.textQK({ text, head_dim: headDim, seed });
  const n = base.tokens.length;
  const q = new Float32Array(seq * headDim), k = new Float32Array(seq * headDim), tokens = [];
  for (let i = 0; i < seq; i++) {
    const t = i % n;
    q.set(base.q.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    k.set(base.k.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    tokens.push(base.tokens[t]);
  }
  return { tokens, q, k };
}

function showError(el, e) {
  el.textContent = e instanceof Error ? e.message : String(e);
}

function drawMain() {
  const seq = Number($('seq').value), headDim = Number($('head-dim').value);
  $('seq-out').textContent = String(seq);
  try {
    const { tokens, q, k } = tokensQK($('text').value, seq, headDim);
    const rope = $('rope').checked ? { rope_theta: Number($('base').value), layout: $('layout').value } : null;
    const softmax = $('values').value === 'softmax';
    const s = pe.attentionScores({ q, k, seq, head_dim: headDim, rope, causal: $('causal').checked, softmax });
    $('main-map').setAttribute('caption', softmax ? 'softmax(q·kᵀ/√d), row = query, column = key' : 'q·kᵀ/√d (before softmax)');
    $('main-map').update({ data: s, rows: seq, cols: seq, rowLabels: tokens, colLabels: tokens });
  } catch (e) {
    showError($('hover-readout'), e);
  }
}

function drawPermutation() {
  const text = $('perm-text').value;
  try {
    const a = pe.textQK({ text, head_dim: 16, seed: 0 });
    const n = a.tokens.length;
    const i = Math.min(n - 1, Math.max(0, Number($('swap-a').value))), j = Math.min(n - 1, Math.max(0, Number($('swap-b').value)));
    const perm = a.tokens.map((_, t) => (t === i ? j : t === j ? i : t)); // swapped position t holds original token perm[t]
    const swappedText = perm.map((t) => a.tokens[t]).join(' ');
    const b = pe.textQK({ text: swappedText, head_dim: 16, seed: 0 });
    const rope = $('perm-rope').checked ? {} : null;
    const sa = pe.attentionScores({ q: a.q, k: a.k, seq: n, head_dim: 16, rope });
    const sb = pe.attentionScores({ q: b.q, k: b.k, seq: n, head_dim: 16, rope });
    $('perm-a').update({ data: sa, rows: n, cols: n, rowLabels: a.tokens, colLabels: a.tokens, vmin: 0 });
    $('perm-b').update({ data: sb, rows: n, cols: n, rowLabels: b.tokens, colLabels: b.tokens, vmin: 0 });
    let worst = 0;
    for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) worst = Math.max(worst, Math.abs(sb[r * n + c] - sa[perm[r] * n + perm[c]]));
    $('perm-diff').textContent = worst.toExponential(3);
    $('perm-diff').dataset.value = String(worst);
    $('perm-verdict').textContent = worst <= 1e-6
      ? '— the scores are only permuted (up to float rounding): attention cannot tell the two orders apart.'
      : '— the scores changed: RoPE makes attention see the order.';
  } catch (e) {
    showError($('perm-diff'), e);
  }
}

$('controls').addEventListener('input', drawMain);
$('perm-controls').addEventListener('input', drawPermutation);
$('main-map').addEventListener('cell-hover', (e) => {
  const { row, col, value } = e.detail;
  $('hover-readout').textContent = `query ${row} → key ${col}: ${value.toFixed(6)}`;
  $('hover-readout').dataset.value = String(value);
});
drawMain();
drawPermutation();
document.body.dataset.ready = 'true';
for (const f of document.querySelectorAll('form')) f.addEventListener('submit', (e) => e.preventDefault());
