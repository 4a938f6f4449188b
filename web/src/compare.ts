// Comparing two RoPEs position by position: `pe.compareRope(a, b, options)`. Either side is anything of
// `pe.ropeFromConfig`'s shape (a config under any engine, a .gguf file, `pe.ropeInvFreqScaled`'s result). Float64 JS:
// the differences between two nearly equal RoPEs are what is asked for, and float32 tables would add their own
// rounding (≈ 6e-8) to every difference.
import { Core } from './core.js';
import { PosencError, show } from './validate.js';
import { int, num, optional, parse, str } from './options.js';
import type { Schema } from './options.js';

/** What compareRope reads of each side (ropeFromConfig's result has all of it). */
export interface RopeDescription {
  /** rotary_dim/2 inverse frequencies (rad per position). */
  inv_freq: ArrayLike<number>;
  /** Multiplies cos and sin (so the score by its square); default 1. */
  attention_scaling?: number;
  /** Channel pairing; default 'half_split'; null = not known (compared as half_split, and stated as a cause). */
  layout?: 'half_split' | 'interleaved' | null;
  rotary_dim?: number;
  head_dim?: number;
  rope_type?: string;
  rope_theta?: number;
  max_position_embeddings?: number | null;
  /** Per layer type (ropeFromConfig, ropeFromGGUF): false = no RoPE on those layers. */
  layer_types?: Record<string, RopeDescription | false>;
  layer_type?: string;
}

/** Options of {@link Posenc.compareRope}. */
export interface CompareRopeOptions {
  /** Largest relative distance compared (default: the larger max_position_embeddings of the two, else 8192). */
  positions?: number;
  /** Positions evaluated: every distance 0…positions when that is at most `samples`, else `samples` evenly spaced ones (default 8192, at most 65536). */
  samples?: number;
  /** Seed of the random q, k (standard normal, default 0). */
  seed?: number;
  /**
   * Largest score error (relative to |q|·|k|) still counted as agreeing (default 1e-3). Float32 storage of the same
   * frequencies (|θ_b/θ_a − 1| ≤ 2^-22) moves scores by about p·θ·1.2e-7: 3e-4 at 131072 tokens for Phi-3's LongRoPE
   * factors as a .gguf stores them; the mismatches this is for are 1e-2 and more.
   */
  tolerance?: number;
  /** Compare this layer type of each side (default: each side's default RoPE). */
  layer_type?: string;
}

/** One comparison of two RoPEs (one layer type). */
export interface RopeComparison {
  /** Pairs compared: min of the two rotary_dim/2 (extra pairs of the larger side are listed as a cause). */
  pairs: number;
  /** inv_freq_b / inv_freq_a per pair (1 where both are equal, Number.MAX_VALUE where it overflows, e.g. θ_a = 0 < θ_b: finite throughout). */
  freq_ratio: Float64Array;
  /** Pairs whose ratio differs from 1 by more than 1e-9, and the first of them (−1: none). */
  pairs_differing: number;
  first_differing_pair: number;
  rotary_dim: [number, number];
  head_dim: number;
  attention_scaling: [number, number];
  /** Each side's pairing ('unknown' where its description has layout null). */
  layout: [string, string];
  /** The relative distances evaluated, and per distance: max over pairs of |Δ(s·cos)| and |Δ(s·sin)|, and the score errors. */
  positions: Float64Array;
  dcos: Float64Array;
  dsin: Float64Array;
  /** |score_a − score_b| / (|q|·|k|) at each distance: q = k = all ones, and seeded random q, k. */
  score_error_ones: Float64Array;
  score_error_random: Float64Array;
  max_dcos: number;
  max_dsin: number;
  max_score_error_ones: number;
  max_score_error_random: number;
  /** The seeded random q and k (head_dim standard-normal numbers each). */
  random_q: Float64Array;
  random_k: Float64Array;
  /** Where (distance) the larger of the two score errors is largest. */
  worst_position: number;
  /** Every difference found, first cause first, in words. */
  causes: string[];
  /** Both score errors within `tolerance`. */
  agree: boolean;
  /** One sentence: the first cause and what it does to the scores at the last distance. */
  verdict: string;
}

/** Result of {@link Posenc.compareRope}: the comparison of the chosen layer type, and of every layer type both sides have. */
export interface CompareRopeResult extends RopeComparison {
  layer_type: string | null;
  tolerance: number;
  /** Assumptions made, not differences: a Llama-family .gguf's NORM pairing read as the config's rotate_half (its rows permuted). */
  notes: string[];
  /** Per layer type present on either side (null when a side has no RoPE there, or lacks the type). */
  by_layer_type: Record<string, RopeComparison | null>;
}

const OPTIONS: Schema = {
  positions: optional(int(1, 2 ** 31 - 1)), samples: int(2, 65536, 8192), seed: int(0, 2 ** 31 - 1, 0),
  tolerance: num({ gt: 0, max: 1 }, 1e-3), layer_type: optional(str()),
};

/** Largest |inv_freq| and attention_scaling accepted: angles and squared scales stay finite. */
const MAX_FREQ = 1e6;
const MAX_SCALE = 1e100;

interface Side { inv: Float64Array; s: number; layout: string; rotary: number; head: number; type: string | null; theta: number | null; maxPos: number | null }

function sideOf(name: string, v: unknown): Side {
  if (v === null || typeof v !== 'object') throw new PosencError(`${name}: must be a RoPE description (the result of ropeFromConfig, ropeFromGGUF or ropeInvFreqScaled) (got ${show(v)})`);
  const o = v as Record<string, unknown>;
  const f = o.inv_freq as ArrayLike<unknown> | undefined;
  if (f === undefined || f === null || typeof f !== 'object' || typeof f.length !== 'number') throw new PosencError(`${name}.inv_freq: required, a list of inverse frequencies`);
  if (f.length < 1 || f.length > 4096) throw new PosencError(`${name}.inv_freq: must have 1 to 4096 entries (got ${f.length})`);
  const inv = new Float64Array(f.length);
  for (let i = 0; i < f.length; i++) {
    const x = f[i];
    if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > MAX_FREQ) throw new PosencError(`${name}.inv_freq[${i}]: must be a finite number in [0, ${MAX_FREQ}] (got ${show(x)})`);
    inv[i] = x;
  }
  const s = o.attention_scaling ?? 1;
  if (typeof s !== 'number' || !Number.isFinite(s) || s <= 0 || s > MAX_SCALE) throw new PosencError(`${name}.attention_scaling: must be a finite number in (0, 1e100] (got ${show(s)})`);
  // null: not known (a .gguf of an architecture outside llama.cpp's pairing table); compared as half_split, and said so
  const layout = o.layout === null ? 'unknown' : o.layout ?? 'half_split';
  if (layout !== 'half_split' && layout !== 'interleaved' && layout !== 'unknown') {
    throw new PosencError(`${name}.layout: must be 'half_split', 'interleaved' or null (got ${show(layout)})`);
  }
  const rotary = o.rotary_dim ?? 2 * inv.length;
  if (rotary !== 2 * inv.length) throw new PosencError(`${name}.rotary_dim: must be 2 × inv_freq.length = ${2 * inv.length} (got ${show(rotary)})`);
  const head = o.head_dim ?? rotary;
  if (typeof head !== 'number' || !Number.isInteger(head) || head < rotary || head > 8192) throw new PosencError(`${name}.head_dim: must be an integer in [rotary_dim, 8192] (got ${show(head)})`);
  const mp = o.max_position_embeddings;
  return { inv, s, layout, rotary, head, type: typeof o.rope_type === 'string' ? o.rope_type : null,
    theta: typeof o.rope_theta === 'number' ? o.rope_theta : null, maxPos: typeof mp === 'number' && mp >= 1 ? mp : null };
}

/** Channel index pairs (u, v) of the rotated pairs of a head: half_split (i, i + r/2), interleaved (2i, 2i + 1). */
function pairsOf(side: Side): Int32Array {
  const h = side.rotary / 2;
  const p = new Int32Array(2 * h);
  for (let i = 0; i < h; i++) {
    p[2 * i] = side.layout === 'interleaved' ? 2 * i : i;
    p[2 * i + 1] = side.layout === 'interleaved' ? 2 * i + 1 : i + h;
  }
  return p;
}

/** mulberry32 + Box–Muller: standard normal numbers from a 32-bit seed. */
function normals(n: number, seed: number): Float64Array {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
  return out;
}

/** Per-pair coefficients of one side for vectors q, k: score(p) = s²·(Σ c_i cos(pθ_i) + d_i sin(pθ_i)) + pass-through. */
function coefficients(side: Side, q: Float64Array, k: Float64Array): { c: Float64Array; d: Float64Array; pass: number } {
  const pr = pairsOf(side);
  const h = side.rotary / 2;
  const c = new Float64Array(h), d = new Float64Array(h);
  const rotated = new Uint8Array(q.length);
  for (let i = 0; i < h; i++) {
    const u = pr[2 * i], v = pr[2 * i + 1];
    rotated[u] = rotated[v] = 1;
    c[i] = q[u] * k[u] + q[v] * k[v];
    d[i] = q[u] * k[v] - q[v] * k[u];
  }
  let pass = 0;
  for (let j = 0; j < q.length; j++) if (!rotated[j]) pass += q[j] * k[j];
  return { c, d, pass };
}

/** A frequency ratio: 1 ± δ written out when it is within 1e-4 of 1 (float32 roundings), else as fmt. */
const ratioWord = (x: number) => (x !== 1 && Math.abs(x - 1) < 1e-4 ? `1 ${x > 1 ? '+' : '−'} ${fmt(Math.abs(x - 1))}` : fmt(x));
/** 4 significant digits; 1e4 and beyond, or below 1e-3, as 1.5e6 (no '+', no trailing zeros). */
const fmt = (x: number) => (Math.abs(x) >= 1e4 || (Math.abs(x) < 1e-3 && x !== 0)
  ? x.toExponential(3).replace(/\.?0+e/, 'e').replace('e+', 'e') : String(Number(x.toPrecision(4))));

function compareSides(A: Side, B: Side, P: number, samples: number, seed: number, tolerance: number): RopeComparison {
  const head = Math.max(A.head, B.head);
  const pairs = Math.min(A.inv.length, B.inv.length);
  const ratio = new Float64Array(pairs);
  let differing = 0, first = -1;
  for (let i = 0; i < pairs; i++) {
    // θ_a = 0 (a proportional RoPE's tail) or subnormal beside a rotating θ_b: the ratio overflows, the largest double
    const q = B.inv[i] / A.inv[i];
    ratio[i] = A.inv[i] === B.inv[i] ? 1 : Number.isFinite(q) ? q : Number.MAX_VALUE;
    if (!(Math.abs(ratio[i] - 1) <= 1e-9)) {
      differing++;
      if (first < 0) first = i;
    }
  }
  const n = Math.min(samples, P + 1);
  const pos = new Float64Array(n);
  for (let j = 0; j < n; j++) pos[j] = n === P + 1 ? j : Math.round((j * P) / (n - 1));
  const ones = new Float64Array(head).fill(1);
  const qr = normals(head, seed), kr = normals(head, seed + 0x9e3779b9);
  const norm = (x: Float64Array) => Math.sqrt(x.reduce((t, v) => t + v * v, 0));
  const nr = norm(qr) * norm(kr);
  const ca1 = coefficients(A, ones, ones), cb1 = coefficients(B, ones, ones);
  const car = coefficients(A, qr, kr), cbr = coefficients(B, qr, kr);
  const sa2 = A.s * A.s, sb2 = B.s * B.s;
  const dcos = new Float64Array(n), dsin = new Float64Array(n), e1 = new Float64Array(n), er = new Float64Array(n);
  const maxPairs = Math.max(A.inv.length, B.inv.length);
  for (let j = 0; j < n; j++) {
    const p = pos[j];
    let mc = 0, ms = 0, s1a = ca1.pass, s1b = cb1.pass, sra = car.pass, srb = cbr.pass;
    // pass-through channels are not scaled by attention_scaling; rotated ones are, on q and on k
    let r1a = 0, r1b = 0, rra = 0, rrb = 0;
    for (let i = 0; i < maxPairs; i++) {
      const hasA = i < A.inv.length, hasB = i < B.inv.length;
      const aa = hasA ? p * A.inv[i] : 0, ab = hasB ? p * B.inv[i] : 0;
      const cA = Math.cos(aa), sA = Math.sin(aa), cB = Math.cos(ab), sB = Math.sin(ab);
      if (hasA && hasB) {
        mc = Math.max(mc, Math.abs(A.s * cA - B.s * cB));
        ms = Math.max(ms, Math.abs(A.s * sA - B.s * sB));
      }
      if (hasA) {
        r1a += ca1.c[i] * cA + ca1.d[i] * sA;
        rra += car.c[i] * cA + car.d[i] * sA;
      }
      if (hasB) {
        r1b += cb1.c[i] * cB + cb1.d[i] * sB;
        rrb += cbr.c[i] * cB + cbr.d[i] * sB;
      }
    }
    s1a += sa2 * r1a; s1b += sb2 * r1b; sra += sa2 * rra; srb += sb2 * rrb;
    dcos[j] = mc; dsin[j] = ms;
    e1[j] = Math.abs(s1a - s1b) / head;
    er[j] = Math.abs(sra - srb) / nr;
  }
  const max = (x: Float64Array) => x.reduce((m, v) => Math.max(m, v), 0);
  let worst = 0;
  for (let j = 1; j < n; j++) if (Math.max(e1[j], er[j]) > Math.max(e1[worst], er[worst])) worst = j;
  const me1 = max(e1), mer = max(er);
  const agree = me1 <= tolerance && mer <= tolerance;

  const causes: string[] = [];
  for (const [k, x] of [['a', A], ['b', B]] as const) {
    if (x.layout === 'unknown') causes.push(`layout of ${k} unknown (its file does not say how channels pair): compared as half_split`);
  }
  if (A.layout !== B.layout && A.layout !== 'unknown' && B.layout !== 'unknown') causes.push(`layout ${A.layout} vs ${B.layout}: the same q/k channels are paired differently (a checkpoint permuted for one layout rotates the wrong pairs under the other)`);
  if (A.rotary !== B.rotary) causes.push(`rotary_dim ${A.rotary} vs ${B.rotary}: ${Math.abs(A.rotary - B.rotary)} channels rotate on one side and pass through on the other`);
  if (differing > 0) {
    const f32 = ratio.every((x) => Math.abs(x - 1) <= 2 ** -22);   // float32 rounding (each side once) of the same frequencies
    const every = differing === pairs - first && first <= 1;
    const span = every ? (first === 0 ? 'every pair differs' : 'every pair but the first differs')
      : `${differing} of ${pairs} pairs differ (first: pair ${first}, ratio ${ratioWord(ratio[first])})`;
    let worstPair = 0;
    for (let i = 1; i < pairs; i++) if (Math.abs(Math.log(ratio[i])) > Math.abs(Math.log(ratio[worstPair]))) worstPair = i;
    const range = f32 ? ' — all within float32 rounding (|ratio − 1| ≤ 2^-22): stored precision, not another RoPE' : `; frequency ratio b/a from ${ratioWord(ratio.reduce((m, v) => Math.min(m, v), Infinity))} to ${ratioWord(ratio.reduce((m, v) => Math.max(m, v), 0))} (largest change at pair ${worstPair})`;
    if (A.theta !== null && B.theta !== null && A.theta !== B.theta) causes.push(`rope_theta ${fmt(A.theta)} vs ${fmt(B.theta)}: ${span}${range}`);
    else if (A.type !== null && B.type !== null && A.type !== B.type) causes.push(`rope_type '${A.type}' vs '${B.type}': ${span}${range}`);
    else causes.push(`inv_freq: ${span}${range}`);
  }
  if (A.s !== B.s) causes.push(`attention_scaling ${fmt(A.s)} vs ${fmt(B.s)}: every rotated score × ${fmt(sb2 / sa2)} on b`);
  const at = pos[n - 1];
  const effect = `at distance ${at} the scores differ by ${fmt(e1[n - 1])} (all-ones q, k) and ${fmt(er[n - 1])} (random q, k) of |q|·|k|; worst ${fmt(Math.max(e1[worst], er[worst]))} at distance ${pos[worst]}`;
  const verdict = causes.length === 0 ? `identical: same frequencies, scaling and layout; ${effect}`
    : `${causes[0]}; ${effect}${agree ? ` — within tolerance ${fmt(tolerance)}` : ''}`;
  return {
    pairs, freq_ratio: ratio, pairs_differing: differing, first_differing_pair: first, rotary_dim: [A.rotary, B.rotary], head_dim: head,
    attention_scaling: [A.s, B.s], layout: [A.layout, B.layout], positions: pos, dcos, dsin, score_error_ones: e1, score_error_random: er,
    random_q: qr, random_k: kr, max_dcos: max(dcos), max_dsin: max(dsin), max_score_error_ones: me1, max_score_error_random: mer, worst_position: pos[worst],
    causes, agree, verdict,
  };
}

/** The RoPE of a layer type of a description (itself when it has no layer types); false: no RoPE; undefined: no such type. */
function ofType(d: RopeDescription, t: string | undefined): RopeDescription | false | undefined {
  if (t === undefined || !d.layer_types) return d;
  if (!Object.prototype.hasOwnProperty.call(d.layer_types, t)) return undefined;
  return d.layer_types[t];
}

export function compareRopeOf(a: unknown, b: unknown, options: unknown): CompareRopeResult {
  const o = parse('compareRope', OPTIONS, options);
  const A0 = sideOf('a', a), B0 = sideOf('b', b); // validates the top level of both first
  const da = a as RopeDescription, db = b as RopeDescription;
  const positions: number = o.positions ?? (Math.max(A0.maxPos ?? 0, B0.maxPos ?? 0) || 8192);
  // A .gguf of a Llama-family model pairs consecutive channels (llama.cpp NORM) of q/k rows that llama.cpp's converter
  // permuted (convert_hf_to_gguf LlamaModel.permute): on the original weights that is the config's rotate_half. The
  // file cannot say whether its rows were permuted, so a NORM .gguf beside a half_split config is compared as the same
  // pairing and the assumption is stated in `notes`.
  const notes: string[] = [];
  const isGguf = (d: unknown) => d !== null && typeof d === 'object' && 'gguf' in (d as object);
  const normSide = isGguf(a) && !isGguf(b) && A0.layout === 'interleaved' && B0.layout === 'half_split' ? 'a'
    : isGguf(b) && !isGguf(a) && B0.layout === 'interleaved' && A0.layout === 'half_split' ? 'b' : null;
  if (normSide) {
    notes.push(`pairing: the .gguf (${normSide}) rotates consecutive pairs of its stored q/k (llama.cpp NORM), which equals the config's ` +
      'rotate_half only on q/k rows permuted by llama.cpp\'s converter, as it does for Llama-family models (convert_hf_to_gguf ' +
      'LlamaModel.permute); compared as the same pairing');
  }
  const unpermute = (x: Side, k: 'a' | 'b'): Side => (k === normSide && x.layout === 'interleaved' ? { ...x, layout: 'half_split' } : x);
  const run = (x: Side, y: Side) => compareSides(unpermute(x, 'a'), unpermute(y, 'b'), positions, o.samples, o.seed, o.tolerance);
  let top: RopeComparison;
  const lt: string | undefined = o.layer_type;
  if (lt !== undefined) {
    const ra = ofType(da, lt), rb = ofType(db, lt);
    if (!da.layer_types && !db.layer_types) throw new PosencError(`layer_type: neither side has layer types (got '${lt}')`);
    if (ra === undefined && rb === undefined) throw new PosencError(`layer_type: neither side has layer type '${lt}'`);
    if (!ra || !rb) throw new PosencError(`layer_type: '${lt}' has no RoPE on side ${!ra ? 'a' : 'b'}`);
    top = run(sideOf(`a.layer_types.${lt}`, ra), sideOf(`b.layer_types.${lt}`, rb));
  } else {
    top = run(A0, B0);
  }
  const by: Record<string, RopeComparison | null> = {};
  const types = [...new Set([...Object.keys(da.layer_types ?? {}), ...Object.keys(db.layer_types ?? {})])];
  if (types.length > 1) {
    for (const t of types) {
      const ra = da.layer_types ? ofType(da, t) : da, rb = db.layer_types ? ofType(db, t) : db;
      by[t] = ra && rb ? (t === lt ? top : run(sideOf(`a.layer_types.${t}`, ra), sideOf(`b.layer_types.${t}`, rb))) : null;
    }
  }
  // the first disagreeing layer type names the verdict when the default one agrees
  let verdict = top.verdict;
  if (top.agree) {
    const bad = Object.entries(by).find(([, c]) => c && !c.agree);
    if (bad) verdict = `layer type '${bad[0]}': ${bad[1]!.verdict}`;
  }
  const agree = top.agree && Object.values(by).every((c) => !c || c.agree);
  return { ...top, agree, verdict, notes, layer_type: lt ?? da.layer_type ?? null, tolerance: o.tolerance, by_layer_type: by };
}

/** Comparing two RoPEs. */
export class CompareApi extends Core {
  /**
   * Compares two RoPEs — two configs, a config and a .gguf, one config under two engines — position by position.
   * `a`, `b`: results of {@link Posenc.ropeFromConfig}, `ropeFromGGUF` or {@link Posenc.ropeInvFreqScaled} (anything with
   * `inv_freq`; `attention_scaling`, `layout`, `rotary_dim`, `head_dim`, `layer_types` read when present).
   *
   * For each relative distance p = m − n in 0…positions (every one up to `samples`, else `samples` evenly spaced):
   * max over pairs of |s_a·cos(pθ_a) − s_b·cos(pθ_b)| (and sin), and the q·k score error
   * |score_a(p) − score_b(p)| / (|q|·|k|) for q = k = all ones and for seeded standard-normal q, k, where
   * score(p) = s²·Σ_pairs [(q_u k_u + q_v k_v) cos pθ + (q_u k_v − q_v k_u) sin pθ] + the pass-through channels' q·k,
   * each side pairing channels (u, v) by its own layout. Also the per-pair frequency ratio θ_b/θ_a, and the causes in
   * words, first cause first (layout, rotary_dim, rope_theta or rope_type or inv_freq, attention_scaling), with a
   * verdict naming the first and its effect at the last distance. With layer types on either side, every type is compared.
   *
   * Accuracy: float64 throughout; angles p·θ carry a relative error of about 1e-16, so differences are exact to
   * ~1e-10 absolute up to p = 2^31 (float32 tables would add ≈ 6e-8 to each). Caps: inv_freq ≤ 4096 entries in
   * [0, 1e6], attention_scaling in (0, 1e100] (finite in, finite out), samples ≤ 65536.
   * @throws PosencError naming the side and field (`a.inv_freq[3]: …`) or the option.
   */
  compareRope(a: RopeDescription, b: RopeDescription, options?: CompareRopeOptions): CompareRopeResult {
    return compareRopeOf(a, b, options);
  }
}
