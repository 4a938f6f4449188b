// @ts-check
// Figure parameters: parsing attribute / URL strings into typed values, validation with translated messages that
// name the attribute and what is allowed (never a silent clamp), and the description the gallery and docs use.
// A parameter spec: { type: 'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2', default, min?, max?, values? (enum),
//   choices? (suggested values for the control), slider?, range? (vec2 half-width), maxLength? (string), label: {en, zh} }.

/**
 * A "try this" of a figure definition (`tries: FigureTry[]`): one click sets `params` (every other parameter back to
 * its default) and `look` says, in one sentence, what the reader should now see.
 * @typedef {{ params: Record<string, string | number | boolean>, look: { en: string, zh: string } }} FigureTry
 */

/** @typedef {import('../index.js').Posenc} Posenc */

/** A string in English and Chinese. @typedef {{ en: string, zh: string }} Bilingual */
/** A page language. @typedef {'en' | 'zh'} Lang */

/**
 * A parameter spec of a figure definition (`params: { name: ParamSpec }`).
 * @typedef {object} ParamSpec
 * @property {'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2'} type
 * @property {number | string | boolean | [number, number]} default
 * @property {number} [min] @property {number} [max]
 * @property {Array<number | string>} [values] allowed values of 'enum'
 * @property {Array<number | string>} [choices] suggested values for the control
 * @property {Record<string, Bilingual>} [valueLabels] the text shown for each 'enum' value (default: the value)
 * @property {boolean | number} [slider]
 * @property {boolean} [multiline] a 'string' edited in a text area
 * @property {number} [step]
 * @property {number} [range] half-width of a 'vec2' plane
 * @property {number} [maxLength] longest 'string'
 * @property {number} [rows] rows of a 'string' control
 * @property {Bilingual} label
 */

/**
 * One parameter of a figure: also the attribute name on `<posenc-figure>` and the key in the site's URL state.
 * @typedef {object} FigureParam
 * @property {string} name
 * @property {'int' | 'number' | 'enum' | 'bool' | 'string' | 'vec2'} type
 * @property {number | string | boolean | [number, number]} default
 * @property {number} [min] inclusive lower bound of 'int' and 'number'
 * @property {number} [max] inclusive upper bound of 'int' and 'number'
 * @property {Array<number | string>} [values] allowed values of 'enum'
 * @property {number} [range] half-width of a 'vec2' plane: each coordinate lies in [−range, range]
 * @property {Bilingual} label
 * @property {Bilingual} rule what the attribute accepts, as the error messages say it
 */

/**
 * A figure's title, description, takeaway and parameters (describeFigure).
 * @typedef {object} FigureDescription
 * @property {string} name
 * @property {Bilingual} title
 * @property {Bilingual} description one line: what the figure shows
 * @property {Bilingual} takeaway the one sentence the figure makes its point with
 * @property {FigureParam[]} params
 * @property {FigureTry[]} tries "try this": parameter settings (the others at their defaults) that make the point, each with what to look for
 */

/**
 * What a figure's compute receives besides the parameters: `take(n)` a Float32Array of n (a recycled buffer where there is
 * one), the run's AbortSignal, `progress(fraction)`, and `checkpoint()` between steps (throws once the run is cancelled).
 * @typedef {{ take(n: number): Float32Array, signal: AbortSignal, progress(fraction: number): void, checkpoint(): Promise<void> }} ComputeContext
 */
/**
 * One panel of a figure: the building block drawing it and its layout.
 * `block`: 'heatmap', 'lines' or 'vec2' (the element `pe-${block}` draws it). `aspect`: a heatmap's rows / cols where it
 * is not square, 0 where the data decide (the room kept before the first paint: panel-room.js).
 * @typedef {{ id: string, block: string, full?: boolean, cols?: number, height?: number, size?: number, aspect?: number,
 *   logX?: boolean, logY?: boolean, palette?: string, range?: number, bind?: Record<string, string>, [k: string]: unknown }} PanelSpec
 */
/** A read-out under a figure. @typedef {{ id: string, label: Bilingual | string, value?: number, text?: Bilingual | string, note?: Bilingual | string, [k: string]: unknown }} Readout */
/**
 * A figure definition (defs/*.js): its texts, parameters, panels, the computation through the posenc API and the
 * drawing of its result. `P`: the parsed parameters; `R`: what compute returns (structured-cloned from the worker).
 * @template [P=any] @template [R=any]
 * @typedef {object} FigureDef
 * @property {string} name
 * @property {Bilingual} title
 * @property {Bilingual} description
 * @property {Bilingual} takeaway
 * @property {Record<string, ParamSpec>} params
 * @property {boolean | ((p: Record<string, any>) => boolean)} [long] a long computation (always, or for the parameters where the function says so): the figure shows progress and a Cancel button
 * @property {FigureTry[]} [tries]
 * @property {(p: P) => { param: string, rule: Bilingual } | null | undefined | false} [check]
 * @property {(p: P, r: R) => PanelSpec[]} panels
 * @property {(pe: Posenc, p: P, ctx: ComputeContext) => R | Promise<R>} compute
 * @property {(r: R, p: P, info: { ms?: number }) => Rendered} render
 */
/**
 * What render() returns: per panel id the block's input (and caption, xlabel, ylabel), plus the read-outs, tables and status.
 * @typedef {{ [panel: string]: any, readouts?: Readout[], tables?: Array<{ id: string, caption?: Bilingual | string, rows: unknown[][] }>, status?: Bilingual | string }} Rendered
 */

/** A bilingual string. @param {string} en @param {string} zh @returns {Bilingual} */
export const L = (en, zh) => ({ en, zh });
/** A text in `lang` ('' for none; a plain string as is). @param {Bilingual | string | null | undefined} s @param {string} lang */
export const tr = (s, lang) => (s == null ? '' : typeof s === 'string' ? s : s[/** @type {Lang} */ (lang)] ?? s.en);

/** A figure error: names the attribute (or the figure) and the rule, in both languages. */
export class FigureError extends Error {
  /** @param {Bilingual} text @param {string} attribute */
  constructor(text, attribute) {
    super(text.en); this.name = 'FigureError';
    /** what is allowed, in both languages @readonly */
    this.text = text;
    /** the attribute (or 'figure') that is wrong @readonly */
    this.attribute = attribute;
  }
}

/** @param {Array<number | string>} vs @param {string} lang */
const list = (vs, lang) => vs.map(String).join(lang === 'zh' ? '、' : ', ');
/** @param {ParamSpec} spec @returns {Bilingual} */
function ruleOf(spec) {
  switch (spec.type) {
    case 'int': return L(`an integer from ${spec.min} to ${spec.max}`, `${spec.min} 到 ${spec.max} 之间的整数`);
    case 'number': return L(`a number from ${spec.min} to ${spec.max}`, `${spec.min} 到 ${spec.max} 之间的数`);
    case 'enum': return L(`one of ${list(spec.values ?? [], 'en')}`, `${list(spec.values ?? [], 'zh')} 之一`);
    case 'bool': return L('true or false (also 1 or 0; a bare attribute is true)', 'true 或 false（也可写 1 或 0；只写属性名即为 true）');
    case 'vec2': return L(`two numbers "x,y", each from −${spec.range} to ${spec.range}`, `两个数 "x,y"，各在 −${spec.range} 到 ${spec.range} 之间`);
    default: return L(`text of at most ${spec.maxLength ?? 400} characters`, `不超过 ${spec.maxLength ?? 400} 个字符的文本`);
  }
}

/** A value as messages show it: itself when short, else its first 40 characters and its length (a pasted text can be 50 KB). */
/** @param {unknown} raw */
function shown(raw) {
  const s = String(raw), c = [...s];
  return c.length <= 60 ? L(`"${s}"`, `"${s}"`) : L(`"${c.slice(0, 40).join('')}…", ${c.length} characters`, `"${c.slice(0, 40).join('')}…"，共 ${c.length} 个字符`);
}

/** @param {string} name @param {ParamSpec} spec @param {unknown} raw */
export function badValue(name, spec, raw) {
  const r = ruleOf(spec), got = shown(raw);
  return new FigureError(L(`Attribute "${name}" must be ${r.en} (got ${got.en}).`, `属性 "${name}" 必须是 ${r.zh}（收到 ${got.zh}）。`), name);
}

/** Parses one attribute string; throws FigureError. @param {string} name @param {ParamSpec} spec @param {unknown} raw @returns {any} */
export function parseParam(name, spec, raw) {
  const s = String(raw).trim();
  let v;
  switch (spec.type) {
    case 'int': v = /^[-+]?\d+$/.test(s) ? Number(s) : NaN; if (!(v >= /** @type {number} */ (spec.min) && v <= /** @type {number} */ (spec.max))) throw badValue(name, spec, raw); return v;
    case 'number': v = s === '' ? NaN : Number(s); if (!(Number.isFinite(v) && v >= /** @type {number} */ (spec.min) && v <= /** @type {number} */ (spec.max))) throw badValue(name, spec, raw); return v;
    case 'enum': v = (spec.values ?? []).find((x) => String(x) === s); if (v === undefined) throw badValue(name, spec, raw); return v;
    case 'bool': if (s === '' || s === 'true' || s === '1') return true; if (s === 'false' || s === '0') return false; throw badValue(name, spec, raw);
    case 'vec2': {
      const xy = s.split(',').map((t) => (t.trim() === '' ? NaN : Number(t)));
      if (xy.length !== 2 || !xy.every((t) => Number.isFinite(t) && Math.abs(t) <= /** @type {number} */ (spec.range))) throw badValue(name, spec, raw);
      return xy;
    }
    default: if (s.length > (spec.maxLength ?? 400)) throw badValue(name, spec, raw); return String(raw);
  }
}

/** The string form of a value (attributes, URL state). @param {ParamSpec} spec @param {any} v @returns {string} */
export function formatParam(spec, v) {
  if (spec.type === 'bool') return v ? 'true' : 'false';
  if (spec.type === 'vec2') return v.join(',');
  return String(v);
}

/** Parameters of a figure from a getter of raw strings (null = absent → default); then the figure's own cross-checks. */
/** @param {FigureDef} def @param {(name: string) => string | null | undefined} get @returns {Record<string, any>} */
export function readParams(def, get) {
  /** @type {Record<string, any>} */
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

/** A parameter's description for the gallery and docs: {name, type, default, min, max, values, label, rule}. @param {string} name @param {ParamSpec} spec @returns {FigureParam} */
export function describeParam(name, spec) {
  const { type, min, max, values, range, label } = spec;
  return { name, type, default: spec.default, ...(min !== undefined && { min, max }), ...(values && { values: [...values] }),
    ...(range !== undefined && { range }), label, rule: ruleOf(spec) };
}
