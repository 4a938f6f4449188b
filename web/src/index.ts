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
 * - RoPE pairs channels `'half_split'` (i, i + rotary_dim/2) by default in every function, as Hugging Face's
 *   `rotate_half`; pass `layout: 'interleaved'` for (2i, 2i+1) (RoFormer, GPT-J, Meta's LLaMA, torchscale's xPos).
 * - Q/K buffers are row-major `[seq, heads, head_dim]` (`qk_layout: 'shd'`, default), or with `batch`:
 *   `'bshd'` [batch, seq, heads, head_dim] or `'bhsd'` [batch, heads, seq, head_dim] (Hugging Face after transpose).
 *   cos/sin tables are [positions, rotary_dim/2], or Hugging Face's [positions, rotary_dim] with `duplicate: true`.
 * - Options are plain objects (prototype-less ones too) with known keys only: an unknown key throws, suggesting the
 *   right name (`ropeTables: unknown option 'rope_base' (did you mean 'rope_theta'?)`). Numbers must be numbers
 *   (finite; integers where counts are meant), never strings or BigInt.
 * - Arrays are plain arrays, typed arrays or array-likes of numbers (copied in once, into reused scratch memory), or
 *   wasm buffers from {@link Posenc.alloc} (used in place, no copy). NaN inside data arrays is data: it propagates as
 *   IEEE arithmetic does (a NaN in q makes the scores of its row NaN); positions must be finite.
 * - Results are fresh typed arrays owned by JavaScript (nothing to `.delete()`), or written into `out` — a typed array
 *   of exactly the result's dtype and length, or a wasm buffer — which is returned. Inputs are never modified unless
 *   also passed as `out` (in place).
 * - Bad input throws a {@link PosencError} whose message starts with the parameter's name and states the rule, with the
 *   value shown briefly: `rotary_dim: must be an integer in [2, 8192] (got '8' (a string))`. The C++ core checks its
 *   own preconditions with the same words. The module stays usable after an error.
 * - Size caps: head_dim, rotary_dim, d ≤ 8192; positions per call ≤ 2^20; |position| ≤ 2^31 − 1; heads ≤ 1024;
 *   one result ≤ 2^26 elements as a new array, ≤ 2^28 written into `out` (memory permitting: wasm memory is at most
 *   2 GiB); attention sequences ≤ 8192 tokens.
 *
 * @packageDocumentation
 */
export { init, simdSupported, wasmModule } from './load.js';
export { Posenc } from './posenc.js';
export { PosencError } from './validate.js';
export type { WasmBuffer, BufferArray } from './buffers.js';
export type { InitOptions, WasmModule, WasmOptions } from './load.js';
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
export type * from './compare.js';
export type * from './gguf.js';
export type * from './rope_engines.js';
export type * from './rope_axes.js';
export type * from './research.js';
export type * from './model.js';
export { LanguageModel, lossByPosition } from './model.js';
export type { RopeScalingParams, RopeType } from './rope_config.js';
export type { PosencGpu, GpuMode, GpuResult, Calibration, GpuWorkload, SweepOptions, GpuCall, Control, WebGpuEntry } from './gpu/index.js';

import { init } from './load.js';
export default init;
