// Tasks that run in the compute worker: each takes the posenc API, plain parameters and a context
// ({progress, checkpoint}) and returns plain data (typed arrays are transferred to the page).
// Every number comes from the wasm module; the only JavaScript arithmetic here is bookkeeping
// (copying rows, max |a − b| of two results, a norm for display).

/** Seeded random rows [n, d] from the wasm generator (textQK of n distinct tokens `${tag}0 … ${tag}{n−1}`). */
export function randomRows(pe, n, d, seed = 0, tag = 'r') {
  const text = Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
  return pe.textQK({ text, head_dim: d, seed }).q;
}

/** q, k for the text's tokens, repeated cyclically to `seq` rows (the page's section 1 and its tests). */
export function tokensQK(pe, text, seq, headDim, seed = 0) {
  const base = pe.textQK({ text, head_dim: headDim, seed });
  const n = base.tokens.length;
  const q = new Float32Array(seq * headDim), k = new Float32Array(seq * headDim), tokens = [];
  for (let i = 0; i < seq; i++) {
    const t = i % n;
    q.set(base.q.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    k.set(base.k.subarray(t * headDim, (t + 1) * headDim), i * headDim);
    tokens.push(base.tokens[t]);
  }
  return { tokens, q, k };
}

export const maxAbsDiff = (a, b) => { let m = 0; for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i])); return m; };
const toF32 = (x) => Float32Array.from(x);
const dot = (pe, a, b) => {
  // ⟨a, b⟩ through the wasm dot-product kernel (tableSimilarity of the 2-row table [a; b]).
  const d = a.length, data = new Float32Array(2 * d); data.set(a); data.set(b, d);
  return pe.tableSimilarity({ rows: 2, cols: d, data }, { metric: 'dot' })[1];
};

export const tasks = {
  // ── 1 ──
  s1Perm(pe, { text, i, j, rope }) {
    const hd = 16;
    const a = pe.textQK({ text, head_dim: hd, seed: 0 });
    const n = a.tokens.length;
    i = Math.min(n - 1, Math.max(0, i)); j = Math.min(n - 1, Math.max(0, j));
    const perm = a.tokens.map((_, t) => (t === i ? j : t === j ? i : t));
    const b = pe.textQK({ text: perm.map((t) => a.tokens[t]).join(' '), head_dim: hd, seed: 0 });
    const r = rope ? {} : null;
    const sa = pe.attentionScores({ q: a.q, k: a.k, seq: n, head_dim: hd, rope: r });
    const sb = pe.attentionScores({ q: b.q, k: b.k, seq: n, head_dim: hd, rope: r });
    let diff = 0;
    for (let r0 = 0; r0 < n; r0++) for (let c = 0; c < n; c++) diff = Math.max(diff, Math.abs(sb[r0 * n + c] - sa[perm[r0] * n + perm[c]]));
    return { n, tokensA: a.tokens, tokensB: b.tokens, sa, sb, diff };
  },
  s1Main(pe, { text, seq, head_dim, base, rope, causal }, ctx) {
    // q, k depend only on (text, seq, head_dim): keep the last ones (a base or mask change reuses them).
    const key = `${seq}|${head_dim}|${text}`;
    const fresh = this._s1Key !== key;
    if (fresh) { this._s1 = tokensQK(pe, text, seq, head_dim); this._s1Key = key; }
    const { tokens, q, k } = this._s1;
    const scores = pe.attentionScores({ q, k, seq, head_dim, rope: rope ? { rope_theta: base } : null, causal, out: ctx.take(seq * seq) });
    return { tokens: fresh ? tokens : null, key, scores }; // tokens only when they changed (less to clone)
  },

  // ── 2 ──
  s2Sin(pe, { n, d, base, layout, i, j, s }) {
    const big = Math.max(n, i + s + 1, j + s + 1);
    const table = layout === 't2t' ? pe.sinusoidT2T({ positions: big, d, max_timescale: base })
      : pe.sinusoidal({ positions: big, d, base, layout });
    const full = { rows: big, cols: d, data: table };
    const simAll = pe.tableSimilarity(full, { metric: 'dot' });
    const sim = new Float32Array(n * n);
    for (let r = 0; r < n; r++) sim.set(simAll.subarray(r * big, r * big + n), r * n);
    const inv = layout === 't2t' ? pe.t2tInvTimescales({ d, max_timescale: base })
      : pe.ropeInvFreq({ rotary_dim: d - (d % 2), rope_theta: base });  // the paper's base^(−2i/d)
    const wavelength = Float64Array.from(inv, (w) => (2 * Math.PI) / w);
    return { table: table.slice(0, n * d), sim, wavelength, pij: simAll[i * big + j], pijs: simAll[(i + s) * big + (j + s)] };
  },
  s2Shift(pe, { d, base, layout, pos, k }) {
    // M_k p_pos computed by the RoPE kernel: rotating each (sin, cos) pair by −kω_i turns sin(pos ω) into sin((pos+k) ω).
    if (layout === 't2t') return { unsupported: true };
    const p = pe.sinusoidal({ positions: [pos, pos + k], d, base, layout });
    const ropeLayout = layout === 'interleaved' ? 'interleaved' : 'half_split';
    const moved = pe.ropeApply(p.subarray(0, d), { seq: 1, head_dim: d, rope_theta: base, layout: ropeLayout, positions: [-k] });
    const target = p.slice(d, 2 * d);
    return { moved, target, diff: maxAbsDiff(moved, target) };
  },
  /** Keeps a user's file in the worker (sent once, transferred), so later draws do not copy it again. */
  s2Load(pe, { bytes, fileName }) {
    this._file = bytes ? { bytes, fileName } : null;
    this._table = null;
    return { size: bytes ? bytes.byteLength : 0 };
  },
  s2Learned(pe, { name, pos, clamp }) {
    const { bytes, fileName } = this._file ?? {};
    let table, info, names = [];
    if (this._table && this._table.name === (name || this._table.name) && bytes) ({ table, names, name } = this._table);
    else if (!bytes) {
      // Stand-in until a file is loaded: the sinusoidal table, 64 positions × 32 channels.
      table = { rows: 64, cols: 32, data: pe.sinusoidal({ positions: 64, d: 32 }) };
      info = 'stand-in';
    } else if (/\.npy$/i.test(fileName)) table = pe.tableFromNpy(bytes);
    else if (/\.json$/i.test(fileName)) table = pe.tableFromJSON(new TextDecoder().decode(bytes));
    else {
      const list = pe.safetensorsTensors(bytes);
      names = list.filter((t) => t.shape.length === 2).map((t) => t.name);
      const pick = name && names.includes(name) ? name : names.find((x) => /wpe|position/i.test(x)) ?? names[0];
      table = pe.tableFromSafetensors(bytes, { name: pick });
      name = pick;
    }
    if (bytes) this._table = { table, names, name: name || '' };
    const show = Math.min(table.rows, 512);
    const sub = { rows: show, cols: table.cols, data: table.data.subarray(0, show * table.cols) };
    const sim = pe.tableSimilarity(sub, { metric: 'cosine' });
    let lookup, error = null;
    try { lookup = pe.tableLookup(table, { positions: [pos], clamp }); } catch (e) { error = e.message; }
    let sameAsLast = null;
    if (lookup) {
      const last = table.data.subarray((table.rows - 1) * table.cols, table.rows * table.cols);
      sameAsLast = maxAbsDiff(lookup, last) === 0;
    }
    return { rows: table.rows, cols: table.cols, show, sim, info, names, name, lookup: lookup ? lookup.slice(0, 6) : null, error, sameAsLast };
  },
  s2Mult(pe, { word, pos, d, base, n }) {
    const x = pe.textQK({ text: word || 'x', head_dim: d, seed: 0 }).q.slice(0, d);
    const p = pe.sinusoidal({ positions: [pos], d, base });
    const xp = pe.multiplicativePE(x, p);
    const even = d - (d % 2);
    const rec = pe.sinusoidRecursive({ d: even, base, positions: n });
    const direct = pe.sinusoidal({ positions: n, d: even, base });
    return { x, p, xp, recDiff: maxAbsDiff(rec, direct) };
  },

  // ── 3 ──
  s3Shaw(pe, { n, K }) {
    const idx = pe.shawRelativeIndex({ q_len: n, max_relative_position: K });
    return { idx: toF32(idx), corner: idx[n - 1] };
  },
  s3XL(pe, { text, mem }) {
    const d = 16;
    const seg = pe.textQK({ text, head_dim: d, seed: 0 });
    const qlen = seg.tokens.length, klen = qlen + mem;
    const memK = randomRows(pe, mem, d, 1, 'mem');
    const k = new Float32Array(klen * d); k.set(memK); k.set(seg.k, mem * d);
    const uv = randomRows(pe, 2, d, 2, 'bias');
    const r = pe.xlPositionEmbedding({ klen, d });
    const out = pe.xlScores({ q: seg.q, k, r, u: uv.subarray(0, d), v: uv.subarray(d), qlen, klen, d });
    const keys = [...Array.from({ length: mem }, (_, i) => `m${i}`), ...seg.tokens];
    return { qlen, klen, rows: seg.tokens, cols: keys, a: out.a, b: out.b, c: out.c, d: out.d, score: out.score };
  },
  s3RelShift(pe, { qlen, klen }) {
    // Entry (i, m) of the input is 10·i + m so the reader can follow where each lands.
    const x = new Float32Array(qlen * klen);
    for (let i = 0; i < qlen; i++) for (let m = 0; m < klen; m++) x[i * klen + m] = 10 * i + m;
    return { x, shifted: pe.relShift(x, { qlen, klen }) };
  },
  s3T5(pe, { nb, md, bi, head, heads }) {
    const R = md + 40;
    const rel = Float64Array.from({ length: 2 * R + 1 }, (_, i) => i - R);
    const buckets = Float64Array.from(rel, (r) => pe.t5RelativePositionBucket(r, { num_buckets: nb, max_distance: md, bidirectional: bi }));
    // The seed's table is for i − j = 0 … 30, i.e. relative_position = j − i = −(i − j).
    const table = Array.from({ length: 31 }, (_, t) => pe.t5RelativePositionBucket(-t, { num_buckets: nb, max_distance: md, bidirectional: bi }));
    const seq = 48;
    const weights = randomRows(pe, nb, heads, 3, 'bucket');
    const bias = pe.t5Bias({ q_len: seq, table: weights, num_heads: heads, num_buckets: nb, max_distance: md, bidirectional: bi });
    const h = Math.min(heads - 1, Math.max(0, head));
    return { rel, buckets, table, seq, bias: bias.slice(h * seq * seq, (h + 1) * seq * seq) };
  },
  s3Deberta(pe, { pb, mr, n }) {
    const L = Math.max(2 * mr, 64);
    const rel = pe.debertaRelativePositions({ q_len: 2 * L + 1, position_buckets: pb, max_relative_positions: mr });
    const delta = Float64Array.from({ length: 2 * L + 1 }, (_, j) => L - j); // row L: δ = L − j
    const mapped = Float64Array.from(rel.subarray(L * (2 * L + 1), (L + 1) * (2 * L + 1)));
    const d = 16, span = pb > 0 ? pb : mr;
    const { q, k, tokens } = pe.textQK({ text: Array.from({ length: n }, (_, i) => `w${i % 7}`).join(' '), head_dim: d, seed: 0 });
    const posKey = randomRows(pe, 2 * span, d, 4, 'pk'), posQuery = randomRows(pe, 2 * span, d, 5, 'pq');
    const s = pe.debertaScores({ q, k, pos_key: posKey, pos_query: posQuery, seq: n, d, position_buckets: pb, max_relative_positions: mr });
    return { delta, mapped, c2c: s.c2c, c2p: s.c2p, p2c: s.p2c, score: s.score, scale: s.scale, tokens };
  },
  s3Tupe(pe, { n, head }) {
    const dm = 32, heads = 4, hd = 8;
    const p = pe.sinusoidal({ positions: n, d: dm });
    const uq = randomRows(pe, dm, heads * hd, 6, 'uq'), uk = randomRows(pe, dm, heads * hd, 7, 'uk');
    const s = pe.tupePositionScores({ p, u_q: uq, u_k: uk, n, d_model: dm, heads, head_dim: hd });
    const h = Math.min(heads - 1, Math.max(0, head));
    return { n, map: s.slice(h * n * n, (h + 1) * n * n) };
  },

  // ── 4 ──
  s4Play(pe, { q, k, m, n, theta }) {
    // One plane with inverse frequency θ: tables from ropeTablesScaled, rotation by ropeApplyTables.
    const t = pe.ropeTablesScaled({ inv_freq: [theta], positions: [m, n, n - m, 0] });
    const rot = (v, row) => pe.ropeApplyTables(v, { seq: 1, head_dim: 2, layout: 'interleaved', cos: t.cos.subarray(row, row + 1), sin: t.sin.subarray(row, row + 1) });
    const qm = rot(q, 0), kn = rot(k, 1), kRel = rot(k, 2);
    return { qm, kn, dot: dot(pe, qm, kn), rel: dot(pe, q, kRel), raw: dot(pe, q, k) };
  },
  s4Deriv(pe, { d, base, m, n }) {
    const qk = randomRows(pe, 2, d, 9, 'qk'), q = qk.slice(0, d), k = qk.slice(d);
    const rope = (v, p, layout = 'interleaved') => pe.ropeApply(v, { seq: 1, head_dim: d, rope_theta: base, layout, positions: [p] });
    const s = 5;
    const c1 = { lhs: dot(pe, rope(q, m), rope(k, n)), shifted: dot(pe, rope(q, m + s), rope(k, n + s)), s };
    const qm = rope(q, m);
    const norm = (v) => Math.sqrt(dot(pe, v, v));
    const c2 = { nq: norm(q), nqm: norm(qm) };
    // eq. 19: pair 0 of R_m q equals the complex product (q0 + i q1)·e^{i m θ_0}; e^{i m θ_0} from freqs_cis.
    const cis = pe.ropeFreqsCis({ rotary_dim: d, rope_theta: base, positions: [m] });
    const c3 = { rot: [qm[0], qm[1]], cis: [cis[0], cis[1]], complex: [q[0] * cis[0] - q[1] * cis[1], q[0] * cis[1] + q[1] * cis[0]] };
    const c4 = { lhs: dot(pe, qm, rope(k, n)), rhs: dot(pe, q, rope(k, n - m)) };
    // Three forms of R_m q (interleaved layout):
    const basis = new Float32Array(d * d);
    for (let c = 0; c < d; c++) basis[c * d + c] = 1;
    const cols = pe.ropeApply(basis, { seq: d, head_dim: d, rope_theta: base, layout: 'interleaved', positions: new Array(d).fill(m) });
    // cols row c = R_m e_c = column c of R_m; transpose → rows of R_m; R_m q via wasm dot products.
    const table = new Float32Array((d + 1) * d);
    for (let r = 0; r < d; r++) for (let c = 0; c < d; c++) table[r * d + c] = cols[c * d + r];
    table.set(q, d * d);
    const sim = pe.tableSimilarity({ rows: d + 1, cols: d, data: table }, { metric: 'dot' });
    const block = Float32Array.from({ length: d }, (_, r) => sim[r * (d + 1) + d]);
    const t = pe.ropeTables({ rotary_dim: d, rope_theta: base, positions: [m] });
    const cosR = Float32Array.from({ length: d }, (_, c) => t.cos[c >> 1]);
    const sinR = Float32Array.from({ length: d }, (_, c) => t.sin[c >> 1]);
    const sinFlip = Float32Array.from({ length: d }, (_, c) => (c % 2 ? 1 : -1) * t.sin[c >> 1]);
    const rotQ = Float32Array.from({ length: d }, (_, c) => (c % 2 ? q[c - 1] : -q[c + 1]));
    const swapQ = Float32Array.from({ length: d }, (_, c) => (c % 2 ? q[c - 1] : q[c + 1]));
    const sinAlt = Float32Array.from({ length: d }, (_, c) => (c % 2 ? -1 : 1) * t.sin[c >> 1]);
    const add = (a, b) => Float32Array.from(a, (v, i) => v + b[i]);
    const qc = pe.multiplicativePE(q, cosR);
    const eq23 = add(qc, pe.multiplicativePE(rotQ, sinR));
    const flipped = add(qc, pe.multiplicativePE(swapQ, sinFlip));
    const literal = add(qc, pe.multiplicativePE(q, sinAlt));
    const kernel = rope(q, m);
    // Layouts as a permutation: P q = (q0, q2, …, q1, q3, …).
    const P = Array.from({ length: d }, (_, c) => (c < d / 2 ? 2 * c : 2 * (c - d / 2) + 1));
    const pq = Float32Array.from(P, (src) => q[src]);
    const half = rope(pq, m, 'half_split');
    const back = new Float32Array(d); P.forEach((src, c) => { back[src] = half[c]; });
    return {
      c1, c2, c3, c4,
      forms: { block, eq23, flipped, literal, kernel,
        d_block: maxAbsDiff(block, kernel), d_eq23: maxAbsDiff(eq23, kernel), d_flipped: maxAbsDiff(flipped, kernel), d_literal: maxAbsDiff(literal, kernel) },
      layout: { diff: maxAbsDiff(back, kernel), nop: maxAbsDiff(rope(q, m, 'half_split'), kernel) },
    };
  },
  s4Cis(pe) { return { cis: pe.ropeFreqsCis({ rotary_dim: 8, positions: 3 }), inv: pe.ropeInvFreq({ rotary_dim: 8 }) }; },
  s4Partial(pe, { hd, f }) {
    const rd = pe.rotaryDim({ head_dim: hd, partial_rotary_factor: f });
    const seq = 64, x = new Float32Array(seq * hd).fill(1);
    return { rd, seq, map: pe.ropeApply(x, { seq, head_dim: hd, rotary_dim: rd }) };
  },

  // ── 6 ──
  s6Ext(pe, { d, base, orig, factor }) {
    const common = { rotary_dim: d, rope_theta: base };
    const def = pe.ropeInvFreqScaled({ ...common, rope_type: 'default' }).inv_freq;
    const L = orig * factor;
    const schemes = {
      linear: { rope_type: 'linear', factor },
      ntk: { rope_type: 'ntk', factor },
      dynamic: { rope_type: 'dynamic', factor, max_position_embeddings: orig, seq_len: L },
      yarn: { rope_type: 'yarn', factor, original_max_position_embeddings: orig },
      llama3: { rope_type: 'llama3', factor, original_max_position_embeddings: orig, low_freq_factor: 1, high_freq_factor: 4 },
      longrope: {
        rope_type: 'longrope', factor, original_max_position_embeddings: orig, max_position_embeddings: L, seq_len: L,
        // Illustrative searched factors: 1 for the fastest pairs rising to `factor` for the slowest.
        long_factor: Array.from({ length: d / 2 }, (_, i) => 1 + (factor - 1) * (i / (d / 2 - 1)) ** 2),
        short_factor: new Array(d / 2).fill(1),
      },
    };
    const out = {};
    for (const [k, p] of Object.entries(schemes)) {
      try { const r = pe.ropeInvFreqScaled({ ...common, ...p }); out[k] = { inv: r.inv_freq, scaling: r.attention_scaling }; } catch (e) { out[k] = { error: e.message }; }
    }
    const fa = pe.ropeFrequencyAnalysis({ inv_freq: def, original_max_position_embeddings: orig });
    return { def, wave: fa.wavelength, rotations: fa.rotations, schemes: out, incomplete: def.length - fa.first_incomplete };
  },
  s6Config(pe, { text }) {
    const r = pe.ropeFromConfig(text);
    const def = pe.ropeInvFreq({ rotary_dim: r.rotary_dim, rope_theta: r.rope_theta });
    return { ...r, def };
  },

  // ── 7 ──
  s7Alibi(pe, { h, head, n, sym }) {
    const slopes = pe.alibiSlopes(h);
    const hh = Math.min(h - 1, Math.max(0, head));
    const bias = pe.alibiBias({ slopes: [slopes[hh]], q_len: n, mode: sym ? 'symmetric' : 'causal' });
    return { slopes, bias, slope: slopes[hh] };
  },
  s7Xpos(pe, { d, sb, n }) {
    const pairs = d / 2, probe = [0, 128, 256, 512, 1024, 2048].filter((p) => p <= n);
    const t = pe.xposTables({ rotary_dim: d, positions: probe, scale_base: sb });
    const scale = probe.map((_, r) => Float64Array.from({ length: pairs }, (_, i) => Math.hypot(t.cos[r * pairs + i], t.sin[r * pairs + i])));
    // Decay: a query of ones at the last position against keys of ones at every position.
    const ones = new Float32Array(n * d).fill(1);
    const q = pe.xposApply(ones, { seq: n, head_dim: d, scale_base: sb });
    const k = pe.xposApply(ones, { seq: n, head_dim: d, scale_base: sb, downscale: true });
    const plainQ = pe.ropeApply(ones, { seq: n, head_dim: d, layout: 'interleaved' });
    const s = pe.attentionScores({ q, k, seq: n, head_dim: d, softmax: false });
    const r = pe.attentionScores({ q: plainQ, k: plainQ, seq: n, head_dim: d, softmax: false });
    const last = n - 1;
    const xpos = Float64Array.from({ length: n }, (_, dist) => s[last * n + (last - dist)]);
    const rope = Float64Array.from({ length: n }, (_, dist) => r[last * n + (last - dist)]);
    return { probe, scale, xpos, rope };
  },
  // ── 5 ── long sweeps in chunks: progress after each, cancellable between chunks
  async s5Sweep(pe, { qk, base, base2, d, n, bound, width }, ctx) {
    const CHUNK = 32768;
    const bases = base2 && base2 !== base ? [base, base2] : [base];
    const q = qk === 'random' ? 'random' : 'ones', k = q;
    const qPos = qk === 'mid' ? Math.floor(n / 2) : 0;
    const total = bases.length * n + (bound ? n : 0);
    let done = 0;
    const curves = [];
    for (const b of bases) {
      const values = new Float32Array(n);
      for (let start = 0; start < n; start += CHUNK) {
        const count = Math.min(CHUNK, n - start);
        values.set(pe.ropeInnerProductSweep({ q, k, seed: 0, head_dim: d, rope_theta: b, q_position: qPos, k_start: start, count }), start);
        done += count; ctx.progress(done / total);
        await ctx.checkpoint();
      }
      const env = pe.envelope(values, Math.min(width, n));
      curves.push({ base: b, min: env.min, max: env.max, values });
    }
    let boundEnv = null;
    if (bound) {
      // The bound is a function of distance only; it is scaled so that it starts where the curve starts.
      const count = n - qPos; // distances 0 … (keys right of the query)
      const bnd = pe.ropeDecayBound({ rotary_dim: d, rope_theta: base, count });
      done += n; ctx.progress(done / total);
      boundEnv = pe.envelope(bnd, Math.max(1, Math.round(Math.min(width, n) * (count / n)))).max;
    }
    return { curves, bound: boundEnv, qPos };
  },

  // ── 8 ──
  s8Linear(pe, { n, d, base, causal, seed }) {
    const q = randomRows(pe, n, d, seed, 'lq'), k = randomRows(pe, n, d, seed, 'lk'), v = randomRows(pe, n, 8, seed, 'lv');
    const common = { q, k, v, seq: n, head_dim: d, v_dim: 8, causal, rope_theta: base };
    const naive = pe.linearAttentionRope({ ...common, form: 'naive' });
    const num = pe.linearAttentionRope({ ...common, form: 'numerator_only' });
    const min = (a) => a.reduce((m, x) => Math.min(m, x), Infinity);
    const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    return { naive, num, minNaive: min(naive.denominator), minNum: min(num.denominator), maxNaive: maxAbs(naive.output), maxNum: maxAbs(num.output) };
  },

  // ── 9 ──
  s9Explore(pe, { text, a, b, heads, head, hd, causal }) {
    const run = (type) => pe.attention({ scheme: { type }, text, heads, head_dim: hd, causal, seed: 0 });
    const A = run(a), B = run(b);
    const n = A.seq, h = Math.min(heads - 1, Math.max(0, head)), sl = (x) => x.slice(h * n * n, (h + 1) * n * n);
    // Raw scores without the mask (a causal mask is itself not permutation-equivariant).
    const perm = (type) => (n < 2 ? 0 : pe.permutationChange({ scheme: { type }, text, i: 0, j: n - 1, heads, head_dim: hd, causal: false, seed: 0 }));
    const terms = {};
    for (const name of A.term_names) terms[name] = sl(A.terms[name]);
    return { n, tokens: A.tokens, head: h, A: { probs: sl(A.probs), scores: sl(A.scores), terms, names: A.term_names }, B: { probs: sl(B.probs), scores: sl(B.scores) }, permA: perm(a), permB: perm(b) };
  },
};
