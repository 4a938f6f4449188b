// The Node modules the Node entry (node.ts) uses, declared here so that no @types/node is needed.
declare module 'node:fs/promises' {
  export function readFile(path: URL | string): Promise<Uint8Array>;
  export function stat(path: string): Promise<{ isDirectory(): boolean }>;
  export function open(path: string, flags: 'r'): Promise<{
    read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
    stat(): Promise<{ size: number }>;
    close(): Promise<void>;
  }>;
}
declare module 'node:module' {
  export function createRequire(url: string): (id: string) => unknown;
}
declare module 'node:url' {
  export function fileURLToPath(url: URL): string;
}
