// "Did you mean …?" for key names: the closest candidate within a small edit distance (adjacent swaps count as one).

/** Optimal-string-alignment distance between a and b. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The candidate nearest to `name` if it looks like a typo of it: at most 1 edit for names under 10 characters, 2 for
 * longer ones, case ignored; null otherwise.
 */
export function closest(name: string, candidates: readonly string[]): string | null {
  const n = name.toLowerCase();
  const limit = n.length < 10 ? 1 : 2;
  let best: string | null = null;
  let bestD = limit + 1;
  for (const c of candidates) {
    const dd = distance(n, c.toLowerCase());
    if (dd < bestD) [best, bestD] = [c, dd];
  }
  return best;
}
