// @ts-check
// "Try this" beside every figure: for each <posenc-figure> on the page whose definition has `tries`
// (web/src/figures/defs/NAME.js: [{ params, look: {en, zh} }]), a box just before the figure with one button per try
// and the sentence that says what to look for. A click sets the figure to that state (every other parameter back to
// its default), through the same mechanism as the source presets (presets.js); a later change by the reader releases it.
import { describeFigure, figureNames } from '../src/figures/index.js';
import { tr, onLang } from './state.js';
import { wireButtons } from './presets.js';

const LABEL = { en: 'Try this', zh: '试一试' };

for (const fig of document.querySelectorAll('posenc-figure[id]')) {
  const name = fig.getAttribute('figure') ?? '';
  if (!figureNames.includes(name)) continue;   // the figure itself says what is wrong with its name
  /** @type {import('../src/figures/params.js').FigureTry[]} */
  const tries = describeFigure(name).tries;
  if (!tries.length) continue;
  const box = document.createElement('div');
  box.className = 'presets try';
  box.dataset.try = fig.id;
  /** @type {{ b: HTMLButtonElement, look: HTMLSpanElement, t: import('../src/figures/params.js').FigureTry }[]} */
  const rows = tries.map((t) => {
    const b = document.createElement('button'), look = document.createElement('span');
    b.type = 'button';
    b.dataset.params = Object.entries(t.params).map(([k, v]) => `${k}=${v}`).join(' ');
    look.className = 'try-look';
    const row = document.createElement('div');
    row.className = 'try-row';
    // one try per line; the gap between button and sentence is a margin, not a space (no space between Chinese
    // characters in the rendered text). CSSOM, allowed under the page's Content-Security-Policy.
    row.style.flexBasis = '100%';
    look.style.marginLeft = '0.5em';
    row.append(b, look);
    box.append(row);
    return { b, look, t };
  });
  fig.before(box);
  const text = () => { for (const { b, look, t } of rows) { b.textContent = `▶ ${tr(LABEL)}`; look.textContent = tr(t.look); } };
  /** @param {HTMLButtonElement} b @returns {Map<string, string>} the try's parameters as attribute strings */
  // A config figure's try keeps the config shown when it was clicked (the reader's model, not the figure's default).
  const held = new Map();
  for (const { b } of rows) b.addEventListener('click', () => held.set(b, fig.getAttribute('config')));   // before wireButtons' click
  const stateOf = (b) => {
    const m = new Map(Object.entries(rows.find((r) => r.b === b)?.t.params ?? {}).map(([k, v]) => [k, String(v)]));
    if (held.get(b) != null && !m.has('config')) m.set('config', /** @type {string} */ (held.get(b)));
    return m;
  };
  wireButtons(fig, rows.map((r) => r.b), stateOf);
  text();
  onLang(text);
}
