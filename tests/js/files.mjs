// Test inputs in the table file formats, built byte by byte from the formats' specifications (no posenc code):
// NumPy's .npy version 1.0 (numpy.org/doc/stable/reference/generated/numpy.lib.format.html) and safetensors
// (github.com/huggingface/safetensors: u64 little-endian header length, JSON header, data).

/** A version 1.0 .npy file: the header dict padded with spaces so that the data starts at a multiple of 64. */
export function npyFile(descr, shape, data, fortran = 'False') {
  let h = `{'descr': '${descr}', 'fortran_order': ${fortran}, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((10 + h.length + 1) % 64) h += ' ';
  h += '\n';
  const body = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(10 + h.length + body.length);
  out.set([0x93, 78, 85, 77, 80, 89, 1, 0, h.length & 255, h.length >> 8]);
  out.set(new TextEncoder().encode(h), 10);
  out.set(body, 10 + h.length);
  return out;
}

/** A .safetensors file with this header object (written as JSON, offsets as given) followed by `data`. */
export function safetensorsFile(header, data) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}
