// @ts-check
// Imported first by the standalone bundle: marks it before figures-worker.js evaluates (that module listens at once
// when it is its own bundle, and only on request inside this one).
/** @type {Record<symbol, unknown>} */ (globalThis)[Symbol.for('posenc.standalone')] = true;
