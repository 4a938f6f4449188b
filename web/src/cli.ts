#!/usr/bin/env node
// `npx posenc inspect <config.json | model.gguf> [--compare <other>] [--engine …] [--json] [--tolerance x]`: the RoPE a
// file describes, and where two files (or two engines' readings of one) differ; image / video configs per axis (cli-axes.ts). Exit status: 0 = read (and, with a
// comparison, agreeing within the tolerance), 1 = the two disagree beyond it, 2 = bad arguments or an unreadable file.
import { open, readFile } from 'node:fs/promises';
import { init } from './node.js';
import type { Posenc } from './posenc.js';
import type { CompareRopeResult } from './compare.js';
import type { RopeFromConfig } from './config/rope_from_config.js';
import type { RopeFromGGUF } from './gguf_rope.js';
import type { EngineCell, RopeEngines } from './rope_engines.js';
import { figureMain, FIGURE_USAGE } from './cli-figure.js';
import { siteMain, SITE_USAGE } from './cli-site.js';
import { evalMain, EVAL_USAGE } from './cli-eval.js';
import { axesSummary, configKind, dualChunkLines, dualChunkReach, gridOf, wavelengths } from './cli-axes.js';
import type { RopeAxesFromConfig } from './config/axes.js';

const USAGE = `usage: posenc inspect <config.json | model.gguf> [options]

  a language model's config.json or .gguf: its RoPE (and a VLM's vision tower, dual chunk attention's reach);
  a diffusers transformer config (Wan, HunyuanVideo, Cosmos, Flux, CogVideoX), a vision encoder (DINOv3, Pixtral) or a
  vision tower alone (Qwen2.5-VL / Qwen3-VL vision_config): per axis its rotary dims, base, pairs, positions, wavelengths.
  A model without RoPE (GPT-2, SigLIP 2, CogVideoX 1.0) exits 2 saying which positions it uses.

  --compare <file>        a second config.json or .gguf to compare with (default: the same file)
  --engines               what transformers, vLLM, llama.cpp and MLX each run, per layer kind (exit 1 where they differ)
  --engine <e>            how the first file is read: transformers (default), vllm, llama.cpp, mlx
  --compare-engine <e>    how the second is read (default: as --engine); with no --compare, the same file again
  --tolerance <x>         largest score error, relative to |q|·|k|, counted as agreeing (default 1e-3)
  --positions <n>         compare distances 0…n (default: the larger max_position_embeddings); dual chunk attention:
                          the largest distance over positions 0…n (default max_position_embeddings − 1)
  --grid <t,h,w | h,w>    a patch grid: each axis's position ids (per-axis configs and a VLM's vision tower)
  --fps <x>               Cosmos: frames per second (time ids scaled by base_fps / fps)
  --seq-len <n>           sequence length for transformers' dynamic NTK / LongRoPE choice
  --n-ctx <n>             llama.cpp's allocated context (-c; default 0 as llama-cli and llama-server: the trained context;
                          512 is the library's llama_context_default_params; picks LongRoPE's factors, also a .gguf's);
                          --max-model-len <n>: vLLM's (default: vLLM's own derivation)
  --json                  print JSON instead of text

exit status: 0 read / agreeing, 1 the two disagree beyond the tolerance, 2 bad arguments or files

${FIGURE_USAGE}

${EVAL_USAGE}

${SITE_USAGE}`;

type Flags = Record<string, string | boolean>;
const VALUED = ['compare', 'engine', 'compare-engine', 'tolerance', 'positions', 'seq-len', 'n-ctx', 'max-model-len', 'grid', 'fps'];

class UsageError extends Error {}

function parseArgs(argv: string[]): { command: string; file: string; flags: Flags } {
  const flags: Flags = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json' || a === '--engines' || a === '--help' || a === '-h') flags[a.replace(/^-+/, '')] = true;
    else if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split(/=(.*)/s);
      if (!VALUED.includes(k)) throw new UsageError(`unknown option --${k}`);
      const val = v ?? argv[++i];
      if (val === undefined) throw new UsageError(`--${k}: needs a value`);
      flags[k] = val;
    } else rest.push(a);
  }
  if (flags.help || flags.h) return { command: 'help', file: '', flags };
  if (rest[0] !== 'inspect') throw new UsageError(rest.length ? `unknown command '${rest[0]}'` : 'no command');
  if (rest.length !== 2) throw new UsageError(rest.length < 2 ? 'inspect: a config.json or .gguf file is required' : `inspect: one file (got ${rest.length - 1}); the second goes after --compare`);
  return { command: 'inspect', file: rest[1], flags };
}

const num = (flags: Flags, k: string, int: boolean): number | undefined => {
  if (flags[k] === undefined) return undefined;
  const v = Number(flags[k]);
  if (!Number.isFinite(v) || (int && !Number.isInteger(v))) throw new UsageError(`--${k}: must be ${int ? 'an integer' : 'a number'} (got '${flags[k]}')`);
  return v;
};

async function isGGUF(path: string): Promise<boolean> {
  const f = await open(path, 'r');
  try {
    const b = new Uint8Array(4);
    const { bytesRead } = await f.read(b, 0, 4, 0);
    return bytesRead === 4 && String.fromCharCode(...b) === 'GGUF';
  } finally {
    await f.close();
  }
}

/** A vision tower read per axis, or why not (learned positions, a tower posenc does not read). */
type Tower = RopeAxesFromConfig | { rope: null; message: string };
type Rope = (RopeFromConfig | RopeFromGGUF) & { file: string; vision_tower?: Tower; dual_chunk_reach?: { positions: number; max_distance: number } };

/** A config.json read per axis only (diffusers, vision encoder, a bare vision tower), parsed; null for anything else. */
async function axesConfig(path: string): Promise<Record<string, unknown> | null> {
  if (await isGGUF(path)) return null;
  let c: unknown;
  try {
    c = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null; // ropeFromConfig says what is wrong with the text
  }
  return c !== null && typeof c === 'object' && !Array.isArray(c) && configKind(c as Record<string, unknown>).kind === 'axes' ? c as Record<string, unknown> : null;
}

/** The RoPE of a file as `engine` reads it (a .gguf is what llama.cpp reads: engines do not apply to it). */
async function ropeOf(pe: Posenc, path: string, engine: string, flags: Flags): Promise<Rope> {
  const seq = num(flags, 'seq-len', true), nctx = num(flags, 'n-ctx', true), mml = num(flags, 'max-model-len', true);
  if (await isGGUF(path)) {
    // a .gguf is what llama.cpp runs: LongRoPE's factors by the allocated context per sequence (--n-ctx, default the
    // trained context as llama-cli's -c 0, padded to a multiple of 256 as llama_context does), not by the current length
    return { ...(await pe.ropeFromGGUF(path, nctx !== undefined ? { n_ctx: nctx } : {})), file: path };
  }
  const opts: Record<string, unknown> = { engine };
  if (seq !== undefined) opts.seq_len = seq;
  if (nctx !== undefined && engine === 'llama.cpp') opts.n_ctx = nctx;
  if (mml !== undefined && engine === 'vllm') opts.max_model_len = mml;
  const text = await readFile(path, 'utf8');
  const r: Rope = { ...pe.ropeFromConfig(text, opts), file: path };
  const c = JSON.parse(text) as Record<string, unknown>;
  if (configKind(c).vision) {
    try {
      r.vision_tower = pe.ropeAxesFromConfig(c, axesOptions(flags));
    } catch (e) {
      if (!(e instanceof Error) || e.name !== 'PosencError' || /^(grid|fps)\b/.test(e.message)) throw e;
      r.vision_tower = { rope: null, message: e.message };
    }
  } else if (flags.grid !== undefined || flags.fps !== undefined) {
    throw new UsageError(`--${flags.grid !== undefined ? 'grid' : 'fps'}: only for per-axis configs (image / video models, a vision tower); ${path} is a text model`);
  }
  if ('dual_chunk' in r && r.dual_chunk) {
    const last = num(flags, 'positions', true) ?? (r.max_position_embeddings ?? r.dual_chunk.chunk_size) - 1;
    r.dual_chunk_reach = dualChunkReach(pe, r.dual_chunk, last);
  }
  return r;
}

function axesOptions(flags: Flags): { grid?: number[]; fps?: number } {
  const grid = gridOf(flags.grid), fps = num(flags, 'fps', false);
  return { ...(grid ? { grid } : {}), ...(fps !== undefined ? { fps } : {}) };
}

/** A per-axis config's JSON: the reading plus each axis's wavelengths. */
const axesJSON = (r: RopeAxesFromConfig) => ({ ...r, axes: r.axes.map((a) => ({ ...a, wavelengths: wavelengths(a) })) });

const g = (x: number) => String(Number(x.toPrecision(6)));

const reader = (r: Rope) => ('gguf' in r ? `GGUF, ${r.gguf.architecture}` : r.engine ?? 'transformers');

function summary(r: Rope): string {
  const lines = [`${r.file} (${reader(r)})`,
    `  model_type          ${r.model_type ?? '—'}`,
    `  rope_type           ${r.rope_type}${r.factor !== null ? `, factor ${g(r.factor)}` : ''}`,
    `  rope_theta          ${g(r.rope_theta)}${r.effective_base !== r.rope_theta ? ` (effective ${g(r.effective_base)})` : ''}`,
    `  rotary_dim          ${r.rotary_dim} of head_dim ${r.head_dim}, layout ${r.layout ?? 'unknown'}`,
    `  attention_scaling   ${g(r.attention_scaling)}`,
    `  context             ${r.max_position_embeddings ?? '—'}${r.original_max_position_embeddings ? ` (original ${r.original_max_position_embeddings})` : ''}`];
  if (r.longrope_factors) lines.push(`  longrope factors    ${r.longrope_factors}`);
  if (r.context) lines.push(`  context assumed     ${r.context.length ?? 'none'} — ${r.context.source}`);
  const types = Object.entries(r.layer_types ?? {});
  if (types.length > 1) {
    for (const [t, x] of types) lines.push(`  ${t.padEnd(19)} ${x ? `${x.rope_type}, rope_theta ${g(x.rope_theta)}, attention_scaling ${g(x.attention_scaling)}` : 'no RoPE'}`);
  }
  if ('dual_chunk' in r && r.dual_chunk && r.dual_chunk_reach) lines.push(...dualChunkLines(r.dual_chunk, r.dual_chunk_reach));
  if (r.vision_tower) {
    lines.push(`  vision tower        ${'rope' in r.vision_tower ? `no RoPE — ${r.vision_tower.message}` : 'per (h, w) axis:'}`);
    if (!('rope' in r.vision_tower)) lines.push(...axesSummary(r.vision_tower, '    '));
  }
  for (const n of ('engine_notes' in r ? r.engine_notes : undefined) ?? []) lines.push(`  engine: ${n}`);
  for (const w of r.warnings ?? []) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}

function comparison(c: CompareRopeResult, a: string, b: string): string {
  const lines = [`${a} vs ${b}, distances 0…${c.positions[c.positions.length - 1]}:`, `  ${c.verdict}`];
  for (const x of c.causes.slice(1)) lines.push(`  also: ${x}`);
  for (const n of c.notes) lines.push(`  note: ${n}`);
  lines.push(`  max |Δcos| ${g(c.max_dcos)}, max |Δsin| ${g(c.max_dsin)}; score error (of |q|·|k|) ${g(c.max_score_error_ones)} all-ones, ${g(c.max_score_error_random)} random`);
  for (const [t, x] of Object.entries(c.by_layer_type)) lines.push(`  ${t}: ${x ? (x.agree ? 'agree' : x.verdict) : 'no RoPE on one side'}`);
  lines.push(c.agree ? `  agree within tolerance ${c.tolerance}` : `  DISAGREE beyond tolerance ${c.tolerance}`);
  return lines.join('\n');
}

/** The --engines matrix: one row per layer kind, one column per engine, then each engine's context and the verdict. */
function enginesTable(m: RopeEngines, file: string): string {
  const cellText = (c: EngineCell) => (!c.rope ? (c.verdict === 'no reading' ? '—' : 'no RoPE')
    : `${c.rope_type}${c.longrope_factors ? ` (${c.longrope_factors})` : ''}, base ${g(c.effective_base!)}, ×${g(c.attention_scaling!)}, ${c.layout ?? '?'}`) +
    (c.agrees === false ? ' ≠' : '');
  const engines = Object.keys(m.engines) as (keyof RopeEngines['engines'])[];
  const rows = [['layer kind', ...engines], ...m.matrix.map((r) => [`${r.layer_type}${r.layers !== null ? ` (${r.layers})` : ''}`,
    ...engines.map((e) => cellText(r.cells[e]))])];
  const w = rows[0].map((_, j) => Math.max(...rows.map((r) => r[j].length)));
  const lines = [`${file}: what each engine runs (≠: differs from transformers beyond 1e-3 of |q|·|k|)`,
    ...rows.map((r) => `  ${r.map((x, j) => x.padEnd(w[j])).join('  ').trimEnd()}`)];
  for (const e of engines) {
    const c = m.contexts[e];
    if (c) lines.push(`  context, ${e}: ${c.length ?? 'none'} — ${c.source}`);
  }
  lines.push(...m.verdict.split('\n').map((v) => `  ${v}`));
  return lines.join('\n');
}

/** JSON of typed arrays (as lists) and of a GGUF's 64-bit integers (BigInt: a number when exact, else a string). */
const plain = (v: unknown): unknown => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v))
  : ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>) : v);

export async function main(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (argv[0] === 'figure') return figureMain(argv.slice(1), out, err);
  if (argv[0] === 'site') return siteMain(argv.slice(1), out, err);
  if (argv[0] === 'eval') return evalMain(argv.slice(1), out, err);
  let args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    err(`posenc: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.command === 'help') {
    out(USAGE);
    return 0;
  }
  const { file, flags } = args;
  try {
    const pe = await init();
    const axes = await axesConfig(file);
    if (axes) {
      for (const k of ['compare', 'compare-engine', 'engines', 'engine', 'seq-len', 'n-ctx', 'max-model-len', 'tolerance', 'positions']) {
        if (flags[k] !== undefined) throw new UsageError(`--${k}: for language models' RoPE; ${file} is read per axis (image / video positions)`);
      }
      const r = pe.ropeAxesFromConfig(axes, axesOptions(flags));
      out(flags.json ? JSON.stringify({ file, ...axesJSON(r) }, (_k, v) => plain(v), 2) : [`${file} (per-axis RoPE)`, ...axesSummary(r)].join('\n'));
      return 0;
    }
    if (flags.engines) {
      const src = (await isGGUF(file)) ? file : await readFile(file, 'utf8');
      const m = await pe.ropeEngines(src, { seq_len: num(flags, 'seq-len', true), n_ctx: num(flags, 'n-ctx', true), max_model_len: num(flags, 'max-model-len', true) });
      if (flags.json) {
        const { engines: _e, ...small } = m;
        out(JSON.stringify(small, (_k, v) => plain(v), 2));
      } else {
        out(enginesTable(m, file));
      }
      return m.agree ? 0 : 1;
    }
    const engine = String(flags.engine ?? 'transformers');
    const a = await ropeOf(pe, file, engine, flags);
    const cmpFile = flags.compare as string | undefined;
    const cmpEngine = flags['compare-engine'] as string | undefined;
    if (cmpFile === undefined && cmpEngine === undefined) {
      const j = a.vision_tower && !('rope' in a.vision_tower) ? { ...a, vision_tower: axesJSON(a.vision_tower) } : a;
      out(flags.json ? JSON.stringify(j, (_k, v) => plain(v), 2) : summary(a));
      return 0;
    }
    const b = await ropeOf(pe, cmpFile ?? file, cmpEngine ?? engine, flags);
    const c = pe.compareRope(a, b, { tolerance: num(flags, 'tolerance', false), positions: num(flags, 'positions', true) });
    if (flags.json) {
      const { positions: _p, dcos: _c, dsin: _s, score_error_ones: _o, score_error_random: _r, random_q: _q, random_k: _k, ...small } = c;
      out(JSON.stringify({ a, b, comparison: small }, (_k2, v) => plain(v), 2));
    } else {
      out(`${summary(a)}\n${summary(b)}\n${comparison(c, `${a.file} (${reader(a)})`, `${b.file} (${reader(b)})`)}`);
    }
    return c.agree ? 0 : 1;
  } catch (e) {
    const x = e as Error & { code?: string; path?: string };
    if (x instanceof UsageError) {
      err(`posenc: ${x.message}\n${USAGE}`);
      return 2;
    }
    err(`posenc: ${x.code === 'ENOENT' ? `${x.path}: no such file` : x.code === 'EISDIR' ? 'a directory, not a file' : x.message}`);
    return 2;
  }
}

// run when executed (the bin), not when imported
interface Proc { argv: string[]; stdout: { write(s: string): void }; stderr: { write(s: string): void }; exitCode?: number }
const proc = (globalThis as unknown as { process?: Proc }).process;
if (proc && /(?:^|[\\/])(?:cli\.js|posenc)$/.test(proc.argv[1] ?? '')) {
  main(proc.argv.slice(2), (s) => proc.stdout.write(`${s}\n`), (s) => proc.stderr.write(`${s}\n`)).then((code) => { proc.exitCode = code; });
}
