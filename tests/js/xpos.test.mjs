import test from 'node:test';
import assert from 'node:assert/strict';
import init from 'posenc';

const pe = await init();
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);

test('torchscale conventions: ζ, centring, interleaved rotation', () => {
  const d = 8, seq = 4, offset = 3; // L = 7, min_pos = -4
  const x = Float32Array.from({ length: seq * d }, (_, i) => Math.cos(i * 1.3));
  const y = pe.xposApply(x, { seq, head_dim: d, offset, layout: 'interleaved' });
  for (let r = 0; r < seq; r++) for (let i = 0; i < d / 2; i++) {
    const p = offset + r, c = p - 4;
    const sc = ((2 * i + 0.4 * d) / (1.4 * d)) ** (c / 512), a = p * 10000 ** ((-2 * i) / d);
    const x0 = x[r * d + 2 * i], x1 = x[r * d + 2 * i + 1];
    assert.ok(Math.abs(y[r * d + 2 * i] - sc * (x0 * Math.cos(a) - x1 * Math.sin(a))) < 1e-6);
    assert.ok(Math.abs(y[r * d + 2 * i + 1] - sc * (x1 * Math.cos(a) + x0 * Math.sin(a))) < 1e-6);
  }
});

test('relative: q·k depends only on the offset', () => {
  const d = 16;
  const q = Float32Array.from({ length: d }, (_, i) => Math.sin(i + 1));
  const k = Float32Array.from({ length: d }, (_, i) => Math.cos(3 * i));
  const score = (m, n) => {
    const tq = pe.xposTables({ rotary_dim: d, positions: [m] });
    const tk = pe.xposTables({ rotary_dim: d, positions: [n], downscale: true });
    const a = pe.ropeApplyTables(q, { seq: 1, head_dim: d, layout: 'interleaved', ...tq });
    const b = pe.ropeApplyTables(k, { seq: 1, head_dim: d, layout: 'interleaved', ...tk });
    return dot(a, b);
  };
  for (const delta of [0, 5, 60]) for (const shift of [-100, 7, 250]) {
    assert.ok(Math.abs(score(20 + delta, 20) - score(20 + delta + shift, 20 + shift)) < 1e-4);
  }
});

test('errors', () => {
  assert.throws(() => pe.xposApply(new Float32Array(14), { seq: 2, head_dim: 7 }), /PosencError: rotary_dim: must be even \(got 7\)/);
  assert.throws(() => pe.xposApply(new Float32Array(16), { seq: 2, head_dim: 8, scale_base: -1 }), /PosencError: scale_base:/);
  assert.equal(pe.xposApply(new Float32Array(16), { seq: 2, head_dim: 8 }).length, 16);
});
