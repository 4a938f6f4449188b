// Types of the Emscripten ES-module factory built from cpp/bindings (copied into dist/ by scripts/build.sh).
import type { RawModule } from './raw.js';
declare function createPosencModule(options: { wasmBinary: Uint8Array | ArrayBuffer }): Promise<RawModule>;
export default createPosencModule;
