// A small GGUF writer for the tests, byte by byte from the format's specification (ggml docs/gguf.md; no posenc code):
// "GGUF", uint32 version, tensor count, key-value count (uint32 in v1, uint64 in v2/v3), key-values, tensor infos,
// padding to the alignment, tensor data. Every file it writes is also read back by @huggingface/gguf in the tests, so
// that this writer and posenc's reader cannot share a mistake unnoticed.

export const T = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, str: 8, arr: 9, u64: 10, i64: 11, f64: 12 };
const SIZE = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

class Bytes {
  constructor(version, littleEndian = true) { this.parts = []; this.n = 0; this.v1 = version === 1; this.le = littleEndian; }
  push(b) { this.parts.push(b); this.n += b.length; }
  num(type, v) {
    const b = new Uint8Array(SIZE[type]);
    const d = new DataView(b.buffer);
    const le = this.le;
    switch (type) {
      case 0: d.setUint8(0, v); break;
      case 1: d.setInt8(0, v); break;
      case 2: d.setUint16(0, v, le); break;
      case 3: d.setInt16(0, v, le); break;
      case 4: d.setUint32(0, v, le); break;
      case 5: d.setInt32(0, v, le); break;
      case 6: d.setFloat32(0, v, le); break;
      case 7: d.setUint8(0, v ? 1 : 0); break;
      case 10: d.setBigUint64(0, BigInt(v), le); break;
      case 11: d.setBigInt64(0, BigInt(v), le); break;
      case 12: d.setFloat64(0, v, le); break;
    }
    this.push(b);
  }
  count(n) { this.num(this.v1 ? T.u32 : T.u64, n); }
  str(s) {
    const b = typeof s === 'string' ? new TextEncoder().encode(s) : s;
    this.count(b.length);
    this.push(b);
  }
  value(type, v) {
    if (type === T.str) return this.str(v);
    if (type === T.arr) {
      const [elem, items] = v;
      this.num(T.u32, elem);
      this.count(items.length);
      for (const x of items) this.value(elem, x);
      return;
    }
    this.num(type, v);
  }
  concat() {
    const out = new Uint8Array(this.n);
    let p = 0;
    for (const b of this.parts) { out.set(b, p); p += b.length; }
    return out;
  }
}

/**
 * A GGUF file. kv: [key, type, value] with value for arrays [elemType, items] (items arrays for nested arrays);
 * tensors: {name, dims, type (ggml: 0 F32, 1 F16), data: Uint8Array}; their offsets are laid out one after another,
 * each padded to the alignment. Options: version (default 3), alignment (written as general.alignment when not 32),
 * littleEndian (false writes a big-endian file as gguf-py does: magic as bytes, the rest big-endian).
 */
export function ggufFile({ kv = [], tensors = [], version = 3, alignment = 32, littleEndian = true } = {}) {
  const w = new Bytes(version, littleEndian);
  w.push(new TextEncoder().encode('GGUF'));
  w.num(T.u32, version);
  w.count(tensors.length);
  const all = alignment !== 32 && !kv.some(([k]) => k === 'general.alignment') ? [['general.alignment', T.u32, alignment], ...kv] : kv;
  w.count(all.length);
  for (const [k, type, v] of all) {
    w.str(k);
    w.num(T.u32, type);
    w.value(type, v);
  }
  let off = 0;
  const offsets = [];
  for (const t of tensors) {
    offsets.push(t.offset ?? off);
    off += Math.ceil(t.data.length / alignment) * alignment;
  }
  tensors.forEach((t, i) => {
    w.str(t.name);
    w.num(T.u32, t.dims.length);
    for (const d of t.dims) w.count(d);
    w.num(T.u32, t.type);
    w.num(T.u64, offsets[i]);
  });
  const pad = (Math.ceil(w.n / alignment) * alignment) - w.n;
  w.push(new Uint8Array(pad));
  const dataStart = w.n;
  const data = new Uint8Array(off);
  tensors.forEach((t, i) => data.set(t.data, offsets[i]));
  w.push(data);
  const bytes = w.concat();
  return Object.assign(bytes, { dataStart });
}

/** float32 values as little-endian bytes. */
export const f32Bytes = (values) => new Uint8Array(Float32Array.from(values).buffer);

/** IEEE binary16 bits of x (round to nearest even; finite, normal range suffices for the tests). */
export function toHalf(x) {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (exp <= 0 || exp >= 31) throw new Error(`toHalf: ${x} outside the normal half range`);
  let h = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h += 1;
  return h;
}
/** float16 values as little-endian bytes, and the values they hold exactly. */
export function f16Bytes(values) {
  const h = Uint16Array.from(values, toHalf);
  const exact = Array.from(h, (b) => {
    const e = (b >> 10) & 31, m = b & 1023, s = b & 0x8000 ? -1 : 1;
    return s * 2 ** (e - 15) * (1 + m / 1024);
  });
  return { bytes: new Uint8Array(h.buffer), exact };
}
