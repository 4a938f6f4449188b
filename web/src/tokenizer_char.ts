// The tokenizer of posenc's own tiny models (config.json `tokenizer: { type: 'char', vocab }`): one token per
// character, id = the character's index in `vocab` (code points); no beginning- or end-of-sequence token.
import { PosencError, show } from './validate.js';
import type { LmTokenizer } from './tokenizer_spm.js';

export function charTokenizer(tok: unknown): LmTokenizer {
  const t = tok as { type?: unknown; vocab?: unknown } | null;
  if (t === null || typeof t !== 'object' || t.type !== 'char' || typeof t.vocab !== 'string') {
    throw new PosencError(`config.tokenizer: must be { type: 'char', vocab: string } (got ${show(tok)})`);
  }
  const tokens = Array.from(t.vocab);
  const id = new Map(tokens.map((c, k) => [c, k]));
  if (id.size !== tokens.length || tokens.length < 2) throw new PosencError('config.tokenizer.vocab: must list at least two distinct characters');
  const encode = (text: string): Int32Array => {
    const chars = Array.from(text), out = new Int32Array(chars.length);
    chars.forEach((c, k) => {
      const v = id.get(c);
      if (v === undefined) throw new PosencError(`text: character ${JSON.stringify(c)} at ${k} is not in the model's vocabulary (${show(t.vocab)})`);
      out[k] = v;
    });
    return out;
  };
  const decode = (ids: ArrayLike<number>): string => Array.from(ids, (k) => tokens[k] ?? '').join('');
  return { kind: 'char', encode, decode, bos: null, eos: null, tokens };
}
