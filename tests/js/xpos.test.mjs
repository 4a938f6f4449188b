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
    const tq = pe.xposTables({ rotary_dim: d, positions: [m], centred: [m] });
    const tk = pe.xposTables({ rotary_dim: d, positions: [n], centred: [n], downscale: true });
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

test('xposZeta: (2i/d + γ)/(1 + γ)', () => {
  const z = pe.xposZeta({ rotary_dim: 8 });
  assert.ok(z instanceof Float64Array);
  assert.deepEqual([...z].map((v) => v.toFixed(12)), [0, 1, 2, 3].map((i) => ((2 * i + 0.4 * 8) / (1.4 * 8)).toFixed(12)));
  assert.ok(Math.abs(pe.xposZeta({ rotary_dim: 4, gamma: 1 })[1] - 0.75) < 1e-15);
  assert.throws(() => pe.xposZeta({ rotary_dim: 7 }), /PosencError: rotary_dim: must be even/);
});

test('xposTables centres like xposApply by default', () => {
  const d = 8, seq = 3, offset = 4;
  const x = Float32Array.from({ length: seq * d }, (_, i) => Math.sin(0.7 * i));
  for (const downscale of [false, true]) {
    const t = pe.xposTables({ rotary_dim: d, positions: [4, 5, 6], downscale });
    const a = pe.ropeApplyTables(x, { seq, head_dim: d, layout: 'interleaved', ...t });
    assert.deepEqual(a, pe.xposApply(x, { seq, head_dim: d, offset, downscale, layout: 'interleaved' }));
    // c = p + ⌊−7/2⌋ = p − 4
    const e = pe.xposTables({ rotary_dim: d, positions: [4, 5, 6], centred: [0, 1, 2], downscale });
    assert.deepEqual(t, e);
  }
});

test('long positions: finite within the stated range, PosencError beyond (issue 15)', () => {
  // Before: ±Infinity from position 65,536 (downscale) and 46,696 non-finite values with offset 1e5.
  assert.throws(() => pe.xposTables({ rotary_dim: 128, positions: [100000], downscale: true }), /PosencError: centred: .*must be <= 18130/);
  assert.throws(() => pe.xposApply(new Float32Array(4 * 128).fill(1), { seq: 4, head_dim: 128, offset: 1e5 }), /PosencError: offset: seq \+ offset must be <= 36260/);
  const t = pe.xposTables({ rotary_dim: 128, positions: [65536, 100000], centred: [18130, -18130], downscale: true });
  assert.ok([...t.cos, ...t.sin].every(Number.isFinite));
  const y = pe.xposApply(new Float32Array(4 * 128).fill(1), { seq: 4, head_dim: 128, offset: 1e5, scale_base: 4096 });
  assert.ok(y.every(Number.isFinite));
});
