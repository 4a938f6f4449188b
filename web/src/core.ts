// What every family's methods share: the loaded wasm module. Each family (rope.ts, alibi.ts, …) is a class of
// methods extending Core; posenc.ts composes them into one Posenc, index.ts re-exports.
import type { RawModule } from './raw.js';

/** The posenc API, bound to one loaded WebAssembly instance: the methods every family shares. */
export class Core {
  /** @internal */
  constructor(protected readonly raw: RawModule, protected readonly simd: boolean) {}

  /**
   * Which build runs: `simd` is true for the wasm SIMD128 build; `arch` is xsimd's architecture name
   * (`'wasm'` or `'scalar'`), `lanes` the float32 lanes per vector (4 or 1).
   */
  buildInfo(): { simd: boolean; arch: string; lanes: number } {
    return { simd: this.simd, ...this.raw.buildInfo() };
  }

  /** Current size of the wasm linear memory in bytes (it grows on demand and never shrinks). */
  memoryBytes(): number {
    return this.raw.memoryBytes();
  }
}
