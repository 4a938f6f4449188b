// The Node file functions the command line (cli.ts, cli-figure.ts) uses, declared here so that no @types/node is needed
// (declarations of one module merge with ambient.d.ts's).
declare module 'node:fs/promises' {
  export function readFile(path: string, encoding: 'utf8'): Promise<string>;
  export function readFile(path: URL, encoding: 'utf8'): Promise<string>;
  export function writeFile(path: string, data: string): Promise<void>;
  export function mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
}
