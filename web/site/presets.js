// "Source figure" presets: one click sets a figure's parameters to those of a figure or table in the source documents
// and says where it came from. In a section file:
//   <div class="presets" data-figure="rope-decay">
//     <button type="button" data-preset="d=512 window=4096" data-note-en="…" data-note-zh="…">label (en + zh spans)</button> …
//   </div>
// The parameters a preset does not name go back to the figure's defaults, so the figure shows exactly the source's
// setting; the figure's own controls, the URL and the live numbers follow as for any parameter change.
import { describeFigure } from '../src/figures/index.js';
import { tr, onLang } from './state.js';

for (const box of document.querySelectorAll('.presets[data-figure]')) {
  const fig = document.getElementById(box.dataset.figure);
  const note = Object.assign(document.createElement('p'), { className: 'preset-note' });
  note.setAttribute('role', 'status');
  box.after(note);
  let active = null;
  const showNote = () => { note.textContent = active ? tr({ en: active.dataset.noteEn, zh: active.dataset.noteZh }) : ''; note.hidden = !active; };
  for (const b of box.querySelectorAll('button[data-preset]')) {
    b.setAttribute('aria-pressed', 'false');
    b.addEventListener('click', () => {
      const set = new Map(b.dataset.preset.trim().split(/\s+/).map((kv) => kv.split('=')));
      for (const p of describeFigure(fig.getAttribute('figure')).params) {
        if (set.has(p.name)) fig.setAttribute(p.name, set.get(p.name)); else fig.removeAttribute(p.name);
      }
      for (const o of box.querySelectorAll('button[data-preset]')) o.setAttribute('aria-pressed', String(o === b));
      active = b; showNote();
      fig.scrollIntoView({ block: 'nearest' });
    });
  }
  // A change made afterwards by the reader: the figure no longer shows the source's setting.
  fig.addEventListener('figure-change', () => {
    if (!active) return;
    const set = new Map(active.dataset.preset.trim().split(/\s+/).map((kv) => kv.split('=')));
    const def = (p) => (Array.isArray(p.default) ? p.default.join(',') : String(p.default));
    const same = describeFigure(fig.getAttribute('figure')).params.every((p) => (fig.getAttribute(p.name) ?? def(p)) === (set.get(p.name) ?? def(p)));
    if (!same) { active.setAttribute('aria-pressed', 'false'); active = null; showNote(); }
  });
  showNote();
  onLang(showNote);
}
