// @ts-check
// el.toCSV(): exactly the numbers a figure draws, as one CSV table (each block's table(), one column layout for all).
import { formatParam } from './params.js';

/** @typedef {import('./params.js').FigureDef} FigureDef */
/** @typedef {import('./params.js').PanelSpec} PanelSpec */
/** What toCSV reads of a panel's block. @typedef {{ table(): { rows: ArrayLike<unknown>[] }, getAttribute(name: string): string | null }} TableBlock */

const csvCell = (/** @type {unknown} */ v) => (typeof v === 'number' ? String(v) : /[",\n#]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/**
 * Comment lines name the figure, its parameters and every column; columns `panel,series,row,col,x,value,band_min,band_max`:
 * `value` is a heatmap cell or the curve drawn as a line; a banded curve also fills `band_min` and `band_max`.
 * Then one comment line per read-out, `# read-out <id> (<label>): <value>` (full precision where it is a number).
 * @param {{ def: FigureDef, p: Record<string, any>, panels: PanelSpec[], backend: string | undefined, readouts?: { id: string, label: string, value: string }[] }} last the state painted
 * @param {(id: string) => TableBlock} blockOf the block that drew panel `id`
 * @returns {string}
 */
export function figureCSV({ def, p, panels, backend, readouts = [] }, blockOf) {
  const lines = [`# posenc figure: ${def.name}`,
    `# parameters: ${Object.entries(p).map(([k, v]) => `${k}=${formatParam(def.params[k], v)}`).join('; ').replace(/\s*\n\s*/g, ' ')}`,   // one line: a pasted config.json has newlines
    ...(backend ? [`# computed by: ${backend}`] : []),
    ...readouts.map((r) => `# read-out ${r.id} (${r.label.replace(/\s*\n\s*/g, ' ')}): ${r.value}`),
    '# columns: panel = panel id; series = curve or vector label; row, col = heatmap cell (0-based); x = position on the x axis (unit: the panel\'s x label); value = heatmap value, or the y of the curve drawn as a line (unit: the panel\'s y label or caption); band_min, band_max = the shaded band\'s lower and upper edge (banded curves only; the line is one of them)'];
  /** @type {unknown[][]} */
  const rows = [];
  for (const { id, block } of panels) {
    const el = blockOf(id), t = el.table();
    lines.push(`# panel ${id} (${block}): ${el.getAttribute('caption') ?? ''}${el.getAttribute('xlabel') ? `; x: ${el.getAttribute('xlabel')}` : ''}${el.getAttribute('ylabel') ? `; y: ${el.getAttribute('ylabel')}` : ''}`);
    for (const r of t.rows) {
      if (block === 'heatmap') rows.push([id, '', r[0], r[1], '', r[2], '', '']);
      else if (block === 'lines') rows.push(r[3] === '' ? [id, r[0], '', '', r[1], r[2], '', ''] : [id, r[0], '', '', r[1], r[3], Math.min(Number(r[2]), Number(r[3])), Math.max(Number(r[2]), Number(r[3]))]);
      else rows.push([id, r[0], '', '', r[1], r[2], '', '']);
    }
  }
  return [...lines, 'panel,series,row,col,x,value,band_min,band_max', ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
}
