// §4 "The layouts in reference code" (sections/s4-layouts.html): each listing translated line by line into JavaScript
// (float64 angles from the closed form θ_j = 10000^(−2j/r), r the rotated width) and run on a seeded random q, then
// compared with the posenc kernel ropeApply with the matching layout; the last rows compare across layouts, directly
// and after the permutation P q = (q0, q2, …, q1, q3, …). Every row's max |Δ| is written to the table's data-diffs.
import { pageApi } from './compute.js';
import { tr, onLang } from './state.js';
import { randomRows } from '../src/figures/defs/util.js';
import { fmt } from '../src/figures/blocks/format.js';

/** @type {any} */
let pe = null;   // posenc on the main thread, once the first figures have painted (compute.js)
const $ = (id) => document.getElementById(id);
const BASE = 10000;
const theta = (j, r) => BASE ** (-2 * j / r);
const maxDiff = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

/** Hugging Face: x·cos + rotate_half(x)·sin, cos/sin = [cos mθ_0 … cos mθ_(d/2−1)] twice. */
function hfRotateHalf(q, m, d) {
  const h = d / 2, rot = q.map((_, c) => (c < h ? -q[c + h] : q[c - h]));
  return q.map((v, c) => v * Math.cos(m * theta(c % h, d)) + rot[c] * Math.sin(m * theta(c % h, d)));
}
/** Meta: pairs (2j, 2j+1) as complex numbers times e^{i m θ_j} (freqs_cis from the package, as Meta precomputes it). */
function metaComplex(q, m, d) {
  const cis = pe.ropeFreqsCis({ rotary_dim: d, rope_theta: BASE, positions: [m] });
  const out = new Array(d);
  for (let j = 0; j < d / 2; j++) {
    const [re, im] = [q[2 * j], q[2 * j + 1]], [c, s] = [cis[2 * j], cis[2 * j + 1]];
    out[2 * j] = re * c - im * s; out[2 * j + 1] = re * s + im * c;
  }
  return out;
}
/** GPT-J: x·cos + rotate_every_two(x)·sin, each cos mθ_j twice in a row. */
function gptjEveryTwo(q, m, d) {
  const rot = q.map((_, c) => (c % 2 ? q[c - 1] : -q[c + 1]));
  return q.map((v, c) => v * Math.cos(m * theta(c >> 1, d)) + rot[c] * Math.sin(m * theta(c >> 1, d)));
}
/** ChatGLM2/3: the first rot = d/2 channels in pairs (2j, 2j+1) with frequencies over rot, the rest passed through. */
function chatglm2(q, m, d) {
  const rot = d / 2, out = [...q];
  for (let j = 0; j < rot / 2; j++) {
    const c = Math.cos(m * theta(j, rot)), s = Math.sin(m * theta(j, rot)), [a, b] = [q[2 * j], q[2 * j + 1]];
    out[2 * j] = a * c - b * s; out[2 * j + 1] = b * c + a * s;
  }
  return out;
}

function draw() {
  if (!pe) return;
  const d = Number($('s4x-d').value), m = Number($('s4x-m').value);
  if (!Number.isInteger(m) || Math.abs(m) > 100000) return;
  const q = Array.from(randomRows(pe, 1, d, 19, 'q').slice(0, d));
  const kernel = (layout, rotary_dim = d, x = q) => Array.from(pe.ropeApply(x, { seq: 1, head_dim: d, rotary_dim, rope_theta: BASE, layout, positions: [m] }));
  const half = kernel('half_split'), inter = kernel('interleaved');
  const P = Array.from({ length: d }, (_, c) => (c < d / 2 ? 2 * c : 2 * (c - d / 2) + 1));
  const hfOnPq = hfRotateHalf(P.map((src) => q[src]), m, d);
  const back = new Array(d); P.forEach((src, c) => { back[src] = hfOnPq[c]; });
  const rows = [
    [{ en: 'Hugging Face rotate_half', zh: 'Hugging Face 的 rotate_half' }, { en: 'kernel, half_split', zh: '核，对半排列' }, maxDiff(hfRotateHalf(q, m, d), half)],
    [{ en: 'Meta freqs_cis (complex)', zh: 'Meta 的 freqs_cis（复数）' }, { en: 'kernel, interleaved', zh: '核，交错排列' }, maxDiff(metaComplex(q, m, d), inter)],
    [{ en: 'GPT-J rotate_every_two', zh: 'GPT-J 的 rotate_every_two' }, { en: 'kernel, interleaved', zh: '核，交错排列' }, maxDiff(gptjEveryTwo(q, m, d), inter)],
    [{ en: 'ChatGLM2 (first half)', zh: 'ChatGLM2（前一半）' }, { en: 'kernel, interleaved, rotary_dim = d/2', zh: '核，交错排列，rotary_dim = d/2' }, maxDiff(chatglm2(q, m, d), kernel('interleaved', d / 2))],
    [{ en: 'rotate_half on q', zh: '对 q 用 rotate_half' }, { en: 'Meta freqs_cis on q (no permutation)', zh: '对 q 用 Meta 的 freqs_cis（不置换）' }, maxDiff(hfRotateHalf(q, m, d), metaComplex(q, m, d))],
    [{ en: 'Pᵀ · rotate_half(P q)', zh: 'Pᵀ · rotate_half(P q)' }, { en: 'Meta freqs_cis on q', zh: '对 q 用 Meta 的 freqs_cis' }, maxDiff(back, metaComplex(q, m, d))],
  ];
  const t = $('s4x-table');
  t.replaceChildren();
  const head = t.insertRow();
  for (const h of [{ en: 'listing (JavaScript)', zh: '代码（JavaScript）' }, { en: 'compared with', zh: '比较对象' }, { en: 'max |Δ|', zh: '最大 |Δ|' }]) {
    const th = document.createElement('th'); th.scope = 'col'; th.textContent = tr(h); head.append(th);
  }
  for (const [a, b, diff] of rows) {
    const r = t.insertRow();
    const th = document.createElement('th'); th.scope = 'row'; th.textContent = tr(a); r.append(th);
    r.insertCell().textContent = tr(b);
    r.insertCell().textContent = `${fmt(diff, 6)} ${diff < 1e-5 ? '✓' : '✗'}`;
  }
  t.dataset.diffs = JSON.stringify(rows.map((r) => r[2]));
  t.dataset.d = String(d); t.dataset.m = String(m);
}
$('s4x-form').addEventListener('input', draw);
$('s4x-form').addEventListener('submit', (e) => e.preventDefault());
onLang(draw);
pageApi().then((p) => { pe = p; draw(); });
