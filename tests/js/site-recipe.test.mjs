// §6 "Extending context, a recipe" (web/site/sections/s6-recipe.html, issue 35): the page's own arithmetic, recomputed.
// The published numbers it quotes (steps, tokens, bases) are the papers' and are checked by reading, not here; what is
// computed from them is: the factor, the slowest pair's wavelength for each base, the smallest base whose slowest pair
// does not wrap within 131,072 tokens, the pairs that never finish a turn in 8,192 tokens, and YaRN's token count.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import init from 'posenc';

const html = readFileSync(new URL('../../web/site/sections/s6-recipe.html', import.meta.url), 'utf8');
const shown = (key) => {
  const vals = [...html.matchAll(new RegExp(`data-recipe="${key}">([^<]+)<`, 'g'))].map((m) => Number(m[1].replace(/,/g, '')));
  assert.ok(vals.length === 2, `${key}: in English and Chinese`); assert.equal(vals[0], vals[1], key);
  return vals[0];
};
const d = 128, L0 = 8192, L = 131072;
const wavelength = (b) => 2 * Math.PI * b ** ((d - 2) / d);

test('the factor and the wavelengths the recipe quotes', async () => {
  assert.match(html, /s = 131,072 \/ 8,192 = 16/);
  assert.equal(L / L0, 16);
  for (const [key, b] of [['wl-1e4', 1e4], ['wl-5e5', 5e5], ['wl-1e6', 1e6]]) assert.equal(shown(key), Math.round(wavelength(b)), key);
  // the package's own inverse frequencies agree on the slowest pair
  const pe = await init();
  const inv = pe.ropeInvFreq({ rotary_dim: d, rope_theta: 5e5 });
  assert.ok(Math.abs(2 * Math.PI / inv.at(-1) - wavelength(5e5)) / wavelength(5e5) < 1e-6);
});

test('the smallest base and the unseen pairs', () => {
  const minBase = (L / (2 * Math.PI)) ** (d / (d - 2));
  assert.equal(shown('min-base'), Math.round(minBase));
  assert.ok(wavelength(minBase - 1) < L && wavelength(minBase + 1) > L);
  assert.ok(wavelength(1e4) < L && wavelength(5e5) > L && wavelength(1e6) > L);   // "fails" / "pass"
  let unseen = 0;
  for (let i = 0; i < d / 2; i++) if (2 * Math.PI * 5e5 ** (2 * i / d) > L0) unseen++;
  assert.equal(shown('unseen-8k'), unseen);
  assert.equal(unseen, 29);
});

test('YaRN\'s token count (400 steps × batch 64 × 64k) is about 1.7 billion', () => {
  assert.match(html, /about 1\.7 billion tokens by our arithmetic,\s+400 × 64 × 65,536/);
  assert.match(html, /约 17 亿个词元，400 × 64 × 65,536/);
  assert.equal(Math.round(400 * 64 * 65536 / 1e8) / 10, 1.7);
});

test('the place for the real-model section’s measured curves is marked, en + zh, and links #real-model once it exists', () => {
  const paras = [...html.matchAll(/<p id="recipe-real-model(?:-zh)?" lang="(en|zh)" data-needs="real-model" hidden>([\s\S]*?)<\/p>/g)];
  assert.deepEqual(paras.map((m) => m[1]), ['en', 'zh']);
  for (const m of paras) assert.match(m[2], /<a data-href="#real-model">/);
  const late = readFileSync(new URL('../../web/site/late-links.js', import.meta.url), 'utf8');
  assert.match(late, /data-needs/); assert.match(late, /setAttribute\('href', a\.dataset\.href\)/);
});
