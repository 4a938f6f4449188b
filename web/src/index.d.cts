// Types of require('posenc') (index.cjs): in CommonJS, Node ≥ 20.19 / 22.12 hand over the Node entry's ES module.
// The same declarations as `import('posenc')`, read from the ES-module typings (`require('posenc').default` is init too).
type Entry = typeof import('./node.js', { with: { 'resolution-mode': 'import' } });

export declare const init: Entry['init'];
export declare const wasmModule: Entry['wasmModule'];
export declare const simdSupported: Entry['simdSupported'];
export declare const Posenc: Entry['Posenc'];
export type Posenc = import('./node.js', { with: { 'resolution-mode': 'import' } }).Posenc;
export declare const PosencError: Entry['PosencError'];
export type PosencError = import('./node.js', { with: { 'resolution-mode': 'import' } }).PosencError;
export type * from './index.js' with { 'resolution-mode': 'import' };
