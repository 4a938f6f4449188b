// `npx posenc figure <name> [param=value …] --html [-o file] [--lang zh] [--theme dark|light|auto] [--no-controls]`:
// one figure as a self-contained HTML file (the element, its state, its worker and the wasm inlined: it opens from
// file://, under any sub-path and in a sandboxed iframe). `--svg` / `--png [--width 680] [--scale 2]`: the figure as an
// image, without a browser — computed here (the wasm in Node), laid out for the width and painted by the figures' own
// paint code into SVG (figures/headless.js); the PNG is that SVG rasterised by @resvg/resvg-js (an optional peer
// dependency: `npm i @resvg/resvg-js`), with the alt text in the PNG and beside it (<file>.alt.txt).
// Parameters are checked as the element checks its attributes: a bad one exits 2 with a message naming it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { init } from './node.js';

export const FIGURE_USAGE: string = `usage: posenc figure <name> [param=value …] --html|--svg|--png [options]

  --html                  a self-contained HTML page (figure, state, worker and wasm inlined; no other request)
  --fragment              the same as a fragment to paste into another page (a notebook cell's HTML output)
  --svg                   the figure as an SVG image (text as text), made without a browser
  --png                   the figure as a PNG image (needs: npm i @resvg/resvg-js); -o is required
  --width <px>            the width the image is laid out for, 240 to 4096 (default 680: a blog column; 390: a phone)
  --scale <k>             PNG pixels per CSS pixel, in (0, 8] (default 2: the PNG is width × 2 pixels wide)
  -o, --output <file>     where to write it (default: standard output); images also get <file>.alt.txt (alt text)
  --lang <en|zh>          the figure's language (default en)
  --theme <auto|light|dark>  auto (default): the reader's prefers-color-scheme, or the parent page's when it sends one;
                          an image is light unless --theme dark
  --no-controls           the figure without its own controls
  --list                  the figure names and their parameters

the page sends its height to a parent window ({ type: 'posenc:height', height }) and takes
{ type: 'posenc:theme', theme: 'dark' | 'light' | 'auto' } from it (README: "One file per figure")`;

interface FiguresModule {
  figureHTML(o: { figure: string; params: Record<string, string>; lang?: string; theme?: string; controls?: boolean; script: string; fragment?: boolean }): string;
  figureNames: readonly string[];
  describeFigure(name: string): { params: { name: string; default: unknown; rule: { en: string } }[] };
  figureSVG(pe: unknown, o: { figure: string; params?: Record<string, string>; width?: number; lang?: string; theme?: string;
    png?: (w: number, h: number, rgba: Uint8ClampedArray) => string }): Promise<{ svg: string; alt: string; title: string; width: number; height: number }>;
  pngWithAlt(png: Blob, title: string, desc: string): Promise<Blob>;
}
interface ResvgModule { Resvg: new (svg: string, o: object) => { render(): { asPng(): Uint8Array; width: number; height: number } } }

const CRC = new Uint32Array(256).map((_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(data.length + 12), v = new DataView(out.buffer);
  v.setUint32(0, data.length); out.set(new TextEncoder().encode(type), 4); out.set(data, 8);
  let c = 0xffffffff; for (const x of out.subarray(4, 8 + data.length)) c = CRC[(c ^ x) & 0xff] ^ (c >>> 8);
  v.setUint32(8 + data.length, (c ^ 0xffffffff) >>> 0);
  return out;
}
/** RGBA pixels as a PNG data: URL (a large heatmap's image inside the SVG). */
export function pngDataURL(w: number, h: number, rgba: Uint8ClampedArray): string {
  const raw = new Uint8Array(h * (4 * w + 1));
  for (let y = 0; y < h; y++) raw.set(rgba.subarray(y * 4 * w, (y + 1) * 4 * w), y * (4 * w + 1) + 1);   // filter 0 per row
  const ihdr = new Uint8Array(13), v = new DataView(ihdr.buffer);
  v.setUint32(0, w); v.setUint32(4, h); ihdr.set([8, 6, 0, 0, 0], 8);
  const png = [new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))];
  const all = new Uint8Array(png.reduce((n, b) => n + b.length, 0));
  png.reduce((at, b) => { all.set(b, at); return at + b.length; }, 0);
  let bin = ''; for (let i = 0; i < all.length; i += 0x8000) bin += String.fromCharCode(...all.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(bin)}`;
}

async function loadResvg(): Promise<ResvgModule> {
  const name = '@resvg/resvg-js';   // an optional peer dependency: only --png needs it
  try { return await import(name) as ResvgModule; } catch {
    throw new FigureUsage('--png needs the rasteriser @resvg/resvg-js (an optional dependency of posenc): npm i @resvg/resvg-js — or use --svg');
  }
}

class FigureUsage extends Error {}

/** Runs `posenc figure …` (argv without the command name): the exit status. */
export async function figureMain(argv: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const params: Record<string, string> = {};
  let name = '', output = '', html = false, fragment = false, list = false, controls = true, svg = false, png = false;
  let lang: string | undefined, theme: string | undefined, width: number | undefined, scale = 2;
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
      else if (a === '--svg') svg = true;
      else if (a === '--png') png = true;
      else if (a === '--width') { const v = value(a); width = /^\d+$/.test(v) ? Number(v) : NaN; if (!(width >= 240 && width <= 4096)) throw new FigureUsage(`--width: must be an integer from 240 to 4096 CSS px (got '${v}')`); }
      else if (a === '--scale') { const v = value(a); scale = Number(v); if (!(scale > 0 && scale <= 8)) throw new FigureUsage(`--scale: must be a number in (0, 8] (got '${v}')`); }
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
    if ([html || fragment, svg, png].filter(Boolean).length !== 1) throw new FigureUsage('figure: say which one output: --html (or --fragment), --svg or --png');
    if (svg || png) return await image(figures, { name, params, lang, theme, width, scale, png, output }, out, err);
    if (width !== undefined) throw new FigureUsage('--width: only for --svg and --png (an HTML figure follows its container)');
    // figures-standalone.js's text: shipped once, inside the anywidget module (which must carry it)
    const script = (await import(new URL('./widget.js', import.meta.url).href) as { standaloneText: string }).standaloneText;
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
    if ((e as Error).name === 'PosencError' && /^width:/.test((e as Error).message)) { err(`posenc: --${(e as Error).message}`); return 2; }
    const x = e as Error & { code?: string; attribute?: string };
    err(`posenc: ${x.code === 'ENOENT' ? `${(x as { path?: string }).path}: no such file or folder` : x.message}`);
    return 2;
  }
}

async function writeOut(output: string, data: string | Uint8Array): Promise<void> {
  const dir = output.replace(/[\\/][^\\/]*$/, '');
  if (dir !== output && dir) await mkdir(dir, { recursive: true });
  await writeFile(output, data);
}

/** --svg / --png: the figure drawn headless, written with its alt text beside it. */
async function image(figures: FiguresModule, o: { name: string; params: Record<string, string>; lang?: string; theme?: string; width?: number; scale: number; png: boolean; output: string },
  out: (s: string) => void, err: (s: string) => void): Promise<number> {
  if (o.png && (!o.output || o.output === '-')) throw new FigureUsage('--png: say where to write it with -o <file>.png');
  const resvg = o.png ? await loadResvg() : null;   // before computing: a missing rasteriser is said at once
  const t0 = performance.now(), pe = await init();
  const r = await figures.figureSVG(pe, { figure: o.name, params: o.params, width: o.width, lang: o.lang, theme: o.theme, png: pngDataURL });
  const t1 = performance.now();
  let data: string | Uint8Array = r.svg;
  if (resvg) {
    const img = new resvg.Resvg(r.svg, { fitTo: { mode: 'width', value: Math.round(r.width * o.scale) }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render();
    data = new Uint8Array(await (await figures.pngWithAlt(new Blob([img.asPng() as Uint8Array<ArrayBuffer>]), r.title, r.alt)).arrayBuffer());
  }
  const ms = `${(t1 - t0).toFixed(0)} ms to compute and draw${resvg ? `, ${(performance.now() - t1).toFixed(0)} ms to rasterise` : ''}`;
  if (!o.output || o.output === '-') { out(r.svg); err(`posenc: ${r.width} × ${r.height} CSS px (${ms})`); return 0; }
  await writeOut(o.output, data);
  await writeFile(`${o.output}.alt.txt`, `${r.alt}\n`);
  const px = resvg ? `${Math.round(r.width * o.scale)} × ${Math.round(r.height * o.scale)} px` : `${r.width} × ${r.height} CSS px`;
  err(`posenc: wrote ${o.output} (${px}, ${(data.length / 1024).toFixed(0)} KiB; ${ms}) and ${o.output}.alt.txt (alt text)`);
  return 0;
}
