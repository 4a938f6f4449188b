// The raw Embind functions of cpp/bindings/*.cpp. Internal: users call the typed API (one file per family, web/src/*.ts).
// Each returns its result, or a string holding the C++ error message.
export type Raw<T> = T | string;

/** Every field present; NaN (numbers) means "unset, use the reference's default". */
export interface RawRopeScaling {
  rope_type: string;
  rope_theta: number;
  rotary_dim: number;
  partial_rotary_factor: number;
  factor: number;
  max_position_embeddings: number;
  original_max_position_embeddings: number;
  attention_factor: number;
  beta_fast: number;
  beta_slow: number;
  mscale: number;
  mscale_all_dim: number;
  truncate: boolean;
  short_factor: Float64Array;
  long_factor: Float64Array;
  low_freq_factor: number;
  high_freq_factor: number;
}

/** An address in wasm memory; 0 where an optional array is absent. */
export type Address = number;

export interface RawModule {
  HEAPU8: Uint8Array<ArrayBuffer>;
  // cpp/bindings/buffers.cpp
  reserve(bytes: number): Address;
  release(address: Address): void;
  ropeInvFreq(rotaryDim: number, theta: number): Raw<Float64Array>;
  // Zero-copy entries: arrays by address (0 = positions 0 … n−1), results written at the given addresses.
  ropeTables(invFreq: Address, nInv: number, scale: number, positions: Address, nPositions: number, duplicate: boolean, cos: Address,
    sin: Address): Raw<undefined>;
  ropeApply(x: Address, out: Address, seq: number, heads: number, headDim: number, rotaryDim: number, layout: number,
    cos: Address, sin: Address): Raw<undefined>;
  ropeApplyPositions(x: Address, out: Address, seq: number, heads: number, headDim: number, rotaryDim: number,
    layout: number, theta: number, positions: Address): Raw<undefined>;
  sinusoidal(positions: Address, n: number, d: number, base: number, layout: number, out: Address): Raw<undefined>;
  attentionScores(q: Address, k: Address, out: Address, seq: number, headDim: number, rope: boolean, theta: number,
    rotaryDim: number, layout: number, causal: boolean, softmax: boolean): Raw<undefined>;
  headsFirst(src: Address, dst: Address, batch: number, seq: number, heads: number, d: number): undefined;
  textQK(text: string, headDim: number, seed: number): Raw<{ tokens: string[]; q: Float32Array; k: Float32Array }>;
  // cpp/bindings/rope_scaling.cpp
  ropeInvFreqScaled(params: RawRopeScaling, seqLen: number): Raw<RawScaledInvFreq>;
  yarnCorrectionRange(params: RawRopeScaling): Raw<YarnCorrectionRange>;
  llama3Bands(params: RawRopeScaling): Raw<Llama3Bands>;
  dynamicNtkBase(params: RawRopeScaling, seqLen: number): Raw<number>;
  llama4AttnScales(positions: Float64Array, floorScale: number, attnScale: number): Raw<Float64Array>;
  rotaryDimFor(headDim: number, factor: number): Raw<number>;
  ropeTablesScaled(invFreq: Float64Array, scaling: number, positions: Float64Array): Raw<{ cos: Float32Array; sin: Float32Array }>;
  ropeFreqsCis(invFreq: Float64Array, positions: Float64Array): Raw<Float32Array>;
  // cpp/bindings/research.cpp
  kerpleBias(kernel: number, r1: number, r2: number, count: number): Raw<Float64Array>;
  sandwichBias(headDim: number, numHeads: number, head: number, count: number): Raw<Float64Array>;
  fireDistance(c: number, L: number, queryPosition: number, count: number): Raw<Float64Array>;
  copePositions(gateLogits: Address, n: number, npos: number): Raw<Float64Array>;
  stickBreakingWeights(logits: Address, n: number): Raw<Float64Array>;
  pathScores(q: Address, k: Address, w: Address, beta: Address, n: number, headDim: number): Raw<Float64Array>;
  // cpp/bindings/alibi.cpp
  alibiSlopes(numHeads: number): Raw<Float64Array>;
  alibiBias(slopes: Address, nHeads: number, qLen: number, kLen: number, mode: number, out: Address): Raw<undefined>;
  // cpp/bindings/xpos.cpp
  xposApply(x: Address, out: Address, seq: number, heads: number, headDim: number, rotaryDim: number, offset: number,
    downscale: boolean, scaleBase: number, gamma: number, theta: number, layout: number): Raw<undefined>;
  xposZeta(rotaryDim: number, gamma: number): Raw<Float64Array>;
  xposTables(rotaryDim: number, positions: Address, centred: Address, n: number, downscale: boolean, scaleBase: number,
    gamma: number, theta: number, cos: Address, sin: Address): Raw<undefined>;
  // cpp/bindings/mrope.cpp
  mropeTables(invFreq: Address, nInv: number, sT: number, sH: number, sW: number, t: Address, h: Address, w: Address, n: number,
    interleaved: boolean, cos: Address, sin: Address): Raw<undefined>;
  mropePositionIds(inputIds: Float64Array, imageGrid: Float64Array, videoGrid: Float64Array, seconds: Float64Array,
    o: { image_token_id: number; video_token_id: number; vision_start_token_id: number; spatial_merge_size: number;
      tokens_per_second: number; split_video_frames: boolean }): Raw<{ position_ids: Int32Array; rope_deltas: number }>;
  axial2dTables(rotaryDim: number, theta: number, h: Address, w: Address, n: number, variant: number, cos: Address, sin: Address): Raw<undefined>;
  axial2dGrid(gridH: number, gridW: number): Raw<{ positions_h: Float64Array; positions_w: Float64Array }>;
  // cpp/bindings/absolute.cpp
  t2tInvTimescales(d: number, minTimescale: number, maxTimescale: number): Raw<Float64Array>;
  sinusoidT2T(positions: Address, n: number, d: number, minTimescale: number, maxTimescale: number, out: Address): Raw<undefined>;
  sinusoidRecursive(n: number, d: number, base: number, layout: number, out: Address): Raw<undefined>;
  sinusoidRotationMatrix(d: number, base: number, layout: number): Raw<Float64Array>;
  multiplicativePE(x: Address, p: Address, n: number, out: Address): Raw<undefined>;
  // cpp/bindings/learned.cpp
  tableFromNpy(bytes: Uint8Array): Raw<{ rows: number; cols: number; data: Float32Array }>;
  tableFromSafetensors(bytes: Uint8Array, name: string): Raw<{ rows: number; cols: number; data: Float32Array }>;
  safetensorsList(bytes: Uint8Array): Raw<{ name: string; dtype: string; shape: number[] }[]>;
  tableLookup(data: Address, rows: number, cols: number, positions: Address, n: number, clamp: boolean, out: Address): Raw<undefined>;
  tableSimilarity(data: Address, rows: number, cols: number, metric: number, out: Address): Raw<undefined>;
  // cpp/bindings/gguf.cpp (web/src/gguf_source.ts types the header)
  ggufReadHeader(bytes: Uint8Array, fileSize: number): Raw<unknown>;
  ggufTensorValues(bytes: Uint8Array, type: number, count: number): Raw<Float64Array>;
  // cpp/bindings/relative.cpp
  shawIndex(qLen: number, kLen: number, maxRelativePosition: number, out: Address): Raw<undefined>;
  shawScores(q: Address, k: Address, tableK: Address, qLen: number, kLen: number, d: number, maxRelativePosition: number,
    out: Address): Raw<undefined>;
  shawValues(weights: Address, v: Address, tableV: Address, qLen: number, kLen: number, d: number, maxRelativePosition: number,
    out: Address): Raw<undefined>;
  xlPositionEmbedding(klen: number, d: number, out: Address): Raw<undefined>;
  relShift(x: Address, qlen: number, klen: number, zeroTriu: boolean, out: Address): Raw<undefined>;
  xlScores(q: Address, k: Address, r: Address, u: Address, v: Address, qlen: number, klen: number, d: number,
    causal: boolean): Raw<XLScoresRaw>;
  t5Bucket(relativePosition: number, bidirectional: boolean, numBuckets: number, maxDistance: number): Raw<number>;
  debertaLogBucket(relativePosition: number, positionBuckets: number, maxRelativePositions: number): Raw<number>;
  t5Buckets(qLen: number, kLen: number, bidirectional: boolean, numBuckets: number, maxDistance: number,
    queryOffset: number, out: Address): Raw<undefined>;
  t5Bias(table: Address, numBuckets: number, heads: number, qLen: number, kLen: number, bidirectional: boolean,
    maxDistance: number, queryOffset: number, out: Address): Raw<undefined>;
  debertaRelativePositions(qLen: number, kLen: number, positionBuckets: number, maxRelativePositions: number,
    out: Address): Raw<undefined>;
  debertaScores(q: Address, k: Address, posKey: Address, posQuery: Address, n: number, d: number, positionBuckets: number,
    maxRelativePositions: number): Raw<DebertaScoresRaw>;
  tupeScores(p: Address, uq: Address, uk: Address, n: number, dModel: number, heads: number, headDim: number,
    out: Address): Raw<undefined>;
  // cpp/bindings/engine.cpp
  attention(q: Address, k: Address, v: Address, seq: number, heads: number, headDim: number, scheme: RawScheme, causal: boolean,
    seed: number): Raw<{ terms: Record<string, Float32Array>; termOrder: string[]; scores: Float32Array; probs: Float32Array;
    output: Float32Array }>;
  textQKV(text: string, heads: number, headDim: number, seed: number): Raw<{ tokens: string[]; q: Float32Array; k: Float32Array; v: Float32Array }>;
  permutationChange(text: string, i: number, j: number, heads: number, headDim: number, scheme: RawScheme, causal: boolean,
    seed: number): Raw<number>;
  linearAttentionRope(q: Address, k: Address, v: Address, seq: number, d: number, dv: number, causal: boolean, theta: number,
    form: number): Raw<{ output: Float32Array; denominator: Float32Array }>;
  ropeInnerProductSweep(q: Address, k: Address, headDim: number, rotaryDim: number, layout: number, invFreq: Address,
    nInv: number, qPosition: number, kStart: number, count: number, out: Address): Raw<undefined>;
  ropeDecayBound(invFreq: Address, nInv: number, count: number, out: Address): Raw<undefined>;
  envelope(values: Address, n: number, width: number): Raw<{ min: Float32Array; max: Float32Array }>;
  ropeFrequencyAnalysis(invFreq: Float64Array, trainingLength: number): Raw<{ wavelength: Float64Array; rotations: Float64Array; first_incomplete: number }>;
  // cpp/bindings/model.cpp (the model family types the results)
  lmFromGguf(bytes: Address, n: number): Raw<unknown>;
  lmFromSafetensors(bytes: Address, n: number, hparams: Record<string, number | string | boolean>): Raw<unknown>;
  lmFree(handle: number): undefined;
  lmSession(model: number, invFreq: Float64Array, o: Record<string, number | boolean>): Raw<number>;
  lmFeed(session: number, ids: Address, n: number, targets: Address, nll: Address, hit: Address, logits: Address): Raw<undefined>;
  lmProbe(session: number): Raw<{ rows: Float32Array; far: Float64Array; near: Float64Array; queries: number; n_past: number }>;
  lmSessionFree(session: number): undefined;
  buildInfo(): { arch: string; lanes: number; threads: number };
  memoryBytes(): number;
}

/** YaRN's ramp over frequency (pair) indices; see {@link Posenc.yarnCorrectionRange}. */
export interface YarnCorrectionRange {
  /** Ramp start (pairs below keep θ_i): floor(low_raw) when `truncate`, clamped at 0. */
  low: number;
  /** Ramp end (pairs above get θ_i/factor): ceil(high_raw) when `truncate`, clamped at rotary_dim − 1. */
  high: number;
  /** d·ln(L/(2π·beta_fast))/(2·ln b): the pair whose wavelength is L/beta_fast. */
  low_raw: number;
  /** d·ln(L/(2π·beta_slow))/(2·ln b): the pair whose wavelength is L/beta_slow. */
  high_raw: number;
}

/** Llama 3's bands; see {@link Posenc.llama3Bands}. */
export interface Llama3Bands {
  /** L/high_freq_factor: shorter wavelengths are kept. */
  high_freq_wavelen: number;
  /** L/low_freq_factor: longer wavelengths are divided by factor. */
  low_freq_wavelen: number;
  /** high_freq_wavelen as a fractional pair index d·ln(λ/2π)/(2·ln b). */
  high_freq_dim: number;
  /** low_freq_wavelen as a fractional pair index. */
  low_freq_dim: number;
  /** Pairs kept, smoothed (between the edges), divided by factor; they sum to rotary_dim/2. */
  n_kept: number;
  n_smoothed: number;
  n_scaled: number;
}

export interface RawScaledInvFreq {
  invFreq: Float64Array; attentionScaling: number; effectiveBase: number; factor: number | null;
  yarn: YarnCorrectionRange | null; bands: Llama3Bands | null; longropeFactors: 'short' | 'long' | null; softmaxScaleFactor: number;
}

export interface XLScoresRaw {
  a: Float32Array; b: Float32Array; c: Float32Array; d: Float32Array; ac: Float32Array; bd: Float32Array; score: Float32Array;
}
export interface DebertaScoresRaw {
  c2c: Float32Array; c2p: Float32Array | null; p2c: Float32Array | null; score: Float32Array; scale: number;
}

/** The engine's scheme, every field present (the typed attention method fills the defaults). */
export interface RawScheme {
  type: string;
  base: number;
  learned_table: Float32Array | null;
  learned_rows: number;
  max_relative_position: number;
  num_buckets: number;
  max_distance: number;
  position_buckets: number;
  max_relative_positions: number;
  rope: RawRopeScaling;
  layout: number;
  scale_base: number;
  gamma: number;
}
