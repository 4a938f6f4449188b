// Text = figure (issue 35, Deliver 5): sentences the third walk found contradicting the figure beside them, checked on
// the numbers and series the figures draw (their own compute and render, run on the built package).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import ntkBase from '../../web/src/figures/defs/ntk-base.js';
import ropeDecay from '../../web/src/figures/defs/rope-decay.js';
import partialRotary from '../../web/src/figures/defs/partial-rotary.js';
import factorAdvisor from '../../web/src/figures/defs/factor-advisor.js';
import sinusoidal from '../../web/src/figures/defs/sinusoidal.js';

const pe = await init();
const defaults = (def) => Object.fromEntries(Object.entries(def.params).map(([k, v]) => [k, v.default]));
const section = (f) => readFileSync(new URL(`../../web/site/sections/${f}`, import.meta.url), 'utf8');

test('ntk-base: the caption names the thick line (not a colour, which the dark theme inverts), and the thick series is the largest angle seen', async () => {
  const p = defaults(ntkBase), r = ntkBase.render(await ntkBase.compute(pe, p), p);
  const cap = r.angle.caption;
  assert.match(cap.en, /PI lands on the thick line \(the largest angle seen in training\)/);
  assert.match(cap.zh, /PI 恰好落在粗线（训练中见过的最大角度）上/);
  assert.doesNotMatch(cap.en + cap.zh, /black|黑/);
  const widths = r.angle.series.map((s) => s.width ?? 1), thick = r.angle.series[widths.indexOf(Math.max(...widths))];
  assert.match(thick.label.en, /largest angle seen in training/);
  assert.equal(widths.filter((w) => w === Math.max(...widths)).length, 1, 'one thick line');
});

test('rope-decay: the try quotes the slowest pair’s quarter turn at base 500 000, d = 512, as computed (746 154, rounding said)', () => {
  const d = defaults(ropeDecay).d, b = 500000;
  assert.equal(d, 512);
  const quarter = (Math.PI / 2) * b ** ((d - 2) / d);
  assert.equal(Math.round(quarter), 746154);
  const t = ropeDecay.tries.find((x) => x.params.base === b);
  assert.match(t.look.en, /746 154 \(π\/2 ÷ θ of the slowest pair, rounded to a whole token\)/);
  assert.match(t.look.zh, /746 154（π\/2 ÷ 最慢一对的 θ，取整到词元）/);
});

test('partial-rotary: the prose’s positions are the rows the figure draws (64 rows, 0 … 15, then geometric to 65,536)', async () => {
  const p = defaults(partialRotary), r = partialRotary.render(await partialRotary.compute(pe, p), p);
  const rows = r.map.rowTicks;
  assert.equal(rows.length, 64);
  assert.deepEqual(rows.slice(0, 16), Array.from({ length: 16 }, (_, i) => i));
  assert.equal(rows.at(-1), 65536);
  const s4 = section('s4.html');
  assert.match(s4, /at 64 positions, 0 … 15 and then geometrically spaced up\s+to 65,536/);
  assert.match(s4, /在 64 个位置上施加 RoPE：先是 0 … 15，之后按几何级数一直取到 65,536/);
  assert.doesNotMatch(s4, /positions 0…63|位置 0…63/);
});

test('factor-advisor: the takeaway speaks of the default file as the default, so it stays true after another config is loaded', () => {
  assert.match(factorAdvisor.takeaway.en, /^The factor is the target over the trained length \(the read-outs give it for the file loaded\)\. For the default file, Llama 3\.1 8B,/);
  assert.match(factorAdvisor.takeaway.zh, /^因子等于目标长度除以训练长度（读数给出当前载入文件的值）。以默认文件 Llama 3\.1 8B 为例/);
  assert.match(JSON.parse(defaults(factorAdvisor).config).architectures[0], /^LlamaForCausalLM$/);
});

test('§2 notation: positions i, j, pair index k, shift t — one symbol per role (the sinusoid’s shift is t, as in §4)', () => {
  const s2 = section('s2.html');
  assert.match(s2, /p_\{i,2k\} = \\sin\\!\\big\(i\\,\\omega_k\\big\)/);
  assert.match(s2, /p_i\\cdot p_j = \\sum_\{k=0\}\^\{d\/2-1\}\\cos\\big\(\(i-j\)\\,\\omega_k\\big\)/);
  assert.match(s2, /M_t\\,p_\{pos\} = p_\{pos\+t\}/);
  assert.doesNotMatch(s2, /\\omega_i|p_\{k,2i\}|M_k/);
  assert.equal(sinusoidal.params.s.label.en, 'shift t');
  assert.match(sinusoidal.tries[0].look.en, /by t = 300/);
});
