// Tasks of the site's live checks and tables (sections 2–4) that run in the page's one worker (worker.js: the figures'
// worker serving these too): each takes the posenc API,
// plain parameters and a context and returns plain data (typed arrays are transferred to the page). The figures are
// not here: they are defined once in the package (web/src/figures/defs) and compute in the same worker.
// Every number comes from the package's API; the only JavaScript arithmetic here is bookkeeping (copying rows,
// max |a − b| of two results) and, in §4's table of three ways to compute R_m q, the sums that assemble the notes'
// formulas from the API's element-wise products and row dot products: showing what each formula computes is that
// table's purpose.
import { randomRows, maxAbsDiff } from '../src/figures/defs/util.js';
import { errorText } from '../src/figures/messages.js';
import { PosencError } from 'posenc';
import { ownModelTasks } from './own-model-tasks.js';


export const tasks = {
  /** Nothing: the page sends it at once (compute.js) so the worker and the wasm start loading before any figure asks. */
  warm() { return null; },
  ...ownModelTasks,
  // ── 2 ──
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
  s2Learned(pe, { name, pos, clamp, from }) {
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
    // One page of at most 512 rows, from row `from` (the page's "first row" control steps through the table).
    if (!(Number.isInteger(from) && from >= 0 && from < table.rows)) {
      throw new PosencError(`from: must be an integer in [0, ${table.rows - 1}] (got ${from})`);
    }
    const show = Math.min(table.rows - from, 512);
    const sub = { rows: show, cols: table.cols, data: table.data.subarray(from * table.cols, (from + show) * table.cols) };
    const sim = pe.tableSimilarity(sub, { metric: 'cosine' });
    let lookup, error = null;
    try { lookup = pe.tableLookup(table, { positions: [pos], clamp }); } catch (e) { error = errorText(e); }
    let sameAsLast = null;
    if (lookup) {
      const last = table.data.subarray((table.rows - 1) * table.cols, table.rows * table.cols);
      sameAsLast = maxAbsDiff(lookup, last) === 0;
    }
    return { rows: table.rows, cols: table.cols, from, show, sim, info, names, name, lookup: lookup ? lookup.slice(0, 6) : null, error, sameAsLast };
  },

  // ── 3 ──
  s3RelShift(pe, { qlen, klen }) {
    // Entry (i, m) of the input is 10·i + m so the reader can follow where each lands.
    const x = new Float32Array(qlen * klen);
    for (let i = 0; i < qlen; i++) for (let m = 0; m < klen; m++) x[i * klen + m] = 10 * i + m;
    return { x, shifted: pe.relShift(x, { qlen, klen }) };
  },

  // ── 4 ──
  s4Deriv(pe, { d, base, m, n }) {
    const qk = randomRows(pe, 2, d, 9, 'qk'), q = qk.slice(0, d), k = qk.slice(d);
    const rope = (v, p, layout = 'interleaved') => pe.ropeApply(v, { seq: 1, head_dim: d, rope_theta: base, layout, positions: [p] });
    // ⟨R_a x, R_b y⟩ by the package's RoPE inner product (ropeInnerProductSweep), not assembled here.
    const score = (x, a, y, b) => pe.ropeInnerProductSweep({ q: x, k: y, head_dim: d, rope_theta: base, layout: 'interleaved', q_position: a, k_start: b, count: 1 })[0];
    const s = 5;
    const c1 = { lhs: score(q, m, k, n), shifted: score(q, m + s, k, n + s), s };
    const qm = rope(q, m);
    // eq. 16 as squared lengths: ⟨q, q⟩ and ⟨R_m q, R_m q⟩.
    const c2 = { nq: score(q, 0, q, 0), nqm: score(q, m, q, m) };
    // eq. 19: pair 0 of R_m q equals the complex product (q0 + i q1)·e^{i m θ_0}, with e^{i m θ_0} = (re, im) taken from
    // freqs_cis and applied as the cos and sin of one plane (ropeApplyTables).
    const cis = pe.ropeFreqsCis({ rotary_dim: d, rope_theta: base, positions: [m] });
    const complex = pe.ropeApplyTables(q.subarray(0, 2), { seq: 1, head_dim: 2, layout: 'interleaved', cos: cis.subarray(0, 1), sin: cis.subarray(1, 2) });
    const c3 = { rot: [qm[0], qm[1]], cis: [cis[0], cis[1]], complex: [complex[0], complex[1]] };
    const c4 = { lhs: score(q, m, k, n), rhs: score(q, 0, k, n - m) };
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
};
