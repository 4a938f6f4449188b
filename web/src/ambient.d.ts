// The one Node module the Node entry (node.ts) uses, declared here so that no @types/node is needed.
declare module 'node:fs/promises' {
  export function readFile(path: URL): Promise<Uint8Array>;
}
