// @ts-check
// "Try this" beside every figure: for each <posenc-figure> on the page whose definition has `tries`
// (web/src/figures/defs/NAME.js: [{ params, look: {en, zh} }]), a box just before the figure with one button per try
// and the sentence that says what to look for (written into the page's HTML at build: figure-bars.js). A click sets the
// figure to that state (every other parameter back to its default), through the same mechanism as the source presets
// (presets.js); a later change by the reader releases it.
import { describeFigure, figureNames } from '../src/figures/index.js';
import { wireButtons } from './presets.js';
import { tryBoxHTML } from './figure-bars.js';

for (const fig of document.querySelectorAll('posenc-figure[id]')) {
  const name = fig.getAttribute('figure') ?? '';
  if (!figureNames.includes(name)) continue;   // the figure itself says what is wrong with its name
  /** @type {import('../src/figures/params.js').FigureTry[]} */
  const tries = describeFigure(name).tries;
  if (!tries.length) continue;
  // the box is in the page's HTML (written at build: figure-bars.js), else written here
  const sel = `[data-try="${CSS.escape(fig.id)}"]`;
  if (!document.querySelector(sel)) fig.insertAdjacentHTML('beforebegin', tryBoxHTML(fig.id, tries));
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(`${sel} .try-row > button`));
  const rows = tries.map((t, i) => ({ b: buttons[i], t }));
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
}
