// The real-model figures (model-loss, model-attention) and §6's real-model prose: every number their texts quote is
// the number drawn (the build-time data of scripts/model-data.mjs, computed by the package from ../shared); a live
// computation (the figures' worker path, here in Node from ../shared/models) agrees with the precomputed numbers where
// RoPE's relativity says it must (the first 512 positions do not depend on the sequence's total length).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';
import { figureDef } from '../../web/src/figures/registry.js';
import data from '../../web/src/figures/defs/model-data.gen.js';
import { fmtPpl as fmt } from '../../web/src/figures/defs/model-methods.js';
import { MODELS } from './real-models.mjs';

const pe = await init();
const html = readFileSync(new URL('../../web/site/sections/s6-real-model.html', import.meta.url), 'utf8');
const ctx = { take: (n) => new Float32Array(n), signal: new AbortController().signal, progress() {}, checkpoint: async () => {} };
const defaults = (def) => Object.fromEntries(Object.entries(def.params).map(([k, s]) => [k, s.default]));
async function draw(name, params = {}) {
  const def = figureDef(name), p = { ...defaults(def), ...params };
  return def.render(await def.compute(pe, p, ctx), p, {});
}
const byId = (r) => Object.fromEntries(r.readouts.map((x) => [x.id, x.value]));
const about = (x) => Number(x.toPrecision(2));   // "about 690": two significant digits

test('the build-time data exists (../shared was there) and holds both models × every method', () => {
  assert.ok(data, 'web/src/figures/defs/model-data.gen.js is null: ../shared/models was missing at build time');
  assert.deepEqual(Object.keys(data.models).sort(), ['stories260k', 'tinystories-656k']);
  for (const m of Object.values(data.models)) assert.equal(Object.keys(m.methods).length, 10);
});

test('model-loss: the takeaway quotes the drawn perplexities (en and zh)', async () => {
  const def = figureDef('model-loss');
  const yarn = byId(await draw('model-loss')), rerope = byId(await draw('model-loss', { method: 'rerope' }));
  const nums = [about(yarn['original-inside']), about(yarn['original-past']), about(yarn['method-past']), about(yarn['method-inside']), about(rerope['method-past'])];
  assert.deepEqual(nums, [39, 690, 100, 41, 61]);
  for (const lang of ['en', 'zh']) for (const n of nums) assert.ok(def.takeaway[lang].includes(String(n)), `${lang}: ${n}`);
  // the tries' numbers
  const seed = byId(await draw('model-loss', { method: 'ntk_seed' })), swapped = byId(await draw('model-loss', { method: 'swapped' }));
  assert.equal(about(seed['method-past']), 530);
  assert.equal(about(swapped['method-inside']), 490);
  const s260 = byId(await draw('model-loss', { model: 'stories260k', method: 'original' }));
  assert.equal(about(s260['original-past']), 45);
  // what the figure shows: the original breaks past 512, YaRN and ReRoPE hold far better
  assert.ok(yarn['original-past'] > 10 * yarn['original-inside'] && rerope['method-past'] < 2 * rerope['method-inside']);
});

test('model-attention: the takeaway quotes the drawn gauges; the band is lost with the original RoPE and back with ReRoPE', async () => {
  const def = figureDef('model-attention');
  const pct = (x) => `${(100 * x).toFixed(0)} %`;
  const orig = await draw('model-attention'), re = await draw('model-attention', { method: 'rerope' });
  const o = byId(orig), r = byId(re);
  const inside = orig.readouts.find((x) => x.id === 'near').note.en.match(/(\d+ %)/)[1];
  for (const t of [inside, pct(o.far), pct(o.near), pct(r.far), pct(r.near)]) {
    assert.ok(def.takeaway.en.includes(t), `en: ${t}`);
    assert.ok(def.takeaway.zh.includes(t.replace(' ', '')), `zh: ${t}`);
  }
  assert.ok(o.far > 0.9 && o.near < 0.05 && r.near > 0.5);
  // the map: each pooled row is the mean of its queries' distributions (sums to 1 before the square root; 4-digit data)
  const { data: d, rows, cols } = orig.map;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += d[i * cols + j] ** 2;
    assert.ok(Math.abs(s - 1) < 0.01, `row ${i}: ${s}`);
  }
});

test('§6 real-model prose: every quoted perplexity is the figure\'s number', () => {
  const spans = [...html.matchAll(/<span data-model="(\w+)-(\w+)-(inside|past)">([^<]+)<\/span>/g)];
  assert.ok(spans.length >= 20);
  const model = { '656k': 'tinystories-656k', '260k': 'stories260k' };
  for (const [, m, method, part, text] of spans) assert.equal(text, fmt(data.models[model[m]].methods[method][part].ppl), `${m} ${method} ${part}`);
});

test('a live computation (from ../shared/models) agrees with the precomputed numbers inside the trained length', async () => {
  const live = await draw('model-loss', { method: 'pi', ctx: 2048, models: MODELS });
  const pre = await draw('model-loss', { method: 'pi' });
  assert.match(live.status.en, /computed live/);
  assert.match(pre.status.en, /precomputed/);
  const a = byId(live), b = byId(pre);
  for (const k of ['original-inside', 'method-inside']) assert.ok(Math.abs(a[k] / b[k] - 1) < 1e-3, `${k}: ${a[k]} vs ${b[k]}`);
});
