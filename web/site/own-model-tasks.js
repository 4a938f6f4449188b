// @ts-check
// §6 "your own model" (own-model.js), in the page's one worker: the reader's files, transferred once, loaded by
// pe.loadModel and kept; then the TinyStories text of the section, encoded by that model's own tokenizer, evaluated with
// the original RoPE and with the chosen method, each reduced by the figures' summarize() (perplexity per 128 tokens,
// inside and past the trained length).
import { methodOptions, summarize } from '../src/figures/defs/model-methods.js';

/** The loaded model and its source (kept so that a corrected trained length reloads it). @type {{ lm: any, src: any } | null} */
let own = null;

/** @param {{ name: string, bytes: ArrayBuffer }[]} files */
function source(files) {
  const by = (/** @type {RegExp} */ re) => files.find((f) => re.test(f.name.toLowerCase()));
  const gguf = by(/\.gguf$/);
  if (gguf) return new Uint8Array(gguf.bytes);
  const st = by(/\.safetensors$/), cfg = by(/^config\.json$/) ?? by(/config.*\.json$/);
  if (!st || !cfg) throw new Error('pick one .gguf, or config.json + model.safetensors (+ tokenizer.json)');
  const text = (/** @type {{ bytes: ArrayBuffer } | undefined} */ f) => (f ? new TextDecoder().decode(f.bytes) : undefined);
  return { config: text(cfg), safetensors: new Uint8Array(st.bytes), tokenizer: text(by(/^tokenizer\.json$/)),
    tokenizer_config: text(by(/^tokenizer_config\.json$/)) };
}

export const ownModelTasks = {
  /** Loads the files (a new set frees the old model); returns what the panel shows of the model. */
  async s6OwnLoad(/** @type {any} */ pe, /** @type {{ files: { name: string, bytes: ArrayBuffer }[] }} */ { files }) {
    own?.lm.free();
    own = null;
    const src = source(files), lm = await pe.loadModel(src);
    if (!lm.tokenizer) { lm.free(); throw new Error('the files hold no tokenizer (a .gguf with tokenizer.ggml.*, or tokenizer.json)'); }
    own = { lm, src };
    const h = lm.hparams;
    return { n_params: lm.n_params, layers: h.n_layer, heads: h.n_head, kv_heads: h.n_head_kv, head_dim: h.head_dim,
      rotary_dim: h.rotary_dim, theta: h.rope_theta, trained: lm.trained_context, vocab: h.n_vocab, format: lm.format };
  },
  /** The section's text through the loaded model, original RoPE and `method`; progress over both passes. `trained`:
   * the length the model was trained at, when the file's header says otherwise (stories260K's says 2048, it was trained
   * at 512): the model is loaded again with it (it sets the methods' original_max_position_embeddings). */
  async s6OwnEval(/** @type {any} */ pe, /** @type {{ text: string, method: string, factor: number, window: number, tokens: number, trained: number }} */ p,
    /** @type {{ progress: (x: number) => void, signal: AbortSignal }} */ ctx) {
    if (!own) throw new Error('no model is loaded');
    if (p.trained && p.trained !== own.lm.trained_context) {
      const lm = await pe.loadModel(own.src, { trained_context: p.trained });
      own.lm.free();
      own.lm = lm;
    }
    const { lm } = own, h = lm.hparams;
    const ids = lm.encode(p.text).subarray(0, p.tokens);
    const charsPerToken = lm.decode(ids).length / ids.length;
    const methods = p.method === 'original' ? ['original'] : ['original', p.method];
    /** @type {Record<string, any>} */
    const out = {};
    for (const [k, method] of methods.entries()) {
      const ev = await lm.evaluate({ ids, ...methodOptions(/** @type {any} */ (method), { factor: p.factor, window: p.window, theta: h.rope_theta, d: h.rotary_dim }),
        signal: ctx.signal, onProgress: (/** @type {number} */ d, /** @type {number} */ t) => ctx.progress((k + d / t) / methods.length) });
      out[method] = summarize(ev, { trained: lm.trained_context, charsPerToken, layer: 0, heads: h.n_head });
    }
    return { tokens: ids.length, trained: lm.trained_context, runs: out };
  },
};
