// @ts-check
// <posenc-figure>'s chrome: its stylesheet, the words of its buttons and notes (en, zh), and its controls — one input
// per parameter (select, checkbox, text box or number / slider), written from the definition and kept in step with
// the attributes (element.js reads them back on input).
import { FONT } from './blocks/base.js';
import { L, tr, formatParam } from './params.js';
import { LIGHT_CSS } from './theme.js';
import { setCodeText } from './blocks/code-text.js';

/** The element's words in both languages. */
export const UI = { export: L('Export', '导出'), data: L('Data table', '数据表'), cancel: L('Cancel', '取消'), computing: L('computing…', '计算中…'),
  cancelled: L('cancelled', '已取消'), firstRows: L('first {n} rows of {m}; the CSV has them all', '共 {m} 行，显示前 {n} 行；CSV 含全部'),
  download: L('Download', '下载'), shown: L('as shown', '按当前宽度'), imgWidth: L('image width', '图片宽度'), full: L('(at most {n} characters: the rest is not taken)', '（最多 {n} 个字符，超出部分不采用）') };
/** The element's stylesheet (adopted by its shadow root). */
export const css = `
:host { display: block; font: 14px/1.5 ${FONT}; color: var(--pe-fg); background: var(--pe-bg); max-width: 100%; ${LIGHT_CSS} }
[hidden] { display: none !important; }
/* its children (with a picture of the figure among them) until the first paint; the figure's own content is laid out, unseen, meanwhile */
slot { display: none; }
:host([data-placeholder]) { position: relative; }
:host([data-placeholder]) slot { display: block; }
:host([data-placeholder]) > :not(slot) { position: absolute; top: 0; left: 0; right: 0; visibility: hidden; }
.title { font-weight: 700; margin: 0; }
.takeaway { margin: 2px 0 8px; color: var(--pe-fg); }
form { display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; margin: 6px 0 10px; padding: 8px 10px; background: var(--pe-panel); border-radius: 6px; }
label { display: inline-flex; gap: 6px; align-items: center; flex-wrap: wrap; }
label.wide { display: flex; flex-direction: column; align-items: stretch; width: 100%; }
input, select, textarea, button { font: inherit; font-size: 13px; color: inherit; background: var(--pe-bg); border: 1px solid var(--pe-frame); border-radius: 3px; }
input[type=number] { width: 6em; } input[type=text] { max-width: 100%; } textarea { width: 100%; font: 12px ui-monospace, monospace; }
:focus-visible { outline: 2px solid var(--pe-focus); outline-offset: 2px; }
.panels { display: flex; flex-wrap: wrap; gap: 14px 20px; align-items: flex-start; }
.panels:empty { min-height: 260px; }   /* room for the first paint, so the page below does not jump */
.panels > pe-lines, .panels > [data-full] { flex: 1 1 100%; min-width: 0; }
.panels > pe-lines[data-cols="3"] { flex: 1 1 calc(33.3% - 14px); min-width: 240px; }   /* small multiples */
.readouts { font-variant-numeric: tabular-nums; margin: 6px 0; }
.readouts p { margin: 2px 0; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }   /* identifiers (code-text.js) */
output { font-weight: 600; }
.note { color: var(--pe-muted); }
.error { color: #a3130f; background: #fff0ef; border: 1px solid #c9302c; padding: 6px 10px; border-radius: 4px; }
.progress { display: flex; gap: 8px; align-items: center; margin: 4px 0; }
.progress button { white-space: nowrap; flex: none; }
.bar { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-start; margin-top: 6px; font-size: 13px; }
.bar button { padding: 2px 10px; cursor: pointer; }
.menu { display: inline-flex; gap: 4px; }
.backend { color: var(--pe-muted); border: 1px solid var(--pe-grid); border-radius: 9px; padding: 0 8px; font-size: 12px; }
table { border-collapse: collapse; font: 12px ui-monospace, monospace; }
/* phones: several planes side by side, two to a row (the clocks: the slider and the hands on one screen) */
@media (max-width: 600px) { .panels:has(> pe-vec2 + pe-vec2) { gap: 10px 8px; } .panels:has(> pe-vec2 + pe-vec2) > pe-vec2 { width: calc(50vw - 22px); --pe-vec-size: 100%; font-size: 11px; } }
/* phones: every control a 44 px target (WCAG 2.5.5; the walk measured 18–24 px) */
@media (pointer: coarse), (max-width: 600px) { select, button, input:not([type=range]):not([type=checkbox]) { min-height: 44px; } input[type=range] { height: 44px; } input[type=checkbox] { width: 24px; height: 24px; } }
td, th { border: 1px solid var(--pe-grid); padding: 1px 6px; text-align: right; white-space: nowrap; }
.scroll { overflow: auto; max-width: 100%; max-height: 320px; }
`;

/**
 * Writes the controls of `def` into `form` (once per figure and language) and sets them to `p` (the parsed
 * parameters), or to the attributes of `host` while they do not parse.
 * @param {HTMLFormElement} form @param {import('./params.js').FigureDef} def @param {Record<string, any> | null} p
 * @param {HTMLElement & { lang: string }} host
 */
export function fillControls(form, def, p, host) {
  const lang = host.lang;
  if (form.dataset.figure !== def.name || form.dataset.lang !== lang) {
    form.replaceChildren(...Object.entries(def.params).filter(([, s]) => s.type !== 'vec2').map(([name, s]) => {
      const label = document.createElement('label');
      /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} */
      let input;
      if (s.type === 'enum') { input = document.createElement('select'); for (const v of s.values ?? []) { const l = s.valueLabels?.[String(v)]; input.append(new Option(l ? tr(l, lang) : String(v), String(v))); } }   // valueLabels: {value: {en, zh}}, the option's text
      else if (s.type === 'bool') { input = document.createElement('input'); input.type = 'checkbox'; }
      else if (s.multiline) { input = document.createElement('textarea'); input.rows = 5; input.spellcheck = false; label.className = 'wide'; }
      else { input = document.createElement('input'); input.type = s.type === 'string' ? 'text' : s.slider ? 'range' : 'number'; if (s.min !== undefined) { input.min = String(s.min); input.max = String(s.max); } }
      input.name = name;
      const text = setCodeText(document.createElement('span'), tr(s.label, lang) || name);
      if (s.type === 'bool') label.append(input, text); else label.append(text, input);
      if (s.slider) { const o = document.createElement('output'); o.dataset.for = name; label.append(o); }
      if (s.type === 'string') {
        // A text box takes at most the parameter's cap: a pasted 50 KB text is cut there by the browser (the page never
        // holds, validates or lays it out), and a note says so while the box is full.
        const max = s.maxLength ?? 400;
        /** @type {HTMLInputElement} */ (input).maxLength = max;
        const n = document.createElement('span'); n.className = 'note'; n.dataset.capFor = name; n.hidden = true;
        n.textContent = tr(UI.full, lang).replace('{n}', String(max)); label.append(n);
      }
      return label;
    }));
    form.dataset.figure = def.name; form.dataset.lang = lang;
  }
  for (const el of /** @type {Iterable<HTMLInputElement>} */ (/** @type {unknown} */ (form.elements))) {
    const s = def.params[el.name];
    if (!s) continue;
    const v = p ? formatParam(s, p[el.name]) : host.getAttribute(el.name) ?? formatParam(s, s.default);
    if (el.type === 'checkbox') el.checked = v === 'true'; else if (el.value !== v && document.activeElement !== host) el.value = v;
    const o = form.querySelector(`output[data-for="${el.name}"]`); if (o) o.textContent = v;
    const full = /** @type {HTMLElement | null} */ (form.querySelector(`[data-cap-for="${el.name}"]`)); if (full) full.hidden = el.value.length < el.maxLength;
  }
}

/**
 * The data table under a figure: the first 200 rows of its CSV (toCSV, comments left out) in `box`, with a note when
 * there are more. @param {Element} box @param {string} csvText @param {string} lang
 */
export function fillDataTable(box, csvText, lang) {
  const csv = csvText.split('\n').filter((l) => l && !l.startsWith('#')), N = 200;
  const table = document.createElement('table');
  csv.slice(0, N + 1).forEach((l, i) => { const row = table.insertRow(); for (const v of l.split(',')) { const c = document.createElement(i ? 'td' : 'th'); c.textContent = v; row.append(c); } });
  const note = document.createElement('p'); note.className = 'note';
  note.textContent = csv.length - 1 > N ? tr(UI.firstRows, lang).replace('{n}', String(N)).replace('{m}', String(csv.length - 1)) : '';
  box.replaceChildren(note, table);
}
