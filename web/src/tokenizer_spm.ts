// The tokenizer of a GGUF file whose `tokenizer.ggml.model` is "llama" (SentencePiece BPE by scores with byte
// fallback), as llama.cpp's llm_tokenizer_spm tokenizes (ggml-org/llama.cpp@6c8dcaa src/llama-vocab.cpp): spaces
// become U+2581 ('▁'), a '▁' is prepended when add_space_prefix (default true), the text is split into UTF-8
// characters, and the adjacent pair whose concatenation is a token with the highest score is merged, repeatedly
// (ties: the leftmost pair); a final piece that is no token becomes its bytes' <0xXX> tokens (or unk).
// Special tokens in the text are not parsed (llama_tokenize with parse_special = false).
import { PosencError } from './validate.js';

/** What a loaded model tokenizes with: ids in, text out. */
export interface LmTokenizer {
  readonly kind: 'spm' | 'tokenizer.json' | 'char';
  /** Token ids of `text`, with the beginning-of-sequence token first when `bos` (default: as the model's tokenizer adds it). */
  encode(text: string, options?: { bos?: boolean }): Int32Array;
  decode(ids: ArrayLike<number>): string;
  readonly bos: number | null;
  readonly eos: number | null;
  /** The vocabulary's token strings (as the file spells them). */
  readonly tokens: readonly string[];
}

export interface GgufVocab {
  model: string;
  tokens: string[];
  scores: Float32Array;
  types: Int32Array;
  bos: number;
  eos: number;
  unk: number;
  add_bos: number;
  add_space_prefix: number;
}

const SPACE = '\u2581';
const BYTE = 6, CONTROL = 3, UNUSED = 5;

// A max-heap of candidate merges ordered by score, then by left position (smaller first).
interface Bigram { left: number; right: number; score: number; size: number }
function better(a: Bigram, b: Bigram): boolean {
  return a.score > b.score || (a.score === b.score && a.left < b.left);
}
class Heap {
  private readonly a: Bigram[] = [];
  get size(): number { return this.a.length; }
  push(x: Bigram): void {
    const a = this.a;
    a.push(x);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (!better(a[i], a[p])) break;
      [a[i], a[p]] = [a[p], a[i]];
      i = p;
    }
  }
  pop(): Bigram {
    const a = this.a, top = a[0], last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && better(a[l], a[m])) m = l;
        if (r < a.length && better(a[r], a[m])) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m], a[i]];
        i = m;
      }
    }
    return top;
  }
}

export function spmTokenizer(v: GgufVocab): LmTokenizer {
  if (v.model !== 'llama') {
    throw new PosencError(`tokenizer.ggml.model: '${v.model}' is not supported (posenc tokenizes SentencePiece 'llama' vocabularies; ` +
      'pass { tokenizer } with a tokenizer.json for others)');
  }
  const ids = new Map<string, number>();
  v.tokens.forEach((t, i) => { if (!ids.has(t)) ids.set(t, i); });
  const score = (i: number) => (v.scores.length ? v.scores[i] : 0);
  const byteIds = Array.from({ length: 256 }, (_, b) => ids.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`) ?? -1);
  const addBos = v.add_bos !== 0, spacePrefix = v.add_space_prefix !== 0;
  const enc = new TextEncoder();

  function encode(text: string, options: { bos?: boolean } = {}): Int32Array {
    if (typeof text !== 'string') throw new PosencError(`text: must be a string (got ${typeof text})`);
    const out: number[] = [];
    if ((options.bos ?? addBos) && v.bos >= 0) out.push(v.bos);
    if (text.length === 0) return Int32Array.from(out);
    const s = (spacePrefix ? ' ' + text : text).split(' ').join(SPACE);
    const sym: string[] = Array.from(s);  // code points
    const n = sym.length;
    const prev = Array.from({ length: n }, (_, i) => i - 1), next = Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : -1));
    const heap = new Heap();
    const tryPair = (l: number, r: number) => {
      if (l < 0 || r < 0) return;
      const t = ids.get(sym[l] + sym[r]);
      if (t !== undefined) heap.push({ left: l, right: r, score: score(t), size: sym[l].length + sym[r].length });
    };
    for (let i = 0; i + 1 < n; i++) tryPair(i, i + 1);
    while (heap.size) {
      const b = heap.pop();
      // stale: one side was merged since (its text changed or it is gone)
      if (sym[b.left].length === 0 || sym[b.right].length === 0 || sym[b.left].length + sym[b.right].length !== b.size || next[b.left] !== b.right) continue;
      sym[b.left] += sym[b.right];
      sym[b.right] = '';
      next[b.left] = next[b.right];
      if (next[b.right] >= 0) prev[next[b.right]] = b.left;
      tryPair(prev[b.left], b.left);
      tryPair(b.left, next[b.left]);
    }
    for (let i = 0; i >= 0 && i < n; i = next[i]) {
      const t = ids.get(sym[i]);
      if (t !== undefined) { out.push(t); continue; }
      for (const byte of enc.encode(sym[i])) out.push(byteIds[byte] >= 0 ? byteIds[byte] : v.unk);
    }
    return Int32Array.from(out);
  }

  function decode(list: ArrayLike<number>): string {
    const bytes: number[] = [];
    for (let k = 0; k < list.length; k++) {
      const id = list[k];
      if (!Number.isInteger(id) || id < 0 || id >= v.tokens.length) throw new PosencError(`ids[${k}]: must be a token id in [0, ${v.tokens.length}) (got ${id})`);
      const type = v.types.length ? v.types[id] : 1;
      if (type === CONTROL || type === UNUSED) continue;
      if (type === BYTE) {
        const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(v.tokens[id]);
        if (m) { bytes.push(parseInt(m[1], 16)); continue; }
      }
      bytes.push(...enc.encode(v.tokens[id].split(SPACE).join(' ')));
    }
    let s = new TextDecoder().decode(Uint8Array.from(bytes));
    if (spacePrefix && s.startsWith(' ')) s = s.slice(1);
    return s;
  }

  return { kind: 'spm', encode, decode, bos: v.bos >= 0 ? v.bos : null, eos: v.eos >= 0 ? v.eos : null, tokens: v.tokens };
}
