// @ts-check
// Placing a text label on a plot where nothing else is (pe-lines.js: mark and region labels): each label 4 px clear of
// every curve and dot (2 px above and below), of the labels already placed and inside the frame, on a background halo.

/** A box in canvas CSS px. @typedef {{ x: number, y: number, w: number, h: number }} Rect */
/** A text drawn, in canvas CSS px. @typedef {Rect & { text: string, kind: string }} TextBox */
/** An entry of the legend. @typedef {{ label?: string, color: string, dash?: number[], kind?: string }} LegendItem */
/** @typedef {import('./export.js').Ctx} Ctx */
/** Candidate top-left corners for a label tw px wide, best first. @typedef {(tw: number) => Array<[number, number]>} Cands */

/**
 * A function that places one label: near its first candidate if clear; else the clear spot of the frame nearest to
 * that; else the same in two lines (broken at the space nearest the middle); else nowhere (it joins `overflow`, drawn
 * under the plot in the legend with the mark's dash). What it draws is added to `boxes` (kind 'label').
 * @param {Ctx} g @param {{ left: number, right: number, top: number, bottom: number }} f the plot frame
 * @param {{ bg: string, text: (c: string) => string }} th
 * @param {{ paths: Array<Array<[number, number]>>, solids: Rect[], boxes: TextBox[], overflow: LegendItem[] }} drawn
 * The optional `keep(x, y, h, w)` of a label says where it may stand at all (a mark's label: within a few px of its
 * own line, and a horizontal mark's nearer its own line than any other mark line, so it is never read as another
 * line's label: walks 11-28, config-wavelengths, rope-phasor and ntk-base at 390 px); where no such spot is clear, the
 * label goes to the legend instead of drifting across the plot.
 * @returns {(text: string, cands: Cands, colour: string, keep?: (x: number, y: number, h: number, w: number) => boolean) => void}
 */
export function labelPlacer(g, f, th, { paths, solids, boxes, overflow }) {
  const box = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ bw, /** @type {number} */ bh, /** @type {string} */ text, /** @type {string} */ kind) => boxes.push({ x, y, w: bw, h: bh, text, kind });
  const clear = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ bw, /** @type {number} */ bh) => {
    const halo = { x: x - 4, y: y - 2, w: bw + 8, h: bh + 4 };
    return x >= f.left + 1 && x + bw <= f.right - 1 && y >= f.top + 1 && y + bh <= f.bottom - 1
      && !paths.some((run) => hitsPath(run, halo.x, halo.y, halo.w, halo.h)) && !solids.some((s) => overlaps(s, halo))
      && !boxes.some((b) => overlaps(b, { x, y, w: bw, h: bh }));
  };
  // Near its line first; else the clear spot of the frame nearest to that; else the same in two lines (broken at
  // the space nearest the middle); else (nothing clear) by its line.
  const spot = (/** @type {string[]} */ lines, /** @type {Cands} */ cands, /** @type {(x: number, y: number, h: number, w: number) => boolean} */ keep) => {
    const tw = Math.max(...lines.map((l) => g.measureText(l).width)), h = 14 * lines.length - 1, pref = cands(tw), [x0, y0] = pref[0];
    /** @type {[number, number] | undefined} */
    let c = pref.find(([x, y]) => keep(x, y, h, tw) && clear(x, y, tw, h)), best = Infinity;
    if (!c) for (let y = f.top + 2; y + h + 1 < f.bottom; y += 5) for (let x = f.left + 3; x + tw + 3 < f.right; x += 8) {
      const dd = Math.hypot(x - x0, y - y0); if (dd < best && keep(x, y, h, tw) && clear(x, y, tw, h)) { best = dd; c = [x, y]; }
    }
    return { c, tw, h, pref };
  };
  return (text, cands, colour, keep = () => true) => {
    let lines = [text], s = spot(lines, cands, keep);
    if (!s.c && text.includes(' ')) {
      const mid = text.length / 2, cut = [...text.matchAll(/ /g)].map((m) => /** @type {number} */ (m.index)).reduce((a, b) => (Math.abs(b - mid) < Math.abs(a - mid) ? b : a));
      const two = [text.slice(0, cut), text.slice(cut + 1)], s2 = spot(two, cands, keep);
      if (s2.c) { lines = two; s = s2; }
    }
    // nowhere clear (a narrow phone plot): the label goes under the plot, in the legend, with the mark's dash
    if (!s.c) { overflow.push({ label: text, color: colour, dash: [4, 3] }); return; }
    const { tw, h } = s, c = s.c;
    g.fillStyle = th.bg; g.globalAlpha = 0.85; g.fillRect(c[0] - 2, c[1] - 1, tw + 4, h + 2); g.globalAlpha = 1;
    g.fillStyle = th.text(colour); g.textAlign = 'left'; g.textBaseline = 'top';
    lines.forEach((l, i) => g.fillText(l, c[0], c[1] + 14 * i));
    box(c[0], c[1], tw, h, text, 'label');
  };
}

/** Whether two boxes {x, y, w, h} overlap. @param {Rect} a @param {Rect} b */
export const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Whether a polyline (runs of [x, y]) enters the rectangle (x, y, w, h): Liang–Barsky clipping of each segment. */
/** @param {Array<[number, number]>} run @param {number} x @param {number} y @param {number} w @param {number} h */
export function hitsPath(run, x, y, w, h) {
  for (let i = 0; i < run.length; i++) {
    const [ax, ay] = run[i], [bx, by] = run[Math.min(i + 1, run.length - 1)], dx = bx - ax, dy = by - ay;
    let t0 = 0, t1 = 1, ok = true;
    for (const [p, q] of [[-dx, ax - x], [dx, x + w - ax], [-dy, ay - y], [dy, y + h - ay]]) {
      if (p === 0) { if (q < 0) { ok = false; break; } continue; }
      const t = q / p;
      if (p < 0) { if (t > t1) { ok = false; break; } if (t > t0) t0 = t; } else { if (t < t0) { ok = false; break; } if (t < t1) t1 = t; }
    }
    if (ok) return true;
  }
  return false;
}
