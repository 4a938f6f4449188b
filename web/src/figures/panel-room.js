// @ts-check
// The room a figure's panels will take, from their specs alone (PanelSpec: before the computation has given them data).
// <posenc-figure> keeps it under its controls until its first paint, so that what follows the figure (the page, a blog
// post's text) does not move when the figure arrives: it grew from a 260 px floor to 500–1300 px, a layout shift of the
// whole screen under it. The panels' flex layout (element-ui.js) replayed: a line plot has a row of its own, `height` px
// plus its caption and axis title (exact); small multiples (`cols`) share a row at ≥ 240 px each; heatmaps share a row
// at ~300 px each and are taken as square (pe-heatmap.js's geometry; a map with word labels or a long strip is drawn
// smaller; `aspect` where it is wider than tall). A figure with a vector plane (vec2), a strip (a heatmap with a row
// of its own, `full`) or a map of unknown shape (`aspect: 0`) gets none (0); so does one whose panels need the result
// (element.js). The read-outs under the panels are not counted (they come with the result).

const GAP_ROW = 14, GAP_COL = 20;   // .panels' gap (element-ui.js)
const LINES_TEXT = 34;   // a line plot's caption and x-axis title above and below its canvas (pe-lines.js)
const MAP_TEXT = 70, MAP_SIDE = 108;   // a heatmap's caption, axis titles and ticks; its row labels, margin and colour bar (pe-heatmap.js)

/**
 * The height in CSS px of `panels` laid out `width` px wide; 0 where it cannot be told.
 * @param {import('./params.js').PanelSpec[]} panels @param {number} width
 */
export function panelRoom(panels, width) {
  if (!(width > 0) || !panels.length || panels.some((x) => (x.block !== 'lines' && x.block !== 'heatmap') || x.full || x.aspect === 0)) return 0;
  const maps = panels.filter((x) => x.block === 'heatmap').length;
  const mapsPerRow = Math.max(1, Math.min(maps, Math.floor(width / 300)));
  // the map's height: its side (the `size` asked for, as room allows), less where it is wider than tall (`aspect`)
  const mapSide = (/** @type {import('./params.js').PanelSpec} */ x, /** @type {number} */ perRow) =>
    Math.max(80, Math.min(x.size || 480, (width - GAP_COL * (perRow - 1)) / perRow - MAP_SIDE)) * Math.min(1, x.aspect ?? 1) + MAP_TEXT;
  /** @type {number[]} */
  const rows = [];
  let run = 0, runKey = '';   // the row being filled: how many panels, and of which kind
  for (const x of panels) {
    const multiple = x.block === 'lines' && x.cols ? Math.max(1, Math.min(x.cols, Math.floor((width + GAP_COL) / (240 + GAP_COL)))) : 0;
    const perRow = x.block === 'heatmap' ? mapsPerRow : multiple || 1;
    const h = x.block === 'lines' ? (x.height || 240) + LINES_TEXT : mapSide(x, perRow);
    const key = x.block === 'heatmap' ? 'map' : multiple ? `cols${multiple}` : '';
    if (key && key === runKey && run < perRow) { run += 1; rows[rows.length - 1] = Math.max(rows[rows.length - 1], h); continue; }
    rows.push(h); run = 1; runKey = key;
  }
  return Math.round(rows.reduce((a, b) => a + b, 0) + GAP_ROW * (rows.length - 1));
}
