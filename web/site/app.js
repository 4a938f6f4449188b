// The page: prose, formulas (typeset at build time: tex-build.js), the package's figures (<posenc-figure>, defined once in web/src/figures) with a permalink and
// an Embed panel each, and the live checks of sections 2–4 (controls → a task in the page's one worker, the figures' worker with tasks.js added → tables).
// (KaTeX's stylesheet and the page's own: start.js, so that they are <link>s in the page's <head>)
import { ready, latest, firstFigures, pageApi } from './compute.js';   // first: hands the figures engine the page's one worker before any figure runs
import '../src/figures/index.js';
import { fmt } from '../src/figures/blocks/format.js';
import { errorText } from '../src/figures/messages.js';
import { addEmbedBars } from './embed-bar.js';
import './live.js';
import './layouts.js';
import './copy.js';
import './late-links.js';
import './refs-zh.js';
import './presets.js';
import './try.js';
import './model-section.js';
import './own-model.js';
import './block-export.js';
import { initState, tr, onLang, getLang } from './state.js';
import { watchIdentifiers } from './code-idents.js';
import { onTheme } from './theme-switch.js';
import { sections } from './sections.js';
import { fillTex, fitMath } from './tex-fill.js';

const $ = (id) => document.getElementById(id);

// Formulas are typeset at build time (tex-build.js) and put in place by tex-fill.js; only KaTeX's stylesheet comes here.
const texDone = fillTex(firstFigures);
Promise.all([texDone, document.fonts?.ready]).then(fitMath);   // widths are final once KaTeX's fonts are in
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
watchIdentifiers(document.body, firstFigures);   // identifiers in the page's text set as code (code-idents.js), after the first figures
onLang(() => { for (const d of draws) d(); });
onTheme(() => { for (const d of draws) d(); });   // the page's own blocks (outside a figure) repaint in the new colours
onLang(fitMath);   // the other language's formulas were hidden when last measured
const info = await ready;
$('build-info').dataset.simd = String(info.simd);
const setInfo = () => { $('build-info').textContent = tr({ en: ` (running the ${info.simd ? 'WebAssembly SIMD128' : 'scalar WebAssembly'} build)`, zh: `（当前运行 ${info.simd ? 'WebAssembly SIMD128' : '标量 WebAssembly'} 版本）` }); };
setInfo(); onLang(setInfo);
const setNavLabel = () => document.getElementById('toc').setAttribute('aria-label', tr({ en: 'Sections', zh: '章节' }));
setNavLabel(); onLang(setNavLabel);
setPending(0);
// The figures on screen paint first: the live numbers of every section (computed in the page's one worker, beside the
// figures) start once those figures are drawn, or after 1.5 s at most; so do the main thread's (pageApi: the prose's
// numbers, §4's layouts table, the config reader), which are in place before the page says it is ready.
await firstFigures;
await Promise.all([...draws.map((d) => d()), texDone, pageApi()]);
document.body.dataset.ready = 'true';
