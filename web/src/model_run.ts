// Running a loaded model: evaluate() and generate() feed a C++ session (the core's Llama builder) in chunks,
// yielding to the event loop between chunks when the caller watches progress or may cancel.
import type { RawModule } from './raw.js';
import { PosencError, check, show } from './validate.js';
import type { RopeFromConfig } from './config/result.js';
import type { LmTokenizer } from './tokenizer_spm.js';

/** What a pass needs of a loaded model (a LanguageModel). */
interface LanguageModel {
  readonly live: number;
  readonly hparams: { n_vocab: number; n_layer: number; n_head: number; interleaved: boolean; rotary_dim: number; position: string };
  readonly trained_context: number;
  readonly tokenizer: LmTokenizer | null;
  rope(rope: Record<string, unknown> | null | undefined, seq_len: number): RopeFromConfig;
}

/** Cancels between chunks: an AbortSignal, or anything with `aborted`. */
export interface CancelSignal { readonly aborted: boolean }

/** The RoPE options of a pass. */
export interface LmRunOptions {
  /**
   * A Hugging Face `rope_scaling` dict, read by pe.ropeFromConfig with the model's config (max_position_embeddings =
   * trained_context): e.g. `{ rope_type: 'linear', factor: 4 }` (PI), `{ rope_type: 'dynamic', factor: 4 }`,
   * `{ rope_type: 'dynamic', alpha: 4 }` (static NTK-aware, base·α^(d/(d−2)), HunYuan's form of bloc97's), `{ rope_type:
   * 'yarn', factor: 4 }`, `{ rope_type: 'llama3', … }`, `{ rope_type: 'longrope', … }`; a `rope_theta` key overrides the
   * base (the seed's NTK form base·s^(2/d) is such an override). Default: the model's own.
   */
  rope?: Record<string, unknown> | null;
  /** ReRoPE (Su 2023): keys ≥ window tokens away are seen at distance window (+ (r − window)·leaky: leaky ReRoPE). */
  rerope?: { window: number; leaky?: number } | null;
  /** log-n query scaling max(1, ln(p + 1)/ln(base)); true: base = trained_context. */
  logn?: boolean | number;
  /** 'swapped' rotates the other pairing than the weights were trained with (the seeds' rotate_half ≠ rotate_every_two). */
  pairing?: 'trained' | 'swapped';
  /** Added to every position (RoPE is relative: no loss changes). */
  position_offset?: number;
  /** Tokens per prefill chunk (1 … 4096, default 256). */
  chunk?: number;
  signal?: CancelSignal;
  /** Tokens done and total, after each chunk. */
  onProgress?: (done: number, total: number) => void;
}

export interface LmEvaluateOptions extends LmRunOptions {
  /** One sequence of token ids (2 … 16384). */
  ids: ArrayLike<number>;
  /** Keep layer `layer`'s head `head` probability rows for queries rows[0] ≤ i < rows[1]. */
  attention?: { layer: number; head: number; rows: [number, number] };
  /** Sum each layer's and head's attention mass for queries rows[0] ≤ i < rows[1]: on keys ≥ far away (default
   * trained_context) and < near away (default 32). */
  gauges?: { rows: [number, number]; far?: number; near?: number };
}

/** What a pass ran with. */
export interface LmRopeUsed {
  /** 'none' for a model whose positions are not rotary (hparams.position learned, sinusoidal, alibi, t5, nope, kerple). */
  rope_type: string;
  rope_theta: number;
  inv_freq: Float64Array;
  attention_scaling: number;
  /** The rope_scaling dict as given (null: the model's own). */
  rope_scaling: Record<string, unknown> | null;
  rerope: { window: number; leaky: number } | null;
  logn_base: number | null;
  interleaved: boolean;
  position_offset: number;
}

export interface LmEvaluation {
  /** n − 1 losses: nll[t] = −ln p(ids[t+1] | ids[0..t]). */
  nll: Float32Array;
  /** n − 1 top-1 hits (1 where ids[t+1] was the arg-max). */
  hit: Uint8Array;
  rope: LmRopeUsed;
  /** rows[(i − row_begin)·row_end + j]: query i's probability on key j (0 for j > i). */
  attention?: { layer: number; head: number; row_begin: number; row_end: number; rows: Float32Array };
  /** Mean attention mass per [layer][head] (n_layer·n_head entries) over the gauge queries. */
  gauges?: { far: Float64Array; near: Float64Array; far_distance: number; near_distance: number; queries: number };
}

export interface LmGenerateOptions extends LmRunOptions {
  ids: ArrayLike<number>;
  max_new_tokens: number;
  /** 0 (default): greedy. */
  temperature?: number;
  top_k?: number;
  seed?: number;
  /** Stop at the end-of-sequence token (default true). */
  stop_at_eos?: boolean;
}
export interface LmGeneration { ids: Int32Array; text: string | null }

function int(name: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new PosencError(`${name}: must be an integer in [${lo}, ${hi}] (got ${show(v)})`);
  return v;
}

function idsOf(v: unknown, vocab: number): Int32Array {
  if (!(v instanceof Int32Array) && !Array.isArray(v) && !ArrayBuffer.isView(v)) throw new PosencError(`ids: must be an array of token ids (got ${show(v)})`);
  const a = Int32Array.from(v as ArrayLike<number>);
  const src = v as ArrayLike<number>;
  for (let k = 0; k < a.length; k++) {
    if (a[k] !== src[k] || a[k] < 0 || a[k] >= vocab) throw new PosencError(`ids[${k}]: must be a token id in [0, ${vocab}) (got ${show(src[k])})`);
  }
  return a;
}

const RUN_KEYS = new Set(['rope', 'rerope', 'logn', 'pairing', 'position_offset', 'chunk', 'signal', 'onProgress']);

/** A session for n positions with the run options; returns its handle and what it runs with. */
function open(raw: RawModule, lm: LanguageModel, o: LmRunOptions, n: number, extra: Record<string, number>): { s: number; used: LmRopeUsed } {
  const hp = lm.hparams;
  if (!hp.rotary_dim) {
    for (const k of ['rope', 'rerope', 'pairing'] as const) {
      if (o[k] !== undefined && o[k] !== null && o[k] !== 'trained') throw new PosencError(`${k}: this model's positions are ${hp.position}, not rotary; ${k} does not apply`);
    }
  }
  const r = hp.rotary_dim ? lm.rope(o.rope, n) : { rope_type: 'none', rope_theta: 0, inv_freq: new Float64Array(0), attention_scaling: 1 };
  let rerope: LmRopeUsed['rerope'] = null;
  if (o.rerope !== undefined && o.rerope !== null) {
    if (typeof o.rerope !== 'object') throw new PosencError(`rerope: must be { window, leaky? } (got ${show(o.rerope)})`);
    const leaky = o.rerope.leaky ?? 0;
    if (typeof leaky !== 'number' || !(leaky >= 0 && leaky < 1)) throw new PosencError(`rerope.leaky: must be in [0, 1) (got ${show(leaky)})`);
    rerope = { window: int('rerope.window', o.rerope.window, 1, 16384), leaky };
  }
  const logn = o.logn === undefined || o.logn === false ? null : o.logn === true ? lm.trained_context : o.logn;
  if (logn !== null && (typeof logn !== 'number' || !(logn >= 2 && logn <= 1e9))) throw new PosencError(`logn: must be true, false or a base in [2, 1e9] (got ${show(o.logn)})`);
  if (o.pairing !== undefined && o.pairing !== 'trained' && o.pairing !== 'swapped') throw new PosencError(`pairing: must be 'trained' or 'swapped' (got ${show(o.pairing)})`);
  const offset = o.position_offset ?? 0;
  if (typeof offset !== 'number' || !Number.isFinite(offset) || Math.abs(offset) > 1e9) throw new PosencError(`position_offset: must be a finite number with |offset| ≤ 1e9 (got ${show(offset)})`);
  const interleaved = hp.interleaved !== (o.pairing === 'swapped');
  const s = check(raw.lmSession(lm.live, r.inv_freq, {
    attention_factor: r.attention_scaling, interleaved, rerope_window: rerope?.window ?? 0, rerope_leaky: rerope?.leaky ?? 0,
    logn_base: logn ?? 0, position_offset: offset, capacity: n, ...extra,
  }));
  const used: LmRopeUsed = { rope_type: r.rope_type, rope_theta: r.rope_theta, inv_freq: r.inv_freq, attention_scaling: r.attention_scaling,
    rope_scaling: o.rope ?? null, rerope, logn_base: logn, interleaved, position_offset: offset };
  return { s, used };
}

/** Feeds ids[from, to) with targets, chunk by chunk; nll/hit/logits written where given. */
async function feed(raw: RawModule, s: number, ids: Int32Array, from: number, to: number, o: LmRunOptions, total: number,
  nll: Float32Array | null, hit: Uint8Array | null, logits: Float32Array | null): Promise<void> {
  const chunk = o.chunk === undefined ? 256 : int('chunk', o.chunk, 1, 4096);
  const watch = !!(o.onProgress || o.signal);
  for (let a = from; a < to; a += chunk) {
    if (o.signal?.aborted) throw new PosencError('cancelled');
    const m = Math.min(chunk, to - a);
    const bytes = 4 * m;
    const base = raw.reserve(4 * bytes + (logits ? 4 * logits.length : 0));
    if (base === 0) throw new PosencError('ids: out of wasm memory');
    try {
      const at = { ids: base, tg: base + bytes, nll: base + 2 * bytes, hit: base + 3 * bytes, lg: base + 4 * bytes };
      const heap = raw.HEAPU8;
      new Int32Array(heap.buffer, at.ids, m).set(ids.subarray(a, a + m));
      const tg = new Int32Array(heap.buffer, at.tg, m);
      for (let k = 0; k < m; k++) tg[k] = a + k + 1 < ids.length && nll ? ids[a + k + 1] : -1;
      check(raw.lmFeed(s, at.ids, m, at.tg, nll ? at.nll : 0, hit ? at.hit : 0, logits && a + m === to ? at.lg : 0));
      const h = raw.HEAPU8.buffer;  // memory may have grown
      if (nll) nll.set(new Float32Array(h, at.nll, m).subarray(0, Math.min(m, nll.length - a)), a);
      if (hit) hit.set(new Uint8Array(h, at.hit, m).subarray(0, Math.min(m, hit.length - a)), a);
      if (logits && a + m === to) logits.set(new Float32Array(h, at.lg, logits.length));
    } finally {
      raw.release(base);
    }
    o.onProgress?.(a + m, total);
    if (watch) await new Promise((r) => setTimeout(r, 0));
  }
}

function checkKeys(o: object, extra: string[]): void {
  for (const k of Object.keys(o)) if (!RUN_KEYS.has(k) && !extra.includes(k)) throw new PosencError(`options.${k}: unknown option`);
}

export async function lmEvaluate(raw: RawModule, lm: LanguageModel, o: LmEvaluateOptions): Promise<LmEvaluation> {
  if (o === null || typeof o !== 'object') throw new PosencError(`options: must be an object (got ${show(o)})`);
  checkKeys(o, ['ids', 'attention', 'gauges']);
  const hp = lm.hparams;
  const ids = idsOf(o.ids, hp.n_vocab);
  const n = ids.length;
  if (n < 2 || n > 16384) throw new PosencError(`ids: must hold 2 … 16384 tokens (got ${n})`);
  const extra: Record<string, number> = {};
  if (o.attention) {
    const a = o.attention;
    extra.probe_layer = int('attention.layer', a.layer, 0, hp.n_layer - 1);
    extra.probe_head = int('attention.head', a.head, 0, hp.n_head - 1);
    if (!Array.isArray(a.rows) || a.rows.length !== 2) throw new PosencError(`attention.rows: must be [begin, end] (got ${show(a.rows)})`);
    extra.row_end = int('attention.rows[1]', a.rows[1], 1, n);
    extra.row_begin = int('attention.rows[0]', a.rows[0], 0, extra.row_end - 1);
  }
  const far = o.gauges?.far ?? lm.trained_context, near = o.gauges?.near ?? 32;
  if (o.gauges) {
    const g = o.gauges;
    if (!Array.isArray(g.rows) || g.rows.length !== 2) throw new PosencError(`gauges.rows: must be [begin, end] (got ${show(g.rows)})`);
    extra.gauge_end = int('gauges.rows[1]', g.rows[1], 1, n);
    extra.gauge_begin = int('gauges.rows[0]', g.rows[0], 0, extra.gauge_end - 1);
    extra.far = int('gauges.far', far, 1, 16384);
    extra.near = int('gauges.near', near, 1, 16384);
  }
  const { s, used } = open(raw, lm, o, n, extra);
  try {
    const nll = new Float32Array(n - 1), hit = new Uint8Array(n - 1);
    await feed(raw, s, ids, 0, n, o, n, nll, hit, null);
    const out: LmEvaluation = { nll, hit, rope: used };
    if (o.attention || o.gauges) {
      const p = check(raw.lmProbe(s));
      if (o.attention) out.attention = { layer: extra.probe_layer, head: extra.probe_head, row_begin: extra.row_begin, row_end: extra.row_end, rows: p.rows };
      if (o.gauges) {
        const q = Math.max(p.queries, 1);
        out.gauges = { far: p.far.map((x) => x / q), near: p.near.map((x) => x / q), far_distance: far, near_distance: near, queries: p.queries };
      }
    }
    return out;
  } finally {
    raw.lmSessionFree(s);
  }
}

// mulberry32: a small seeded generator, so that a sampled continuation can be reproduced.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function lmGenerate(raw: RawModule, lm: LanguageModel, o: LmGenerateOptions): Promise<LmGeneration> {
  if (o === null || typeof o !== 'object') throw new PosencError(`options: must be an object (got ${show(o)})`);
  checkKeys(o, ['ids', 'max_new_tokens', 'temperature', 'top_k', 'seed', 'stop_at_eos']);
  const V = lm.hparams.n_vocab;
  const prompt = idsOf(o.ids, V);
  if (prompt.length < 1) throw new PosencError('ids: the prompt needs at least one token');
  const max = int('max_new_tokens', o.max_new_tokens, 1, 4096);
  if (prompt.length + max > 16384) throw new PosencError(`max_new_tokens: the prompt (${prompt.length}) and the new tokens must fit 16384 positions`);
  const temperature = o.temperature ?? 0;
  if (typeof temperature !== 'number' || !(temperature >= 0 && temperature <= 100)) throw new PosencError(`temperature: must be in [0, 100] (got ${show(temperature)})`);
  const topK = o.top_k === undefined ? V : int('top_k', o.top_k, 1, V);
  const random = rng(o.seed === undefined ? 1 : int('seed', o.seed, 0, 2 ** 32 - 1));
  const eos = o.stop_at_eos === false ? null : lm.tokenizer?.eos ?? null;
  const total = prompt.length + max;
  const { s } = open(raw, lm, o, total, {});
  const seq = new Int32Array(total);
  seq.set(prompt);
  const logits = new Float32Array(V);
  let n = prompt.length;
  try {
    await feed(raw, s, seq, 0, n, o, total, null, null, logits);
    const out: number[] = [];
    while (out.length < max) {
      let next = 0;
      if (temperature === 0) {
        for (let c = 1; c < V; c++) if (logits[c] > logits[next]) next = c;
      } else {
        const order = Array.from(logits.keys()).sort((x, y) => logits[y] - logits[x]).slice(0, topK);
        const w = order.map((c) => Math.exp((logits[c] - logits[order[0]]) / temperature));
        let u = random() * w.reduce((x, y) => x + y, 0);
        next = order[order.length - 1];
        for (let k = 0; k < order.length; k++) if ((u -= w[k]) <= 0) { next = order[k]; break; }
      }
      out.push(next);
      if (next === eos || out.length === max) break;
      seq[n] = next;
      await feed(raw, s, seq, n, n + 1, { ...o, chunk: 1 }, total, null, null, logits);
      n++;
    }
    const ids = Int32Array.from(out);
    return { ids, text: lm.tokenizer ? lm.tokenizer.decode(ids) : null };
  } finally {
    raw.lmSessionFree(s);
  }
}

/** Loss by position bucket: edges [e0, e1, …] give buckets [e_k, e_k+1) of predicted-token index t + 1. */
export interface LossBucket { start: number; end: number; tokens: number; nll: number; ppl: number; accuracy: number }
export function lossByPosition(ev: { nll: Float32Array; hit: Uint8Array }, edges: number[]): LossBucket[] {
  const out: LossBucket[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const a = Math.max(edges[k], 1), b = Math.min(edges[k + 1], ev.nll.length + 1);
    let sum = 0, hits = 0, cnt = 0;
    for (let p = a; p < b; p++) { sum += ev.nll[p - 1]; hits += ev.hit[p - 1]; cnt++; }
    if (cnt) out.push({ start: edges[k], end: edges[k + 1], tokens: cnt, nll: sum / cnt, ppl: Math.exp(sum / cnt), accuracy: hits / cnt });
  }
  return out;
}
