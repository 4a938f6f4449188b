// The scalar build's glue has the same type as the SIMD build's.
export { default } from './glue-simd.mjs';
