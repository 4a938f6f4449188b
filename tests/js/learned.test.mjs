// Learned absolute tables through the package: .npy, .safetensors, JSON, lookup, similarity.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builds, randomVec, dotRows as dot, throwsNamed } from './helpers.mjs';
import { npyFile, safetensorsFile } from './files.mjs';

const COSINE_ABS = 1e-5;  // float32 dot / float64 norms

const npy = npyFile;

/** A .safetensors file from {name: [dtype, shape, bytes]}. */
function safetensors(tensors) {
  const header = { __metadata__: { format: 'pt' } };
  let off = 0;
  const parts = [];
  for (const [name, [dtype, shape, bytes]] of Object.entries(tensors)) {
    header[name] = { dtype, shape, data_offsets: [off, off + bytes.length] };
    parts.push(bytes);
    off += bytes.length;
  }
  const data = new Uint8Array(off);
  let p = 0;
  for (const b of parts) { data.set(b, p); p += b.length; }
  return safetensorsFile(header, data);
}

const u8 = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

for (const [name, pe] of builds) {
  test(`${name}: .npy float32/float64 tables parse exactly`, () => {
    const f = randomVec(12, 3);
    const t = pe.tableFromNpy(npy('<f4', [3, 4], f));
    assert.deepEqual([t.rows, t.cols], [3, 4]);
    assert.deepEqual(Array.from(t.data), Array.from(f));
    const d = new Float64Array([0.1, 0.2, 0.3, 0.4]);
    const t2 = pe.tableFromNpy(npy('<f8', [2, 2], d).buffer);
    assert.deepEqual(Array.from(t2.data), Array.from(d, Math.fround));
  });

  test(`${name}: .safetensors picks a tensor by name; F16 and BF16 convert exactly`, () => {
    const wpe = randomVec(6, 4);
    const file = safetensors({
      'wpe.weight': ['F32', [3, 2], u8(wpe)],
      'h.half': ['F16', [1, 2], u8(new Uint16Array([0x3c00, 0xc000]))],
      'h.bf16': ['BF16', [1, 2], u8(new Uint16Array([0x3f80, 0x4049]))],
    });
    assert.deepEqual(pe.safetensorsTensors(file).map((e) => e.name), ['wpe.weight', 'h.half', 'h.bf16']);
    const t = pe.tableFromSafetensors(file, { name: 'wpe.weight' });
    assert.deepEqual([t.rows, t.cols, Array.from(t.data)], [3, 2, Array.from(wpe)]);
    assert.deepEqual(Array.from(pe.tableFromSafetensors(file, { name: 'h.half' }).data), [1, -2]);
    // bf16 0x4049 = float32 bits 0x40490000 = 3.140625
    assert.deepEqual(Array.from(pe.tableFromSafetensors(file, { name: 'h.bf16' }).data), [1, 3.140625]);
    throwsNamed(assert, () => pe.tableFromSafetensors(file), 'name: required');
    throwsNamed(assert, () => pe.tableFromSafetensors(file, { name: 'wte.weight' }), "name: no tensor 'wte.weight'");
  });

  test(`${name}: JSON tables, lookup with and without clamp`, () => {
    const t = pe.tableFromJSON('[[0, 1], [2, 3], [4, 5]]');
    assert.deepEqual(Array.from(pe.tableLookup(t, { positions: [2, 0] })), [4, 5, 0, 1]);
    throwsNamed(assert, () => pe.tableLookup(t, { positions: [3] }), 'positions: position 3 at index 0 is outside the table');
    assert.deepEqual(Array.from(pe.tableLookup(t, { positions: [3, -1], clamp: true })), [4, 5, 0, 1]);
    throwsNamed(assert, () => pe.tableFromJSON('[[1, 2], [3]]'), 'json: row 1 must be an array of 2 numbers');
    throwsNamed(assert, () => pe.tableFromJSON('[[1, "a"]]'), 'json: entry [0][1] must be a finite number');
    throwsNamed(assert, () => pe.tableFromJSON('{'), 'json: not valid JSON');
  });

  test(`${name}: similarity of a table (cosine and dot) equals float64`, () => {
    const rows = 9, cols = 13;
    const data = randomVec(rows * cols, 5);
    const t = { rows, cols, data };
    const dt = pe.tableSimilarity(t, { metric: 'dot' }), cs = pe.tableSimilarity(t);
    for (let a = 0; a < rows; a++) {
      for (let b = 0; b < rows; b++) {
        const ab = dot(data, a, data, b, cols);
        assert.ok(Math.abs(dt[a * rows + b] - ab) <= 1e-5 * cols);
        const c = ab / Math.sqrt(dot(data, a, data, a, cols) * dot(data, b, data, b, cols));
        assert.ok(Math.abs(cs[a * rows + b] - c) <= COSINE_ABS);
      }
    }
  });

  test(`${name}: malformed files are named errors and the module stays usable`, () => {
    throwsNamed(assert, () => pe.tableFromNpy(new Uint8Array([1, 2, 3])), 'npy: not a .npy file');
    throwsNamed(assert, () => pe.tableFromNpy(npy('>f4', [1, 1], new Float32Array(1))), 'npy: big-endian');
    throwsNamed(assert, () => pe.tableFromNpy(npy('<f4', [4], new Float32Array(4))), 'npy: array must be 2-D');
    throwsNamed(assert, () => pe.tableFromNpy(npy('<f4', [2, 2], new Float32Array(3))), 'npy: data holds 12 bytes');
    throwsNamed(assert, () => pe.tableFromSafetensors(new Uint8Array(4)), 'safetensors: file too short');
    const bad = safetensors({ x: ['I8', [1, 1], new Uint8Array(1)] });
    throwsNamed(assert, () => pe.tableFromSafetensors(bad), "safetensors: tensor 'x' has dtype I8");
    throwsNamed(assert, () => pe.tableFromNpy('nope'), 'npy: must be a Uint8Array or ArrayBuffer');
    throwsNamed(assert, () => pe.tableLookup({ rows: 2, cols: 2, data: new Float32Array(3) }, { positions: [0] }), "table.data: length must equal the shape's element count 4 (got 3)");
    throwsNamed(assert, () => pe.tableSimilarity({ rows: 1, cols: 1, data: [1] }, { metric: 'l2' }), "metric: must be one of 'cosine', 'dot'");
    assert.equal(pe.tableFromNpy(npy('<f4', [1, 1], new Float32Array([7]))).data[0], 7);
  });
}

// Untrusted files: seeded random mutations of valid .npy and .safetensors bytes (byte flips, truncation,
// extension) must each either parse into a table of the stated shape or throw a PosencError — never crash the
// module, hang, or return an inconsistent table.
test('mutated .npy / .safetensors files: a table or a named error, never a crash', () => {
  const pe = builds[0][1];
  let state = 12345;
  const rnd = (n) => { state = (Math.imul(state, 1103515245) + 12345) >>> 0; return state % n; };
  const data = randomVec(6 * 4, 3);
  const seeds = [
    ['npy', npy('<f4', [6, 4], data), (b) => pe.tableFromNpy(b)],
    ['safetensors', safetensors({ 'wpe.weight': ['F32', [6, 4], u8(data)] }), (b) => pe.tableFromSafetensors(b, { name: 'wpe.weight' })],
  ];
  let parsed = 0, rejected = 0;
  for (const [, good, parse] of seeds) {
    for (let t = 0; t < 3000; t++) {
      let b = good.slice();
      const kind = rnd(3);
      if (kind === 0) for (let f = 1 + rnd(4); f > 0; f--) b[rnd(b.length)] = rnd(256);
      else if (kind === 1) b = b.slice(0, rnd(b.length));
      else { const ext = new Uint8Array(b.length + 1 + rnd(64)); ext.set(b); ext.fill(rnd(256), b.length); b = ext; }
      try {
        const r = parse(b);
        assert.equal(r.data.length, r.rows * r.cols);
        assert.ok(r.rows >= 1 && r.cols >= 1);
        parsed++;
      } catch (e) {
        assert.equal(e.name, 'PosencError', String(e));
        rejected++;
      }
    }
  }
  assert.ok(parsed > 0 && rejected > 0, `${parsed} parsed, ${rejected} rejected`);
  assert.deepEqual(Array.from(pe.tableFromNpy(seeds[0][1]).data), Array.from(data));  // still usable
});
