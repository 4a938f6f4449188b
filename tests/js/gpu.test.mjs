// The WebGPU backend (posenc's pe.gpu functions) in Node with the npm package `webgpu` (Dawn): accuracy against float64
// at 2^20 distances/positions, agreement with the wasm path on random parameters, the same validation errors, and the
// fallbacks (device lost mid-sweep, WebGPU errors, adapter limits, cancellation). Skipped where no adapter exists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nodeWebgpu } from './gpu_env.mjs';
import init, { PosencError } from 'posenc';
import { randomVec } from './helpers.mjs';
import { seededVector } from '../../dist/decay.js';  // the documented generator of 'random' vectors

const { gpu, adapter } = await nodeWebgpu();
const skip = adapter ? false : 'no WebGPU adapter in this Node (npm package `webgpu`, Vulkan driver): GPU tests skipped';
if (skip) console.log(`# SKIP ${skip}`);
const pe = await init();
const g = adapter ? (await init({ gpu: 'require', webgpu: gpu })).gpu : null;  // pe.gpu, as a user gets it

/** Max |a − b| over all entries (−∞ = −∞ counts as 0). */
function maxDiff(a, b) {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** float64 reference of the sweep at distance r: Σ_i hr_i cos(rθ_i) + hi_i sin(rθ_i) + pass. */
function sweepRef(q, k, rot, interleaved, inv) {
  const half = rot / 2, hr = [], hi = [];
  let pass = 0, sumAbs = 0;
  for (let i = 0; i < half; i++) {
    const a = interleaved ? 2 * i : i, b = interleaved ? 2 * i + 1 : i + half;
    hr.push(q[a] * k[a] + q[b] * k[b]);
    hi.push(q[b] * k[a] - q[a] * k[b]);
    sumAbs += Math.hypot(hr[i], hi[i]);
  }
  for (let c = rot; c < q.length; c++) pass += q[c] * k[c];
  sumAbs += Math.abs(pass);
  const at = (r) => {
    let s = pass;
    for (let i = 0; i < half; i++) s += hr[i] * Math.cos(r * inv[i]) + hi[i] * Math.sin(r * inv[i]);
    return s;
  };
  return { at, sumAbs };
}

// Every 61st distance and the last 256 (the float64 reference costs 2·half trig calls per distance).
const sample = (n) => [...Array.from({ length: Math.ceil(n / 61) }, (_, j) => j * 61), ...Array.from({ length: 256 }, (_, j) => n - 256 + j)];

test('sweep at 2^20 distances, q = k = ones, Σ|h_i| = 256: within 1e-4 of float64', { skip }, async () => {
  const inv = pe.ropeInvFreq({ rotary_dim: 256 });
  const r = await g.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 256, count: 2 ** 20 });
  assert.equal(r.backend, 'webgpu');
  const ones = new Float32Array(256).fill(1);
  const ref = sweepRef(ones, ones, 256, true, inv);
  assert.equal(ref.sumAbs, 256);
  let worst = 0;
  for (const t of sample(2 ** 20)) worst = Math.max(worst, Math.abs(r.values[t] - ref.at(t)));
  assert.ok(worst <= 1e-4, `max error ${worst}`);
  console.log(`# sweep 2^20 × 128 frequencies, q = k = ones: max |GPU − float64| = ${worst.toExponential(2)}`);
});

test('sweep on random parameters (random/given q, k, layouts, partial rotary, scaled inv_freq, offsets): within 2.5e-7·(Σ|h_i| + |value|) of float64', { skip }, async () => {
  const scalings = [
    null,
    pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, factor: 8, rope_theta: 500000, original_max_position_embeddings: 4096 }).inv_freq,
    pe.ropeInvFreqScaled({ rope_type: 'llama3', rotary_dim: 64, factor: 8, rope_theta: 500000, original_max_position_embeddings: 8192 }).inv_freq,
  ];
  for (let c = 0; c < 6; c++) {
    const rv = randomVec(8, 100 + c);
    const head_dim = 64 + 16 * (c % 3), rotary_dim = c % 2 ? 64 : head_dim, inv_freq = scalings[c % 3] ?? undefined;
    const layout = c % 2 ? 'half_split' : 'interleaved';
    const q = c % 3 === 2 ? 'random' : randomVec(head_dim, c), k = c % 3 === 2 ? 'random' : randomVec(head_dim, 50 + c);
    const o = { q, k, seed: c, head_dim, rotary_dim: inv_freq ? 64 : rotary_dim, layout, inv_freq,
      q_position: Math.round(rv[0] * 1e6), k_start: Math.round(rv[1] * 2e9), count: 70000 + c * 1000, rope_theta: inv_freq ? undefined : 10000 + 1000 * c };
    const r = await g.ropeInnerProductSweep(o);
    assert.equal(r.backend, 'webgpu');
    const w = pe.ropeInnerProductSweep(o);
    const qq = typeof q === 'string' ? seededVector(c, 0x51, head_dim) : q, kk = typeof k === 'string' ? seededVector(c, 0x4b, head_dim) : k;
    const ref = sweepRef(qq, kk, o.rotary_dim, layout === 'interleaved', inv_freq ?? pe.ropeInvFreq({ rotary_dim: o.rotary_dim, rope_theta: o.rope_theta }));
    let worst = 0, worstWasm = 0;
    for (const t of sample(o.count)) {
      const exact = ref.at(o.k_start - o.q_position + t);
      const tol = 2.5e-7 * (ref.sumAbs + Math.abs(exact));  // the stated bound
      worst = Math.max(worst, Math.abs(r.values[t] - exact) / tol);
      worstWasm = Math.max(worstWasm, Math.abs(w[t] - exact) / (1e-5 * ref.sumAbs));  // the wasm path's stated bound
    }
    assert.ok(worst <= 1, `case ${c}: error ${worst.toFixed(2)}× the stated tolerance`);
    assert.ok(worstWasm <= 1, `case ${c}: the float64 reference disagrees with wasm (${worstWasm.toFixed(2)}×)`);
  }
});

test('Su\'s bound curve at 2^20 distances (d = 128, 512; a scaled inv_freq): within 1e-5·(d/2) of float64, as the wasm method', { skip }, async () => {
  const yarn = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 64, factor: 8, rope_theta: 500000, original_max_position_embeddings: 4096 }).inv_freq;
  for (const o of [{ rotary_dim: 128 }, { rotary_dim: 512, rope_theta: 500000 }, { inv_freq: yarn }]) {
    const r = await g.ropeDecayBound({ ...o, count: 2 ** 20 });
    assert.equal(r.backend, 'webgpu');
    const inv = o.inv_freq ?? pe.ropeInvFreq(o), half = inv.length;
    let worst = 0;
    for (let t = 0; t < 2 ** 20; t += 1999) {
      let sr = 0, si = 0, acc = 0;
      for (let i = 0; i < half; i++) { sr += Math.cos(t * inv[i]); si += Math.sin(t * inv[i]); acc += Math.hypot(sr, si); }
      worst = Math.max(worst, Math.abs(r.values[t] - acc / half));
    }
    assert.equal(r.values[0], (half + 1) / 2, 'r = 0: (1/(d/2))·Σ_j j');
    assert.ok(worst <= 1e-5 * half, `d/2 = ${half}: max error ${worst}`);
    console.log(`# bound 2^20 distances, d/2 = ${half}: max |GPU − float64| = ${worst.toExponential(2)}`);
  }
});

test('per-call backend: \'wasm\' never uses the GPU (a sweep stepped in 2^15 distances, identical to one wasm call), \'webgpu\' always; a bad value is a PosencError', { skip }, async () => {
  const ga = (await init({ gpu: 'auto', webgpu: gpu })).gpu;
  const o = { q: 'random', k: 'random', seed: 5, head_dim: 64, k_start: 12345, q_position: 7, count: 100000 };
  const seen = [];
  const w = await ga.ropeInnerProductSweep({ ...o, backend: 'wasm', progress: (f) => seen.push(f) });
  assert.equal(w.backend, 'wasm');
  assert.deepEqual(w.values, pe.ropeInnerProductSweep(o));
  assert.deepEqual(seen, [32768 / 100000, 65536 / 100000, 98304 / 100000, 1]);
  const small = await ga.ropeDecayBound({ rotary_dim: 8, count: 3, backend: 'webgpu' });
  assert.equal(small.backend, 'webgpu');
  assert.ok(maxDiff(small.values, pe.ropeDecayBound({ rotary_dim: 8, count: 3 })) <= 1e-5 * 4);
  await assert.rejects(ga.sinusoidal({ positions: 4, d: 4, backend: 'gpu' }), (e) => e instanceof PosencError && e.message === "backend: must be one of 'auto', 'webgpu', 'wasm' (got 'gpu' (a string))");
  const ac = new AbortController();
  await assert.rejects(ga.ropeInnerProductSweep({ ...o, backend: 'wasm', signal: ac.signal, progress: () => ac.abort() }), { name: 'AbortError' });
});

test('RoPE tables at 2^20 positions and on random parameters: within 1e-6 of float64', { skip }, async () => {
  const r = await g.ropeTables({ rotary_dim: 8, positions: 2 ** 20, rope_theta: 10000 });
  assert.equal(r.backend, 'webgpu');
  const inv = pe.ropeInvFreq({ rotary_dim: 8 });
  let worst = 0;
  for (let p = 0; p < 2 ** 20; p += 7) {
    for (let i = 0; i < 4; i++) {
      worst = Math.max(worst, Math.abs(r.values.cos[p * 4 + i] - Math.cos(p * inv[i])), Math.abs(r.values.sin[p * 4 + i] - Math.sin(p * inv[i])));
    }
  }
  assert.ok(worst <= 1e-6, `max error ${worst}`);
  console.log(`# RoPE tables 2^20 positions: max |GPU − float64| = ${worst.toExponential(2)}`);
  for (let c = 0; c < 4; c++) {
    const { inv_freq, attention_scaling } = pe.ropeInvFreqScaled({ rope_type: 'yarn', rotary_dim: 16 + 16 * c, factor: 2 + c, rope_theta: 10000 * (c + 1),
      original_max_position_embeddings: 2048 });
    const o = { inv_freq, attention_scaling, positions: 5000 + 3001 * c };
    const s = await g.ropeTablesScaled(o), w = pe.ropeTablesScaled(o);
    assert.equal(s.backend, 'webgpu');
    assert.ok(maxDiff(s.values.cos, w.cos) <= 1e-6 * attention_scaling && maxDiff(s.values.sin, w.sin) <= 1e-6 * attention_scaling);
  }
});

test('sinusoidal table (both layouts, odd and even d, random bases): within 1e-6 of the wasm path and float64', { skip }, async () => {
  for (let c = 0; c < 6; c++) {
    const o = { positions: 3000 + 977 * c, d: 5 + 23 * c, base: 100 + 5000 * c, layout: c % 2 ? 'concatenated' : 'interleaved' };
    const r = await g.sinusoidal(o);
    assert.equal(r.backend, 'webgpu');
    assert.ok(maxDiff(r.values, pe.sinusoidal(o)) <= 1e-6);
  }
  const r = await g.sinusoidal({ positions: 2 ** 20, d: 4 });
  let worst = 0;
  for (let p = 0; p < 2 ** 20; p += 5) {
    worst = Math.max(worst, Math.abs(r.values[p * 4] - Math.sin(p)), Math.abs(r.values[p * 4 + 1] - Math.cos(p)),
      Math.abs(r.values[p * 4 + 2] - Math.sin(p / 100)), Math.abs(r.values[p * 4 + 3] - Math.cos(p / 100)));
  }
  assert.ok(worst <= 1e-6, `max error ${worst}`);
});

test('attention scores (RoPE layouts, partial rotary, causal, softmax, several row chunks) = wasm within float32 tolerance', { skip }, async () => {
  const cases = [
    { seq: 1100, head_dim: 64, causal: true, rope: {} },
    { seq: 200, head_dim: 37, causal: false, softmax: false },
    { seq: 130, head_dim: 48, causal: true, softmax: false, rope: { layout: 'interleaved', rotary_dim: 32, rope_theta: 500000 } },
    { seq: 65, head_dim: 8, causal: false, rope: { layout: 'half_split' } },
  ];
  for (const [c, o] of cases.entries()) {
    const q = randomVec(o.seq * o.head_dim, 7 + c), k = randomVec(o.seq * o.head_dim, 70 + c);
    const out = new Float32Array(o.seq * o.seq);
    const r = await g.attentionScores({ ...o, q, k, out });
    assert.equal(r.backend, 'webgpu');
    assert.equal(r.values, out, 'writes into out');
    const w = pe.attentionScores({ ...o, q, k });
    for (let i = 0; i < w.length; i++) assert.equal(w[i] === -Infinity, r.values[i] === -Infinity);
    // |q_c k_c| ≤ 1: float32 dot products within head_dim·2^-24·head_dim/√head_dim; probabilities within 1e-6
    const tol = o.softmax === false ? o.head_dim * o.head_dim * 2 ** -24 / Math.sqrt(o.head_dim) : 1e-6;
    assert.ok(maxDiff(r.values, w) <= tol, `case ${c}: ${maxDiff(r.values, w)} > ${tol}`);
  }
});

test('bad input: the same PosencError as the wasm method, and the module stays usable', { skip }, async () => {
  const bad = [
    ['ropeInnerProductSweep', { q: 'ones', k: 'ones', head_dim: 8, rotary_dim: 7, count: 10 }],
    ['ropeInnerProductSweep', { q: 'ones', k: 'ones', head_dim: 8, count: 2 ** 20 + 1 }],
    ['ropeInnerProductSweep', { q: 'ones', k: 'ones', head_dim: 8, layout: 'halfsplit', count: 100 }],
    ['ropeInnerProductSweep', { q: [1, 2], k: 'ones', head_dim: 8, count: 100 }],
    ['ropeTables', { rotary_dim: 8, positions: -1 }],
    ['ropeTables', { rotary_dim: 8, positions: 100, rope_theta: -1 }],
    ['sinusoidal', { positions: 10, d: 0 }],
    ['sinusoidal', { positions: 10, d: 8, layout: 'paper' }],
    ['attentionScores', { q: new Float32Array(8), k: new Float32Array(8), seq: 2, head_dim: 4, rope: { layout: 'x' } }],
    ['attentionScores', { q: new Float32Array(7), k: new Float32Array(8), seq: 2, head_dim: 4 }],
    ['attentionScores', { q: new Float32Array(8), k: new Float32Array(8), seq: 0, head_dim: 4 }],
  ];
  for (const [name, o] of bad) {
    let expected;
    try {
      pe[name](o);
    } catch (e) {
      expected = e;
    }
    assert.ok(expected instanceof PosencError, `${name} ${JSON.stringify(o)} must be invalid`);
    await assert.rejects(g[name](o), (e) => e instanceof PosencError && e.message === expected.message);
  }
  assert.equal((await g.sinusoidal({ positions: 64, d: 8 })).backend, 'webgpu');
});

/** A WebGPU entry point whose device the test can reach (to destroy it, or to break it). */
function capturing(real) {
  const devices = [];
  return {
    devices,
    requestAdapter: async (o) => {
      const a = await real.requestAdapter(o);
      return a && { info: a.info, limits: a.limits, features: a.features, requestDevice: async (d) => { const dev = await a.requestDevice(d); devices.push(dev); return dev; } };
    },
  };
}

test('device lost mid-sweep (device.destroy()): the result still arrives via wasm, once with a notice; the next call gets a new device', { skip }, async () => {
  const cap = capturing(gpu);
  const gl = (await init({ gpu: 'require', webgpu: cap })).gpu;
  const o = { q: 'random', k: 'random', head_dim: 64, count: 2 ** 19 };
  const fractions = [];
  const r = await gl.ropeInnerProductSweep({ ...o, progress: (f) => { fractions.push(f); if (fractions.length === 1) cap.devices[0].destroy(); } });
  assert.equal(r.backend, 'wasm');
  assert.match(r.notice, /lost|read-back/);
  assert.deepEqual(r.values, pe.ropeInnerProductSweep(o));
  const again = await gl.ropeInnerProductSweep(o);
  assert.equal(again.backend, 'webgpu');
  assert.equal(again.notice, undefined);
  assert.equal(cap.devices.length, 2);
});

test('WebGPU errors (a failing createBuffer, as out of memory) and rows over the adapter limits fall back to wasm with one notice', { skip }, async () => {
  const cap = capturing(gpu);
  const gl = (await init({ gpu: 'require', webgpu: cap })).gpu;
  const dev = cap.devices[0];
  const create = dev.createBuffer.bind(dev);
  dev.createBuffer = () => { throw new RangeError('simulated: out of memory'); };
  const o = { positions: 1000, d: 16 };
  const a = await gl.sinusoidal(o), b = await gl.sinusoidal(o);
  assert.equal(a.backend, 'wasm');
  assert.match(a.notice, /out of memory/);
  assert.equal(b.notice, undefined, 'one notice, not one per call');
  assert.deepEqual(a.values, pe.sinusoidal(o));
  dev.createBuffer = create;
  // limits: a binding of 16 KiB holds 4096 floats — sweeps split into chunks of 4096, a 100-token score row block does not fit
  Object.defineProperty(dev, 'limits', { value: { maxStorageBufferBindingSize: 16384, maxBufferSize: 16384 } });
  const s = { q: 'random', k: 'random', head_dim: 16, count: 20000 };
  const sw = await gl.ropeInnerProductSweep(s);
  assert.equal(sw.backend, 'webgpu');
  assert.ok(maxDiff(sw.values, pe.ropeInnerProductSweep(s)) <= 1e-5);
  const q = randomVec(100 * 8, 3);
  const sc = await gl.attentionScores({ q, k: q, seq: 100, head_dim: 8 });
  assert.equal(sc.backend, 'wasm');
  assert.match(sc.notice, /limits/);
});

test('cancellation: an aborted call rejects with AbortError and computes nothing more; progress reaches 1', { skip }, async () => {
  const ac = new AbortController();
  const fractions = [];
  await assert.rejects(g.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 32, count: 2 ** 20, signal: ac.signal,
    progress: (f) => { fractions.push(f); ac.abort(); } }), { name: 'AbortError' });
  assert.equal(fractions.length, 1);
  await assert.rejects(g.sinusoidal({ positions: 10, d: 4, signal: AbortSignal.abort() }), { name: 'AbortError' });
  const seen = [];
  await g.ropeInnerProductSweep({ q: 'ones', k: 'ones', head_dim: 32, count: 2 ** 18, progress: (f) => seen.push(f) });
  assert.equal(seen.at(-1), 1);
  assert.ok(seen.every((f, i) => f > 0 && (i === 0 || f > seen[i - 1])));
});

test('Node without WebGPU, gpu: off, webgpu: null compute with wasm (identical results); bad modes are rejected', async () => {
  const o = { rotary_dim: 64, positions: 4096 };
  assert.equal(pe.gpu.available, false, 'plain init() in Node: no navigator.gpu');
  for (const gw of [pe.gpu, (await init({ gpu: 'off', webgpu: gpu })).gpu, (await init({ webgpu: null })).gpu]) {
    assert.equal(gw.available, false);
    const r = await gw.ropeTables(o);
    assert.equal(r.backend, 'wasm');
    assert.equal(r.notice, undefined);
    assert.deepEqual(r.values, pe.ropeTables(o));
    // a call that asks for WebGPU without a device: wasm, and a notice (once)
    const f = await gw.ropeTables({ ...o, backend: 'webgpu' }), f2 = await gw.ropeTables({ ...o, backend: 'webgpu' });
    assert.equal(f.backend, 'wasm');
    assert.match(f.notice, /no adapter\/device/);
    assert.equal(f2.notice, undefined);
    assert.deepEqual(f.values, r.values);
  }
  const b = await pe.gpu.ropeDecayBound({ rotary_dim: 64, rope_theta: 500000, count: 1000 });
  assert.deepEqual(b, { values: pe.ropeDecayBound({ rotary_dim: 64, rope_theta: 500000, count: 1000 }), backend: 'wasm' });
  await assert.rejects(pe.gpu.ropeDecayBound({ rotary_dim: 7, count: 10 }), (e) => e instanceof PosencError && /rotary_dim/.test(e.message));
  await assert.rejects(init({ gpu: 'require', webgpu: null }), (e) => e instanceof PosencError && e.message.startsWith('gpu:'));
  await assert.rejects(init({ gpu: 'on' }), (e) => e instanceof PosencError && e.message.startsWith('gpu:'));
});

test('auto follows the crossover measured on this adapter', { skip }, async () => {
  const o = { rotary_dim: 64, positions: 4096 };
  const ga = (await init({ gpu: 'auto', webgpu: gpu })).gpu;
  const r = await ga.ropeTables(o);
  const cal = await ga.calibration('tables');
  assert.ok(cal.gpu_ms.every((t) => t > 0) && cal.wasm_ms > 0);
  assert.equal(r.backend, 4096 * 32 >= cal.crossover ? 'webgpu' : 'wasm');
  console.log(`# auto policy on ${ga.adapter}: tables crossover ${cal.crossover} multiply-adds (GPU ${cal.gpu_ms.map((t) => t.toFixed(1))} ms, wasm ${cal.wasm_ms.toFixed(1)} ms)`);
});
