// Compiled (not run) by tests/js/types.test.mjs: the published typings, used the way a TypeScript user would.
import init, { PosencError, simdSupported, wasmModule } from 'posenc';
import type { AttentionResult, DualChunkDistances, GgufHeader, Posenc, RopeAxesFromConfig, RopeFromGGUF, RopeLayout, SchemeOptions, WasmBuffer, WasmModule } from 'posenc';

export async function main(): Promise<number> {
  const pe: Posenc = await init({ simd: simdSupported() });
  const layout: RopeLayout = 'half_split';
  const { cos, sin }: { cos: Float32Array; sin: Float32Array } = pe.ropeTables({ rotary_dim: 8, positions: 3 });
  const x: Float32Array = pe.ropeApply(new Float32Array(16), { seq: 2, head_dim: 8, layout });
  const scheme: SchemeOptions = { type: 'rope', rope_type: 'yarn', factor: 4, original_max_position_embeddings: 2048 };
  const r: AttentionResult = pe.attention({ scheme, text: 'a b c', head_dim: 8 });
  const buckets: Int32Array = pe.t5Buckets({ q_len: 4 });
  const buf: WasmBuffer<Float32Array> = pe.alloc(Float32Array, 16);
  const ids: WasmBuffer<Int32Array> = pe.alloc(Int32Array, 16);
  const rotated: Float32Array = pe.ropeApply(buf, { seq: 2, heads: 1, batch: 1, qk_layout: 'bshd', head_dim: 8, out: buf });
  pe.t5Buckets({ q_len: 4, out: ids });
  pe.ropeApply(x, { seq: 2, head_dim: 8, rope: pe.ropeFromConfig({ head_dim: 8 }) });
  const g: RopeFromGGUF = await pe.ropeFromGGUF(new Uint8Array(0), { seq_len: 8192 });
  const h: GgufHeader = await pe.ggufHeader({ size: 0, slice: () => ({ arrayBuffer: async () => new ArrayBuffer(0) }) });   // a File/Blob's shape
  const pairing: 'norm' | 'neox' | 'mrope' | 'imrope' | 'vision' | 'none' | null = g.gguf.pairing;
  if (g.layout === null || pairing === null || h.kv.length < 0) return 0;
  buf[Symbol.dispose]();
  ids.free();
  // @ts-expect-error: Q/K layouts are checked at compile time
  pe.ropeApply(x, { seq: 2, head_dim: 8, qk_layout: 'sbhd' });
  try {
    pe.ropeInvFreq({ rotary_dim: 7 });
  } catch (e) {
    if (e instanceof PosencError) return e.param.length;
  }
  // @ts-expect-error: layout names are checked at compile time too
  pe.ropeApply(x, { seq: 2, head_dim: 8, layout: 'sideways' });
  // load once: the compiled module, handed to another init (in a worker: posted with postMessage)
  const module: WasmModule = await wasmModule({ wasmUrl: 'https://example.org/posenc-simd.wasm' });
  const shared: Posenc = await init({ module, gpu: 'off' });
  // @ts-expect-error: wasmUrl is a string or a URL
  await wasmModule({ wasmUrl: 42 });
  // @ts-expect-error: a GPU call's signal must look like an AbortSignal
  await shared.gpu.ropeTables({ rotary_dim: 8, positions: 4, signal: { aborted: 'no' } });
  const axes: RopeAxesFromConfig = pe.ropeAxesFromConfig({ _class_name: 'WanTransformer3DModel' }, { grid: [1, 2, 2] });
  const axisLayout: RopeLayout = axes.layout;
  const grid: Float32Array = pe.ropeAxesTables({ _class_name: 'WanTransformer3DModel' }, { grid: [1, 2, 2] }).cos;
  const grid2: Float64Array = pe.resizePositionGrid({ table: [1, 2, 3, 4], rows: 2, cols: 2, height: 3, width: 3 });
  const dca: DualChunkDistances = pe.dualChunkDistances({ chunk_size: 16, local_size: 4, q_positions: [3], k_positions: [1] });
  const chunk: number | undefined = pe.ropeFromConfig({ head_dim: 8 }).dual_chunk?.chunk_len;
  // @ts-expect-error: the grid is a list of sizes
  pe.ropeAxesTables({}, { grid: 4 });
  return cos.length + sin.length + r.scores.length + buckets.length + rotated.length + axes.axes.length + grid.length + grid2.length + dca.max_distance + (chunk ?? 0) + axisLayout.length;
}
