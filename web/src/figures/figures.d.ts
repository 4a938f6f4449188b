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
 */

/** A string in English and Chinese. */
export interface Bilingual { en: string; zh: string }

/** One parameter of a figure: also the attribute name on `<posenc-figure>` and the key in the site's URL state. */
export interface FigureParam {
  name: string;
  type: 'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2';
  default: number | string | boolean | [number, number];
  /** inclusive bounds of 'int' and 'number' */
  min?: number; max?: number;
  /** allowed values of 'enum' */
  values?: Array<number | string>;
  /** half-width of a 'vec2' plane: each coordinate lies in [−range, range] */
  range?: number;
  label: Bilingual;
  /** what the attribute accepts, as the error messages say it */
  rule: Bilingual;
}

export interface FigureDescription {
  name: string;
  title: Bilingual;
  /** one line: what the figure shows */
  description: Bilingual;
  /** the one sentence the figure makes its point with */
  takeaway: Bilingual;
  params: FigureParam[];
  /** "try this": parameter settings (the others at their defaults) that make the point, each with what to look for */
  tries: Array<{ params: Record<string, string | number | boolean>; look: Bilingual }>;
}

/** Every figure name, in the explainer's order. */
export const figureNames: readonly string[];

/** A figure's title, description, takeaway and parameters. @throws FigureError for an unknown name. */
export function describeFigure(name: string): FigureDescription;

/**
 * One figure's self-contained HTML page (what `el.toHTML()` and `npx posenc figure … --html` write). `params`: values
 * as attributes take them; `script`: the text of dist/figures-standalone.js. @throws FigureError naming a bad parameter.
 */
export function figureHTML(options: { figure: string; params?: Record<string, string | number | boolean>; lang?: 'en' | 'zh';
  theme?: 'auto' | 'light' | 'dark'; controls?: boolean; caption?: string; script: string;
  /** only the element and the script, to paste into another page (a notebook cell's HTML output) */
  fragment?: boolean }): string;

/**
 * A figure as an SVG image without a browser (Node; what `npx posenc figure <name> … --svg|--png` draws): computed
 * with `pe` (the posenc API: `await init()`), laid out `width` CSS px wide (default 680, 240 to 4096; the SVG is
 * exactly that wide, every text at least 12 px) and painted by the figure's own paint code. Text is SVG text (a font
 * stack with CJK faces); `alt` is the alt text for the parameters drawn (also the SVG's `<title>`/`<desc>`);
 * `readouts` the figure's read-out values. `png` encodes a large heatmap's pixels as a `data:image/png` URL (the
 * command line passes a zlib encoder; without it a figure with a heatmap over 128 × 128 cells throws).
 * @throws FigureError naming a bad parameter, lang or theme; PosencError for a bad width
 */
export function figureSVG(pe: unknown, options: { figure: string; params?: Record<string, string | number | boolean>; width?: number;
  lang?: 'en' | 'zh'; theme?: 'light' | 'dark'; png?: (width: number, height: number, rgba: Uint8ClampedArray) => string }):
  Promise<{ svg: string; alt: string; title: string; width: number; height: number; readouts: Array<{ id: string; value?: number; text: string }> }>;

/** A PNG with the alt text added as iTXt chunks "Title" and "Description" (UTF-8), before its IEND. */
export function pngWithAlt(png: Blob, title: string, description: string): Promise<Blob>;

/** A bad figure name or attribute: `attribute` names it, `text` says what is allowed in both languages. */
export class FigureError extends Error {
  readonly attribute: string;
  readonly text: Bilingual;
}

/**
 * `<posenc-figure figure="NAME">`. Attributes: the figure's parameters (see {@link describeFigure}); `lang="en|zh"`
 * (default: the nearest `lang` of the page); `controls` (show the figure's controls); `caption` (absent: title and
 * takeaway; `"false"`: none; other text: that caption); `theme="auto|light|dark"` (auto, the default, follows the page's dark mode). Changes re-render.
 * Events: `figure-change` {figure, params} whenever a parameter attribute changes (its controls, a drag, the page).
 */
export class PosencFigure extends HTMLElement {
  /** Resolves when the current state has been painted; rejects with the error the figure shows. */
  readonly ready: Promise<PosencFigure>;
  /** The current parameters, parsed. @throws FigureError */
  readonly params: Record<string, unknown>;
  lang: string;
  /** Where figures compute: 'worker', 'main' (no worker could start), or null before the first computation. */
  readonly engine: 'worker' | 'main' | null;
  /** Timing of the last computation finished in the worker (for benchmarks). */
  readonly timing: { name: string; workerMs: number; roundTripMs: number } | null;
  /** Computations on this page stopped before they finished (superseded by a newer state, or cancelled). */
  readonly aborted: number;
  /**
   * PNG of the figure as shown (caption, axes, legends, colour bars, read-outs); size = layout size × `scale`, the
   * device pixels per CSS pixel: 0 < scale ≤ 8, default 2. `width`: lay the figure out that many CSS px wide first (a hidden
   * copy: e.g. 680 for a blog column), 240 to 4096. Carries the alt text (iTXt Title, Description). @throws PosencError naming the option.
   */
  toPNG(options?: { scale?: number; width?: number }): Promise<Blob>;
  /** The figure's alt text: title, takeaway, the parameters drawn and the read-outs (also inside every PNG and SVG). */
  altText(): string;
  /** Self-contained SVG: vector text, axes and curves; heatmap cells as rects up to 128×128, one embedded image beyond. */
  toSVG(options?: { width?: undefined }): string;
  /** The same laid out `width` CSS px wide (240 to 4096; a hidden copy, as toPNG({ width })): the SVG is that wide. */
  toSVG(options: { width: number }): Promise<string>;
  /**
   * Exactly the numbers drawn, as one CSV table: comment lines name the figure, its parameters and every column;
   * columns `panel,series,row,col,x,value,band_min,band_max`: `value` is a heatmap cell or the curve drawn as a line;
   * a banded curve (a shaded min/max band with one edge drawn as its line) also fills `band_min` and `band_max`.
   */
  toCSV(): string;
  /**
   * The figure in its current state as one self-contained HTML page (element, state, worker and wasm inlined; opens
   * from file://, under any sub-path, in a sandboxed iframe; postMessage protocol: README "One file per figure").
   * `script`: the text of posenc's dist/figures-standalone.js, when it is not beside figures.js (a bundled site).
   */
  toHTML(options?: { script?: string; theme?: 'auto' | 'light' | 'dark'; controls?: boolean }): Promise<string>;
  /** Saves a PNG, SVG, CSV or self-contained HTML file through the browser (`width`: a PNG or SVG laid out that wide, as toPNG). */
  download(kind: 'png' | 'svg' | 'csv' | 'html', options?: { script?: string; controls?: boolean; width?: number }): Promise<void>;
}

/**
 * Heatmap building block: properties data, rows, cols, rowLabels, colLabels, vmin, vmax; attributes caption, palette,
 * size (largest side in px, default 480; the map also fits its share of the container), xlabel, ylabel. Axes without
 * labels get numeric ticks (x0, y0: the first column's / row's number; rowTicks, colTicks: each one's); small maps
 * (≤ 12 × 12) print their values (showValues forces or disables it); categories replace the colour bar with a
 * categorical legend; marks draw a labelled rule before a column.
 */
export class PeHeatmap extends HTMLElement {
  update(o: { data: ArrayLike<number>; rows: number; cols: number; rowLabels?: string[]; colLabels?: string[]; vmin?: number; vmax?: number;
    x0?: number; y0?: number; rowTicks?: Array<number | string>; colTicks?: Array<number | string>; showValues?: boolean;
    categories?: Array<{ value: number; label: string }>; marks?: Array<{ col: number; label?: string }> }): void;
  /** every text drawn on the map's canvas: {x, y, w, h, text} in CSS px of the canvas */
  textBoxes(): Array<{ x: number; y: number; w: number; h: number; text: string }>;
}
/** Curves building block: series, marks, regions; attributes caption, xlabel, ylabel, log-x, log-y, height, ymin, ymax. */
export class PeLines extends HTMLElement {
  update(o: { series: Array<{ y: ArrayLike<number>; x?: ArrayLike<number>; x0?: number; dx?: number; y2?: ArrayLike<number>; label?: string; color?: string;
    dash?: number[]; kind?: 'line' | 'step' | 'bar' | 'points'; width?: number }>; marks?: Array<{ x?: number; y?: number; label?: string; color?: string }>;
    regions?: Array<{ x0: number; x1: number; label?: string; color?: string }> }): void;
  /** every text drawn on the canvas (ticks, axis, mark and region labels), in CSS px of the canvas */
  textBoxes(): Array<{ x: number; y: number; w: number; h: number; text: string }>;
  /** the curves drawn, as runs of [x, y] in CSS px of the canvas */
  curvePaths(): Array<Array<[number, number]>>;
  /** the bars drawn, as boxes in CSS px of the canvas */
  solidBoxes(): Array<{ x: number; y: number; w: number; h: number }>;
  /** the plot frame in CSS px of the canvas */
  frameBox(): { x: number; y: number; w: number; h: number };
}
/** 2-D vector plane building block: property vectors; attributes caption, range; event vector-change {id, x, y}. */
export class PeVec2 extends HTMLElement {
  vectors: Array<{ id: string; x: number; y: number; label: string; color?: string; draggable?: boolean; dashed?: boolean }>;
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-figure': PosencFigure;
    'pe-heatmap': PeHeatmap;
    'pe-lines': PeLines;
    'pe-vec2': PeVec2;
  }
}
