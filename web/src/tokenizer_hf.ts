// A Hugging Face `tokenizer.json` (with its tokenizer_config.json where given), tokenized by Hugging Face's own
// JavaScript port, @huggingface/tokenizers (huggingface/tokenizers.js: normalisers, pre-tokenizers, BPE/Unigram/WordPiece
// models with byte fallback, post-processors, decoders). Loaded on first use; the package ships it as
// dist/hf-tokenizers.js (scripts/build.sh rewrites this import to that file), so consumers install nothing more.
import type { LmTokenizer } from './tokenizer_spm.js';
import { PosencError } from './validate.js';

interface HfEncoding { ids: number[] }
interface HfTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): HfEncoding;
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}

export async function hfTokenizer(json: unknown, config: unknown, bos: number | null, eos: number | null): Promise<LmTokenizer> {
  const obj = typeof json === 'string' ? parseJson('tokenizer', json) : json;
  const cfg = typeof config === 'string' ? parseJson('tokenizer_config', config) : (config ?? {});
  if (obj === null || typeof obj !== 'object' || !('model' in obj)) {
    throw new PosencError('tokenizer: must be the text or object of a Hugging Face tokenizer.json (it has no "model")');
  }
  let mod: { Tokenizer: new (json: unknown, config: unknown) => HfTokenizer };
  try {
    mod = await import('@huggingface/tokenizers') as unknown as typeof mod;
  } catch (e) {
    throw new PosencError(`tokenizer: could not load @huggingface/tokenizers (${(e as Error).message}): posenc's dist/hf-tokenizers.js ` +
      'must be served beside its other files');
  }
  let t: HfTokenizer;
  try {
    t = new mod.Tokenizer(obj, cfg);
  } catch (e) {
    throw new PosencError(`tokenizer: @huggingface/tokenizers refused this tokenizer.json (${(e as Error).message})`);
  }
  const model = (obj as { model: { vocab?: Record<string, number> | [string, number][] } }).model;
  const tokens: string[] = [];
  if (model.vocab && !Array.isArray(model.vocab)) for (const [s, id] of Object.entries(model.vocab)) tokens[id] = s;
  else if (Array.isArray(model.vocab)) model.vocab.forEach(([s], id) => { tokens[id] = s; });
  for (const a of (obj as { added_tokens?: { id: number; content: string }[] }).added_tokens ?? []) tokens[a.id] = a.content;
  return {
    kind: 'tokenizer.json',
    encode(text, options = {}) {
      if (typeof text !== 'string') throw new PosencError(`text: must be a string (got ${typeof text})`);
      const ids = t.encode(text, { add_special_tokens: false }).ids;
      const withBos = options.bos ?? true;
      return Int32Array.from(withBos && bos !== null ? [bos, ...ids] : ids);
    },
    decode(ids) {
      return t.decode(Array.from(ids), { skip_special_tokens: true });
    },
    bos, eos, tokens,
  };
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new PosencError(`${name}: not JSON (${(e as Error).message})`);
  }
}
