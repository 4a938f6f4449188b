// Where pe.loadModel's files come from: bytes, a File/Blob, a URL (fetched; redirects followed), a path (Node entry),
// or `hf:owner/name[/file]` for the Hugging Face Hub (https://huggingface.co/owner/name/resolve/main/file, which
// answers with CORS headers). A `.gguf` is one file; a Hugging Face checkpoint is { config, safetensors, tokenizer,
// tokenizer_config }. Files are capped at 1 GiB (the wasm memory holds at most 2 GiB).
import { PosencError, show } from './validate.js';

/** A browser File/Blob, by its shape. */
export interface ModelBlob { readonly size: number; arrayBuffer(): Promise<ArrayBuffer> }
/** One file: bytes, a File/Blob, a URL (string `http(s)://…`, or URL object), a path (Node), or `hf:owner/name/file`. */
export type ModelFile = ArrayBuffer | Uint8Array | ModelBlob | string | { readonly href: string };
/** What {@link Posenc.loadModel} takes. */
export type ModelSource = ModelFile | {
  /** config.json: its object, its text, or a file. */
  config: unknown;
  safetensors: ModelFile;
  /** tokenizer.json (object, text or file); optional: without it, encode() and decode() are unavailable. */
  tokenizer?: unknown;
  tokenizer_config?: unknown;
};

export const MAX_MODEL_FILE = 2 ** 30;
export const HF_HUB = 'https://huggingface.co';

let pathReader: ((path: string) => Promise<Uint8Array>) | null = null;
/** @internal The Node entry reads paths. */
export function setModelPathReader(f: (path: string) => Promise<Uint8Array>): void {
  pathReader = f;
}

/** Where `hf:` specs are fetched from: the Hub, or a mirror that serves the same /owner/name/resolve/main/file paths. */
export interface FetchOptions {
  /** Default https://huggingface.co; e.g. https://hf-mirror.com where the Hub is unreachable. */
  hub?: string;
  onProgress?: (loaded: number, total: number) => void;
}

function hubUrl(spec: string, file?: string, hub = HF_HUB): string {
  const parts = spec.slice(3).split('/').filter(Boolean);
  if (parts.length < 2) throw new PosencError(`source: '${spec}' must be hf:owner/name or hf:owner/name/file`);
  const [owner, name, ...rest] = parts;
  const f = rest.length ? rest.join('/') : file;
  if (!f) throw new PosencError(`source: '${spec}' names no file`);
  return `${hub.replace(/\/+$/, '')}/${owner}/${name}/resolve/main/${f}`;
}

async function fetchBytes(name: string, url: string, onProgress?: (loaded: number, total: number) => void): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new PosencError(`${name}: could not fetch ${url} (${(e as Error).message}): offline, blocked by the page's ` +
      'Content-Security-Policy (connect-src), or a server without Access-Control-Allow-Origin');
  }
  if (!res.ok) throw new PosencError(`${name}: ${url} answered HTTP ${res.status}${res.status === 401 || res.status === 403 ? ' (a gated or private model: download it and pass the file)' : ''}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  if (total > MAX_MODEL_FILE) throw new PosencError(`${name}: ${url} is ${total} bytes, over the 1 GiB cap`);
  if (!res.body || !onProgress) return new Uint8Array(await res.arrayBuffer());
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    if (loaded > MAX_MODEL_FILE) throw new PosencError(`${name}: ${url} is over the 1 GiB cap`);
    onProgress(loaded, total);
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** The bytes of one file. `hubFile`: the file name an `hf:owner/name` spec stands for here. */
export async function readModelFile(name: string, f: unknown, hubFile?: string, opts: FetchOptions = {}): Promise<Uint8Array> {
  const onProgress = opts.onProgress;
  if (f instanceof Uint8Array) return f;
  if (f instanceof ArrayBuffer) return new Uint8Array(f);
  if (typeof f === 'string') {
    if (f.startsWith('hf:')) return fetchBytes(name, hubUrl(f, hubFile, opts.hub), onProgress);
    if (/^(https?|blob|data):/.test(f)) return fetchBytes(name, f, onProgress);
    if (pathReader) {
      try {
        return await pathReader(f);
      } catch (e) {
        throw new PosencError(`${name}: could not read ${f} (${(e as Error).message})`);
      }
    }
    return fetchBytes(name, f, onProgress);  // a relative URL on a page
  }
  if (f && typeof f === 'object' && 'href' in f && typeof (f as { href: unknown }).href === 'string') {
    return readModelFile(name, (f as { href: string }).href, hubFile, opts);
  }
  if (f && typeof f === 'object' && typeof (f as ModelBlob).arrayBuffer === 'function') {
    const b = f as ModelBlob;
    if (b.size > MAX_MODEL_FILE) throw new PosencError(`${name}: ${b.size} bytes, over the 1 GiB cap`);
    return new Uint8Array(await b.arrayBuffer());
  }
  throw new PosencError(`${name}: must be bytes, a File/Blob, a URL, a path or hf:owner/name (got ${show(f)})`);
}

/** A JSON document given as an object, as text, or as a file. */
export async function readJson(name: string, v: unknown, hubFile?: string, opts: FetchOptions = {}): Promise<Record<string, unknown>> {
  let text: string;
  if (typeof v === 'string' && v.trimStart().startsWith('{')) text = v;
  else if (v && typeof v === 'object' && !(v instanceof Uint8Array) && !(v instanceof ArrayBuffer) && !('href' in v) &&
    typeof (v as ModelBlob).arrayBuffer !== 'function') return v as Record<string, unknown>;
  else text = new TextDecoder().decode(await readModelFile(name, v, hubFile, { hub: opts.hub }));
  try {
    const o = JSON.parse(text);
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new Error('not an object');
    return o;
  } catch (e) {
    throw new PosencError(`${name}: not a JSON object (${(e as Error).message})`);
  }
}
