// The wasm heap stays flat: within ±64 KiB over 10^4 calls and 10^3 refused calls once each call has run once, and a
// refused 1 GB file leaves no memory behind (issue 15). The wasm memory grows in 64 KiB pages and never shrinks, so
// any leak or any copy of a refused input shows as growth.
import test from 'node:test';
import assert from 'node:assert/strict';
import init, { PosencError } from 'posenc';
import { npyFile, safetensorsFile } from './files.mjs';

const KiB = 1024;

const npy = () => npyFile('<f4', [2, 3], new Float32Array([0.5, -1, 2, 3, 4, 5]));
const safetensors = (header, dataBytes) => safetensorsFile(header, new Uint8Array(dataBytes));

test('10^4 calls and 10^3 refused calls: wasm memory within ±64 KiB', async () => {
  const pe = await init();
  const x = Float32Array.from({ length: 4 * 2 * 16 }, (_, i) => Math.sin(i));
  const file = npy();
  const overlapping = safetensors({ a: { dtype: 'F32', shape: [1, 2], data_offsets: [0, 8] }, b: { dtype: 'F32', shape: [1, 2], data_offsets: [4, 12] } }, 12);
  const calls = [
    () => pe.ropeTables({ rotary_dim: 16, positions: 64 }),
    () => pe.ropeApply(x, { seq: 4, heads: 2, head_dim: 16 }),
    () => pe.xposTables({ rotary_dim: 16, positions: [0, 5, 9] }),
    () => pe.xposApply(x, { seq: 4, heads: 2, head_dim: 16, offset: 7, downscale: true }),
    () => pe.sinusoidT2T({ positions: 16, d: 16 }),
    () => pe.tableFromNpy(file),
    () => pe.attention({ scheme: { type: 'rope' }, text: 'the cat sat', head_dim: 8, causal: true }),
    () => pe.permutationChange({ scheme: { type: 'alibi' }, text: 'a b c d', i: 0, j: 1, head_dim: 8, causal: true }),
    () => pe.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 64, count: 300 }),
  ];
  const refused = [
    () => pe.ropeTables({ rotary_dim: 7, positions: 4 }),
    () => pe.xposTables({ rotary_dim: 128, positions: [100000], downscale: true }),
    () => pe.tableFromNpy(file.slice(0, 100)),
    () => pe.tableFromSafetensors(overlapping),
    () => pe.sinusoidT2T({ positions: 3, d: 8, min_timescale: 1e300, max_timescale: 1e-300 }),
  ];
  for (const c of calls) c();
  for (const c of refused) assert.throws(c, PosencError);
  const before = pe.memoryBytes();
  for (let i = 0; i < 10000; i++) calls[i % calls.length]();
  for (let i = 0; i < 1000; i++) assert.throws(refused[i % refused.length], PosencError);
  const after = pe.memoryBytes();
  assert.ok(Math.abs(after - before) <= 64 * KiB, `wasm memory ${before} -> ${after}`);
});

// The binding checks the header from the file's first bytes (npy_header_length / npy_check_header) before it copies
// the whole file into wasm memory.
test('a refused 1 GB input leaves the wasm memory as it was', async () => {
  const pe = await init();
  pe.tableFromNpy(npy());
  const before = pe.memoryBytes();
  const big = new Uint8Array(2 ** 30);  // zeros: no .npy magic
  assert.throws(() => pe.tableFromNpy(big), /PosencError: npy: not a .npy file/);
  big.set(npy().subarray(0, 128));       // a valid header declaring [2, 3] in a 1 GB file
  assert.throws(() => pe.tableFromNpy(big), /PosencError: npy: data holds/);
  assert.ok(pe.memoryBytes() - before <= 64 * KiB, `wasm memory ${before} -> ${pe.memoryBytes()}`);
});
