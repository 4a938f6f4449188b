// A learned position table from JSON text, read in one pass without recursion and without building JS arrays:
// nesting of any depth is refused at the third '[', and the caps of the .npy and .safetensors readers apply before
// memory grows past them (rows ≤ 2^20, cols ≤ 8192, rows·cols ≤ 2^26 values; values must fit float32).
import { PosencError } from './validate.js';

const MAX_ROWS = 2 ** 20, MAX_COLS = 8192, MAX_VALUES = 2 ** 26;
const FLOAT32_MAX = 3.4028234663852886e38;
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** The float32 value of a JSON number at [r][c], refusing one beyond the float32 range (it would become ±∞). */
export function tableEntry(x: number, r: number, c: number): number {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) {
    throw new PosencError(`json: entry [${r}][${c}] = ${x} overflows float32 (|value| > ${FLOAT32_MAX})`);
  }
  return f;
}

/** Checks a table shape against the caps shared with `.npy` and `.safetensors`. */
export function tableShapeCheck(rows: number, cols: number): void {
  if (rows > MAX_ROWS || cols > MAX_COLS || rows * cols > MAX_VALUES) {
    throw new PosencError(`json: table [${rows}, ${cols}] exceeds rows <= 1048576, cols <= 8192, rows*cols <= 2^26 (67108864)`);
  }
}

/**
 * Parses `[[x, …], …]` (a non-empty 2-D array of numbers, rows of equal length, e.g. `json.dumps(wpe.tolist())`).
 * Numbers follow JSON's grammar and get JSON.parse's value (exact decimal → double, then rounded once to float32).
 * Errors say what was expected and where (`json: … at character N`).
 */
export function tableFromJsonText(text: string): { rows: number; cols: number; data: Float32Array } {
  const len = text.length;
  let i = 0;
  const ws = () => {
    for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i));
  };
  const where = () => (i < len ? `at character ${i}` : 'at the end');
  const bad = (what: string): never => { throw new PosencError(`json: not valid JSON for a table: expected ${what} ${where()}`); };
  const eat = (ch: number) => { ws(); if (text.charCodeAt(i) === ch) { i++; return true; } return false; };
  const digit = (c: number) => c >= 48 && c <= 57;
  // One JSON number at i (i moves past it), or NaN if there is none. Clinger's fast path: ≤ 15 significant digits
  // times a power of ten ≤ 10^22 is one correctly rounded operation on exact doubles; anything else goes to Number().
  const number = (): number => {
    const start = i;
    let c = text.charCodeAt(i);
    const neg = c === 45;
    if (neg) c = text.charCodeAt(++i);
    if (!digit(c)) { i = start; return NaN; }
    let m = 0, digits = 0, scale = 0;
    if (c === 48) c = text.charCodeAt(++i);  // a leading 0 stands alone
    else for (; digit(c); c = text.charCodeAt(++i)) { if (digits < 15) m = m * 10 + (c - 48); else scale++; digits++; }
    if (c === 46) {
      c = text.charCodeAt(++i);
      if (!digit(c)) { i = start; return NaN; }
      for (; digit(c); c = text.charCodeAt(++i)) { if (digits < 15) { m = m * 10 + (c - 48); scale--; } if (m > 0 || c !== 48) digits++; }
    }
    let e = 0;
    if (c === 101 || c === 69) {
      c = text.charCodeAt(++i);
      const sign = c === 45 ? -1 : 1;
      if (c === 43 || c === 45) c = text.charCodeAt(++i);
      if (!digit(c)) { i = start; return NaN; }
      for (; digit(c); c = text.charCodeAt(++i)) if (e < 1e6) e = e * 10 + (c - 48);
      e *= sign;
    }
    const k = e + scale;
    const v = digits <= 15 && k >= -22 && k <= 22 ? (k < 0 ? m / POW10[-k] : m * POW10[k]) : Number(text.slice(neg ? start + 1 : start, i));
    return neg ? -v : v;
  };
  if (!eat(91)) bad("'[' (a table is a 2-D array [positions][dim])");
  let data = new Float32Array(0), cols = 0, rows = 0, n = 0;
  const first: number[] = [];
  do {
    ws();
    if (text.charCodeAt(i) !== 91) {
      if (text.charCodeAt(i) === 93 && rows === 0) break;
      bad(`'[' opening row ${rows}`);
    }
    i++;
    let c = 0;
    if (!eat(93)) {
      do {
        ws();
        if (text.charCodeAt(i) === 91) throw new PosencError(`json: entry [${rows}][${c}] must be a finite number (got an array: a table is 2-D) ${where()}`);
        const x = number();
        if (Number.isNaN(x)) {
          throw new PosencError(`json: entry [${rows}][${c}] must be a finite number (got ${JSON.stringify(text.slice(i, i + 12))}) ${where()}`);
        }
        const v = tableEntry(x, rows, c);
        if (rows === 0) {
          if (c >= MAX_COLS) tableShapeCheck(1, c + 1);
          first.push(v);
        } else {
          if (c >= cols) throw new PosencError(`json: row ${rows} must be an array of ${cols} numbers (got more)`);
          data[n++] = v;
        }
        c++;
      } while (eat(44));
      if (!eat(93)) bad(`',' or ']' in row ${rows}`);
    }
    if (rows === 0) {
      cols = c;
      if (cols === 0) throw new PosencError('json: row 0 must be a non-empty array of numbers');
      // Rows open with '[': their count bounds the table, so an oversized one is refused before it is read.
      let opens = 0;
      for (let k = text.indexOf('[', i); k >= 0 && opens <= MAX_ROWS; k = text.indexOf('[', k + 1)) opens++;
      tableShapeCheck(1 + opens, cols);
      data = new Float32Array((1 + opens) * cols);
      data.set(first);
      n = cols;
    } else if (c !== cols) {
      throw new PosencError(`json: row ${rows} must be an array of ${cols} numbers (got ${c})`);
    }
    rows++;
  } while (eat(44));
  if (!eat(93)) bad(`',' or ']' after row ${rows - 1}`);
  ws();
  if (i !== len) bad('the end of the text');
  if (rows === 0) throw new PosencError('json: must be a non-empty 2-D array [positions][dim]');
  return { rows, cols, data: n === data.length ? data : data.slice(0, n) };
}

/**
 * A table from an already parsed JSON value: a non-empty 2-D array of finite numbers whose rows all have the same
 * length. Same caps and float32 rule as the text reader; nothing is copied before the shape is checked.
 */
export function tableFromJsonValue(v: unknown): { rows: number; cols: number; data: Float32Array } {
  if (!Array.isArray(v) || v.length === 0) throw new PosencError('json: must be a non-empty 2-D array [positions][dim]');
  const rows = v.length;
  const first = v[0];
  if (!Array.isArray(first) || first.length === 0) throw new PosencError('json: row 0 must be a non-empty array of numbers');
  const cols = first.length;
  tableShapeCheck(rows, cols);
  const data = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const row = v[r];
    if (!Array.isArray(row) || row.length !== cols) {
      throw new PosencError(`json: row ${r} must be an array of ${cols} numbers (got ${Array.isArray(row) ? row.length : typeof row})`);
    }
    for (let c = 0; c < cols; c++) {
      const x = row[c];
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        const got = typeof x === 'number' ? String(x) : Array.isArray(x) ? 'an array: a table is 2-D' : x === null ? 'null' : `a ${typeof x}`;
        throw new PosencError(`json: entry [${r}][${c}] must be a finite number (got ${got})`);
      }
      data[r * cols + c] = tableEntry(x, r, c);
    }
  }
  return { rows, cols, data };
}
