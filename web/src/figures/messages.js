// @ts-check
// Error messages a reader sees, in English and Chinese. The package's PosencError reads "param: rule (got value)"
// in English; errorText() keeps the parameter name and the values and translates the rule ("参数错误：param …"),
// so no raw exception text reaches a Chinese page. A FigureError already carries both languages.
import { L } from './params.js';

// Rules of PosencError messages (web/src/validate.ts, the readers, the C++ core) → Chinese, and where the API's words
// would read like a developer log on a page (a call option), English for readers; $1… are kept as written.
/** @type {Array<[RegExp, string | ((m: string, ...g: string[]) => string), string?]>} */
const RULES = [
  // a closed range [a, b] is written a, b; a half-open one keeps its brackets: (0, 1e6]
  [/^must be a finite number (?:in|from) (.+?) \(got (.+)\)$/, (m, r, g) => `必须是 ${/^\[[^\]]*\]$/.test(r) ? r.slice(1, -1) : r.replace(/^(\S+) to (\S+)$/, '$1 到 $2')} 范围内的有限数（收到 ${g}）`],
  [/^must be a finite number ([<>]=?) (.+?) \(got (.+)\)$/, '必须是 $1 $2 的有限数（收到 $3）'],
  [/^must be a finite number \(got (.+)\)$/, '必须是有限数（收到 $1）'],
  [/^must be an integer in \[(.+?)\] \(got (.+)\)$/, '必须是 [$1] 范围内的整数（收到 $2）'],
  [/^must be a positive integer \(got (.+)\)$/, '必须是正整数（收到 $1）'],
  [/^must be even \(got (.+)\)$/, '必须是偶数（收到 $1）'],
  [/^(.+?) must be even \(got (.+)\)$/, '$1 必须是偶数（收到 $2）'],
  [/^must be a boolean \(got (.+)\)$/, '必须是布尔值（收到 $1）'],
  [/^must be a string \(got (.+)\)$/, '必须是字符串（收到 $1）'],
  [/^must be a number in (.+?) \(got (.+)\)$/, '必须是 $1 范围内的数（收到 $2）'],
  [/^must be one of (.+?)(?: \(got (.+)\))?$/, (m, a, b) => `必须是 ${a} 之一${b ? `（收到 ${b}）` : ''}`],
  [/^must not be empty$/, '不能为空'],
  [/^must contain at least one token$/, '至少要有一个词元'],
  [/^required$/, '缺少此参数'],
  [/^required for rope_type '(.+?)'(.*)$/, (m, t) => `rope_type 为 '${t}' 时必须提供`],
  [/^unknown option '(.+?)'(?: \(did you mean '(.+?)'\?\))?$/, (m, a, b) => `未知选项 '${a}'${b ? `（是否想写 '${b}'？）` : ''}`],
  [/^unknown key for rope_type '(.+?)' \(did you mean '(.+?)'\?\)$/, "rope_type '$1' 没有这个键（是否想写 '$2'？）"],
  [/^position (-?\d+) at index (\d+) is outside the table's rows \[(\d+), (\d+)\] \(pass clamp: true to clamp\)$/,
    '第 $2 项的位置 $1 超出了表的行范围 [$3, $4]（勾选“截断”可改为取最后一行）',
    'position $1 is outside the table’s rows $3…$4 (tick “clamp” to repeat the last row)'],
  [/^length must be at most (.+?) \(got (.+)\)$/, '长度不能超过 $1（收到 $2）'],
  [/^(.+) exceeds the cap of (.+?)$/, '$1 超过上限 $2'],
  [/^not valid JSON for a table\b.*$/, '不是合法的 JSON 表格'],
  [/^not valid JSON\b.*$/, '不是合法的 JSON'],
  [/^entry \[(\d+)\]\[(\d+)\] must be a finite number.*$/, '第 [$1][$2] 项必须是有限数'],
  [/^row (\d+) must be an array of (\d+) numbers.*$/, '第 $1 行必须是 $2 个数组成的数组'],
  [/^not a \.npy file.*$|^bad magic.*$/i, '不是 .npy 文件'],
];
// Values as validate.ts's show() writes them.
/** @type {Array<[RegExp, string]>} */
const VALUES = [[/ \(a string\)/g, '（字符串）'], [/ \(a boolean\)/g, '（布尔值）'], [/ \(a BigInt\)/g, '（BigInt）'],
  [/（收到 an object）/g, '（收到一个对象）'], [/（收到 an? (\w+) of length (.+?)）/g, '（收到长度为 $2 的 $1）']];

/** @param {string} rule @returns {{ zh: string, en: string | undefined } | null} */
function translate(rule) {
  for (const [re, zh, en] of RULES) {
    if (!re.test(rule)) continue;
    let out = typeof zh === 'string' ? rule.replace(re, zh) : rule.replace(re, zh);
    for (const [v, z] of VALUES) out = out.replace(v, z);
    return { zh: out, en: en && rule.replace(re, en) };
  }
  return null;
}

/**
 * What to show for an error, as {en, zh}: a FigureError's own text; a PosencError ("param: rule") with the rule
 * translated ("参数错误：param 必须是…", or "参数错误：param 的取值不被接受" for a rule not in the table); any other
 * error as a computation failure.
 * @param {any} e @returns {import('./params.js').Bilingual}
 */
export function errorText(e) {
  if (e?.text?.en) return e.text;
  const msg = String(e?.message ?? e);
  const m = /^([\w.[\]-]+): (.+)$/s.exec(msg);
  if (m && e?.name === 'PosencError') {
    const t = translate(m[2].trim());
    return L(t?.en ? `${m[1]}: ${t.en}` : msg, t ? `参数错误：${m[1]}：${t.zh}。` : `参数错误：${m[1]} 的取值不被接受（详细原因见英文界面）。`);
  }
  return L(`The computation failed: ${msg}`, '计算失败（详细原因见英文界面）。');
}
