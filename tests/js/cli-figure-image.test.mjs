// Figures as images without a browser (issue 27, deliver 4): `posenc figure <name> --svg|--png [--width] -o file`.
// Every registered figure's --svg at 680 px: well-formed XML (parsed by resvg's XML parser), exactly 680 px wide,
// <title>/<desc> with the alt text, no text under 12 px, every text's box inside the image; the same at phone width
// (390 px, through figureSVG, which the command calls; rasterised with the system fonts: nothing inked in the right margin). The numbers drawn: the read-outs against closed forms
// (rope-decay's score with q = k = ones, ALiBi's slope) and each read-out value written in the SVG. --png: the PNG
// signature, width × scale pixels, the alt text in an iTXt chunk and beside the file. Bad arguments exit 2 naming them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import init from 'posenc';
import { figureNames, figureSVG } from 'posenc/figures';
import { approxWidth } from '../../web/src/figures/blocks/text.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = join(repo, 'dist/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'posenc-img-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));
const cliSync = (args) => { const r = spawnSync('node', [cliPath, 'figure', ...args], { encoding: 'utf8', timeout: 120000 }); return { status: r.status, out: r.stdout, err: r.stderr }; };
const cli = (args) => new Promise((res) => {
  const p = spawn('node', [cliPath, 'figure', ...args]), out = [], err = [];
  p.stdout.on('data', (b) => out.push(b)); p.stderr.on('data', (b) => err.push(b));
  p.on('close', (status) => res({ status, out: Buffer.concat(out).toString(), err: Buffer.concat(err).toString() }));
});
const pe = await init();

const unesc = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
/** Every <text>: its string, font size, and its box in image coordinates (estimated advances, the transform applied). */
function texts(svg) {
  return [...svg.matchAll(/<text ([^>]*)>([^<]*)<\/text>/g)].map(([, attrs, body]) => {
    const a = Object.fromEntries([...attrs.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const size = Number(a['font-size']), s = unesc(body), w = approxWidth(`${a['font-weight'] ? '700 ' : ''}${size}px sans-serif`, s);
    const x0 = Number(a.x) - w * ({ start: 0, middle: 0.5, end: 1 }[a['text-anchor']] ?? 0), y = Number(a.y);
    const [ma, mb, mc, md, me, mf] = a.transform ? a.transform.slice(7, -1).split(' ').map(Number) : [1, 0, 0, 1, 0, 0];
    const pts = [[x0, y - 0.8 * size], [x0 + w, y - 0.8 * size], [x0, y + 0.2 * size], [x0 + w, y + 0.2 * size]].map(([x, yy]) => [ma * x + mc * yy + me, mb * x + md * yy + mf]);
    const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
    return { s, size, box: { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) } };
  });
}
/** What is wrong with an image's text at `width`: too small, or outside the picture. */
function textProblems(svg, width) {
  const W = Number(/^<svg[^>]* width="(\d+)"/.exec(svg)?.[1]), H = Number(/^<svg[^>]* height="(\d+)"/.exec(svg)?.[1]), bad = [];
  if (W !== width) bad.push(`width ${W}, asked ${width}`);
  for (const t of texts(svg)) {
    if (!(t.size >= 12)) bad.push(`"${t.s}" at ${t.size} px`);
    if (t.s.trim() && (t.box.x0 < -1 || t.box.x1 > W + 1 || t.box.y0 < -1 || t.box.y1 > H + 1)) bad.push(`"${t.s}" outside ${W} × ${H}: x ${t.box.x0.toFixed(0)}…${t.box.x1.toFixed(0)}, y ${t.box.y0.toFixed(0)}…${t.box.y1.toFixed(0)}`);
  }
  return bad;
}

test('--svg of every figure at 680 px: XML, <title>/<desc>, no text under 12 px, every text inside the image', async () => {
  const t0 = performance.now(), sizes = [], queue = [...figureNames], problems = [];
  const worker = async () => {
    for (let name; (name = queue.shift());) {
      const file = join(dir, `${name}.svg`), r = await cli([name, '--svg', '--width', '680', '-o', file]);
      if (r.status !== 0) { problems.push(`${name}: exit ${r.status} ${r.err}`); continue; }
      const svg = readFileSync(file, 'utf8');
      sizes.push(`${name} ${(svg.length / 1024).toFixed(0)} KiB`);
      try { new Resvg(svg); } catch (e) { problems.push(`${name}: not well-formed: ${e.message}`); }
      const title = /<title>([^<]+)<\/title><desc>([^<]+)<\/desc>/.exec(svg);
      if (!title) problems.push(`${name}: no <title>/<desc>`);
      else if (readFileSync(`${file}.alt.txt`, 'utf8').trim() !== unesc(title[2])) problems.push(`${name}: .alt.txt differs from <desc>`);
      problems.push(...textProblems(svg, 680).map((p) => `${name}: ${p}`));
    }
  };
  await Promise.all([worker(), worker()]);
  assert.deepEqual(problems, []);
  console.log(`# ${figureNames.length} figures as SVG at 680 px in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${sizes.join(', ')}`);
});

test('phone width (390 px) and Chinese: every figure\'s texts inside the image (captions wrapped, not cut), none under 12 px', async () => {
  const problems = [];
  for (const name of figureNames) for (const [width, lang] of [[390, 'en'], [390, 'zh'], [680, 'zh']]) {
    const r = await figureSVG(pe, { figure: name, width, lang, png: () => 'data:image/png;base64,' });
    problems.push(...textProblems(r.svg, width).map((p) => `${name} ${width} ${lang}: ${p}`));
    // with the real fonts (resvg, system fonts): the 12 px margin's outer 6 px columns are background only — no text
    // (or anything else) runs past the right edge of the layout
    if (width !== 390) continue;
    const img = new Resvg(r.svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } }).render(), px = img.pixels, W = img.width;
    let inked = 0;
    for (let y = 0; y < img.height; y++) for (let x = W - 6; x < W; x++) if (px[4 * (y * W + x)] < 250 || px[4 * (y * W + x) + 2] < 250) inked++;
    if (inked) problems.push(`${name} ${width} ${lang}: ${inked} pixels inked in the right margin`);
  }
  assert.deepEqual(problems, []);
});

test('the numbers drawn: read-outs against closed forms, and every read-out written in the SVG as the figure reports it', async () => {
  // rope-decay, q = k = ones (the default): ⟨Rₘq, Rₙk⟩ = 2 Σᵢ cos((n − m) θᵢ), θᵢ = base^(−2i/d)
  for (const [base, at] of [[10000, 15000], [500000, 1000]]) {
    const r = await figureSVG(pe, { figure: 'rope-decay', params: { base, at } });
    let s = 0; for (let i = 0; i < 256; i++) s += 2 * Math.cos(at * base ** (-2 * i / 512));
    const ro = r.readouts.find((x) => x.id === 'at');
    assert.ok(Math.abs(ro.value - s) < 2e-3 * Math.max(1, Math.abs(s)), `rope-decay base ${base} at ${at}: ${ro.value} vs ${s}`);
    const drawn = Number(new RegExp(`base ${base}: (−?[\\d.]+)$`).exec(ro.text)[1].replace('−', '-'));
    assert.ok(Math.abs(drawn - s) < 2e-3 * Math.max(1, Math.abs(s)), `the read-out's text ${ro.text} vs ${s}`);
    assert.ok(r.svg.includes(ro.text.replace(/&/g, '&amp;')), 'the read-out is in the SVG');
  }
  // ALiBi: head h of H has slope 2^(−8h/H)
  const alibi = await figureSVG(pe, { figure: 'alibi' });
  const slope = alibi.readouts.find((x) => x.id === 'slope').value;
  assert.ok([...Array(64).keys()].some((h) => [8, 12, 16, 32, 64].some((H) => Math.abs(slope - 2 ** (-8 * (h + 1) / H)) < 1e-6)), `alibi slope ${slope}`);
  // every figure: each read-out's text is in the image (so the image says what the page's read-out says)
  const missing = [];
  for (const name of figureNames) {
    const r = await figureSVG(pe, { figure: name, png: () => 'data:image/png;base64,' });
    const shown = texts(r.svg).map((t) => t.s).join(' ');
    for (const ro of r.readouts) for (const word of ro.text.split(/\s+/).filter((w) => /\d/.test(w))) if (!shown.includes(word)) missing.push(`${name}/${ro.id}: ${word}`);
  }
  assert.deepEqual(missing, []);
});

test('--png: PNG signature, width × scale pixels, alt text inside (iTXt) and beside it', () => {
  const t0 = performance.now();
  for (const [args, w] of [[['--width', '680'], 1360], [['--width', '390', '--scale', '1', '--lang', 'zh', '--theme', 'dark'], 390]]) {
    const file = join(dir, `rope-decay-${w}.png`), r = cliSync(['rope-decay', 'base=500000', '--png', ...args, '-o', file]);
    assert.equal(r.status, 0, r.err);
    const b = readFileSync(file);
    assert.deepEqual([...b.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.equal(b.readUInt32BE(16), w, 'IHDR width');
    const alt = readFileSync(`${file}.alt.txt`, 'utf8').trim();
    assert.match(alt, w === 390 ? /RoPE 的远程衰减。参数：base=500000。/ : /^RoPE’s long-range decay\. Drawn with base = 500000\./);
    assert.ok(b.includes(Buffer.from(`iTXtDescription\0\0\0\0\0${alt}`)), 'the alt text is in the PNG');
    console.log(`# ${file.split('/').pop()}: ${(b.length / 1024).toFixed(0)} KiB, ${r.err.trim()}`);
  }
  console.log(`# two PNGs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
});

test('bad arguments exit 2 and name the parameter', () => {
  for (const [args, re] of [
    [['rope-decay', 'bse=1', '--svg'], /Unknown parameter "bse"/],
    [['rope-decay', 'base=abc', '--svg'], /Attribute "base" must be one of/],
    [['rope-decay', '--svg', '--width', '100'], /--width: must be an integer from 240 to 4096/],
    [['rope-decay', '--svg', '--width'], /--width: needs a value/],
    [['rope-decay', '--png', '--scale', '0', '-o', join(dir, 'x.png')], /--scale: must be a number in \(0, 8\]/],
    [['rope-decay', '--svg', '--lang', 'fr'], /"lang" must be en or zh/],
    [['rope-decay', '--svg', '--theme', 'blue'], /"theme" must be auto, light or dark/],
    [['rope-decay', '--png'], /--png: say where to write it with -o/],
    [['rope-decay', '--svg', '--png'], /say which one output/],
    [['no-such-figure', '--svg'], /Unknown figure "no-such-figure"/],
  ]) {
    const r = cliSync(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.err}`);
    assert.match(r.err, re);
  }
  assert.equal(existsSync(join(dir, 'x.png')), false);
});

// Issue 34 item 5: an exported image's text agrees with its parameters. The takeaway is written for the defaults
// ("with base 10000 and d = 512 it turns back up … (marked)"): it heads the image only when no parameter is set; else
// the line under the title names the parameters drawn, as the alt text does.
test('--svg: the line under the title is the takeaway at the defaults, the parameters drawn otherwise (en and zh)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posenc-sub-'));
  try {
    const texts = (args) => {
      const f = join(dir, 'f.svg');
      const r = spawnSync(process.execPath, [join(repo, 'dist/cli.js'), 'figure', ...args, '--svg', '-o', f], { encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      return [...readFileSync(f, 'utf8').matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    };
    const plain = texts(['rope-decay']);
    assert.match(plain.slice(1, 4).join(' '), /with base 10000 and d = 512/);
    const set = texts(['rope-decay', 'base=500000']);
    assert.equal(set[1], 'Drawn with base = 500000.');
    assert.ok(!set.some((x) => /base 10000|\(marked\)/.test(x)));
    assert.equal(texts(['rope-decay', 'base=500000', 'd=128', '--lang', 'zh'])[1], '参数：base=500000，d=128。');
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
