// The build's virtual modules (build.mjs), for the type check of the files that import them.
declare module 'virtual:posenc-wasm' {
  /** posenc-simd.wasm / posenc-scalar.wasm, gzipped, in base64 */
  export const WASM_SIMD: string;
  export const WASM_SCALAR: string;
}
declare module 'virtual:posenc-standalone-text' {
  /** the text of dist/figures-standalone.js */
  const text: string;
  export default text;
}
