// "Source figure" presets: one click sets a figure's parameters to those of a figure or table in the source documents
// and says where it came from. In a section file:
//   <div class="presets" data-figure="rope-decay">
//     <button type="button" data-preset="d=512 window=4096" data-note-en="…" data-note-zh="…">label (en + zh spans)</button> …
//   </div>
// The parameters a preset does not name go back to the figure's defaults, so the figure shows exactly the source's
// setting; the figure's own controls, the URL and the live numbers follow as for any parameter change.
// The same mechanism serves "try this" (try.js): setParams and keepsParams below.
import { describeFigure } from '../src/figures/index.js';
import { tr, onLang } from './state.js';

const asText = (v) => (Array.isArray(v) ? v.join(',') : String(v));
/** "k=v k=v" → Map. */
export const parsePreset = (s) => new Map(s.trim().split(/\s+/).map((kv) => kv.split('=')));

/** Sets the figure's parameters named in `set` (a Map of strings) and every other one back to its default. */
export function setParams(fig, set) {
  for (const p of describeFigure(fig.getAttribute('figure')).params) {
    if (set.has(p.name)) fig.setAttribute(p.name, set.get(p.name)); else fig.removeAttribute(p.name);
  }
}

/** Whether the figure still shows exactly `set` (the others at their defaults). */
export function keepsParams(fig, set) {
  return describeFigure(fig.getAttribute('figure')).params.every((p) => (fig.getAttribute(p.name) ?? asText(p.default)) === (set.get(p.name) ?? asText(p.default)));
}

/**
 * Wires buttons that each set a figure to one state: a click sets it (aria-pressed), a later change by the reader
 * releases it. `stateOf(button)` → Map; `onActive(button | null)` runs whenever the active button changes.
 */
export function wireButtons(fig, buttons, stateOf, onActive = () => {}) {
  let active = null;
  for (const b of buttons) {
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => {
      setParams(fig, stateOf(b));
      for (const o of buttons) o.setAttribute('aria-pressed', String(o === b));
      active = b; onActive(b);
      fig.scrollIntoView({ block: 'nearest' });
    });
  }
  // A change made afterwards by the reader: the figure no longer shows that state.
  fig.addEventListener('figure-change', () => {
    if (active && !keepsParams(fig, stateOf(active))) { active.setAttribute('aria-pressed', 'false'); active = null; onActive(null); }
  });
}

for (const box of document.querySelectorAll('.presets[data-figure]')) {
  const fig = document.getElementById(box.dataset.figure);
  const note = Object.assign(document.createElement('p'), { className: 'preset-note' });
  note.setAttribute('role', 'status');
  box.after(note);
  let active = null;
  const showNote = () => { note.textContent = active ? tr({ en: active.dataset.noteEn, zh: active.dataset.noteZh }) : ''; note.hidden = !active; };
  wireButtons(fig, [...box.querySelectorAll('button[data-preset]')], (b) => parsePreset(b.dataset.preset), (b) => { active = b; showNote(); });
  showNote();
  onLang(showNote);
}
