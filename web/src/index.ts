/**
 * posenc — positional encodings for transformers, computed by a C++ core compiled to WebAssembly.
 *
 * ```js
 * import init from 'posenc';
 * const pe = await init();
 * const { cos, sin } = pe.ropeTables({ rotary_dim: 8, positions: 3 });
 * ```
 *
 * Conventions shared by every function (each family — rope, alibi, relative, … — is one file, named as in the C++ core):
 * - Option names follow Hugging Face configs where one exists (`rope_theta`, `head_dim`, `rotary_dim`, …).
 * - Results are fresh typed arrays owned by JavaScript (copied out of wasm memory): keep them, mutate them,
 *   no `.delete()`. Inputs are copied in; the caller's arrays are never modified unless passed as `out`.
 * - Buffers of Q/K are `[seq, heads, head_dim]` row-major; score matrices `[seq, seq]` row-major.
 * - Bad input throws a {@link PosencError} whose message starts with the parameter's name and states the
 *   rule, e.g. `rotary_dim: must be even (got 7)`. The module stays usable after an error.
 * - Size caps: head_dim, rotary_dim, d ≤ 8192; positions per call ≤ 2^20; |position| ≤ 2^31 − 1; heads ≤ 1024;
 *   one result ≤ 2^26 floats (256 MiB); attention sequences ≤ 8192 tokens.
 *
 * @packageDocumentation
 */
export { init, simdSupported } from './load.js';
export { Posenc } from './posenc.js';
export { PosencError } from './validate.js';
export type { WasmBuffer, BufferArray } from './buffers.js';
export type { InitOptions } from './load.js';
export type { Positions } from './validate.js';
export type * from './rope.js';
export type * from './rope_scaling.js';
export type * from './sinusoidal.js';
export type * from './absolute.js';
export type * from './learned.js';
export type * from './relative.js';
export type * from './alibi.js';
export type * from './xpos.js';
export type * from './mrope.js';
export type * from './attention.js';
export type * from './engine.js';
export type * from './decay.js';
export type { RopeScalingParams, RopeType } from './rope_config.js';

import { init } from './load.js';
export default init;
