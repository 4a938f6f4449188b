// Research schemes (web/src/research.ts → cpp/src/research.cpp) against independent float64 JavaScript that follows
// each reference line by line: chijames/KERPLE@73f1ee2d (ParallelKerplePower/Log), NVIDIA/NeMo@000b931e (Sandwich),
// mcleish7/arithmetic@55af9d5e (FIRE), facebookresearch/RAM@eff93c70 (CoPE), shawntan/stickbreaking-attention@ea69b8dd
// (sb_ref.py), fla-org/flash-linear-attention@27289fcb (naive_path_attn); and the papers' own closed forms.
import test from 'node:test';
import assert from 'node:assert/strict';
import init, { PosencError } from 'posenc';

const pe = await init();
// The accuracy research.ts states for every curve: float64 against float64 formulas of at most a few thousand terms.
const STATED = 1e-12;
// Closed forms of one or two operations (a power, a log): a few ulps.
const ULPS = 1e-13;
const close = (got, want, rel = STATED, label = '') => assert.ok(Math.abs(got - want) <= rel * Math.max(1, Math.abs(want)), `${label} ${got} vs ${want}`);
const sigmoid = (z) => 1 / (1 + Math.exp(-z));
/** A small seeded LCG in [−1, 1): test inputs only. */
const lcg = (seed) => () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 1073741824 - 1; };

test('KERPLE: the reference kernels −bias_a·diff^bias_p and −bias_p·log(1 + bias_a·diff); power with r2 = 1 is ALiBi', () => {
  const diff = Array.from({ length: 300 }, (_, i) => i);
  for (const [a, p] of [[0.5, 0.5], [0.01, 2], [0.9, 1.3]]) {
    const got = pe.kerpleBias({ kernel: 'power', r1: a, r2: p, count: 300 });
    diff.forEach((d, i) => close(got[i], -(d ** p) * a, ULPS, 'power'));
  }
  for (const [p, a] of [[1, 0.5], [1.7, 0.02]]) {
    const got = pe.kerpleBias({ kernel: 'log', r1: p, r2: a, count: 300 });
    diff.forEach((d, i) => close(got[i], -p * Math.log(1 + a * d), ULPS, 'log'));
  }
  // KERPLE's power kernel with exponent 1 and ALiBi's slopes is ALiBi (the reference's 'original' mode uses _get_slopes)
  const m = pe.alibiSlopes(8)[3], alibi = pe.alibiBias({ slopes: [m], q_len: 1, k_len: 64 });
  const k = pe.kerpleBias({ kernel: 'power', r1: m, r2: 1, count: 64 });
  for (let r = 0; r < 64; r++) assert.equal(Math.fround(k[r]), alibi[63 - r]);
});

test('Sandwich: NeMo’s (Σ cos(r·inv_freq) − d/2)/(h·8/H), inv_freq = 10000^(−2·arange(1, d/2 + 1)/d)', () => {
  for (const [d, H] of [[64, 8], [128, 12], [2, 1]]) {
    const inv = Array.from({ length: d / 2 }, (_, k) => 1 / 10000 ** ((2 * (k + 1)) / d));
    for (const h of [1, H]) {
      const got = pe.sandwichBias({ head_dim: d, num_heads: H, head: h, count: 700 });
      for (const r of [0, 1, 5, 99, 699]) close(got[r], (inv.reduce((s, f) => s + Math.cos(r * f), 0) - d / 2) / ((h * 8) / H), STATED, `d=${d} h=${h} r=${r}`);
      assert.ok(got.every((x) => x <= STATED), 'never positive: every cosine ≤ 1');
    }
  }
});

test('FIRE: log(|c·r| + 1)/(log(|c·max(i, L)| + 1) + eps), c = 0.1, L = 512, eps = 1e-6 by default', () => {
  for (const [i, c, L] of [[100, 0.1, 512], [4095, 0.1, 512], [4095, 0.5, 64], [10, 2, 0]]) {
    const got = c === 0.1 && L === 512 ? pe.fireDistance({ query_position: i, count: i + 1 }) : pe.fireDistance({ c, L, query_position: i, count: i + 1 });
    const norm = Math.log(Math.abs(c * Math.max(i, L)) + 1) + 1e-6;
    for (const r of [0, 1, Math.floor(i / 2), i]) close(got[r], Math.log(Math.abs(c * r) + 1) / norm, ULPS, `i=${i} r=${r}`);
  }
  // progressive interpolation: the same distance gets a smaller input as the query moves further in
  const near = pe.fireDistance({ query_position: 1023, count: 1024 }), far = pe.fireDistance({ query_position: 8191, count: 1024 });
  assert.ok(far[1023] < near[1023] && near[1023] < 1);
});

test('CoPE: positions = gates.flip(-1).cumsum(-1).flip(-1).clamp(max = npos − 1), gates = σ(logits)', () => {
  const rnd = lcg(7), z = Array.from({ length: 50 }, () => 4 * rnd());
  for (const npos of [51, 10]) {
    const got = pe.copePositions({ gate_logits: z, npos });
    const g = z.map(sigmoid);
    for (let j = 0; j < 50; j++) close(got[j], Math.min(g.slice(j).reduce((a, b) => a + b, 0), npos - 1), STATED, `j=${j}`);
  }
  // the paper's counting: gates ≈ 1 on markers and ≈ 0 elsewhere → the position of key j counts the markers from j on
  const marks = Array.from({ length: 64 }, (_, j) => (j % 8 === 0 ? 20 : -20));
  const p = pe.copePositions({ gate_logits: marks });
  // exactly: k markers from j on give k·σ(20) + (64 − j − k)·σ(−20); within 64·σ(−20) = 1.3e-7 of the count k
  for (let j = 0; j < 64; j++) {
    const k = marks.slice(j).filter((x) => x > 0).length;
    close(p[j], k * sigmoid(20) + (64 - j - k) * sigmoid(-20), STATED, `markers j=${j}`);
    assert.ok(Math.abs(p[j] - k) < 64 * sigmoid(-20) + STATED, `count j=${j}`);
  }
});

test('stick-breaking: A_j = β_j·Π_{j<t<n}(1 − β_t) (sb_ref.py with attend_current = False), as a plain product', () => {
  const rnd = lcg(3), z = Array.from({ length: 40 }, () => 6 * rnd());
  const got = pe.stickBreakingWeights({ logits: z });
  for (let j = 0; j < 40; j++) {
    let a = sigmoid(z[j]);
    for (let t = j + 1; t < 40; t++) a *= 1 - sigmoid(z[t]);
    close(got[j], a, STATED, `j=${j}`);
  }
  // what is left, 1 − ΣA = Π(1 − β_t), goes to the query's own value (the reference's `rem`)
  close(1 - got.reduce((s, x) => s + x, 0), z.reduce((s, x) => s * (1 - sigmoid(x)), 1), STATED, 'rem');
});

test('PaTH: qᵀ H_{n−1} ⋯ H_{j+1} k_j with dense matrices; β = 0 leaves q·k; β = 2 reflections keep |Πᵀq|', () => {
  const n = 7, d = 5, rnd = lcg(11);
  const rows = (m) => Array.from({ length: m * d }, () => rnd());
  const w = rows(n), q = rows(1), k = rows(n), beta = Array.from({ length: n }, () => 1 + rnd());
  for (let t = 0; t < n; t++) { const s = Math.hypot(...w.slice(t * d, t * d + d)); for (let c = 0; c < d; c++) w[t * d + c] /= s; }
  const got = pe.pathScores({ q, k, w, beta, head_dim: d });
  const H = (t) => Array.from({ length: d }, (_, a) => Array.from({ length: d }, (_, b) => (a === b ? 1 : 0) - beta[t] * w[t * d + a] * w[t * d + b]));
  const mul = (A, B) => A.map((row) => B[0].map((_, b) => row.reduce((s, x, c) => s + x * B[c][b], 0)));
  for (let j = 0; j < n; j++) {
    let M = Array.from({ length: d }, (_, a) => Array.from({ length: d }, (_, b) => (a === b ? 1 : 0)));
    for (let t = n - 1; t > j; t--) M = mul(M, H(t));              // H_{n−1} ⋯ H_{j+1}, left to right
    let want = 0;
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) want += q[a] * M[a][b] * k[j * d + b];
    close(got[j], want, STATED, `j=${j}`);
  }
  const zero = pe.pathScores({ q, k, w, beta: new Array(n).fill(0), head_dim: d });
  for (let j = 0; j < n; j++) close(zero[j], q.reduce((s, x, c) => s + x * k[j * d + c], 0), ULPS);
  // β = 2: every H_t is a reflection (orthogonal), so v_j = H_{j+1} ⋯ H_{n−1} q keeps |q|. Keys all equal to the basis
  // vector e_c read component c of every v_j; the squares over c add up to |q|² for every j.
  const two = new Array(n).fill(2), sq = new Array(n).fill(0);
  for (let c = 0; c < d; c++) {
    const e = Array.from({ length: n * d }, (_, i) => (i % d === c ? 1 : 0));
    pe.pathScores({ q, k: e, w, beta: two, head_dim: d }).forEach((x, j) => { sq[j] += x * x; });
  }
  const q2 = q.reduce((s, x) => s + x * x, 0);
  for (let j = 0; j < n; j++) close(sq[j], q2, STATED, `|v_${j}|² = |q|²`);
  // β < 2 shrinks the component along w: |v_0| < |q| once a step with β = 1 has been taken
  const sq1 = new Array(n).fill(0);
  for (let c = 0; c < d; c++) {
    const e = Array.from({ length: n * d }, (_, i) => (i % d === c ? 1 : 0));
    pe.pathScores({ q, k: e, w, beta: new Array(n).fill(1), head_dim: d }).forEach((x, j) => { sq1[j] += x * x; });
  }
  assert.ok(sq1[0] < q2 - 1e-6 && Math.abs(sq1[n - 1] - q2) <= STATED * q2);
});

test('bad input: PosencError naming the parameter and the rule; sizes capped', () => {
  const bad = (f, re) => assert.throws(f, (e) => e instanceof PosencError && re.test(e.message), String(re));
  bad(() => pe.kerpleBias({ kernel: 'power', r1: 1, r2: 2.5, count: 4 }), /^r2: must be in \(0, 2\]/);
  bad(() => pe.kerpleBias({ kernel: 'cubic', r1: 1, r2: 1, count: 4 }), /^kernel:/);
  bad(() => pe.kerpleBias({ kernel: 'log', r1: 0, r2: 1, count: 4 }), /^r1:/);
  bad(() => pe.kerpleBias({ kernel: 'log', r1: 1, r2: 1, count: 2 ** 20 + 1 }), /^count:/);
  bad(() => pe.sandwichBias({ head_dim: 63, num_heads: 8, head: 1, count: 4 }), /^head_dim: must be even/);
  bad(() => pe.sandwichBias({ head_dim: 64, num_heads: 8, head: 9, count: 4 }), /^head: must be an integer in \[1, num_heads = 8\]/);
  bad(() => pe.fireDistance({ query_position: 9, count: 11 }), /^count: must be at most query_position \+ 1 = 10/);
  bad(() => pe.copePositions({ gate_logits: [] }), /^gate_logits: must hold at least one number/);
  bad(() => pe.copePositions({ gate_logits: [0, NaN] }), /^gate_logits: must be a finite number/);
  bad(() => pe.stickBreakingWeights({ logits: [1, Infinity] }), /^logits:/);
  bad(() => pe.pathScores({ q: [1, 0], k: [1, 0, 0, 1], w: [1, 0, 0, 1], beta: [1, 3], head_dim: 2 }), /^beta: every beta must be in \[0, 2\]/);
  bad(() => pe.pathScores({ q: [1, 0], k: [1, 0, 0, 1], w: [2, 0, 0, 1], beta: [1, 1], head_dim: 2 }), /^w: every row must have unit length/);
  bad(() => pe.pathScores({ q: [1, 0], k: [1, 0, 0], w: [1, 0, 0, 1], beta: [1, 1], head_dim: 2 }), /^k: length must equal/);
  bad(() => pe.pathScores({ q: [1], k: [1], w: [1], beta: new Array(2 ** 20).fill(1), head_dim: 8 }), /^beta: n·head_dim must be at most 2\^22/);
  // caps that keep every curve finite (1e308·r^2 was −Infinity; c = 1e308 made FIRE's 0/0 = NaN)
  bad(() => pe.kerpleBias({ kernel: 'power', r1: 1e308, r2: 2, count: 4 }), /^r1: must be a finite number in \(0, 1000000\]/);
  bad(() => pe.kerpleBias({ kernel: 'log', r1: 1, r2: 1e308, count: 4 }), /^r2: must be a finite number in \(0, 1000000\]/);
  bad(() => pe.fireDistance({ c: 1e308, query_position: 10, count: 3 }), /^c: must be a finite number in \(0, 1000000\]/);
  bad(() => pe.fireDistance({ L: 1e300, query_position: 10, count: 3 }), /^L: must be a finite number in \[0, /);
  for (const [r1, r2] of [[1e6, 2], [1e6, 1e6]]) {
    for (const kernel of r2 > 2 ? ['log'] : ['power', 'log']) assert.ok(pe.kerpleBias({ kernel, r1, r2, count: 2 ** 20 }).every(Number.isFinite), `${kernel} at the caps`);
  }
  assert.ok(pe.fireDistance({ c: 1e6, L: 2 ** 31, query_position: 2 ** 20 - 1, count: 2 ** 20 }).every((x) => x >= 0 && x < 1), 'FIRE at the caps');
  // PaTH: k is checked like q, and a score past float64 is an error, not ±Infinity
  bad(() => pe.pathScores({ q: [1, 0], k: [1, NaN, 0, 1], w: [1, 0, 0, 1], beta: [1, 1], head_dim: 2 }), /^k: must be a finite number \(got NaN\)$/);
  bad(() => pe.stickBreakingWeights({ logits: [1, -Infinity] }), /^logits: must be a finite number \(got -Infinity\)$/);   // the values as JavaScript writes them (C++ printf said nan, -inf)
  bad(() => pe.pathScores({ q: [1e200, 0], k: [1e200, 0, 0, 1], w: [0, 1, 0, 1], beta: [1, 1], head_dim: 2 }), /^q: q·k overflows float64/);
  // the module stays usable
  assert.equal(pe.kerpleBias({ kernel: 'log', r1: 1, r2: 1, count: 2 })[1], -Math.log(2));
});
