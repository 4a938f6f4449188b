/** Short number formatting for labels and read-outs (display only). */
export function fmt(v, digits = 4) {
  if (v === -Infinity) return '−∞';
  if (v === Infinity) return '∞';
  if (typeof v !== 'number' || Number.isNaN(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(Math.max(1, digits - 1)).replace('-', '−');
  const s = Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return s.replace('-', '−');
}
