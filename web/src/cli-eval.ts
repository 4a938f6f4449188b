// `npx posenc eval <model> --text <file> [--ctx 4096] [--rope '{"rope_type":"yarn","factor":8}'] …`: a Llama-family model
// (a .gguf, or a folder holding config.json + model.safetensors + tokenizer.json) or one of posenc's own tiny models (a
// folder with config.json + model.safetensors, any position scheme) run by posenc's core over the text, the loss of every
// next-token prediction summed by position bucket: mean NLL (nats), perplexity, top-1 accuracy.
import { readFile, stat } from 'node:fs/promises';
import { init } from './node.js';
import type { LmRunOptions } from './model_run.js';
import { lossByPosition } from './model_run.js';

export const EVAL_USAGE: string = `usage: posenc eval <model.gguf | checkpoint folder> --text <file> [options]

  a Llama-family model, or one of posenc's own tiny models (a folder of config.json + model.safetensors, model_type
  posenc-tiny: learned, sinusoidal, rope, alibi, t5, nope, xpos or kerple positions, one token per character), run by
  posenc over the text's first --ctx tokens (one sequence, BOS first where the tokenizer has one): the loss of every
  next-token prediction by position bucket (mean NLL in nats, perplexity, top-1 accuracy)
  --text <file>           the text (UTF-8)
  --ctx <n>               tokens evaluated (default 2048; 2 … 16384); fewer if the text is shorter
  --trained <n>           the length the model was trained at (default: the file's; stories260K's .gguf says 2048, it was 512)
  --rope <json>           a Hugging Face rope_scaling dict, e.g. '{"rope_type":"yarn","factor":8}' or '{"rope_theta":40000}'
  --rerope <w>            ReRoPE with window w; --leaky <x>: leaky ReRoPE, distances past w scaled by x in (0, 1)
  --logn                  log-n query scaling (base: the trained length)
  --swap-pairing          rotate the other channel pairing than the weights were trained with
  --buckets <a,b,…>       bucket edges (default 0, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, … up to --ctx)
  --json                  print JSON

exit status: 0 done, 2 bad arguments or files`;

const VALUED = ['text', 'ctx', 'trained', 'rope', 'rerope', 'leaky', 'buckets'];

/** Runs `posenc eval …` (argv without the command name). */
export async function evalMain(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const flags: Record<string, string | boolean> = {};
  const rest: string[] = [];
  const usage = (m: string) => { err(`posenc: eval: ${m}\n${EVAL_USAGE}`); return 2; };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--help' || a === '-h') { out(EVAL_USAGE); return 0; }
    if (a === '--json' || a === '--logn' || a === '--swap-pairing') flags[a.slice(2)] = true;
    else if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split(/=(.*)/s);
      if (!VALUED.includes(k)) return usage(`unknown option --${k}`);
      const val = v ?? argv[++i];
      if (val === undefined) return usage(`--${k}: needs a value`);
      flags[k] = val;
    } else rest.push(a);
  }
  if (rest.length !== 1) return usage(rest.length ? `one model (got ${rest.length})` : 'a model file is required');
  if (typeof flags.text !== 'string') return usage('--text <file> is required');
  const int = (k: string, d: number): number => {
    if (flags[k] === undefined) return d;
    const v = Number(flags[k]);
    if (!Number.isInteger(v)) throw new Error(`--${k}: must be an integer (got '${flags[k]}')`);
    return v;
  };
  try {
    const pe = await init();
    const path = rest[0];
    const has = (f: string) => stat(`${path}/${f}`).then(() => `${path}/${f}`, () => undefined);
    const source = (await stat(path)).isDirectory()
      ? { config: `${path}/config.json`, safetensors: `${path}/model.safetensors`, tokenizer: await has('tokenizer.json'),
        tokenizer_config: await has('tokenizer_config.json') }
      : path;
    const lm = await pe.loadModel(source, flags.trained !== undefined ? { trained_context: int('trained', 0) } : {});
    const ctx = int('ctx', 2048);
    if (ctx < 2 || ctx > 16384) throw new Error(`--ctx: must be in [2, 16384] (got ${ctx})`);
    const ids = lm.encode(await readFile(flags.text, 'utf8')).subarray(0, ctx);
    if (ids.length < 2) throw new Error(`--text: ${flags.text} gives fewer than 2 tokens`);
    const o: LmRunOptions = {};
    if (flags.rope !== undefined) {
      try { o.rope = JSON.parse(String(flags.rope)); } catch (e) { throw new Error(`--rope: not JSON (${(e as Error).message})`); }
    }
    if (flags.rerope !== undefined) o.rerope = { window: int('rerope', 0), leaky: flags.leaky !== undefined ? Number(flags.leaky) : 0 };
    if (flags.logn) o.logn = true;
    if (flags['swap-pairing']) o.pairing = 'swapped';
    const ev = await lm.evaluate({ ids, ...o });
    const edges = flags.buckets !== undefined ? String(flags.buckets).split(',').map(Number)
      : [0, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384].filter((e) => e < ids.length).concat(ids.length);
    if (edges.some((e, k) => !Number.isInteger(e) || (k > 0 && e <= edges[k - 1]))) throw new Error(`--buckets: must be increasing integers (got '${flags.buckets}')`);
    const buckets = lossByPosition(ev, edges);
    const { inv_freq, ...rope } = ev.rope;
    if (flags.json) {
      out(JSON.stringify({ model: path, format: lm.format, trained_context: lm.trained_context, tokens: ids.length,
        rope: { ...rope, inv_freq: Array.from(inv_freq) }, buckets }, null, 2));
    } else {
      const h = lm.hparams;
      out(`${path}: ${lm.format}, ${h.n_layer} layers, ${h.n_head}/${h.n_head_kv} heads × ${h.head_dim}, ${lm.n_params} parameters, trained at ${lm.trained_context}`);
      if (!h.rotary_dim) out(`positions: ${h.position} (not rotary); ${ids.length} tokens`);
      else out(`${h.position === 'xpos' ? 'xPos' : 'RoPE'}: ${rope.rope_type}, base ${rope.rope_theta}, attention scaling ${rope.attention_scaling.toFixed(4)}` +
        `${rope.rerope ? `, ReRoPE window ${rope.rerope.window}${rope.rerope.leaky ? ` leaky ${rope.rerope.leaky}` : ''}` : ''}` +
        `${rope.logn_base ? `, log-n base ${rope.logn_base}` : ''}${o.pairing === 'swapped' ? ', pairing swapped' : ''}; ${ids.length} tokens`);
      out('positions        tokens   NLL (nats)   perplexity   top-1');
      for (const b of buckets) {
        const mark = b.start >= lm.trained_context ? '  past the trained length' : '';
        out(`${`${b.start}–${b.end}`.padEnd(16)} ${String(b.tokens).padStart(6)}   ${b.nll.toFixed(4).padStart(10)}   ${b.ppl.toFixed(2).padStart(10)}   ${b.accuracy.toFixed(3)}${mark}`);
      }
    }
    lm.free();
    return 0;
  } catch (e) {
    const x = e as Error & { code?: string; path?: string };
    err(`posenc: eval: ${x.code === 'ENOENT' ? `${x.path}: no such file` : x.message}`);
    return 2;
  }
}
