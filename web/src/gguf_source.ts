// Reading a .gguf file's header and a few small tensors without reading the rest of it: from bytes in memory, a
// browser File/Blob (through slice()), a Node FileHandle, or (Node entry only) a path. The C++ reader
// (cpp/src/gguf.cpp) parses a window of the first bytes and answers {need} while the header runs past it; the window
// then grows (by half at least: the reader re-parses each window, and a larger step would read further past the header)
// and only the new bytes are read.
import type { RawModule } from './raw.js';
import { PosencError, check, show } from './validate.js';

/** A Node `fs.promises.FileHandle` (or anything with its `read` and `stat`). */
export interface GgufFileHandle {
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<{ size: number | bigint }>;
}
/** A browser `File` or `Blob` (declared by its shape, so the typings need no DOM library): read through `slice()`. */
export interface GgufBlob {
  readonly size: number;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}
/** What {@link Posenc.ropeFromGGUF} reads: bytes, a `File`/`Blob`, a Node `FileHandle`, or a path (Node entry). */
export type GgufSource = ArrayBuffer | Uint8Array | GgufBlob | GgufFileHandle | string;

/** A GGUF value: numbers (uint64/int64 as BigInt), booleans, strings, arrays; null for a long array or string not stored. */
export type GgufValue = number | bigint | boolean | string | GgufValue[] | null;
export interface GgufKeyValue {
  key: string;
  /** GGUF value type: uint8 … float64, bool, string, array. */
  type: string;
  /** Arrays: the element type. */
  elem?: string;
  /** Arrays: element count; strings: byte length. */
  length?: number;
  /** true when a long array (> 4096 elements) or string (> 1 MiB) was walked over without being stored (value null). */
  skipped: boolean;
  value: GgufValue;
}
export interface GgufTensorInfo {
  name: string;
  /** ne[0], ne[1], … (ne[0] innermost). */
  dims: number[];
  /** ggml type id (0 F32, 1 F16, 30 BF16, …). */
  type: number;
  /** Byte offset from data_offset. */
  offset: number;
}
/** A GGUF header as read by {@link Posenc.ggufHeader}. */
export interface GgufHeader {
  version: number;
  alignment: number;
  /** First byte of the tensor data. */
  data_offset: number;
  /** Key–values in file order, and the same by key. */
  kv: GgufKeyValue[];
  metadata: Record<string, GgufValue>;
  tensors: GgufTensorInfo[];
  /** Bytes of the file read so far (the header's window, then any tensors read). */
  bytes_read: number;
  file_size: number;
}

interface Reader {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

type PathOpener = (path: string) => Promise<GgufFileHandle & { close(): Promise<void> }>;
let openPath: PathOpener | null = null;
/** @internal The Node entry (node.ts) registers fs.promises.open here; the browser entry has no file system. */
export function setGgufPathOpener(f: PathOpener): void {
  openPath = f;
}

const isHandle = (s: unknown): s is GgufFileHandle =>
  typeof s === 'object' && s !== null && typeof (s as GgufFileHandle).read === 'function' && typeof (s as GgufFileHandle).stat === 'function';

function handleReader(h: GgufFileHandle, size: number, close: () => Promise<void>): Reader {
  return {
    size,
    async read(offset, length) {
      const buf = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await h.read(buf, done, length - done, offset + done);
        if (bytesRead === 0) throw new PosencError(`source: the file ended at byte ${offset + done} (it was ${size} bytes when opened)`);
        done += bytesRead;
      }
      return buf;
    },
    close,
  };
}

const isBlob = (s: unknown): s is GgufBlob => typeof s === 'object' && s !== null && typeof (s as GgufBlob).size === 'number' &&
  Number.isSafeInteger((s as GgufBlob).size) && (s as GgufBlob).size >= 0 && typeof (s as GgufBlob).slice === 'function';

async function readerOf(source: unknown): Promise<Reader> {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const b = source instanceof Uint8Array ? source : source instanceof ArrayBuffer ? new Uint8Array(source) : null;
    if (!b) throw new PosencError(`source: must be a Uint8Array, ArrayBuffer, Blob/File, FileHandle or path (got ${show(source)})`);
    return { size: b.length, read: async (o, l) => b.subarray(o, o + l), close: async () => {} };
  }
  if (isBlob(source)) {
    return { size: source.size, read: async (o, l) => new Uint8Array(await source.slice(o, o + l).arrayBuffer()), close: async () => {} };
  }
  if (isHandle(source)) return handleReader(source, Number((await source.stat()).size), async () => {});
  if (typeof source === 'string') {
    if (!openPath) throw new PosencError('source: a path needs the Node entry of posenc (in a browser pass a File or the bytes)');
    let h: GgufFileHandle & { close(): Promise<void> };
    try {
      h = await openPath(source);
    } catch (e) {
      throw new PosencError(`source: cannot open '${source}' (${(e as Error).message})`);
    }
    try {
      return handleReader(h, Number((await h.stat()).size), () => h.close());
    } catch (e) {
      await h.close();
      throw e;
    }
  }
  throw new PosencError(`source: must be a Uint8Array, ArrayBuffer, Blob/File, FileHandle or path (got ${show(source)})`);
}

/** First window: 1 MiB covers most headers without a tokenizer; the window grows ×1.5 (or to what the reader asks) while the header needs more. */
export const FIRST_WINDOW = 1 << 20;

/** An open GGUF file: its header, and reads of small tensors by name. */
export interface GgufFile {
  header: GgufHeader;
  /** The tensor's values as float64 (F32, F16, BF16; ≤ 4096 elements), or null if the file has no such tensor. */
  tensor(name: string): Promise<Float64Array | null>;
  close(): Promise<void>;
}

export async function openGguf(raw: RawModule, source: unknown): Promise<GgufFile> {
  const r = await readerOf(source);
  try {
    let window = await r.read(0, Math.min(r.size, FIRST_WINDOW));
    let bytesRead = window.length;
    type Parsed = { need: number } | (Omit<GgufHeader, 'metadata' | 'bytes_read' | 'file_size'>);
    let parsed = check(raw.ggufReadHeader(window, r.size)) as Parsed;
    while ('need' in parsed) {
      const next = Math.min(r.size, Math.max(parsed.need, Math.ceil(1.5 * window.length)));
      const grown = new Uint8Array(next);
      grown.set(window);
      grown.set(await r.read(window.length, next - window.length), window.length);
      bytesRead += next - window.length;
      window = grown;
      parsed = check(raw.ggufReadHeader(window, r.size)) as Parsed;
    }
    const p = parsed;
    const header: GgufHeader = { ...p, metadata: Object.fromEntries(p.kv.map((kv) => [kv.key, kv.value])), bytes_read: bytesRead, file_size: r.size };
    const held = window;
    return {
      header,
      close: () => r.close(),
      async tensor(name) {
        const t = header.tensors.find((x) => x.name === name);
        if (!t) return null;
        const item = t.type === 0 ? 4 : t.type === 1 || t.type === 30 ? 2 : 0;
        if (!item) throw new PosencError(`gguf: tensor '${name}' has ggml type ${t.type} (expected F32 (0), F16 (1) or BF16 (30))`);
        if (t.dims.length !== 1) throw new PosencError(`gguf: tensor '${name}' must be 1-D (got dims [${t.dims.join(', ')}])`);
        const count = t.dims[0];
        if (count > 4096) throw new PosencError(`gguf: tensor '${name}' has ${count} elements (at most 4096 are read)`);
        const begin = header.data_offset + t.offset, len = count * item;
        if (begin + len > r.size) throw new PosencError(`gguf: tensor '${name}' bytes [${begin}, ${begin + len}) lie past the end of the ${r.size}-byte file`);
        let bytes: Uint8Array;
        if (begin + len <= held.length) bytes = held.subarray(begin, begin + len);
        else {
          bytes = await r.read(begin, len);
          header.bytes_read += len;
        }
        return check(raw.ggufTensorValues(bytes, t.type, count));
      },
    };
  } catch (e) {
    await r.close();
    throw e;
  }
}
