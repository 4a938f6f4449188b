// The Node file functions the command line (cli.ts, cli-figure.ts) uses, declared here so that no @types/node is needed
// (declarations of one module merge with ambient.d.ts's).
declare module 'node:fs/promises' {
  export function readFile(path: string, encoding: 'utf8'): Promise<string>;
  export function readFile(path: URL, encoding: 'utf8'): Promise<string>;
  export function writeFile(path: string, data: string | Uint8Array): Promise<void>;
  export function mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
}
declare module 'node:http' {
  interface Res { writeHead(status: number, headers?: Record<string, string>): Res; end(body?: string | Uint8Array): void }
  export function createServer(handler: (req: { url?: string }, res: Res) => void): {
    listen(port: number, host: string, cb: () => void): void;
    on(event: 'error', cb: (e: Error & { code?: string }) => void): void;
    address(): { port: number };
  };
}
declare module 'node:zlib' {
  export function deflateSync(data: Uint8Array): Uint8Array;
}
