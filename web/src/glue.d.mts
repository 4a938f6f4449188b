// Types of the Emscripten ES-module factory built from the C++ bindings (scripts/build.sh copies it into dist/: both builds emit the same glue).
// The loader compiles the .wasm itself and hands it over through the instantiateWasm option (instance.ts: run).
import type { RawModule } from './raw.js';
declare function createPosencModule(options: object): Promise<RawModule>;
export default createPosencModule;
