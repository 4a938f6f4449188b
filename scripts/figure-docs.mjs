// Writes the per-figure parameter tables of README.md's "Embed a figure" sections (English and Chinese) from
// posenc/figures' describeFigure(), between the markers <!-- figure-params:LANG --> and <!-- /figure-params:LANG -->.
// Usage: node scripts/figure-docs.mjs           rewrite README.md (run after scripts/build.sh)
//        node scripts/figure-docs.mjs --check   exit 1 if README.md differs from what describeFigure() says
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeFigure, figureNames } from 'posenc/figures';

const HEAD = {
  en: '| figure | attribute | default | accepts | meaning |',
  zh: '| 图 | 属性 | 默认值 | 取值 | 含义 |',
};
const cell = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ');
const value = (v) => (Array.isArray(v) ? v.join(',') : String(v));

/** The Markdown table of every figure's parameters in one language. */
export function table(lang) {
  const rows = [HEAD[lang], '|---|---|---|---|---|'];
  for (const name of figureNames) {
    const d = describeFigure(name);
    const first = `\`${name}\`<br>${cell(d.title[lang])}`;
    if (d.params.length === 0) rows.push(`| ${first} | — | | | ${cell(d.description[lang])} |`);
    d.params.forEach((p, i) => rows.push(`| ${i === 0 ? first : ''} | \`${p.name}\` | \`${cell(value(p.default))}\` | ${cell(p.rule[lang])} | ${cell(p.label[lang])} |`));
  }
  return rows.join('\n');
}

export function render(readme) {
  let out = readme;
  for (const lang of ['en', 'zh']) {
    const re = new RegExp(`(<!-- figure-params:${lang} -->\\n)[\\s\\S]*?(<!-- /figure-params:${lang} -->)`);
    if (!re.test(out)) throw new Error(`README.md has no <!-- figure-params:${lang} --> … <!-- /figure-params:${lang} --> block`);
    out = out.replace(re, (_, a, b) => `${a}${table(lang)}\n${b}`);
  }
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = fileURLToPath(new URL('../README.md', import.meta.url));
  const readme = readFileSync(path, 'utf8');
  const next = render(readme);
  if (process.argv.includes('--check')) {
    if (next !== readme) { console.error('README.md: the figure parameter tables are stale; run node scripts/figure-docs.mjs'); process.exit(1); }
  } else {
    writeFileSync(path, next);
  }
}
