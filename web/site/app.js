// The page: prose, KaTeX, the package's figures (<posenc-figure>, defined once in web/src/figures) with a permalink and
// an Embed panel each, and the live checks of sections 2–4 (controls → a task in the compute worker → tables).
import katex from 'katex';
import 'katex/dist/katex.min.css';
import './style.css';
import '../src/figures/index.js';
import { fmt } from '../src/figures/blocks/format.js';
import { errorText } from '../src/figures/messages.js';
import { addEmbedBars } from './embed-bar.js';
import './live.js';
import './layouts.js';
import './presets.js';
import './try.js';
import './block-export.js';
import { ready, latest } from './compute.js';
import { initState, tr, onLang, getLang } from './state.js';
import { sections } from './sections.js';

const $ = (id) => document.getElementById(id);

// KaTeX: every [data-tex] element, display mode for .math (formulas are language-neutral).
const texOpts = (el) => ({ displayMode: el.classList.contains('math'), throwOnError: false, output: 'htmlAndMathml' });
for (const el of document.querySelectorAll('[data-tex]')) katex.render(el.dataset.tex, el, texOpts(el));

/** The formula with its top-level separators (\qquad, ",\quad") as line breaks, or null when it has none. */
function stacked(tex) {
  let depth = 0, out = '', any = false;
  for (let i = 0; i < tex.length;) {
    const rest = tex.slice(i);
    const sep = depth === 0 && /^(,?\\qquad|,\\quad)(?![a-zA-Z])/.exec(rest);
    if (sep) { out += sep[0].startsWith(',') ? ',\\\\' : '\\\\'; i += sep[0].length; any = true; continue; }
    const m = /^\\(begin|end|left|right)(?![a-zA-Z])|^\\.|^[{}]/.exec(rest);
    if (m) {
      if (m[0] === '{' || m[1] === 'begin' || m[1] === 'left') depth++;
      else if (m[0] === '}' || m[1] === 'end' || m[1] === 'right') depth--;
      out += m[0]; i += m[0].length;
    } else { out += tex[i]; i++; }
  }
  return any ? `\\begin{gathered}${out}\\end{gathered}` : null;
}
// A display formula wider than its box (a phone) is set again with its parts on separate lines; one that still does
// not fit scrolls inside its box. Again on resize.
function fitMath() {
  for (const el of document.querySelectorAll('.math[data-tex]')) {
    if (el.dataset.stacked) { katex.render(el.dataset.tex, el, texOpts(el)); delete el.dataset.stacked; }
    if (el.scrollWidth <= el.clientWidth + 1 || !el.checkVisibility()) continue;
    const s = stacked(el.dataset.tex);
    if (s) { katex.render(s, el, texOpts(el)); el.dataset.stacked = 'true'; }
  }
}
fitMath();
document.fonts?.ready.then(fitMath);   // widths are final once KaTeX's fonts are in
let fitTimer;
addEventListener('resize', () => { clearTimeout(fitTimer); fitTimer = setTimeout(fitMath, 150); });

// ── helpers shared by the sections ──
let pending = 0;
const setPending = (d) => { pending += d; document.body.dataset.pending = String(pending); };

export const ui = {
  $, tr, fmt, getLang,
  num: (id) => Number($(id).value),
  val: (id) => $(id).value,
  chk: (id) => $(id).checked,
  /** Shows a number: text for people, data-value (full precision) for tests. */
  out(id, v, text) { const el = $(id); el.textContent = text ?? fmt(v, 6); el.dataset.value = String(v); },
  heat(id, data, rows, cols, o = {}) {
    const el = $(id);
    if (o.caption) el.setAttribute('caption', tr(o.caption));
    if (o.xlabel) el.setAttribute('xlabel', tr(o.xlabel));
    if (o.ylabel) el.setAttribute('ylabel', tr(o.ylabel));
    el.update({ data, rows, cols, rowLabels: o.rowLabels, colLabels: o.colLabels, vmin: o.vmin, vmax: o.vmax });
  },
  lines(id, series, o = {}) {
    const el = $(id);
    for (const a of ['caption', 'xlabel', 'ylabel']) if (o[a]) el.setAttribute(a, tr(o[a]));
    el.update({ series: series.map((s) => ({ ...s, label: s.label && tr(s.label) })), marks: (o.marks || []).map((m) => ({ ...m, label: m.label && tr(m.label) })) });
  },
  /** Shows (or clears) a draw's error message right after its first form (or the section heading). */
  error(anchorId, e) {
    const anchor = $(anchorId);
    let box = anchor.nextElementSibling?.classList.contains('error') ? anchor.nextElementSibling : null;
    if (!box) { if (!e) return; box = document.createElement('p'); box.className = 'error'; box.setAttribute('role', 'alert'); anchor.after(box); }
    box.textContent = e ? tr(e.text ?? errorText(e)) : '';
    box.hidden = !e;
  },
};

// Each section: {id, forms: [form ids], draw(run, ui)}; run(task, params) goes through a per-draw "latest" runner.
const draws = [];
for (const s of sections) {
  const runners = new Map();
  const runner = (task) => { if (!runners.has(task)) runners.set(task, latest()); return runners.get(task); };
  const run = (task, params, opts) => runner(task).run(task, params, opts);
  run.runner = runner;
  const anchor = s.forms[0] ?? `${s.id}-title`;
  const draw = async (evt) => {
    setPending(1);
    try { await s.draw(run, ui, evt); ui.error(anchor, null); } catch (e) { ui.error(anchor, e); } finally { setPending(-1); }
  };
  for (const f of s.forms) {
    $(f).addEventListener('input', draw);
    $(f).addEventListener('submit', (e) => e.preventDefault());
  }
  for (const f of s.figures ?? []) $(f).addEventListener('figure-change', draw);
  s.init?.(ui, draw);
  draws.push(draw);
}

initState();
addEmbedBars();
onLang(() => { for (const d of draws) d(); });
onLang(fitMath);   // the other language's formulas were hidden when last measured
const info = await ready;
$('build-info').dataset.simd = String(info.simd);
const setInfo = () => { $('build-info').textContent = tr({ en: ` (running the ${info.simd ? 'WebAssembly SIMD128' : 'scalar WebAssembly'} build)`, zh: `（当前运行 ${info.simd ? 'WebAssembly SIMD128' : '标量 WebAssembly'} 版本）` }); };
setInfo(); onLang(setInfo);
const setNavLabel = () => document.getElementById('toc').setAttribute('aria-label', tr({ en: 'Sections', zh: '章节' }));
setNavLabel(); onLang(setNavLabel);
setPending(0);
await Promise.all(draws.map((d) => d()));
document.body.dataset.ready = 'true';
