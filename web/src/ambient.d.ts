// Minimal ambient declarations for the Node-only branch of the loader (no @types/node needed).
declare const process: { versions?: { node?: string } } | undefined;
declare module 'node:fs/promises' {
  export function readFile(path: URL): Promise<Uint8Array>;
}
