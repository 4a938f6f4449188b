// Figure parameters: parsing attribute / URL strings into typed values, validation with translated messages that
// name the attribute and what is allowed (never a silent clamp), and the description the gallery and docs use.
// A parameter spec: { type: 'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2', default, min?, max?, values? (enum),
//   choices? (suggested values for the control), slider?, range? (vec2 half-width), maxLength? (string), label: {en, zh} }.

/**
 * A "try this" of a figure definition (`tries: FigureTry[]`): one click sets `params` (every other parameter back to
 * its default) and `look` says, in one sentence, what the reader should now see.
 * @typedef {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }} FigureTry
 */

/** A bilingual string. */
export const L = (en, zh) => ({ en, zh });
export const tr = (s, lang) => (s == null ? '' : typeof s === 'string' ? s : s[lang] ?? s.en);

/** A figure error: names the attribute (or the figure) and the rule, in both languages. */
export class FigureError extends Error {
  constructor(text, attribute) { super(text.en); this.name = 'FigureError'; this.text = text; this.attribute = attribute; }
}

const list = (vs, lang) => vs.map(String).join(lang === 'zh' ? '、' : ', ');
function ruleOf(spec) {
  switch (spec.type) {
    case 'int': return L(`an integer from ${spec.min} to ${spec.max}`, `${spec.min} 到 ${spec.max} 之间的整数`);
    case 'number': return L(`a number from ${spec.min} to ${spec.max}`, `${spec.min} 到 ${spec.max} 之间的数`);
    case 'enum': return L(`one of ${list(spec.values, 'en')}`, `${list(spec.values, 'zh')} 之一`);
    case 'bool': return L('true or false (also 1 or 0; a bare attribute is true)', 'true 或 false（也可写 1 或 0；只写属性名即为 true）');
    case 'vec2': return L(`two numbers "x,y", each from −${spec.range} to ${spec.range}`, `两个数 "x,y"，各在 −${spec.range} 到 ${spec.range} 之间`);
    default: return L(`text of at most ${spec.maxLength ?? 400} characters`, `不超过 ${spec.maxLength ?? 400} 个字符的文本`);
  }
}

/** A value as messages show it: itself when short, else its first 40 characters and its length (a pasted text can be 50 KB). */
function shown(raw) {
  const s = String(raw), c = [...s];
  return c.length <= 60 ? L(`"${s}"`, `"${s}"`) : L(`"${c.slice(0, 40).join('')}…", ${c.length} characters`, `"${c.slice(0, 40).join('')}…"，共 ${c.length} 个字符`);
}

export function badValue(name, spec, raw) {
  const r = ruleOf(spec), got = shown(raw);
  return new FigureError(L(`Attribute "${name}" must be ${r.en} (got ${got.en}).`, `属性 "${name}" 必须是 ${r.zh}（收到 ${got.zh}）。`), name);
}

/** Parses one attribute string; throws FigureError. */
export function parseParam(name, spec, raw) {
  const s = String(raw).trim();
  let v;
  switch (spec.type) {
    case 'int': v = /^[-+]?\d+$/.test(s) ? Number(s) : NaN; if (!(v >= spec.min && v <= spec.max)) throw badValue(name, spec, raw); return v;
    case 'number': v = s === '' ? NaN : Number(s); if (!(Number.isFinite(v) && v >= spec.min && v <= spec.max)) throw badValue(name, spec, raw); return v;
    case 'enum': v = spec.values.find((x) => String(x) === s); if (v === undefined) throw badValue(name, spec, raw); return v;
    case 'bool': if (s === '' || s === 'true' || s === '1') return true; if (s === 'false' || s === '0') return false; throw badValue(name, spec, raw);
    case 'vec2': {
      const xy = s.split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
      if (xy.length !== 2 || !xy.every((t) => Number.isFinite(t) && Math.abs(t) <= spec.range)) throw badValue(name, spec, raw);
      return xy;
    }
    default: if (s.length > (spec.maxLength ?? 400)) throw badValue(name, spec, raw); return String(raw);
  }
}

/** The string form of a value (attributes, URL state). */
export function formatParam(spec, v) {
  if (spec.type === 'bool') return v ? 'true' : 'false';
  if (spec.type === 'vec2') return v.join(',');
  return String(v);
}

/** Parameters of a figure from a getter of raw strings (null = absent → default); then the figure's own cross-checks. */
export function readParams(def, get) {
  const p = {};
  for (const [name, spec] of Object.entries(def.params)) {
    const raw = get(name);
    p[name] = raw == null ? spec.default : parseParam(name, spec, raw);
  }
  const bad = def.check?.(p);
  if (bad) {
    const spec = def.params[bad.param];
    throw new FigureError(L(`Attribute "${bad.param}" must be ${bad.rule.en} (got "${formatParam(spec, p[bad.param])}").`,
      `属性 "${bad.param}" 必须是 ${bad.rule.zh}（收到 "${formatParam(spec, p[bad.param])}"）。`), bad.param);
  }
  return p;
}

/** A parameter's description for the gallery and docs: {name, type, default, min, max, values, label, rule}. */
export function describeParam(name, spec) {
  const { type, min, max, values, range, label } = spec;
  return { name, type, default: spec.default, ...(min !== undefined && { min, max }), ...(values && { values: [...values] }),
    ...(range !== undefined && { range }), label, rule: ruleOf(spec) };
}
