// Reads the CSV that <posenc-figure>.toCSV() writes: comment lines (#) first, then a header and quoted-as-needed cells.

/** Rows of the figure CSV `text` as objects keyed by the header; only those of `panel` (and `series`) when given. */
export function csvRows(text, panel, series) {
  const lines = text.trim().split('\n').filter((l) => !l.startsWith('#'));
  const split = (l) => {
    const cells = []; let cur = '', q = false;
    for (let i = 0; i < l.length; i++) {
      const ch = l[i];
      if (ch === '"') { if (q && l[i + 1] === '"') { cur += '"'; i++; } else q = !q; } else if (ch === ',' && !q) { cells.push(cur); cur = ''; } else cur += ch;
    }
    cells.push(cur);
    return cells;
  };
  const head = split(lines[0]);
  return lines.slice(1).map((l) => { const c = split(l); return Object.fromEntries(head.map((h, i) => [h, c[i]])); })
    .filter((r) => (panel === undefined || r.panel === panel) && (series === undefined || r.series === series));
}
