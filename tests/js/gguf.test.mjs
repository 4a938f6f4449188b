// The GGUF header reader through the package: every value type, versions 1–3, the rope keys round-tripped and
// cross-checked with the independent reader @huggingface/gguf, refused files, and each kind of source (bytes, Blob,
// FileHandle, path) reading only the header's window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gguf as hfGguf } from '@huggingface/gguf';
import { builds } from './helpers.mjs';
import { T, ggufFile, f32Bytes } from './gguf-writer.mjs';

const [[, pe]] = builds;
const dir = mkdtempSync(join(tmpdir(), 'posenc-gguf-'));
let n = 0;
const toDisk = (bytes) => { const p = join(dir, `f${n++}.gguf`); writeFileSync(p, bytes); return p; };

// Every key ropeFromGGUF reads (llama.cpp names, src/llama-arch.cpp LLM_KV_NAMES), with the type the converter writes.
const A = 'llama';
const ROPE_KV = [
  ['general.architecture', T.str, A],
  [`${A}.context_length`, T.u32, 131072],
  [`${A}.embedding_length`, T.u32, 4096],
  [`${A}.block_count`, T.u32, 6],
  [`${A}.attention.head_count`, T.u32, 32],
  [`${A}.attention.head_count_kv`, T.u32, 8],
  [`${A}.attention.key_length`, T.u32, 128],
  [`${A}.attention.value_length`, T.u32, 128],
  [`${A}.attention.key_length_mla`, T.u32, 192],
  [`${A}.attention.value_length_mla`, T.u32, 128],
  [`${A}.attention.key_length_swa`, T.u32, 64],
  [`${A}.attention.value_length_swa`, T.u32, 64],
  [`${A}.attention.sliding_window`, T.u32, 4096],
  [`${A}.attention.sliding_window_pattern`, T.arr, [T.bool, [true, true, false, true, true, false]]],
  [`${A}.attention.temperature_length`, T.u32, 8192],
  [`${A}.attention.temperature_scale`, T.f32, 0.1],
  [`${A}.rope.dimension_count`, T.u32, 128],
  [`${A}.rope.dimension_count_swa`, T.u32, 64],
  [`${A}.rope.dimension_sections`, T.arr, [T.i32, [16, 24, 24, 0]]],
  [`${A}.rope.freq_base`, T.f32, 500000],
  [`${A}.rope.freq_base_swa`, T.f32, 10000],
  [`${A}.rope.scale_linear`, T.f32, 2],
  [`${A}.rope.scaling.type`, T.str, 'yarn'],
  [`${A}.rope.scaling.factor`, T.f32, 4],
  [`${A}.rope.scaling.alpha`, T.f32, 1000],
  [`${A}.rope.scaling.attn_factor`, T.f32, 1.1902380714238083],
  [`${A}.rope.scaling.original_context_length`, T.u32, 32768],
  [`${A}.rope.scaling.finetuned`, T.bool, true],
  [`${A}.rope.scaling.yarn_log_multiplier`, T.f32, 0.1],
  [`${A}.rope.scaling.yarn_ext_factor`, T.f32, 1],
  [`${A}.rope.scaling.yarn_attn_factor`, T.f32, 1],
  [`${A}.rope.scaling.yarn_beta_fast`, T.f32, 32],
  [`${A}.rope.scaling.yarn_beta_slow`, T.f32, 1],
];
// One of each value type, nested arrays, strings with non-ASCII bytes, 64-bit extremes.
const TYPED_KV = [
  ['t.u8', T.u8, 255], ['t.i8', T.i8, -128], ['t.u16', T.u16, 65535], ['t.i16', T.i16, -32768], ['t.u32', T.u32, 4294967295],
  ['t.i32', T.i32, -2147483648], ['t.f32', T.f32, Math.fround(0.1)], ['t.bool', T.bool, false], ['t.str', T.str, 'RoPE 旋转位置编码 ✓'],
  ['t.u64', T.u64, 18446744073709551615n], ['t.i64', T.i64, -9223372036854775808n], ['t.f64', T.f64, 1e-300],
  ['t.nested', T.arr, [T.arr, [[T.u8, [1, 2]], [T.u8, []], [T.u8, [3]]]]],
  ['t.strings', T.arr, [T.str, ['a', '', 'ß']]],
  ['t.empty', T.str, ''],
];
const ROPE_FREQS = [1, 1, 2.5, 8];
const TENSORS = [
  { name: 'rope_freqs.weight', dims: [4], type: 0, data: f32Bytes(ROPE_FREQS) },
  { name: 'token_embd.weight', dims: [8, 2], type: 0, data: f32Bytes(new Array(16).fill(0.5)) },
];

/** The value a reader must return for a writer entry: float32 rounded, 64-bit integers as BigInt, arrays element-wise. */
const stored = (type, v) => type === T.f32 ? Math.fround(v) : type === T.u64 || type === T.i64 ? BigInt(v)
  : type === T.arr ? v[1].map((x) => stored(v[0], x)) : v;

function assertSameAsHf(ours, hf, label) {
  for (const kv of ours.kv) {
    const theirs = hf.metadata[kv.key];
    assert.deepEqual(kv.value, theirs, `${label}: ${kv.key}`);
    assert.equal(hf.typedMetadata[kv.key].type, T[{ uint8: 'u8', int8: 'i8', uint16: 'u16', int16: 'i16', uint32: 'u32', int32: 'i32',
      float32: 'f32', bool: 'bool', string: 'str', array: 'arr', uint64: 'u64', int64: 'i64', float64: 'f64' }[kv.type]], `${label}: type of ${kv.key}`);
  }
  assert.equal(ours.kv.length + 3, Object.keys(hf.metadata).length, `${label}: key count`);  // hf adds version, tensor_count, kv_count
  assert.deepEqual(ours.tensors.map((t) => [t.name, t.dims, t.type, t.offset]),
    hf.tensorInfos.map((t) => [t.name, t.shape.map(Number), t.dtype, Number(t.offset)]), `${label}: tensor infos`);
  assert.equal(ours.data_offset, Number(hf.tensorDataOffset), `${label}: data offset`);
}

for (const version of [1, 2, 3]) {
  test(`GGUF v${version}: every rope key and every value type round-trip, identical to @huggingface/gguf`, async () => {
    const bytes = ggufFile({ version, kv: [...ROPE_KV, ...TYPED_KV], tensors: TENSORS });
    const h = await pe.ggufHeader(bytes);
    assert.equal(h.version, version);
    for (const [k, type, v] of [...ROPE_KV, ...TYPED_KV]) assert.deepEqual(h.metadata[k], stored(type, v), k);
    assert.equal(h.alignment, 32);
    assert.equal(h.data_offset, bytes.dataStart);
    assert.equal(h.bytes_read, bytes.length);  // under 1 MiB: the first window is the whole file
    assertSameAsHf(h, await hfGguf(toDisk(bytes), { allowLocalFile: true, typedMetadata: true }), `v${version}`);
  });
}

test('GGUF: general.alignment moves the data start; tensor offsets must be multiples of it', async () => {
  const bytes = ggufFile({ kv: [['general.architecture', T.str, 'llama']], tensors: TENSORS, alignment: 64 });
  const h = await pe.ggufHeader(bytes);
  assert.equal(h.alignment, 64);
  assert.equal(h.data_offset % 64, 0);
  assert.equal(h.data_offset, bytes.dataStart);
  assertSameAsHf(h, await hfGguf(toDisk(bytes), { allowLocalFile: true, typedMetadata: true }), 'align 64');
  const odd = ggufFile({ tensors: [{ ...TENSORS[0], offset: 8 }] });
  await assert.rejects(pe.ggufHeader(odd), /^PosencError: gguf: tensor 'rope_freqs.weight' offset 8 is not a multiple of the alignment 32/);
  for (const [v, t, msg] of [[48, T.u32, /must be a power of two \(got 48\)/], [0, T.u32, /power of two \(got 0\)/], [32, T.u64, /must be a uint32 \(got uint64\)/]]) {
    await assert.rejects(pe.ggufHeader(ggufFile({ kv: [['general.alignment', t, v]] })), msg);
  }
});

/** bytes with byte i set to v (byte 33 is the first key-value's type when its key is one character long). */
const patched = (bytes, i, v) => { const c = bytes.slice(); c[i] = v; return c; };

test('GGUF: bad files are refused with the rule broken, never a crash', async () => {
  const good = ggufFile({ kv: ROPE_KV, tensors: TENSORS });
  const cases = [
    [good.slice(0, 3), /gguf: magic needs 4 bytes but the file has 3 left/],
    [new TextEncoder().encode('GGML\x03\0\0\0'), /not a GGUF file/],
    [ggufFile({ kv: ROPE_KV, littleEndian: false }), /big-endian GGUF \(version bytes 00 00 00 3\)/],
    [Uint8Array.from([...new TextEncoder().encode('GGUF'), 4, 0, 0, 0, ...new Array(16).fill(0)]), /version 4 is not supported/],
    [good.slice(0, 200), /runs past the end of the file|needs \d+ bytes but the file has/],
    [ggufFile({ kv: [['a', T.u8, 1], ['a', T.u8, 2]] }), /key 'a' appears twice/],
    [ggufFile({ tensors: [TENSORS[0], { ...TENSORS[0] }] }), /tensor 'rope_freqs.weight' appears twice/],
    [ggufFile({ tensors: [{ name: 'x'.repeat(64), dims: [1], type: 0, data: f32Bytes([1]) }] }), /tensor name length 64 exceeds 63 bytes/],
    [ggufFile({ tensors: [{ name: 'x', dims: [1, 1, 1, 1, 1], type: 0, data: f32Bytes([1]) }] }), /has 5 dims \(at most 4\)/],
    [patched(ggufFile({ kv: [['b', T.u8, 2]] }), 33, T.bool), /bool value 2 is not 0 or 1/],
    [ggufFile({ kv: [['deep', T.arr, [T.arr, [[T.arr, [[T.arr, [[T.arr, [[T.u8, [1]]]]]]]]]]]] }), /arrays nested deeper than 4/],
  ];
  for (const [bytes, msg] of cases) await assert.rejects(pe.ggufHeader(bytes), (e) => e.name === 'PosencError' && msg.test(e.message), String(msg));
  // a value type past 12, and a huge count that would allocate before reading: refused from the count alone
  await assert.rejects(pe.ggufHeader(patched(ggufFile({ kv: [['k', T.u8, 1]] }), 33, 13)), /gguf: value type 13 is not a GGUF value type \(0–12\)/);
  const huge = ggufFile({ kv: [['k', T.arr, [T.u32, [1]]]] });
  new DataView(huge.buffer).setBigUint64(8 + 8 + 8 + 8 + 1 + 4 + 4, 2n ** 60n, true);
  await assert.rejects(pe.ggufHeader(huge), /array of 1152921504606846976 uint32 runs past the end of the file/);
  // the module stays usable
  assert.equal((await pe.ggufHeader(good)).kv.length, ROPE_KV.length);
});

// A header bigger than the first 1 MiB window (a tokenizer of 200k tokens, as real files carry): the window grows,
// the long array is walked over, and only the header's bytes are read.
const TOKENS = Array.from({ length: 200_000 }, (_, i) => `tok${i}`);
const BIG = ggufFile({ kv: [['general.architecture', T.str, 'llama'], ['tokenizer.ggml.tokens', T.arr, [T.str, TOKENS]],
  ['tokenizer.ggml.scores', T.arr, [T.f32, new Array(200_000).fill(0)]], ...ROPE_KV.slice(1)],
tensors: [{ name: 'rope_freqs.weight', dims: [64], type: 0, data: f32Bytes(new Array(64).fill(2)) }] });

test('GGUF: a header larger than the first window grows it; long arrays are counted, not stored', async () => {
  const padded = new Uint8Array(BIG.length + 8 * 2 ** 20);  // 8 MiB of "weights" after the header
  padded.set(BIG);
  let sliced = 0;
  const blob = new Blob([padded]);
  const orig = blob.slice.bind(blob);
  blob.slice = (a, b) => { sliced += b - a; return orig(a, b); };
  const h = await pe.ggufHeader(blob);
  const tok = h.kv.find((k) => k.key === 'tokenizer.ggml.tokens');
  assert.deepEqual([tok.type, tok.elem, tok.length, tok.skipped, tok.value], ['array', 'string', 200_000, true, null]);
  assert.equal(h.metadata[`${A}.rope.freq_base`], 500000);
  assert.ok(BIG.dataStart > 2 ** 20, `header ${BIG.dataStart} bytes`);
  assert.equal(sliced, h.bytes_read);
  assert.ok(h.bytes_read >= BIG.dataStart - 64 && h.bytes_read <= 2 * BIG.dataStart, `read ${h.bytes_read} of ${padded.length}`);
  const r = await pe.ropeFromGGUF(blob);
  assert.equal(r.gguf.tensors.rope_freqs.length, 64);
  assert.ok(r.gguf.bytes_read < 2 * BIG.dataStart + 64);
});

test('GGUF sources: ArrayBuffer, Uint8Array view, Blob, Node FileHandle and path give the same header', async () => {
  const bytes = ggufFile({ kv: ROPE_KV, tensors: TENSORS });
  const path = toDisk(bytes);
  const offsetView = new Uint8Array(bytes.length + 5);
  offsetView.set(bytes, 5);
  const fh = await open(path, 'r');
  const sources = [bytes.buffer.slice(0), offsetView.subarray(5), new Blob([bytes]), fh, path];
  const headers = [];
  for (const s of sources) headers.push(await pe.ggufHeader(s));
  await fh.close();
  for (const h of headers.slice(1)) assert.deepEqual(h.kv, headers[0].kv);
  await assert.rejects(pe.ggufHeader(join(dir, 'missing.gguf')), /^PosencError: source: cannot open/);
  await assert.rejects(pe.ggufHeader(42), /^PosencError: source: must be a Uint8Array, ArrayBuffer, Blob\/File, FileHandle or path \(got 42\)/);
  await assert.rejects(pe.ropeFromGGUF(bytes, { seq_len: -1 }), /seq_len/);
});
