// The real trained models and text the model tests run (third-party data, never committed): ../shared/models beside
// the checkout (POSENC_SHARED overrides the folder holding models/). See ../shared/models/README.md for sources,
// checksums and licences. A missing folder is an error that says so, not a skip.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../../', import.meta.url));
export const SHARED = resolve(process.env.POSENC_SHARED ?? join(repo, '..', 'shared'));
export const MODELS = join(SHARED, 'models');
if (!existsSync(join(MODELS, 'README.md'))) {
  throw new Error(`the model tests read the real models from ${MODELS} (../shared/models beside the checkout, or POSENC_SHARED=<folder ` +
    'holding models/>); it is missing');
}
export const GGUF_260K = join(MODELS, 'stories260k', 'stories260K.gguf');
export const DIR_656K = join(MODELS, 'tinystories-656k');
export const TEXT = join(SHARED, 'text', 'tinystories_val.txt');   // ../shared/text/ (the models README's table lists it as text/)

/** The 656K checkpoint as pe.loadModel takes it (paths). */
export const SOURCE_656K = {
  config: join(DIR_656K, 'config.json'), safetensors: join(DIR_656K, 'model.safetensors'),
  tokenizer: join(DIR_656K, 'tokenizer.json'), tokenizer_config: join(DIR_656K, 'tokenizer_config.json'),
};

/**
 * The validation text's stories: blocks split at blank lines, a new story where a block starts "Once upon a time"
 * (the file has no delimiters; stories may hold blank lines), as the real-model study segmented it.
 */
export function stories(text = readFileSync(TEXT, 'utf8')) {
  const out = [];
  for (const block of text.split('\n\n')) {
    const b = block.trim();
    if (!b) continue;
    if (out.length === 0 || b.startsWith('Once upon a time')) out.push(b);
    else out[out.length - 1] += '\n\n' + b;
  }
  return out;
}

/** One token stream: each story encoded with its BOS (and EOS after it when `eos`), concatenated, cut at `n` tokens. */
export function stream(lm, n, { eos = false, from = 0 } = {}) {
  const ids = [];
  for (const s of stories().slice(from)) {
    ids.push(...lm.encode(s));
    if (eos && lm.tokenizer.eos !== null) ids.push(lm.tokenizer.eos);
    if (ids.length >= n) break;
  }
  return Int32Array.from(ids.slice(0, n));
}

export const mean = (a, from = 0, to = a.length) => {
  let s = 0;
  for (let k = from; k < to; k++) s += a[k];
  return s / (to - from);
};
/** Perplexity of predicted positions [a, b) (position p's loss is nll[p − 1]). */
export const ppl = (nll, a, b) => Math.exp(mean(nll, Math.max(a, 1) - 1, Math.min(b, nll.length + 1) - 1));
