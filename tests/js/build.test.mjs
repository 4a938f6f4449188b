// The shipped .wasm files: the SIMD build really uses f32x4 instructions, the scalar build none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const disasm = (name) => execFileSync('wasm-objdump', ['-d', fileURLToPath(new URL(`../../dist/${name}`, import.meta.url))],
  { encoding: 'utf8', maxBuffer: 1 << 28 });

test('dist/posenc-simd.wasm contains f32x4 arithmetic', () => {
  const ops = disasm('posenc-simd.wasm').match(/f32x4\.(mul|add|sub)/g) ?? [];
  assert.ok(ops.length >= 10, `found ${ops.length} f32x4 mul/add/sub`);
});

test('dist/posenc-scalar.wasm contains no SIMD instructions', () => {
  const ops = disasm('posenc-scalar.wasm').match(/\b(v128|[if](8x16|16x8|32x4|64x2))\./g) ?? [];
  assert.equal(ops.length, 0);
});
