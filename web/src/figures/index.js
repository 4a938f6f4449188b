// @ts-check
/**
 * posenc/figures — every figure of the posenc explainer as a custom element, plus its building blocks.
 *
 * ```html
 * <script type="module" src="https://unpkg.com/posenc/dist/figures.js"></script>
 * <posenc-figure figure="rope-decay" base="500000" controls></posenc-figure>
 * ```
 * Importing this module registers `<posenc-figure>`, `<pe-heatmap>`, `<pe-lines>` and `<pe-vec2>` (in browsers;
 * in Node it defines nothing and does not throw). The wasm module is fetched and compiled once, when the first figure
 * scrolls into view (shared with any `init()` of posenc on the page), and handed to a module worker
 * (`figures-worker.js`, next to this file) where figures compute — or, where no worker can start, the main thread.
 *
 * Content-Security-Policy: same origin — `script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:;
 * style-src 'self'` is enough (styles are constructable stylesheets inside shadow DOM). From a CDN — add the CDN's
 * origin to `script-src` and `connect-src` (the .wasm is fetched); the worker starts from a `blob:` module.
 * @module posenc/figures
 */
// Safe to import in Node (server-side rendering): nothing is defined there and nothing is fetched. The package's
// declarations (dist/figures.d.ts and the tree under dist/figures/) are emitted from this module's JSDoc by tsc.
export { PeHeatmap } from './blocks/pe-heatmap.js';
export { PeLines } from './blocks/pe-lines.js';
export { PeVec2 } from './blocks/pe-vec2.js';
export { PosencFigure, FigureError } from './element.js';
export { figureNames, describeFigure } from './registry.js';
export { figureHTML } from './html.js';
export { figureSVG } from './headless.js';
export { pngWithAlt } from './export-extras.js';

/** A string in English and Chinese. @typedef {import('./params.js').Bilingual} Bilingual */
/** One parameter of a figure (describeFigure): also the attribute name on `<posenc-figure>`. @typedef {import('./params.js').FigureParam} FigureParam */
/** A figure's title, description, takeaway, parameters and tries (describeFigure). @typedef {import('./params.js').FigureDescription} FigureDescription */
/** A "try this" of a figure: parameter settings and what to look for. @typedef {import('./params.js').FigureTry} FigureTry */
/** The options of figureHTML. @typedef {import('./html.js').FigureHTMLOptions} FigureHTMLOptions */
