// `npx posenc figure <name> [param=value …] --html [-o file] [--lang zh] [--theme dark|light|auto] [--no-controls]`:
// one figure as a self-contained HTML file (the element, its state, its worker and the wasm inlined: it opens from
// file://, under any sub-path and in a sandboxed iframe). Parameters are checked as the element checks its attributes:
// a bad one exits 2 with a message naming it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';

export const FIGURE_USAGE = `usage: posenc figure <name> [param=value …] --html [options]

  --html                  a self-contained HTML page (figure, state, worker and wasm inlined; no other request)
  --fragment              the same as a fragment to paste into another page (a notebook cell's HTML output)
  -o, --output <file>     where to write it (default: standard output)
  --lang <en|zh>          the figure's language (default en)
  --theme <auto|light|dark>  auto (default): the reader's prefers-color-scheme, or the parent page's when it sends one
  --no-controls           the figure without its own controls
  --list                  the figure names and their parameters

the page sends its height to a parent window ({ type: 'posenc:height', height }) and takes
{ type: 'posenc:theme', theme: 'dark' | 'light' | 'auto' } from it (README: "One file per figure")`;

interface FiguresModule {
  figureHTML(o: { figure: string; params: Record<string, string>; lang?: string; theme?: string; controls?: boolean; script: string; fragment?: boolean }): string;
  figureNames: readonly string[];
  describeFigure(name: string): { params: { name: string; default: unknown; rule: { en: string } }[] };
}

class FigureUsage extends Error {}

/** Runs `posenc figure …` (argv without the command name): the exit status. */
export async function figureMain(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const params: Record<string, string> = {};
  let name = '', output = '', html = false, fragment = false, list = false, controls = true;
  let lang: string | undefined, theme: string | undefined;
  try {
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      const value = (k: string) => { const v = argv[++i]; if (v === undefined || v.startsWith('--')) throw new FigureUsage(`${k}: needs a value`); return v; };
      if (a === '--help' || a === '-h') { out(FIGURE_USAGE); return 0; }
      else if (a === '--html') html = true;
      else if (a === '--fragment') fragment = true;
      else if (a === '--list') list = true;
      else if (a === '--no-controls') controls = false;
      else if (a === '-o' || a === '--output') output = value(a);
      else if (a.startsWith('--output=')) output = a.slice(9);
      else if (a === '--lang') lang = value(a);
      else if (a === '--theme') theme = value(a);
      else if (a === '--png' || a === '--svg') throw new FigureUsage(`${a}: not available from the command line yet; use --html, or the figure's Export menu (PNG, SVG) in the page it writes`);
      else if (a.startsWith('-')) throw new FigureUsage(`unknown option ${a}`);
      else if (!name) name = a;
      else {
        const m = /^([A-Za-z_][\w-]*)=(.*)$/s.exec(a);
        if (!m) throw new FigureUsage(`'${a}': parameters are written name=value (e.g. base=500000)`);
        params[m[1]] = m[2];
      }
    }
    const figures = await import(new URL('./figures.js', import.meta.url).href) as FiguresModule;
    if (list) {
      for (const n of figures.figureNames) out(`${n}: ${figures.describeFigure(n).params.map((p) => `${p.name}=${String(p.default)}`).join(' ')}`);
      return 0;
    }
    if (!name) throw new FigureUsage('figure: a figure name is required (posenc figure --list names them)');
    if (!html && !fragment) throw new FigureUsage('figure: say which output: --html or --fragment');
    const script = await readFile(new URL('./figures-standalone.js', import.meta.url), 'utf8');
    const page = figures.figureHTML({ figure: name, params, lang, theme, controls, script, fragment });
    if (output && output !== '-') {
      const dir = output.replace(/[\\/][^\\/]*$/, '');
      if (dir !== output && dir) await mkdir(dir, { recursive: true });   // -o assets/html/<post>/fig.html: its folder too
      await writeFile(output, page);
      err(`posenc: wrote ${output} (${(new TextEncoder().encode(page).length / 1024).toFixed(0)} KiB, self-contained)`);
    } else out(page);
    return 0;
  } catch (e) {
    if (e instanceof FigureUsage) { err(`posenc: ${e.message}\n${FIGURE_USAGE}`); return 2; }
    const x = e as Error & { code?: string; attribute?: string };
    err(`posenc: ${x.code === 'ENOENT' ? `${(x as { path?: string }).path}: no such file or folder` : x.message}`);
    return 2;
  }
}
