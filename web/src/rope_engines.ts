// One model, every engine: `pe.ropeEngines(config | gguf)` — what transformers, vLLM, llama.cpp and MLX run for each
// layer kind, compared with transformers' reading (the reference) position by position, and the verdict in words.
import { Core } from './core.js';
import { PosencError } from './validate.js';
import { int, optional, parse } from './options.js';
import type { Schema } from './options.js';
import { ENGINES } from './config/engines.js';
import type { Engine, EngineContext, RopeFromConfig } from './config/result.js';
import { ropeFromConfigOf } from './config/rope_from_config.js';
import { compareRopeOf } from './compare.js';
import type { RopeComparison } from './compare.js';
import { openGguf } from './gguf_source.js';
import type { GgufSource } from './gguf_source.js';
import { ropeFromGgufAt } from './gguf.js';
import type { RopeFromGGUF } from './gguf_rope.js';

/** Options of {@link Posenc.ropeEngines}: each engine's context, as in ropeFromConfig (defaults: each engine's own). */
export interface RopeEnginesOptions { seq_len?: number; n_ctx?: number; max_model_len?: number }

/** What one engine runs for one layer kind. */
export interface EngineCell {
  /** false: the engine does not rotate this kind's layers (NoPE, linear attention, or the engine could not read the model). */
  rope: boolean;
  rope_type: string | null;
  /** Base of the frequencies actually used (dynamic NTK, NTK-alpha: the scaled base). */
  effective_base: number | null;
  attention_scaling: number | null;
  layout: string | null;
  longrope_factors: 'long' | 'short' | null;
  /** Compared with transformers' reading of the same layer kind (null: no comparison possible). */
  agrees: boolean | null;
  /** compareRope's verdict against transformers, or why the cell is empty. */
  verdict: string;
}

/** Result of {@link Posenc.ropeEngines}. */
export interface RopeEngines {
  source: 'config' | 'gguf';
  /** Each engine's full reading, or why it has none (an engine that cannot run the model, a .gguf for the others). */
  engines: Record<Engine, RopeFromConfig | RopeFromGGUF | { error: string }>;
  /** The context each engine assumed (null where it has no reading). */
  contexts: Record<Engine, EngineContext | null>;
  /** Layer kinds (full_attention, sliding_attention, …) × engines. */
  matrix: { layer_type: string; layers: number | null; cells: Record<Engine, EngineCell> }[];
  /** Every engine with a reading agrees with transformers on every layer kind (tolerance of compareRope, 1e-3). */
  agree: boolean;
  /** One line per engine that differs (its first cause), or that all agree. */
  verdict: string;
}

const OPTIONS: Schema = { seq_len: optional(int(0, 2 ** 40)), n_ctx: optional(int(0, 2 ** 40)), max_model_len: optional(int(1, 2 ** 40)) };
const NAMES: Record<Engine, string> = { transformers: 'transformers', vllm: 'vLLM', 'llama.cpp': 'llama.cpp', mlx: 'MLX' };
const g = (x: number) => String(Number(x.toPrecision(6)));

/** A config (object, or JSON text starting with `{`) rather than a .gguf source. */
const isConfig = (v: unknown) => (typeof v === 'string' ? v.trimStart().startsWith('{') : v !== null && typeof v === 'object' &&
  !(v instanceof ArrayBuffer) && !ArrayBuffer.isView(v) && typeof (v as { arrayBuffer?: unknown }).arrayBuffer !== 'function' &&
  typeof (v as { read?: unknown }).read !== 'function');

type Reading = RopeFromConfig | RopeFromGGUF;

function cell(ref: Reading | null, r: Reading | null, t: string, positions: number): EngineCell {
  const x = r?.layer_types?.[t];
  if (!r || !x) {
    return { rope: false, rope_type: null, effective_base: null, attention_scaling: null, layout: null, longrope_factors: null,
      agrees: r && ref ? !ref.layer_types?.[t] : null, verdict: r ? 'no RoPE on these layers' : 'no reading' };
  }
  const base = { rope: true, rope_type: x.rope_type, effective_base: x.effective_base, attention_scaling: x.attention_scaling, layout: x.layout,
    longrope_factors: x.longrope_factors as 'long' | 'short' | null };
  const y = ref?.layer_types?.[t];
  if (!ref || !y) return { ...base, agrees: ref ? false : null, verdict: ref ? 'rotates where transformers does not' : 'no transformers reading to compare' };
  const c: RopeComparison = compareRopeOf(y, x, { positions });
  return { ...base, agrees: c.agree, verdict: c.agree ? 'as transformers' : c.verdict };
}

export function ropeEnginesOf(readings: Record<Engine, Reading | { error: string }>, source: 'config' | 'gguf'): RopeEngines {
  const ok = (e: Engine) => { const r = readings[e]; return 'error' in r ? null : r; };
  const ref = ok('transformers');
  const types = [...new Set(ENGINES.flatMap((e) => Object.keys(ok(e)?.layer_types ?? {})))];
  const positions = Math.max(8192, ...ENGINES.map((e) => ok(e)?.max_position_embeddings ?? 0));
  const matrix = types.map((t) => {
    const layers = (ref ?? ok('llama.cpp'))?.layers;
    return { layer_type: t, layers: layers ? layers.filter((l) => l.type === t).length : null,
      cells: Object.fromEntries(ENGINES.map((e) => [e, cell(ref, ok(e), t, positions)])) as Record<Engine, EngineCell> };
  });
  const lines: string[] = [];
  for (const e of ENGINES) {
    const r = readings[e];
    if ('error' in r) {
      lines.push(`${NAMES[e]}: ${r.error}`);
      continue;
    }
    const bad = matrix.filter((m) => m.cells[e].agrees === false);
    if (bad.length) lines.push(`${NAMES[e]}: ${bad.map((m) => `${m.layer_type} — ${m.cells[e].verdict}`).join('; ')}`);
  }
  const agree = matrix.every((m) => ENGINES.every((e) => m.cells[e].agrees !== false));
  const contexts = Object.fromEntries(ENGINES.map((e) => [e, ok(e)?.context ?? null])) as Record<Engine, EngineContext | null>;
  return { source, engines: readings, contexts, matrix, agree,
    verdict: lines.length === 0 ? 'transformers, vLLM, llama.cpp and MLX run the same RoPE on every layer kind' : lines.join('\n') };
}

/** Comparing engines. */
export class RopeEnginesApi extends Core {
  /**
   * What each engine runs for one model: `source` a config.json (object or JSON text) read by transformers, vLLM,
   * llama.cpp and MLX (ropeFromConfig with each `engine`), or a .gguf (path, bytes, File/Blob, FileHandle) — the file
   * llama.cpp runs (ropeFromGGUF; the other engines read the model's config.json, so their columns say so).
   * Returns each engine's reading and context, the matrix layer kind × engine (rope_type, effective base,
   * attention_scaling, pairing, LongRoPE factor set, and compareRope's verdict against transformers' reading of the
   * same kind, tolerance 1e-3 of |q|·|k| over distances up to the longest max_position_embeddings, at least 8192), and
   * the verdict in words. An engine that cannot run the model (mlx-lm without its model file) has `{ error }`.
   * Options: seq_len (transformers, MLX: the current length), n_ctx (llama.cpp; default the trained context, as llama-cli and llama-server), max_model_len (vLLM).
   * @throws PosencError for a config or file no engine can read (the error of transformers' reading).
   */
  async ropeEngines(source: unknown, options: RopeEnginesOptions = {}): Promise<RopeEngines> {
    const o = parse('ropeEngines', OPTIONS, options);
    const readings = {} as Record<Engine, Reading | { error: string }>;
    if (isConfig(source)) {
      for (const engine of ENGINES) {
        const opts = { engine, seq_len: o.seq_len, ...(engine === 'llama.cpp' ? { n_ctx: o.n_ctx } : {}), ...(engine === 'vllm' ? { max_model_len: o.max_model_len } : {}) };
        try {
          readings[engine] = ropeFromConfigOf(this.raw, source, opts);
        } catch (e) {
          if (!(e instanceof PosencError) || engine === 'transformers') throw e;
          readings[engine] = { error: e.message };
        }
      }
      return ropeEnginesOf(readings, 'config');
    }
    const f = await openGguf(this.raw, source as GgufSource);
    let r: RopeFromGGUF;
    try {
      r = await ropeFromGgufAt(this.raw, f, undefined, o.n_ctx);
    } finally {
      await f.close();
    }
    const why = 'a .gguf is what llama.cpp runs; this engine reads the model\'s config.json (give that to ropeEngines)';
    for (const engine of ENGINES) readings[engine] = engine === 'llama.cpp' ? r : { error: why };
    const res = ropeEnginesOf(readings, 'gguf');
    res.verdict = `llama.cpp: ${g(r.rope_theta)} base, ${r.rope_type}${r.factor !== null ? ` ×${g(r.factor)}` : ''}, ${r.layout ?? 'unknown'} pairing; ${why}`;
    return res;
  }
}
