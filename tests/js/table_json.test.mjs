// Learned tables from JSON (issue 15): one pass without recursion, the .npy caps, float32 overflow refused.
import test from 'node:test';
import assert from 'node:assert/strict';
import init, { PosencError } from 'posenc';

const pe = await init();
const refused = (f, re) => assert.throws(f, (e) => e instanceof PosencError && re.test(e.message), re.source);

test('text: values rounded once to float32, rows of equal length', () => {
  const t = pe.tableFromJSON(' [ [0.1, -2e-3, 3E2] ,[4,5,6.5] ] ');
  assert.equal(t.rows, 2);
  assert.equal(t.cols, 3);
  assert.deepEqual(Array.from(t.data), [0.1, -2e-3, 300, 4, 5, 6.5].map(Math.fround));
  // The same numbers as JSON.parse reads them (text and parsed value agree).
  const text = JSON.stringify([[1 / 3, -1e-40, 3.4028234663852886e38], [2 ** -149, 65504, -0]]);
  assert.deepEqual(pe.tableFromJSON(text), pe.tableFromJSON(JSON.parse(text)));
});

test('numbers: the value JSON.parse gives, rounded once to float32', () => {
  // Seeded decimals in every JSON spelling (fast path ≤ 15 digits and 10^±22, and the Number() fallback).
  let a = 7;
  const rnd = () => ((a = (a * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const xs = [];
  for (let k = 0; k < 2000; k++) {
    const x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 60 - 30);
    xs.push(x.toString(), x.toPrecision(1 + (k % 17)), x.toExponential(k % 20), x.toFixed(k % 12));
  }
  xs.push('0', '-0', '0.0', '1e22', '1e23', '9007199254740993', '123456789012345678901234567890', '0.000000000000000000000001',
    '1.7976931348623157e308', '2.2250738585072014e-308', '4.9e-324', '1E+2', '1e-0', '-0.0e-5');
  const text = `[[${xs.filter((x) => x.length < 400 && !/e\+?\d{3}/.test(x)).join(',')}]]`;
  const t = pe.tableFromJSON(text);
  const want = JSON.parse(text)[0].map(Math.fround);
  assert.deepEqual(Array.from(t.data), want);
});

test('nesting 10^4 and 10^6 deep: a PosencError, no stack overflow', () => {
  for (const d of [3, 1e4, 1e6]) {
    refused(() => pe.tableFromJSON('['.repeat(d) + ']'.repeat(d)), /^json: entry \[0\]\[0\] must be a finite number \(got an array/);
    // an already parsed value nested as deep: the message never stringifies the value
    let v = [1];
    for (let k = 0; k < d; k++) v = [v];
    refused(() => pe.tableFromJSON([[v]]), /^json: entry \[0\]\[0\] must be a finite number \(got an array: a table is 2-D\)$/);
  }
  refused(() => pe.tableFromJSON('[[[1]]]'), /^json: entry \[0\]\[0\] must be a finite number \(got an array: a table is 2-D\) at character 2$/);
});

test('caps as .npy: 8193 × 8192 refused before it is read in full', () => {
  // rows·cols = 67,117,056 > 2^26. Built as text: 8192 columns of "0" per row.
  const row = `[${'0,'.repeat(8191)}0]`;
  const text = `[${`${row},`.repeat(8192)}${row}]`;
  refused(() => pe.tableFromJSON(text), /^json: table \[8193, 8192\] exceeds rows <= 1048576, cols <= 8192, rows\*cols <= 2\^26/);
  refused(() => pe.tableFromJSON(`[[${'0,'.repeat(8192)}0]]`), /^json: table \[1, 8193\] exceeds/);
  refused(() => pe.tableFromJSON(Array.from({ length: 2 ** 20 + 1 }, () => [0])), /^json: table \[1048577, 1\] exceeds/);
  refused(() => pe.tableFromJSON(`[${'[0],'.repeat(2 ** 20)}[0]]`), /^json: table \[1048577, 1\] exceeds/);
  // at the caps: accepted
  assert.equal(pe.tableFromJSON(`[${'[0.5],'.repeat(2 ** 20 - 1)}[1]]`).rows, 2 ** 20);
  assert.equal(pe.tableFromJSON(`[[${'0,'.repeat(8191)}1]]`).cols, 8192);
});

test('values beyond float32 are refused, not turned into Infinity', () => {
  refused(() => pe.tableFromJSON('[[1e39, 1]]'), /^json: entry \[0\]\[0\] = 1e\+39 overflows float32/);
  refused(() => pe.tableFromJSON('[[1, -3.5e38]]'), /^json: entry \[0\]\[1\] = -3\.5e\+38 overflows float32/);
  refused(() => pe.tableFromJSON([[1, 2], [1e39, 0]]), /^json: entry \[1\]\[0\] = 1e\+39 overflows float32/);
  refused(() => pe.tableFromJSON('[[1e400]]'), /^json: entry \[0\]\[0\] = Infinity overflows float32/);
  // 3.4028235e38 rounds to FLT_MAX: kept
  assert.equal(pe.tableFromJSON('[[3.4028235e38]]').data[0], 3.4028234663852886e38);
});

test('malformed text: where and what was expected', () => {
  refused(() => pe.tableFromJSON('{'), /^json: not valid JSON for a table: expected '\[' .* at character 0/);
  refused(() => pe.tableFromJSON('[[1, 2], [3]]'), /^json: row 1 must be an array of 2 numbers \(got 1\)/);
  refused(() => pe.tableFromJSON('[[1, 2], [3, 4, 5]]'), /^json: row 1 must be an array of 2 numbers \(got more\)/);
  refused(() => pe.tableFromJSON('[[1, "a"]]'), /^json: entry \[0\]\[1\] must be a finite number \(got "\\"a\\"\]\]"\)/);
  refused(() => pe.tableFromJSON('[[1, 2]] x'), /^json: not valid JSON for a table: expected the end of the text at character 9/);
  refused(() => pe.tableFromJSON('[[1 2]]'), /^json: not valid JSON for a table: expected ',' or '\]' in row 0 at character 4/);
  refused(() => pe.tableFromJSON('[]'), /^json: must be a non-empty 2-D array/);
  refused(() => pe.tableFromJSON('[[]]'), /^json: row 0 must be a non-empty array/);
  refused(() => pe.tableFromJSON('[[01]]'), /^json: not valid JSON for a table: expected ',' or '\]' in row 0 at character 3/);
});
