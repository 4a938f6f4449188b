// posenc/figures: registers <pe-heatmap>, <pe-lines>, <pe-vec2> and <posenc-figure>, and exports the figure catalogue.
// Safe to import in Node (server-side rendering): nothing is defined there and nothing is fetched.
export { PeHeatmap } from './blocks/pe-heatmap.js';
export { PeLines } from './blocks/pe-lines.js';
export { PeVec2 } from './blocks/pe-vec2.js';
export { PosencFigure, FigureError } from './element.js';
export { figureNames, describeFigure } from './registry.js';
export { figureHTML } from './html.js';
export { figureSVG } from './headless.js';
export { pngWithAlt } from './export-extras.js';
