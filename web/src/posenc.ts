// The public API object: the methods of every family (one file each, named as in cpp/src) on one class.
import { Core } from './core.js';
import type { PosencGpu } from './gpu/index.js';
import { AbsoluteApi } from './absolute.js';
import { AlibiApi } from './alibi.js';
import { AttentionApi } from './attention.js';
import { CompareApi } from './compare.js';
import { DecayApi } from './decay.js';
import { EngineApi } from './engine.js';
import { GgufApi } from './gguf.js';
import { LearnedApi } from './learned.js';
import { ModelApi } from './model.js';
import { MropeApi } from './mrope.js';
import { RelativeApi } from './relative.js';
import { ResearchApi } from './research.js';
import { RopeApi } from './rope.js';
import { RopeEnginesApi } from './rope_engines.js';
import { RopeAxesApi } from './rope_axes.js';
import { RopeScalingApi } from './rope_scaling.js';
import { SinusoidalApi } from './sinusoidal.js';
import { XposApi } from './xpos.js';

const FAMILIES = [RopeApi, RopeScalingApi, SinusoidalApi, AbsoluteApi, LearnedApi, RelativeApi, AlibiApi, XposApi, MropeApi,
  AttentionApi, EngineApi, DecayApi, GgufApi, CompareApi, RopeEnginesApi, RopeAxesApi, ResearchApi, ModelApi];

/** The posenc API, bound to one loaded WebAssembly instance. Obtain it with {@link init}. */
export interface Posenc extends RopeApi, RopeScalingApi, SinusoidalApi, AbsoluteApi, LearnedApi, RelativeApi, AlibiApi,
  XposApi, MropeApi, AttentionApi, EngineApi, DecayApi, GgufApi, CompareApi, RopeEnginesApi, RopeAxesApi, ResearchApi, ModelApi {}
export class Posenc extends Core {
  /**
   * Asynchronous WebGPU twins of the large computations (sweeps, tables, attention scores), each resolving to
   * `{ values, backend: 'webgpu' | 'wasm', notice? }` with wasm as fallback; see {@link PosencGpu} and `init({ gpu })`.
   */
  declare readonly gpu: PosencGpu;
}

for (const family of FAMILIES) {
  for (const name of Object.getOwnPropertyNames(family.prototype)) {
    if (name !== 'constructor') Object.defineProperty(Posenc.prototype, name, Object.getOwnPropertyDescriptor(family.prototype, name)!);
  }
}
