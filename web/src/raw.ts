// The raw Embind functions of cpp/bindings/bindings.cpp. Internal: users call the typed API in index.ts.
// Each returns its result, or a string holding the C++ error message.
export type Raw<T> = T | string;

export interface RawModule {
  ropeInvFreq(rotaryDim: number, theta: number): Raw<Float64Array>;
  ropeTables(invFreq: Float64Array, positions: Float64Array): Raw<{ cos: Float32Array; sin: Float32Array }>;
  ropeApply(x: Float32Array, seq: number, heads: number, headDim: number, rotaryDim: number, layout: number,
    cos: Float32Array, sin: Float32Array): Raw<Float32Array>;
  ropeApplyPositions(x: Float32Array, seq: number, heads: number, headDim: number, rotaryDim: number, layout: number,
    theta: number, positions: Float64Array | null): Raw<Float32Array>;
  sinusoidal(positions: Float64Array | null, n: number, d: number, base: number, layout: number): Raw<Float32Array>;
  attentionScores(q: Float32Array, k: Float32Array, seq: number, headDim: number, rope: boolean, theta: number,
    rotaryDim: number, layout: number, causal: boolean, softmax: boolean): Raw<Float32Array>;
  textQK(text: string, headDim: number, seed: number): Raw<{ tokens: string[]; q: Float32Array; k: Float32Array }>;
  buildInfo(): { arch: string; lanes: number };
  memoryBytes(): number;
}
