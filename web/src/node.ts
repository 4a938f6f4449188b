// The package's Node entry (export condition "node"): the same API as the browser entry, with init() reading
// the .wasm from the installed package with node:fs instead of fetching it.
import { open, readFile } from 'node:fs/promises';
import { setGgufPathOpener } from './gguf_source.js';
import { PosencError } from './validate.js';
import { load } from './load.js';
import type { InitOptions } from './load.js';
import type { Posenc } from './posenc.js';

export * from './index.js';

// pe.ropeFromGGUF / pe.ggufHeader take a path here: the file is opened read-only and read in windows.
setGgufPathOpener((path) => open(path, 'r'));

async function readWasm(url: string): Promise<Uint8Array> {
  try {
    return await readFile(new URL(url));
  } catch (e) {
    throw new PosencError(`wasm: could not read ${url} (${(e as Error).message}): the installed package is ` +
      'incomplete; reinstall posenc, or pass init({ wasmBinary })');
  }
}

/** Loads the WebAssembly module and returns the API; see the browser entry's {@link init} for the options. */
export async function init(options: InitOptions = {}): Promise<Posenc> {
  return load(options, readWasm);
}

export default init;
