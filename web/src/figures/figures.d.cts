// Types of require('posenc/figures') (figures.cjs): the ES module's declarations (figures.d.ts).
type Figures = typeof import('./figures.js', { with: { 'resolution-mode': 'import' } });

export declare const figureNames: Figures['figureNames'];
export declare const describeFigure: Figures['describeFigure'];
export declare const figureHTML: Figures['figureHTML'];
export declare const figureSVG: Figures['figureSVG'];
export declare const pngWithAlt: Figures['pngWithAlt'];
export declare const FigureError: Figures['FigureError'];
export type FigureError = import('./figures.js', { with: { 'resolution-mode': 'import' } }).FigureError;
export declare const PosencFigure: Figures['PosencFigure'];
export type PosencFigure = import('./figures.js', { with: { 'resolution-mode': 'import' } }).PosencFigure;
export declare const PeHeatmap: Figures['PeHeatmap'];
export type PeHeatmap = import('./figures.js', { with: { 'resolution-mode': 'import' } }).PeHeatmap;
export declare const PeLines: Figures['PeLines'];
export type PeLines = import('./figures.js', { with: { 'resolution-mode': 'import' } }).PeLines;
export declare const PeVec2: Figures['PeVec2'];
export type PeVec2 = import('./figures.js', { with: { 'resolution-mode': 'import' } }).PeVec2;
export type * from './figures.js' with { 'resolution-mode': 'import' };
