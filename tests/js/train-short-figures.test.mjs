// The "train short, test long" figures (train-short, train-short-attention) and their section: every number their texts
// quote is the number drawn (the build-time data of scripts/train-short-data.mjs, computed by the package from
// web/models on the held-out text); a live computation (the figures' worker path, here in Node from web/models) gives
// the precomputed numbers; what the figure shows — which schemes hold past the trained length — is asserted on them.
// (That the core's losses are the training script's own is tests/js/tiny-models.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import init from 'posenc';
import { figureDef } from '../../web/src/figures/registry.js';
import data from '../../web/src/figures/defs/train-short.gen.js';
import { PASSAGES, SCHEMES, passOf } from '../../web/src/figures/defs/train-short-live.js';

const pe = await init();
const MODELS = fileURLToPath(new URL('../../web/models/', import.meta.url));
const html = readFileSync(new URL('../../web/site/sections/s7-train-short.html', import.meta.url), 'utf8');
const ctx = { take: (n) => new Float32Array(n), signal: new AbortController().signal, progress() {}, checkpoint: async () => {} };
const defaults = (def) => Object.fromEntries(Object.entries(def.params).map(([k, s]) => [k, s.default]));
async function draw(name, params = {}) {
  const def = figureDef(name), p = { ...defaults(def), ...params };
  return def.render(await def.compute(pe, p, ctx), p, {});
}
const byId = (r) => Object.fromEntries(r.readouts.map((x) => [x.id, x]));
const two = (x) => x.toFixed(2);
const pct = (x) => `${(100 * x).toFixed(0)} %`;

test('the build-time data exists (the bible-kjv-text package was there) and holds every scheme for the first passage', () => {
  assert.ok(data, 'web/src/figures/defs/train-short.gen.js is null: the `bible` program was missing at build time');
  assert.deepEqual(Object.keys(data.passages[PASSAGES[0]].schemes).sort(), [...SCHEMES].sort());
  for (const p of PASSAGES) assert.equal(data.texts[p].length, 2049);
});

test('train-short: the takeaway quotes the drawn losses (en and zh); ALiBi and KERPLE hold, T5 holds to 2× then rises, xPos rises half as much as RoPE, the rest fail', async () => {
  const def = figureDef('train-short'), r = byId(await draw('train-short'));
  const [inside, past] = [(s) => r[s].text.split(' → ')[0], (s) => r[s].text.split(' → ')[1]];
  const nums = ['alibi', 'kerple', 't5', 'xpos', 'rope'].flatMap((s) => [inside(s), past(s)]);
  assert.deepEqual(nums, ['1.41', '1.17', '1.53', '1.13', '1.47', '2.70', '1.48', '2.48', '1.50', '3.54']);
  for (const lang of ['en', 'zh']) for (const n of nums) assert.ok(def.takeaway[lang].includes(n), `${lang}: ${n}`);
  // what it shows, on the drawn numbers (value = loss past 128 − loss inside)
  for (const s of ['alibi', 'kerple']) assert.ok(r[s].value <= 0, `${s} holds: ${r[s].value}`);
  assert.ok(r.xpos.value > 0.8 && r.xpos.value < 0.6 * r.rope.value, `xpos rises, half as much as RoPE: ${r.xpos.value} vs ${r.rope.value}`);
  for (const s of ['t5', 'rope', 'learned', 'sinusoidal', 'nope']) assert.ok(r[s].value > 1.2, `${s} fails at 16×: ${r[s].value}`);
  // the tries' numbers: at 2× T5 holds with ALiBi and KERPLE
  const short = byId(await draw('train-short', { length: 256 }));
  const s2 = (s) => short[s].text.split(' → ')[1];
  assert.deepEqual([inside('rope'), s2('rope'), s2('alibi'), s2('kerple'), s2('t5')], ['1.50', '2.38', '1.11', '1.10', '1.14']);
  for (const s of ['alibi', 'kerple', 't5']) assert.ok(short[s].value <= 0, `${s} holds at 2×: ${short[s].value}`);
  assert.ok(short.rope.value > 0.8, `RoPE rises at 2×: ${short.rope.value}`);
  for (const n of ['1.50', '2.38', '1.11', '1.10', '1.14']) assert.ok(def.tries[0].look.en.includes(n) && def.tries[0].look.zh.includes(n), n);
  const rev = byId(await draw('train-short', { passage: 'Rev1:1-3:22' }));
  const rises = ['rope', 'learned', 'sinusoidal', 'nope'].map((s) => rev[s].value);
  const quoted = [two(rev.alibi.value), two(rev.kerple.value), two(rev.xpos.value), two(rev.t5.value), two(Math.min(...rises)), two(Math.max(...rises))];
  assert.deepEqual(quoted, ['0.06', '0.14', '1.44', '1.56', '2.00', '3.34']);
  for (const n of quoted) assert.ok(def.tries[1].look.en.includes(n) && def.tries[1].look.zh.includes(n), n);
});

test('a live pass (the figures’ passOf, the models read from web/models) gives the precomputed numbers; another passage computes live', async () => {
  const pre = data.passages[PASSAGES[0]].schemes;
  for (const scheme of ['rope', 'alibi', 'xpos']) {
    const lm = await pe.loadModel({ config: `${MODELS}${scheme}/config.json`, safetensors: `${MODELS}${scheme}/model.safetensors` });
    const live = await passOf(lm, lm.encode(data.texts[PASSAGES[0]]), undefined, () => {});
    lm.free();
    assert.equal(live.head, pre[scheme].head);
    for (const k of ['inside', 'past']) {
      const [a, b] = k === 'inside' ? [[live.inside], [pre[scheme].inside]] : [Object.values(live.past), Object.values(pre[scheme].past)];
      a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) < 1e-3, `${scheme} ${k}: ${x} vs ${b[i]}`));   // stored to 4 digits
    }
    live.loss.forEach((x, i) => assert.ok(Math.abs(x - pre[scheme].loss[i]) < 1e-3, `${scheme} loss[${i}]`));
  }
  const rev = await draw('train-short', { passage: PASSAGES[3], models: MODELS });
  assert.match(rev.status.en, /computed live/);
});

test('train-short-attention: the takeaway quotes the drawn gauges; RoPE attends far past the trained length, ALiBi stays local', async () => {
  const def = figureDef('train-short-attention');
  const rope = byId(await draw('train-short-attention')), alibi = byId(await draw('train-short-attention', { scheme: 'alibi' }));
  const nums = [rope.far.text, rope.near.text, /: (\d+ %)/.exec(rope.near.note.en)[1], alibi.far.text, alibi.near.text];
  assert.deepEqual(nums, ['99 %', '1 %', '93 %', '19 %', '47 %']);
  for (const n of nums) {
    assert.ok(def.takeaway.en.includes(n), `en: ${n}`);
    assert.ok(def.takeaway.zh.includes(n.replace(' ', '')), `zh: ${n}`);
  }
  assert.ok(rope.far.value > 0.9 && alibi.far.value < 0.3 && alibi.near.value > 10 * rope.near.value);
});

test('the section quotes the figures’ numbers (en and zh)', async () => {
  const r = byId(await draw('train-short'));
  for (const m of html.matchAll(/data-tiny="([a-z0-9]+)-(inside|past)">([0-9.]+)</g)) {
    const [inside, past] = r[m[1]].text.split(' → ');
    assert.equal(m[3], m[2] === 'inside' ? inside : past, m[0]);
  }
  assert.ok([...html.matchAll(/data-tiny=/g)].length >= 8, 'the prose quotes the figure');
});
