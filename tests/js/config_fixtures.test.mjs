// Every verbatim config.json in tests/fixtures/configs (sources in SOURCES.md beside them) is read without error,
// and its key numbers match the file's own values through closed forms computed here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import init from 'posenc';

const pe = await init();
const dir = new URL('../fixtures/configs/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const sources = readFileSync(new URL('SOURCES.md', dir), 'utf8');

test('the fixture set: every file has its source row', () => {
  assert.ok(files.length >= 12, `${files.length} fixtures`);
  for (const f of [...files, 'not-rope/gpt2.json']) assert.ok(sources.includes(`| ${f} |`), `${f} is listed in SOURCES.md`);
});

for (const f of files) {
  test(`${f}: read as text; rope_type, head_dim, rotary_dim, theta, scaling and inv_freq from the file's values`, () => {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const c = JSON.parse(text);
    const r = pe.ropeFromConfig(text);
    const head = c.qk_rope_head_dim ?? c.head_dim ?? Math.floor(c.hidden_size / c.num_attention_heads);
    assert.equal(r.head_dim, head);
    assert.equal(r.rotary_dim, head);
    assert.equal(r.rope_theta, c.rope_theta ?? 10000);
    assert.equal(r.max_position_embeddings, c.max_position_embeddings);
    assert.equal(r.layers, null);
    assert.deepEqual(Object.keys(r.layer_types), ['full_attention']);
    assert.equal(r.mla === null, c.qk_rope_head_dim === undefined);
    const d = r.rotary_dim, b = r.rope_theta;
    const base = Array.from({ length: d / 2 }, (_, i) => b ** (-(2 * i) / d));
    const s = c.rope_scaling;
    let want = base, att = 1;
    if (s && (s.rope_type ?? s.type) === 'llama3') {
      const lo = s.original_max_position_embeddings / s.low_freq_factor, hi = s.original_max_position_embeddings / s.high_freq_factor;
      want = base.map((th) => {
        const wl = (2 * Math.PI) / th;
        if (wl < hi) return th;
        if (wl > lo) return th / s.factor;
        const sm = (s.original_max_position_embeddings / wl - s.low_freq_factor) / (s.high_freq_factor - s.low_freq_factor);
        return (1 - sm) * (th / s.factor) + sm * th;
      });
      assert.deepEqual([r.llama3_bands.high_freq_wavelen, r.llama3_bands.low_freq_wavelen], [hi, lo]);
    } else if (s && (s.rope_type ?? s.type) === 'longrope') {
      // original length: the top-level one (Phi-3) before the dict's; factor = max / original
      const orig = c.original_max_position_embeddings ?? s.original_max_position_embeddings;
      const factor = c.max_position_embeddings / orig;
      att = factor <= 1 ? 1 : Math.sqrt(1 + Math.log(factor) / Math.log(orig));
      want = base.map((th, i) => th / s.short_factor[i]);
      assert.equal(r.longrope_factors, 'short');
      const l = pe.ropeFromConfig(text, { seq_len: orig + 1 });
      for (let i = 0; i < d / 2; i++) assert.ok(Math.abs(l.inv_freq[i] - base[i] / s.long_factor[i]) <= 1e-12 * l.inv_freq[i], `long[${i}]`);
    } else {
      assert.equal(s ?? null, null);
      assert.equal(r.rope_type, 'default');
    }
    assert.equal(r.rope_type, s ? (s.rope_type ?? s.type) : 'default');
    for (let i = 0; i < d / 2; i++) assert.ok(Math.abs(r.inv_freq[i] - want[i]) <= 1e-12 * want[i], `inv_freq[${i}]`);
    assert.ok(Math.abs(r.attention_scaling - att) < 1e-15);
  });
}

test('not-rope/gpt2.json: a model without RoPE is an error naming model_type, not an invented RoPE', () => {
  const text = readFileSync(new URL('not-rope/gpt2.json', dir), 'utf8');
  assert.throws(() => pe.ropeFromConfig(text), (e) => e.name === 'PosencError' && /^model_type: 'gpt2' uses learned absolute positions, not RoPE/.test(e.message));
});
