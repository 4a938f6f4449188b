import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';

const pe = await init();

test('Qwen2-VL M-RoPE: frequency i follows its section stream', () => {
  const t = [0, 5, 5], h = [0, 5, 6], w = [0, 5, 7];
  const { cos, sin } = pe.mropeTables({ rotary_dim: 128, rope_theta: 1e6, mrope_section: [16, 24, 24], positions: [t, h, w] });
  for (let p = 0; p < 3; p++) for (let i = 0; i < 64; i++) {
    const pos = i < 16 ? t[p] : i < 40 ? h[p] : w[p];
    const a = pos * 1e6 ** ((-2 * i) / 128);
    assert.ok(Math.abs(cos[p * 64 + i] - Math.cos(a)) <= 2 ** -23);
    assert.ok(Math.abs(sin[p * 64 + i] - Math.sin(a)) <= 2 ** -23);
  }
  // text token: plain RoPE
  const plain = pe.ropeTables({ rotary_dim: 128, rope_theta: 1e6, positions: [5] });
  assert.deepEqual(Array.from(cos.slice(64, 128)), Array.from(plain.cos));
});

test('2D axial RoPE: grid and [h·φ, w·φ] rows', () => {
  const { cos, sin } = pe.axial2dTables({ rotary_dim: 16, grid: [2, 3] });
  assert.equal(cos.length, 6 * 8);
  for (let p = 0; p < 6; p++) for (let k = 0; k < 4; k++) {
    const phi = 10000 ** ((-2 * k) / 8), r = Math.floor(p / 3), c = p % 3;
    assert.ok(Math.abs(cos[p * 8 + k] - Math.cos(r * phi)) <= 2 ** -23);
    assert.ok(Math.abs(sin[p * 8 + 4 + k] - Math.sin(c * phi)) <= 2 ** -23);
  }
});

test('errors', () => {
  assert.throws(() => pe.mropeTables({ rotary_dim: 128, mrope_section: [16, 24, 23], positions: [[0], [0], [0]] }), /PosencError: mrope_section: sections must sum to rotary_dim\/2 = 64/);
  assert.throws(() => pe.mropeTables({ rotary_dim: 128, mrope_section: [16, 24], positions: [[0], [0], [0]] }), /PosencError: mrope_section: must be a list of 3/);
  assert.throws(() => pe.axial2dTables({ rotary_dim: 18, grid: [2, 2] }), /PosencError: rotary_dim: must be a multiple of 4/);
  assert.equal(pe.axial2dTables({ rotary_dim: 8, positions_h: [1], positions_w: [2] }).cos.length, 4);
});
